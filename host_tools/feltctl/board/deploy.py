# Host side of `feltctl flash` (host tools): builds the tree to deploy (optionally precompiled by
# mpy-cross), diffs it against the board's manifest, sends only what changed (zlib, as raw bytes
# under window flow control) and has felt/deploy_agent.py on the board stage, verify, activate.
# Every step and its bytes are described in hardware/flashing.md.
import base64
import concurrent.futures
import hashlib
import json
import os
import subprocess
import tempfile
import time
import zlib

from felt import deploy_agent
from felt.errors import FeltError
from feltctl.paths import FIRMWARE, mpy_cross_binary
from feltctl.board.transport import DeviceError

AGENT_FILE = os.path.join(FIRMWARE, "felt", "deploy_agent.py")
LOADER_FILE = os.path.join(FIRMWARE, "boot.py")
# The board looks boot.py and main.py up by name, as .py; felt/__init__.py (a VERSION line) stays
# source so the deploy agent can still read the version `feltctl info` shows after an --mpy deploy.
KEEP_AS_SOURCE = ("boot.py", "main.py", "felt/__init__.py")
AGENT_SILENCE_S = deploy_agent.SILENCE_MS / 1000.0  # the board gives up a file whose bytes stopped
WINDOW = 128          # raw file bytes per flow-control grant (half a 256-byte stdin buffer)
WBITS = 10            # 1 KB deflate window: the board inflates a received file with 1 KB of RAM; 2%
                      # more bytes on the wire than a 4 KB window for today's firmware (278 vs 272 KB)


class DeployError(FeltError):
    """A deploy step failed; the board still boots the firmware it booted before."""


class FlashFull(DeployError):
    """The board's filesystem has no room (it must hold the active and the staged tree)."""


class DeployInterrupted(DeployError):
    """Ctrl-C during a deploy, cleaned up after: the message says what the board boots (exit 130)."""
    interrupted = True


class HashMismatch(DeployError):
    """What the board stored differs from what was sent (bad link, bad flash)."""


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def tree_hash(entries):
    """Same as deploy_agent.tree_hash: one SHA-256 over `path\\0size\\0sha\\n` lines in path order."""
    h = hashlib.sha256()
    for rel, size, digest in entries:
        h.update(("%s\0%d\0%s\n" % (rel, size, digest)).encode())
    return h.hexdigest()


def _skip(name):
    return name.startswith(".") or name == "__pycache__" or name.endswith((".pyc", "~", ".swp"))


class Tree:
    """The files to deploy: relative path -> bytes, with their manifest and tree hash."""

    def __init__(self, files):
        self.files = dict(sorted(files.items()))
        self.entries = [(rel, len(data), sha256_hex(data)) for rel, data in self.files.items()]
        self.hash = tree_hash(self.entries)

    @property
    def size(self):
        return sum(e[1] for e in self.entries)


def build_tree(src=FIRMWARE, mpy=False):
    """Every file under src (skipping caches and hidden files); with mpy=True each module except
    boot.py/main.py is precompiled to .mpy, which loads without the compiler's RAM peak."""
    if not os.path.isdir(src):
        raise DeployError("%s is not a firmware tree (no such folder)" % src)
    files = {}
    sources = []
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if not _skip(d))
        for name in sorted(names):
            if _skip(name):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            if mpy and rel.endswith(".py") and rel not in KEEP_AS_SOURCE:
                sources.append((rel, path))
            else:
                with open(path, "rb") as f:
                    files[rel] = f.read()
    if sources:
        with tempfile.TemporaryDirectory() as tmp:
            with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
                for rel, data in pool.map(lambda job: _mpy_cross(job[0], job[1], tmp), sources):
                    files[rel[:-3] + ".mpy"] = data
    return Tree(files)


