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
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const SPLIT = 134217728; // gc.mem_free() adds the port's max new split (128 MB) to the free bytes

function usage(msg) {
  fs.writeSync(2, "launcher: " + msg + "\n");
  process.exit(2);
}

const opt = { copy: [], path: [], builtin: [], heap: 0, pystack: 8192, fixed: false, argv: [] };
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
  else usage("unknown argument " + a);
}
if (!opt.pkg || !opt.module || !(opt.heap > 0)) usage("--package, --module and --heap are required");

function writer(fd) {
  return (line) => fs.writeSync(fd, line + "\n");
}

const { loadMicroPython } = await import(pathToFileURL(path.join(opt.pkg, "micropython.mjs")).href);
const load = { heapsize: opt.heap, pystack: opt.pystack, stdout: writer(1), stderr: writer(2), linebuffer: true };
if (opt.romfs) load.romfs = fs.readFileSync(opt.romfs); // a ROM partition: malloc'd, outside the GC heap
const mp = await loadMicroPython(load);

function flush() { // a last line without its newline
  const m = mp._module;
  for (const [buf, fd] of [[m._stdoutBuffer, 1], [m._stderrBuffer, 2]]) {
    if (buf && buf.length) { fs.writeSync(fd, Buffer.from(buf)); buf.length = 0; }
  }
}

function copyTree(host, guest) {
  const st = fs.statSync(host);
  if (st.isDirectory()) {
    mp.FS.mkdirTree(guest);
    for (const name of fs.readdirSync(host).sort()) {
      if (name === "__pycache__" || name.startsWith(".")) continue;
      copyTree(path.join(host, name), guest + "/" + name);
    }
  } else {
    mp.FS.mkdirTree(path.posix.dirname(guest));
    mp.FS.writeFile(guest, fs.readFileSync(host));
  }
}
for (const c of opt.copy) {
  const k = c.indexOf("=");
  copyTree(k < 0 ? c : c.slice(0, k), k < 0 ? c : c.slice(k + 1));
}
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
