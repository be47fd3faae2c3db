# Ed25519 at boot (issue 16 item 1): the board verifies its release-signed manifest before it runs
# anything, and signs each audit record with its device key. ed25519_kernel.py times that on the
# MicroPython unix port, the 32-bit WebAssembly port and CPython (plain code: the peer measured in
# the same run), and the maintained library the host tools use. Board estimate: unix-port time
# times the published Pico slowdowns of bench_firmware.py (96-173x for an RP2040; 50-90x Pico 2).
# usage: python tests/benchmarks/bench_ed25519.py [--reps N]
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "host_tools"))
sys.path.insert(0, os.path.join(REPO, "firmware"))

from feltctl.paths import FIRMWARE, micropython_binary  # noqa: E402

BOARDS = (("Pico 2 (RP2350)", 50, 90), ("Pico (RP2040)", 96, 173))  # as bench_firmware.py
KERNEL = os.path.join(HERE, "ed25519_kernel.py")


def parse(text):
    out = {}
    for line in text.splitlines():
        w = line.split()
        if w and w[0] == "KEY":
            kv = dict(x.split("=", 1) for x in w[1:])
            out[kv["name"]] = int(kv["us"])
    return out


def run_unix(reps):
    p = subprocess.run([micropython_binary(), KERNEL, FIRMWARE, str(reps)], capture_output=True, text=True,
                       timeout=600)
    return parse(p.stdout)


def run_wasm(reps):
    from feltctl import wasm_micropython

    if not wasm_micropython.available():
        return None
    p = wasm_micropython.run("ed25519_kernel", [FIRMWARE, str(reps)], copy=[(FIRMWARE, FIRMWARE), (KERNEL, "/bench/ed25519_kernel.py")],
                             path=["/bench"], timeout_s=900)
    return parse(p.stdout)


def run_cpython(reps):
    p = subprocess.run([sys.executable, KERNEL, FIRMWARE, str(reps)], capture_output=True, text=True, timeout=600)
    return parse(p.stdout)


def library():
    import time
    from cryptography.hazmat.primitives.asymmetric import ed25519 as lib

    k = lib.Ed25519PrivateKey.from_private_bytes(b"\x52" * 32)
    msg = b"felt-manifest 2\0" + b"\x11" * 32
    sig = k.sign(msg)
    pub = k.public_key()
    t = time.perf_counter()
    for _ in range(200):
        pub.verify(sig, msg)
    return int((time.perf_counter() - t) / 200 * 1e6)


def main():
    reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 3
    unix, wasm, cpy = run_unix(reps), run_wasm(reps), run_cpython(reps)
    print("Ed25519 (best of %d, microseconds; the firmware's %s manifest)" % (reps, FIRMWARE))
    print("%-18s %12s %12s %12s %10s %10s" % ("", "unix port", "wasm port", "CPython", "unix/CPy", "wasm/CPy"))
    for name in ("manifest-verify", "signature-verify", "audit-sign", "signer-new"):
        u, c = unix.get(name), cpy.get(name)
        w = wasm.get(name) if wasm else None
        print("%-18s %12s %12s %12s %10s %10s" % (name, u, w, c, "%.1f" % (u / c) if u and c else "-",
                                                 "%.1f" % (w / c) if w and c else "-"))
    print("cryptography (host tools) signature verify: %d us" % library())
    for board, lo, hi in BOARDS:
        for name in ("manifest-verify", "audit-sign"):
            print("estimate %-16s %-16s %.2f - %.2f s (unix port x %d-%d)" % (
                board, name, unix[name] * lo / 1e6, unix[name] * hi / 1e6, lo, hi))


if __name__ == "__main__":
    main()