# Modules a board never runs (issue 18 item 2): the simulated table and self-play (host tools run
# them from the repository), the Raspberry Pi HAL (a Pi installs with install.sh). The simulated
# chips (felt/hal/sim/) go only to a board whose MicroPython is the unix port -- the simulated board,
# whose `machine` has no Pin or SPI (board.json "hal": "sim"). felt.runtime.app.open_hal imports the
# HAL that board.json names, and only that one; tests/host/test_flash_fit.py checks that no shipped
# module imports a left-out one.
NOT_ON_A_BOARD = ("felt/sim/", "felt/history/selfplay.", "felt/history/replay_main.", "felt/hal/rpi_hal.")
SIM_HAL = "felt/hal/sim/"
SIM_PLATFORMS = ("linux", "darwin")  # sys.platform of MicroPython's unix port


def for_board(tree, platform):
    """The part of a firmware tree a board with this sys.platform runs."""
    skip = NOT_ON_A_BOARD + (() if platform in SIM_PLATFORMS else (SIM_HAL,))
    return Tree(dict((rel, data) for rel, data in tree.files.items() if not rel.startswith(skip)))


class Build:
    """A firmware tree whose files depend on the board (for_board): deploy() asks the board its
    sys.platform, then ships `finish(for_board(full, platform))` (finish: e.g. signing)."""

    def __init__(self, full, finish=None):
        self.full = full
        self.files = full.files  # the agent's copies, for connect()
        self.finish = finish or (lambda tree: tree)

    def for_platform(self, platform):
        return self.finish(for_board(self.full, platform))


def blocks(n, block):
    return deploy_agent.lfs_file_blocks(n, block) * block


def space_needed(tree, block, uploads):
    """Bytes the staging slot takes on the board's littlefs2 (deploy_agent.lfs_tree_blocks: files in
    whole blocks or inlined, a metadata pair a folder; checked against MicroPython's own littlefs in
    tests/host/test_flash_fit.py), plus the largest upload's temporary .z and .tmp copies, and the
    marker and pointer files written at the end."""
    sizes = dict((rel, len(data)) for rel, data in tree.files.items())
    slot = deploy_agent.lfs_tree_blocks(sizes, block) * block
    peak = max([blocks(len(_zlib(data)), block) + blocks(len(data), block) for _, data in uploads] or [0])
    return slot + peak + 2 * block


# Packed slots (hardware/flashing.md "Packed slots"): a board whose flash cannot hold two slots of
# plain files and DATA_RESERVE for its journal, audit log and hand files beside them (a 2 MB Pico:
# 1408 KB of littlefs, ~736 KB a slot) gets each slot as one pack file (~424 KB). Bigger boards keep
# plain files (nothing to mount at boot).
DATA_RESERVE = 256 * 1024
PACK_INDEX_LINE = 90  # bytes of a pack's index line besides the path: size, sha256 hex, offset


def use_pack(tree, hello):
    """Whether this deploy writes a packed slot: the agent can, and two plain slots plus
    DATA_RESERVE do not fit the board's file system."""
    block, total = hello.get("block"), hello.get("total", -1)
    if not hello.get("pack") or not block or total <= 0:
        return False
    plain = deploy_agent.lfs_tree_blocks(dict((rel, len(d)) for rel, d in tree.files.items()), block) * block
    return 2 * plain + DATA_RESERVE > total


def pack_size(tree):
    """Bytes of the pack file of a tree: every file's bytes, the index and the footer."""
    return sum(len(d) + len(rel) + PACK_INDEX_LINE for rel, d in tree.files.items()) + 16


def pack_space_needed(tree, block):
    """Bytes a packed staging slot takes at its peak: the pack and its index being written (the
    index is appended to the pack at the end), the largest member's received zlib bytes, the
    slot's folder, the marker and the pointer."""
    index = sum(len(rel) + PACK_INDEX_LINE for rel in tree.files)
    files = {"pack": pack_size(tree), "index": index, ".felt-ok": 64,
             "member.z": max([len(_zlib(d)) for d in tree.files.values()] or [0])}
    return deploy_agent.lfs_tree_blocks(files, block) * block + 2 * block


def _mpy_cross(rel, path, tmp):
    out = os.path.join(tmp, rel.replace("/", "__") + ".mpy")
    done = subprocess.run([mpy_cross_binary(), "-o", out, "-s", rel, path],
                          capture_output=True, text=True, timeout=60)
    if done.returncode:
        raise DeployError("mpy-cross failed on %s: %s" % (rel, done.stderr.strip()))
    with open(out, "rb") as f:
        return rel, f.read()


