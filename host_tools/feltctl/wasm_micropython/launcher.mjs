// Runs one firmware module inside the 32-bit MicroPython WebAssembly port (npm package
// @micropython/micropython-webassembly-pyscript) under node -- host tools; driven by
// feltctl/wasm_micropython/__init__.py, which builds this command line and enforces the deadline.
//
//   node launcher.mjs --package DIR --heap BYTES [--pystack WORDS] [--romfs IMAGE] [--fixed-heap]
//        [--copy HOST=GUEST]... [--path P]... [--cwd GUEST] [--builtin NAME]... --module NAME [-- ARG...]
//
// The module's main(argv) is called (or the module imported, if it has none). Exit status: what
// main returned (None -> 0), SystemExit's code, 3 after an uncaught exception (printed on stderr).
//
// Why main may be a generator: this port cannot scan its own C stack (WebAssembly locals are not
// in linear memory), so gc.collect() only *requests* a collection; it happens at the next entry
// from JS into the VM, and an allocation that finds no room inside a call grows the heap (a new
// area from malloc) instead of raising MemoryError. A generator main is stepped from here: one
// JS->VM entry a step, gc.collect() requested after each, so garbage is collected between steps.
// --fixed-heap: the heap must never grow; the first step during which it did is reported as
// "MemoryError" (exit 3) -- what a board with that heap would have raised (at the latest).
// --builtin NAME: `import NAME` gives the port's built-in C module (reached as uNAME) instead of the
// micropython-lib Python package of that name this variant freezes over it (collections, binascii:
// built in, no RAM, on a Pico's MicroPython; the emulated board, feltctl.wasm_micropython.run_board).
//
// Two VMs (--board-heap BYTES --board-module NAME [--board-romfs IMAGE] [--board-builtin NAME]...
// [--board-fixed]): a second MicroPython in this process, the BOARD, with its own GC heap and ROM
// partition, beside the first (the WORLD, which runs --module's main as above). The npm package
// keeps its proxy state in globals (Module, proxy_js_ref...), so every call from one VM into the
// other swaps those globals to the callee's set and back (re-entrant: board -> world -> board
// nests). The VMs reach each other only through two JS modules, with small ints as arguments and
// results (addresses, lengths, op codes: no allocation in the caller's heap); bytes are copied
// between the two heaps' memories here. The board module calls wire.attach(call, mailbox_addr,
// size) at import; the world's code calls board.attach(spi, call, mailbox_addr, size).
// --board-copy HOST=GUEST and --board-cwd GUEST: files put into the board VM's own file system (its
// flash: the data root, keys and signed slot of a board booted by felt.runtime.app) and its working
// folder (the slot it runs from), as --copy / --cwd do for the world.
//   board side, JS module `wire`: attach, pin_set(n, v), pin_get(n), pin_irq(n, edges: 1 falling,
//     2 rising), spi(bus, out_addr, in_addr, n), call(op, a, b), put(op, a, addr, n) (n bytes to
//     the world's mailbox first), get(op, a, addr, cap) (the world's answer: k bytes of its
//     mailbox, copied to addr), give(addr, n) (a board answer's bytes, for the world's bget),
//     urandom(addr, n) (n bytes from node's crypto at addr: the board's true entropy source, what
//     os.urandom reads from the RP2040's ring oscillator; this port has no os.urandom),
//     flash(op, offset, addr, n) (the board's raw flash, FLASH_BYTES erased at start, kept here
//     outside both heaps: op 0 reads n bytes at offset to addr, 1 programs them (NOR: bits only
//     go 1 -> 0), 2 erases n bytes at offset).
//   The world's spi(bus, n, line) gets the line of the 74HC154 the board's pins select (-1: /E high),
//   decoded here from the levels the board drove on the pins the world named with board.decoder().
//   world side, JS module `board`: attach, call(op, a, b) -> the board's call(op, a, b, 0), put(op,
//     a, n) (n bytes of the world's mailbox to the board's first), decoder(enable, a0, a1, a2, a3)
//     (the decoder's pins: /E, then the address pins), get(op, a) -> k (the bytes the
//     board gave, copied to the world's mailbox), drive(n, level) (the outside world drives input
//     pin n: the board's handler runs on a matching edge, op 2), level(n), heap() -> [in use, heap
//     bytes, highest in use after a board entry, board entries, board steps].
// After every entry into the board its heap is probed (the entry's garbage is collected then: the
// board's code calls gc.collect() before returning); with --board-fixed, a heap that grew is
// reported as "MemoryError ... in board step N" (exit 3): what a board with that heap would have
// raised, at the latest. Op 1 is the board's main-loop step (counted).
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";
import { randomFillSync } from "crypto";

