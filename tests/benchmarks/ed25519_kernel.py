# The Ed25519 timings of issue 16 item 1 (not a test; bench_ed25519.py runs it): the firmware's own
# manifest signed (once, untimed) and verified as the board does at boot, an audit record signed,
# and a feed record verified -- on whichever interpreter runs this file (MicroPython unix port, the
# 32-bit WebAssembly port, CPython). argv: the firmware folder. Prints KEY lines (microseconds).
import sys
import time

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


def best(fn, reps):
    out = None
    for _ in range(reps):
        t = ticks_us()
        fn()
        d = ticks_diff(ticks_us(), t)
        out = d if out is None or d < out else out
    return out


def main(argv):
    firmware = argv[0]
    reps = int(argv[1]) if len(argv) > 1 else 3
    sys.path.insert(0, firmware)
    from felt.security import audit, ed25519
    from felt.security import manifest as mf

    ed25519._lib = None  # CPython too runs the plain code here: the peer of the board's

    seed = b"\x52" * 32
    signer = ed25519.PlainSigner(seed)
    entries = [[rel] + list(mf.file_hash(firmware + "/" + rel)) for rel in mf.walk(firmware)
               if rel != mf.NAME and "__pycache__" not in rel]
    text = mf.sign("table1", signer, "bench", 1, entries)
    pub = [signer.public]
    verify = ed25519.verify_plain if hasattr(ed25519, "verify_plain") else ed25519.verify
    m = mf.parse(text)
    msg = mf.signed_message(m.body)
    raw = bytes([int(m.sig[i:i + 2], 16) for i in range(0, len(m.sig), 2)])
    assert verify(signer.public, msg, raw)
    print("MANIFEST files=%d bytes=%d" % (len(entries), len(text)))
    print("KEY name=manifest-verify us=%d" % best(lambda: mf.verify(text, pub, "table1"), reps))
    print("KEY name=signature-verify us=%d" % best(lambda: verify(signer.public, msg, raw), reps))
    body = "12\t345678\talice\tfloor\tstack 3 2500\t" + "ab" * 32
    print("KEY name=audit-sign us=%d" % best(lambda: signer.sign(audit.record_message(body)), reps))
    print("KEY name=signer-new us=%d" % best(lambda: ed25519.PlainSigner(b"\x53" * 32), 1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