def mpy_cross_version():
    """(major, minor) of the .mpy format mpy-cross emits, from `mpy-cross --version`."""
    out = subprocess.run([mpy_cross_binary(), "--version"], capture_output=True, text=True, timeout=30).stdout
    tail = out.rsplit("mpy v", 1)[-1].strip()
    major, minor = tail.split(".")[:2]
    return int(major), int(minor)


class Plan:
    """What a deploy changes on the board: paths added, changed, removed and kept."""

    def __init__(self, tree, device_manifest):
        have = {rel: (size, digest) for rel, size, digest in device_manifest or []}
        self.added = [e[0] for e in tree.entries if e[0] not in have]
        self.changed = [e[0] for e in tree.entries if e[0] in have and have[e[0]] != (e[1], e[2])]
        self.kept = [e[0] for e in tree.entries if have.get(e[0]) == (e[1], e[2])]
        self.removed = sorted(set(have) - set(tree.files))

    @property
    def empty(self):
        return not (self.added or self.changed or self.removed)

    def lines(self, tree):
        out = ["+ %s (%d bytes)" % (rel, len(tree.files[rel])) for rel in self.added]
        out += ["~ %s (%d bytes)" % (rel, len(tree.files[rel])) for rel in self.changed]
        out += ["- %s" % rel for rel in self.removed]
        return out


def _zlib(data):
    """zlib with a small window: what the board's `deflate.DeflateIO` undoes in 4 KB of RAM."""
    c = zlib.compressobj(9, zlib.DEFLATED, WBITS)
    return c.compress(data) + c.flush()


def _blob(data):
    """zlib then base64, for data inside a command (path lists, the pasted agent)."""
    return base64.b64encode(_zlib(data)).decode()


def _paths_blob(paths):
    return _blob("\n".join(paths).encode()) if paths else ""


PASTE_PIECE = 6000  # bytes of agent source compiled at once: the compiler's peak fits a 160 KB heap


def agent_pieces(source, limit=PASTE_PIECE):
    """The agent's source cut before top-level `def`/`class` lines into pieces of about `limit`
    bytes, each executed on its own into the REPL's globals: compiled whole, the agent's 26 KB of
    source needed more heap than a Pico-sized one has (MemoryError on a 160 KB heap)."""
    pieces, cur = [], b""
    for line in source.splitlines(True):
        if cur and len(cur) >= limit and line.startswith((b"def ", b"class ")):
            pieces.append(cur)
            cur = b""
        cur += line
    return pieces + [cur] if cur else pieces


class Report:
    def __init__(self):
        self.tree = None
        self.up_to_date = False
        self.plan = None
        self.active = None
        self.previous = None
        self.bytes_sent = 0
        self.seconds = 0.0
        self.loader_updated = False
        self.loader_ok = True
        self.copied = 0
        self.packed = False