const SPLIT = 134217728; // gc.mem_free() adds the port's max new split (128 MB) to the free bytes
const FLASH_BYTES = 1441792; // rp2's storage region on a Pico (1408 KB): board_app.Flash

function usage(msg) {
  fs.writeSync(2, "launcher: " + msg + "\n");
  process.exit(2);
}

const opt = { copy: [], path: [], builtin: [], heap: 0, pystack: 8192, fixed: false, argv: [],
  boardBuiltin: [], boardHeap: 0, boardFixed: false, boardCopy: [] };
const av = process.argv.slice(2);
for (let i = 0; i < av.length; i++) {
  const a = av[i];
  const val = () => (i + 1 < av.length ? av[++i] : usage(a + " needs a value"));
  if (a === "--") { opt.argv = av.slice(i + 1); break; }
  else if (a === "--package") opt.pkg = val();
  else if (a === "--heap") opt.heap = parseInt(val(), 10);
  else if (a === "--pystack") opt.pystack = parseInt(val(), 10);
  else if (a === "--romfs") opt.romfs = val();
  else if (a === "--fixed-heap") opt.fixed = true;
  else if (a === "--copy") opt.copy.push(val());
  else if (a === "--path") opt.path.push(val());
  else if (a === "--cwd") opt.cwd = val();
  else if (a === "--builtin") opt.builtin.push(val());
  else if (a === "--module") opt.module = val();
  else if (a === "--board-heap") opt.boardHeap = parseInt(val(), 10);
  else if (a === "--board-romfs") opt.boardRomfs = val();
  else if (a === "--board-builtin") opt.boardBuiltin.push(val());
  else if (a === "--board-module") opt.boardModule = val();
  else if (a === "--board-fixed") opt.boardFixed = true;
  else if (a === "--board-copy") opt.boardCopy.push(val());
  else if (a === "--board-cwd") opt.boardCwd = val();
  else usage("unknown argument " + a);
}
if (!opt.pkg || !opt.module || !(opt.heap > 0)) usage("--package, --module and --heap are required");
if (opt.boardHeap > 0 && !opt.boardModule) usage("--board-heap needs --board-module");

function writer(fd) {
  return (line) => fs.writeSync(fd, line + "\n");
}

const { loadMicroPython } = await import(pathToFileURL(path.join(opt.pkg, "micropython.mjs")).href);
const load = { heapsize: opt.heap, pystack: opt.pystack, stdout: writer(1), stderr: writer(2), linebuffer: true };
if (opt.romfs) load.romfs = fs.readFileSync(opt.romfs); // a ROM partition: malloc'd, outside the GC heap
const mp = await loadMicroPython(load);
// the package's proxy state, one set per VM (swapped around every cross-VM call)
const GLOBALS = ["Module", "proxy_js_ref", "proxy_js_ref_next", "proxy_js_ref_map", "proxy_js_map",
  "proxy_js_existing", "pyProxyFinalizationRegistry"];
const saveGlobals = () => Object.fromEntries(GLOBALS.map((k) => [k, globalThis[k]]));
const restoreGlobals = (g) => { for (const k of GLOBALS) globalThis[k] = g[k]; };
const worldGlobals = saveGlobals();

