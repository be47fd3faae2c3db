// The dashboard and the overlay in a real browser (tests/host/test_room_browser.py runs this under
// node): Debian's Chromium driven by playwright-core (never its own browser download). Opens the
// dashboard, waits for the table's proposal, screenshots the table, clicks Confirm, waits for the
// proposal to go, shows the table's audit trail; opens the overlay, waits for the revealed hand; prints one JSON line.
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");

const [base, outDir] = process.argv.slice(2);
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];

(async () => {
  const profile = fs.mkdtempSync(path.join(outDir, "profile-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium", headless: true, args: FLAGS, viewport: { width: 1200, height: 800 } });
  const out = {};
  try {
    const page = await ctx.newPage();
    await page.goto(base + "/");
    await page.waitForSelector("#t-t1 .proposal button.confirm", { timeout: 20000 });
    await page.waitForSelector("#t-t1 .light", { timeout: 5000 });
    out.dashboardText = await page.locator("#t-t1").innerText();
    out.pageText = await page.locator("body").innerText();
    await page.locator("#t-t1").screenshot({ path: path.join(outDir, "dashboard.png") });
    await page.locator("#t-t1 .proposal button.confirm").first().click();
    await page.waitForSelector("#t-t1 .proposal", { state: "detached", timeout: 20000 });
    out.proposalGone = true;
    out.afterText = await page.locator("#t-t1").innerText();
    // the table's audit trail (issue 15 item 3): pick the table, show it, wait for the floor's ruling
    await page.waitForSelector("#auditTable option[value='t1']", { state: "attached", timeout: 10000 });
    await page.selectOption("#auditTable", "t1");
    await page.click("#auditLoad");
    await page.waitForFunction(() => /ruling \d+ confirm/.test(document.getElementById("audit").innerText), null,
      { timeout: 20000 });
    out.auditText = await page.locator("#audit").innerText();
    const overlay = await ctx.newPage();
    await overlay.goto(base + "/overlay?table=t1");
    await overlay.waitForSelector(".rv", { timeout: 20000 });
    await overlay.waitForFunction(() => document.getElementById("players").children.length > 0, null, { timeout: 10000 });
    out.overlayText = await overlay.locator("body").innerText();
    await overlay.screenshot({ path: path.join(outDir, "overlay.png") });
  } catch (e) {
    out.error = String(e);
  } finally {
    await ctx.close();
  }
  console.log(JSON.stringify(out));
})();