class Deployer:
    """Runs deploy / rollback / info on a board through an open feltctl Transport."""

    def __init__(self, transport, progress=None, work_timeout_s=None):
        self.t = transport
        self.progress = progress
        # Hashing or copying a whole tree on a real board's flash can take many seconds of
        # silence; only those commands get this longer deadline.
        self.work_timeout_s = work_timeout_s or max(30.0, 10 * transport.timeout_s)
        self.agent_pasted = False

    # ---- talking to the agent ----------------------------------------------------------
    def call(self, code, timeout_s=None, feed=None, progress=None):
        try:
            if feed is None:
                out = self.t.exec(code, timeout_s)
            else:
                out = self.t.exec_feed(code, feed, WINDOW, timeout_s, progress)
        except DeviceError as e:
            raise self._explain(e)
        for line in reversed(out.decode("utf-8", "replace").splitlines()):
            if line.startswith("FELT "):
                return json.loads(line[5:])
        return None

    @staticmethod
    def _explain(e):
        text = e.traceback
        if "ENOSPC" in text or "Errno 28" in text or "OSError: 28" in text:
            return FlashFull("the board's flash is full (%s); a deploy needs room for the active tree "
                             "and the staged one -- remove data files or deploy with --mpy" % e.last)
        if "hash mismatch" in text or "does not verify" in text:
            return HashMismatch(e.last.replace("ValueError: felt-deploy: ", ""))
        if "felt-deploy:" in text:
            return DeployError(e.last.replace("ValueError: felt-deploy: ", ""))
        return e

    def connect(self, tree=None):
        """Raw REPL with a clean heap, and the agent: the board's own copy if it is the same
        code as ours, else ours pasted in compressed (first flash, or the agent changed)."""
        self.t.enter_raw(soft_reset=True)
        known = {sha256_hex(open(AGENT_FILE, "rb").read())}
        if tree is not None:
            for rel in ("felt/deploy_agent.py", "felt/deploy_agent.mpy"):
                if rel in tree.files:
                    known.add(sha256_hex(tree.files[rel]))
        try:
            have = self.call("try:\n from felt.deploy_agent import *\n import felt.deploy_agent as _a\n"
                             " answer(file_hash(_a.__file__)[1])\nexcept ImportError:\n print('FELT null')\n")
        except DeviceError:
            have = None
        if have not in known:
            with open(AGENT_FILE, "rb") as f:
                source = f.read()
            for piece in agent_pieces(source):
                self.call("import deflate,io,binascii\nexec(deflate.DeflateIO(io.BytesIO(binascii.a2b_base64("
                          "'%s')),deflate.ZLIB).read())\n" % _blob(piece))
            self.agent_pasted = True

    # ---- deploy ----------------------------------------------------------------------------
    def deploy(self, tree, dry_run=False, loader=LOADER_FILE, reset=True, layout=None):
        """layout: None (packed when the board needs it: use_pack), "pack" or "files"."""
        try:
            return self._deploy(tree, dry_run, loader, reset, layout)
        except KeyboardInterrupt:
            raise self._interrupted(reset)

    def _interrupted(self, reset):
        """Ctrl-C in the middle of a deploy (issue 18 item 3): stop the board's command (the
        agent gives up a file whose bytes stopped after deploy_agent.SILENCE_MS), free the
        unfinished slot, restart the firmware; a second Ctrl-C leaves that to the board (its
        deadline, then reclaim at its next boot)."""
        try:
            self.t.recover(AGENT_SILENCE_S + self.t.timeout_s)
            r = self.call("abandon()", self.work_timeout_s)
            if reset:
                self.t.soft_reset_to_friendly()
        except FeltError as e:
            return DeployInterrupted("interrupted; the board did not answer the clean-up (%s): it gives up the "
                                     "file by itself within %.0f s and frees the unfinished slot at its next boot; "
                                     "`feltctl info PORT` shows its state" % (e, AGENT_SILENCE_S))
        freed = ", ".join("%s (%d bytes)" % (folder, n) for folder, n in r["freed"]) or "nothing to free"
        return DeployInterrupted("interrupted: deploy stopped, %s; the board boots slot %s as before%s" % (
            "freed " + freed if r["freed"] else freed, r["active"] or "-",
            "" if reset else " (left in the raw REPL: --no-reset)"))

    def _deploy(self, tree, dry_run, loader, reset, layout):
        start = time.monotonic()
        sent0 = self.t.bytes_out
        report = Report()
        self.connect(tree)
        if isinstance(tree, Build):
            tree = tree.for_platform(self.call("answer(sys.platform)"))
        report.tree = tree
        hello = self.call("hello(%r)" % tree.hash, self.work_timeout_s)
        if tree_has_mpy(tree) and hello.get("mpy"):
            _check_mpy(hello["mpy"])
        with open(loader, "rb") as f:
            loader_bytes = f.read()
        loader_ok = hello.get("boot") == sha256_hex(loader_bytes)
        report.plan = plan = Plan(tree, hello["manifest"] if hello["manifest"] is not None else tree.entries)
        report.active, report.previous = hello["active"], hello["previous"]
        report.packed = packed = use_pack(tree, hello) if layout is None else layout == "pack"
        if packed and not hello.get("pack"):
            raise DeployError("this board's deploy agent cannot write a packed slot")
        if hello["active"] and packed != (hello.get("layout") == "pack") and (layout or not plan.empty):
            # a new layout (asked for, or chosen for a changed tree): every file is sent
            plan = report.plan = Plan(tree, [])
        if dry_run or (plan.empty and hello["active"] and loader_ok):
            report.up_to_date = plan.empty and bool(hello["active"]) and loader_ok
            if reset:
                self.t.soft_reset_to_friendly()
            report.bytes_sent = self.t.bytes_out - sent0
            report.seconds = time.monotonic() - start
            report.loader_ok = loader_ok
            return report
        if not hello["active"]:
            plan = report.plan = Plan(tree, [])
        uploads = [(rel, tree.files[rel]) for rel in plan.added + plan.changed]
        if not loader_ok:
            # Last: on a board not yet flashed by feltctl its own boot.py stays until the commit.
            uploads.append(("/boot.py", loader_bytes))
            report.loader_updated = True
        self._check_fits(tree, hello, uploads, packed)
        try:
            if packed:
                staged = self.call("stage_pack(%r)" % _paths_blob(plan.kept), self.work_timeout_s)
            else:
                staged = self.call("stage(%r,%r)" % (_paths_blob([e[0] for e in tree.entries]),
                                                      _paths_blob(plan.kept)), self.work_timeout_s)
            self._upload(uploads, packed)
            done = self.call("commit(%r)" % tree.hash, self.work_timeout_s)
        except (DeployError, DeviceError) as e:  # the board answered (full flash, hash mismatch, refusal)
            raise self._abandon(e)
        report.active, report.previous = done["active"], done["previous"]
        report.copied = staged["copied"]
        if reset:
            self.t.soft_reset_to_friendly()
        report.bytes_sent = self.t.bytes_out - sent0
        report.seconds = time.monotonic() - start
        return report

    @staticmethod
    def _check_fits(tree, hello, uploads, packed=False):
        """Refuse up front, with the numbers, a deploy that cannot fit (issue 18 item 2): the
        staging slot needs space_needed(); it gets the free bytes plus what the slot holds now
        (the previous tree, replaced). Nothing has been written yet."""
        block, free, held = hello.get("block"), hello.get("free", -1), hello.get("staged")
        if not block or free < 0 or held is None:
            return  # an older agent or a board that cannot say: the deploy finds out as it goes
        need = pack_space_needed(tree, block) if packed else space_needed(tree, block, uploads)
        loader = [d for rel, d in uploads if rel.startswith("/")]  # /boot.py: a file beside the pack
        if packed and loader:
            need += max(blocks(len(_zlib(d)), block) + blocks(len(d), block) for d in loader)
        if need > free + held:
            raise FlashFull("the board's flash is full for this firmware (it must fit beside the one the board runs): "
                            "the staging slot needs %d "
                            "bytes (%d files, %d bytes of data, in %d-byte blocks), the board has %d (%d free + %d "
                            "in the slot it replaces); %d bytes short -- deploy .mpy (the default), or free data "
                            "(feltctl export, then remove /hands files); nothing was written"
                            % (need, len(tree.files), tree.size, block, free + held, free, held,
                               need - free - held))

    def _abandon(self, e):
        """A deploy failed while the board still answers: free its half-written staging slot
        (deploy_agent.abandon), or it would fill the flash under the old firmware (issue 18 item
        1). Returns the error to raise, saying what was freed."""
        try:
            r = self.call("abandon()", self.work_timeout_s)
        except FeltError as again:
            return type(e)("%s; the unfinished slot could not be freed (%s): the board frees it at its next "
                           "boot" % (e, again)) if isinstance(e, DeployError) else e
        freed = ", ".join("%s (%d bytes)" % (folder, n) for folder, n in r["freed"]) or "nothing"
        text = "%s; freed the unfinished deploy: %s; the board still boots slot %s" % (e, freed, r["active"])
        return type(e)(text) if isinstance(e, DeployError) else DeployError(text)

    def _upload(self, uploads, packed=False):
        """One command per file; its compressed bytes follow raw (deploy_agent.putb, or putm for a
        member of a packed slot; the loader /boot.py is always a file)."""
        total = sum(len(d) for _, d in uploads)
        member = packed
        done = 0
        for rel, data in uploads:
            packed = _zlib(data)
            scale = len(data) / max(1, len(packed))
            base = done
            command = "putm" if member and not rel.startswith("/") else "putb"
            self.call("%s(%r,%d,%r,%d,%d)" % (command, rel, len(data), sha256_hex(data), len(packed), WINDOW),
                      self.work_timeout_s, feed=packed,
                      progress=lambda sent: self._tick(base + sent * scale, total))
            done += len(data)
        self._tick(total, total)

    def _tick(self, done, total):
        if self.progress and total:
            self.progress(int(done), total)

    # ---- other operations ------------------------------------------------------------------
    def rollback(self, reset=True):
        self.connect()
        r = self.call("rollback()")
        if reset:
            self.t.soft_reset_to_friendly()
        return r

    def info(self, reset=True):
        self.connect()
        r = self.call("info()", self.work_timeout_s)
        if reset:
            self.t.soft_reset_to_friendly()
        return r

    def export(self, remote, dest, reset=True, chunk=3000, missing_ok=True):
        """Copy every file under `remote` on the board into folder `dest` unless an identical
        copy is already there; each copy is checked against the board's SHA-256. A `remote` that
        is not a folder on the board is nothing to copy with missing_ok, else a DeployError."""
        self.connect()
        if not missing_ok and not self.call(_IS_DIR % remote, self.work_timeout_s):
            raise DeployError("no folder %s on the board (board paths are absolute, e.g. /hands)" % remote)
        copied, skipped = [], []
        for rel, size, digest in self.call("files(%r)" % remote, self.work_timeout_s):
            local = os.path.join(dest, *_safe_parts(rel, remote))
            if os.path.exists(local) and sha256_hex(open(local, "rb").read()) == digest:
                skipped.append(rel)
                continue
            data = bytearray()
            while len(data) < size:
                piece = base64.b64decode(self.call("read(%r,%d,%d)" % (remote + "/" + rel, len(data), chunk)))
                if not piece:
                    break
                data += piece
            if len(data) != size or sha256_hex(bytes(data)) != digest:
                raise HashMismatch("%s/%s: copied %d bytes that do not match the board's SHA-256"
                                   % (remote, rel, len(data)))
            os.makedirs(os.path.dirname(local) or ".", exist_ok=True)
            with open(local + ".part", "wb") as f:
                f.write(data)
            os.replace(local + ".part", local)
            copied.append(rel)
        if reset:
            self.t.soft_reset_to_friendly()
        return copied, skipped