function flush() { // a last line without its newline
  const m = mp._module;
  for (const [buf, fd] of [[m._stdoutBuffer, 1], [m._stderrBuffer, 2]]) {
    if (buf && buf.length) { fs.writeSync(fd, Buffer.from(buf)); buf.length = 0; }
  }
}

function copyTree(host, guest, FS = mp.FS, all = false) { // all: dot files too (a board's file system)
  const st = fs.statSync(host);
  if (st.isDirectory()) {
    FS.mkdirTree(guest);
    for (const name of fs.readdirSync(host).sort()) {
      if (!all && (name === "__pycache__" || name.startsWith("."))) continue;
      copyTree(path.join(host, name), guest + "/" + name, FS, all);
    }
  } else {
    FS.mkdirTree(path.posix.dirname(guest));
    FS.writeFile(guest, fs.readFileSync(host));
  }
}
function copyAll(list, FS, all) {
  for (const c of list) {
    const k = c.indexOf("=");
    copyTree(k < 0 ? c : c.slice(0, k), k < 0 ? c : c.slice(k + 1), FS, all);
  }
}
copyAll(opt.copy, mp.FS);
if (opt.cwd) { mp.FS.mkdirTree(opt.cwd); mp.FS.chdir(opt.cwd); }

// The Python side: as few names as possible (each is RAM in the qstr pool, as in romfs._LAUNCHER).
const args = mp.globals;
args.set("_fa", [opt.module].concat(opt.argv));
args.set("_fp", opt.path.length ? opt.path : ["/rom", ".frozen"]);
args.set("_fb", opt.builtin);
if (opt.cwd) { // MicroPython's VFS keeps its own working folder: set it there too
  args.set("_fc", opt.cwd);
  mp.runPython("import os\nos.chdir(str(_fc))\ndel _fc");
}
mp.runPython(`
import gc,sys
sys.path[:]=[str(x) for x in _fp]
sys.argv[:]=[str(x) for x in _fa]
for _fn in _fb:
 sys.modules[str(_fn)]=__import__('u'+str(_fn))
del _fa,_fp,_fb
_fg=None
_ft=0
def _fs():
 global _fg
 if _ft and gc.mem_alloc()+gc.mem_free()>_ft:
  return -2
 try:
  if _fg is None:
   __import__(sys.argv[0])
   m=sys.modules[sys.argv[0]]
   r=m.main(sys.argv[1:]) if hasattr(m,'main') else 0
   if hasattr(r,'send'):
    _fg=r
    gc.collect()
    return -1
   return 0 if r is None else r
  next(_fg)
  gc.collect()
  return -1
 except StopIteration:
  return 0
 except SystemExit as e:
  c=e.args[0] if e.args else 0
  return 0 if c is None else c
 except BaseException as e:
  sys.print_exception(e,sys.stderr)
  return 3
def _fh():
 return gc.mem_alloc()+gc.mem_free()
`);

// -- the second VM: the board -------------------------------------------------------------------
let board = null;
if (opt.boardHeap > 0) board = await loadBoard();

