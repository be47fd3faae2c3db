# Coverage-guided fuzzing (atheris / libFuzzer) of every byte-level input channel: PN532 frames,
# ASCII reader lines, FELT1 console lines, PHH text, house-rule text, board JSON and the journal.
# Not collected by pytest (the name does not start with test_); atheris is optional (pip install
# atheris). A crash is any exception that is not the channel's named FeltError.
#   .venv/bin/python tests/host/fuzz_atheris_inputs.py -atheris_runs=200000 [-max_len=512] [corpus/]
# A crash writes crash-<hash>; add the input to tests/firmware/proto/test_fuzz_regressions.py.
# Found so far (all fixed, pinned in tests/firmware/proto/test_fuzz_regressions.py): phh.read_all("F=_")
# -> IndexError (phh.parse_number); the hypothesis suites found the board.load and settings ones.
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "firmware"))

import atheris  # noqa: E402

with atheris.instrument_imports():
    from felt.runtime import board  # noqa: E402
    from felt.recovery import journal as jr
    from felt.history import phh
    from felt.history import replay
    from felt.engine.house import values as house_values  # noqa: E402
    from felt.errors import FeltError  # noqa: E402
    from felt.proto import ascii_reader, console, pn532  # noqa: E402

SENTINEL_PN532 = pn532.encode_response(pn532.CMD_SAM_CONFIGURATION)
SENTINEL_ASCII = b"\r\n04A1B2C3D4E5F6\r\n"
SENTINEL_CONSOLE = b"\r\n" + console.encode(console.Message(9, "fold", [2]))


def channel_pn532(data):
    p = pn532.Parser()
    p.feed(data)
    p.feed(SENTINEL_PN532 * 30)
    if p.feed(SENTINEL_PN532) != [pn532.Frame(pn532.TFI_PN532, b"\x15")]:
        raise AssertionError("PN532 parser did not resynchronise")


def channel_ascii(data):
    p = ascii_reader.Parser()
    p.feed(data)
    if p.feed(SENTINEL_ASCII)[-1] != ascii_reader.TagLine(bytes.fromhex("04A1B2C3D4E5F6")):
        raise AssertionError("ASCII parser did not resynchronise")


def channel_console(data):
    p = console.Parser(console.CONSOLE)
    p.feed(data)
    if p.feed(SENTINEL_CONSOLE)[-1] != console.Message(9, "fold", [2]):
        raise AssertionError("console parser did not resynchronise")


def channel_phh(data):
    text = data.decode("utf-8", "replace")
    try:
        phh.read_all(text)
    except FeltError:
        pass
    for r in replay.replay_text(text):
        if "error" not in r and "finishing_stacks" not in r:
            raise AssertionError("replay result without error or stacks")


def channel_rules(data):
    try:
        house_values.parse_text(data.decode("utf-8", "replace"))
    except FeltError:
        pass


def channel_board(data):
    try:
        value = json.loads(data.decode("utf-8", "replace"))
    except ValueError:
        return
    try:
        board.load(value)
    except FeltError:
        pass


def channel_journal(data):
    flash = jr.MemFlash()
    flash.files["j00000001.log"] = bytearray(data)
    j = jr.Journal(flash)
    j.open()
    j.append(jr.CARD, b"x")


CHANNELS = (channel_pn532, channel_ascii, channel_console, channel_phh, channel_rules, channel_board,
            channel_journal)


def one_input(data):
    if not data:
        return
    # every channel catches its own named error: anything escaping is a crash for libFuzzer
    CHANNELS[data[0] % len(CHANNELS)](data[1:])


def main():
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