# the agent's files() answers [] for a missing folder too; this tells the two apart
_IS_DIR = "import os\ntry:\n answer(bool(os.stat(%r)[0] & 0x4000))\nexcept OSError:\n answer(False)\n"


def _safe_parts(rel, remote):
    """The parts of a file name the board listed under `remote`; a name that is empty, absolute or
    has an empty, '.' or '..' part would land outside the export folder (or on the folder itself):
    refused, since the names come from the board."""
    parts = rel.split("/") if isinstance(rel, str) else [""]
    for p in parts:
        if p in ("", ".", "..") or "\\" in p or "\0" in p:
            raise DeployError("%s: refused the board's file name %r (it would land outside the export "
                              "folder)" % (remote, rel))
    return parts


def tree_has_mpy(tree):
    return any(rel.endswith(".mpy") for rel in tree.files)


def _check_mpy(device_mpy):
    major, minor = mpy_cross_version()
    dev_major, dev_minor = device_mpy & 0xFF, (device_mpy >> 8) & 3
    if (major, minor) != (dev_major, dev_minor):
        raise DeployError("mpy-cross emits .mpy v%d.%d but the board loads v%d.%d: install the mpy-cross "
                          "matching the board's MicroPython, or deploy without --mpy"
                          % (major, minor, dev_major, dev_minor))