async function loadBoard() {
  const bload = { heapsize: opt.boardHeap, pystack: opt.pystack, stdout: writer(1), stderr: writer(2), linebuffer: true };
  if (opt.boardRomfs) bload.romfs = fs.readFileSync(opt.boardRomfs);
  const bmp = await loadMicroPython(bload);
  const B = { mp: bmp, g: saveGlobals(), call: null, mb: 0, mbSize: 0, probe: null, total0: 0, high: 0,
    entries: 0, steps: 0, levels: new Uint8Array(64), edges: new Uint8Array(64), given: [0, 0],
    world: { spi: null, call: null, mb: 0, mbSize: 0, decoder: null } };
  restoreGlobals(worldGlobals);
  const inWorld = (f) => { const prev = saveGlobals(); restoreGlobals(worldGlobals); try { return f(); } finally { restoreGlobals(prev); } };
  const W = B.world;
  const bheap = () => bmp._module.HEAPU8;
  const wheap = () => mp._module.HEAPU8;
  const toWorld = (addr, n) => { if (n > W.mbSize) throw new Error("board->world: " + n + " bytes > mailbox"); wheap().set(bheap().subarray(addr, addr + n), W.mb); };
  inBoard(() => {
    bmp.registerJsModule("wire", {
      attach: (call, addr, size) => { B.call = call; B.mb = addr; B.mbSize = size; return 0; },
      pin_set: (n, v) => { B.levels[n] = v ? 1 : 0; return 0; },
      pin_get: (n) => B.levels[n],
      pin_irq: (n, edges) => { B.edges[n] = edges; return 0; },
      spi: (bus, outAddr, inAddr, n) => {
        toWorld(outAddr, n);
        let line = -1; // the decoder line the pins select (/E low), read here: no world call per pin
        const d = W.decoder;
        if (d && !B.levels[d[0]]) {
          line = 0;
          for (let i = 1; i < d.length; i++) line |= B.levels[d[i]] << (i - 1);
        }
        inWorld(() => W.spi(bus, n, line));
        bheap().set(wheap().subarray(W.mb + 256, W.mb + 256 + n), inAddr);
        return 0;
      },
      call: (op, a, b) => inWorld(() => W.call(op, a, b, 0)),
      put: (op, a, addr, n) => { toWorld(addr, n); return inWorld(() => W.call(op, a, 0, n)); },
      get: (op, a, addr, cap) => {
        const k = inWorld(() => W.call(op, a, cap, 0));
        if (k > 0) bheap().set(wheap().subarray(W.mb, W.mb + k), addr);
        return k;
      },
      give: (addr, n) => { B.given[0] = addr; B.given[1] = n; return 0; },
      urandom: (addr, n) => { randomFillSync(bheap().subarray(addr, addr + n)); return n; },
      flash: (op, off, addr, n) => {
        if (!B.flash) B.flash = new Uint8Array(FLASH_BYTES).fill(0xff);
        if (off < 0 || off + n > FLASH_BYTES) throw new Error("flash: " + n + " bytes at " + off + " outside it");
        if (op === 0) bheap().set(B.flash.subarray(off, off + n), addr);
        else if (op === 1) { const h = bheap(); for (let i = 0; i < n; i++) B.flash[off + i] &= h[addr + i]; }
        else B.flash.fill(0xff, off, off + n);
        return 0;
      },
    });
    copyAll(opt.boardCopy, bmp.FS, true);
    bmp.globals.set("_fp", opt.boardRomfs ? ["/rom"] : ["/rom", ".frozen"]);
    bmp.globals.set("_fb", opt.boardBuiltin);
    bmp.globals.set("_fm", opt.boardModule);
    bmp.runPython(`
import gc,sys
sys.path[:]=[str(x) for x in _fp]
for _fn in _fb:
 sys.modules[str(_fn)]=__import__('u'+str(_fn))
del _fp,_fb
def _fh():
 return gc.mem_alloc()+gc.mem_free()
def _fa():
 return gc.mem_alloc()
`);
    if (opt.boardCwd) { // after the built-in modules are bound: `os` is the C one where --board-builtin os
      bmp.FS.mkdirTree(opt.boardCwd);
      bmp.FS.chdir(opt.boardCwd);
      bmp.globals.set("_fc", opt.boardCwd); // MicroPython's VFS keeps its own working folder
      bmp.runPython("import os\nos.chdir(str(_fc))\ndel _fc,os");
    }
    B.probe = bmp.globals.get("_fh");
    B.alloc = bmp.globals.get("_fa");
    B.total0 = B.probe() - SPLIT;
    bmp.runPython("__import__(str(_fm))\ndel _fm\ngc.collect()");
    B.high = B.alloc();
  });
  if (!B.call) usage("board module " + opt.boardModule + " did not call wire.attach");

  function enter(f, step) { // one entry into the board from JS, then its heap checked
    const r = inBoard(f);
    inBoard(() => {
      B.entries += 1;
      const used = B.alloc(); // this entry runs the collection the step requested: live after a step
      if (step && used > B.high) B.high = used;
      const total = B.probe() - SPLIT;
      if (opt.boardFixed && total > B.total0) {
        restoreGlobals(worldGlobals);
        flush();
        fs.writeSync(2, `MemoryError: the board's ${opt.boardHeap}-byte heap (${B.total0} bytes of blocks) ran out in ` +
          `board step ${B.steps} (entry ${B.entries}; the port grew it to ${total} bytes; it collects only between entries)\n`);
        process.exit(3);
      }
    });
    return r;
  }
  function boardCall(op, a, b, n) {
    if (op === 1) B.steps += 1;
    return enter(() => B.call(op, a, b, n), op === 1);
  }
  mp.registerJsModule("board", {
    attach: (spi, call, addr, size) => { W.spi = spi; W.call = call; W.mb = addr; W.mbSize = size; return 0; },
    call: (op, a, b) => boardCall(op, a, b, 0),
    put: (op, a, n) => {
      if (n > B.mbSize) throw new Error("world->board: " + n + " bytes > the board's mailbox");
      bheap().set(wheap().subarray(W.mb, W.mb + n), B.mb);
      return boardCall(op, a, 0, n);
    },
    get: (op, a) => {
      B.given[1] = 0;
      const r = inBoard(() => B.call(op, a, 0, 0)); // copied before the next entry collects it
      const k = B.given[1];
      if (k > W.mbSize) throw new Error("board->world: " + k + " bytes > the world's mailbox");
      wheap().set(bheap().subarray(B.given[0], B.given[0] + k), W.mb);
      enter(() => 0);
      return r < 0 ? r : k;
    },
    drive: (n, level) => {
      const old = B.levels[n];
      level = level ? 1 : 0;
      B.levels[n] = level;
      const e = B.edges[n];
      if (old !== level && ((level === 0 && (e & 1)) || (level === 1 && (e & 2)))) return boardCall(2, n, level, 0);
      return 0;
    },
    level: (n) => B.levels[n],
    decoder: (enable, a0, a1, a2, a3) => { W.decoder = [enable, a0, a1, a2, a3].filter((x) => x !== undefined && x !== null); return 0; },
    heap: () => inBoard(() => [B.alloc(), B.probe() - SPLIT, B.high, B.entries, B.steps]),
    reset_high: () => { B.high = inBoard(() => B.alloc()); return B.high; },
  });
  return B;

  function inBoard(f) { const prev = saveGlobals(); restoreGlobals(B.g); try { return f(); } finally { restoreGlobals(prev); } }
}

const step = mp.globals.get("_fs");
const probe = mp.globals.get("_fh");
const total0 = probe() - SPLIT;
if (opt.fixed) mp.globals.set("_ft", total0 + SPLIT); // _fs checks at its entry: the step before grew it
let n = 0;
let rc;
for (;;) {
  rc = step(); // on its return to JS the port runs the collection the step requested
  if (rc === -2) break;
  n += 1;
  if (rc !== -1) {
    if (opt.fixed && probe() - SPLIT > total0) rc = -2; // the last step
    break;
  }
}
if (rc === -2) {
  flush();
  fs.writeSync(2, `MemoryError: the ${opt.heap}-byte heap (${total0} bytes of blocks) ran out in step ${n}` +
    ` (the port grew it to ${probe() - SPLIT} bytes; it collects only between steps)\n`);
  process.exit(3);
}
flush();
process.exit(typeof rc === "number" ? rc : (rc ? 1 : 0));
