# felt.sim.blackjack_board (issue 17 item 5): the simulated blackjack board that `feltctl bench`
# drives -- bench statements on the assembled firmware's devices, and the state read back from
# them (display cells, LEDs, console replies). Runs on CPython, MicroPython unix and wasm.
from check import eq
import kit

from felt.errors import FormatError
from felt.sim.blackjack_board import BlackjackBoard


def test_BJ_6_bench_statements_play_a_round_on_the_devices():
    root = kit.tmp_root("bj_bench_board")
    b = BlackjackBoard(root)
    for line in ("table blackjack decks=6 bj.surrender=late", "shoe", "round", "bet 1 10", "close",
                 "draw Th to box 1", "draw 6d to dealer", "draw 6h to box 1", "draw Ts to dealer"):
        b.run(line)
    s = b.state()
    eq((s["lights"]["action"], s["phase"], s["replies"]), (1, "playing", [["ok", None]]))
    # the panel's own cells (CPython's stand-in font has capitals only)
    eq([x.upper() for x in s["oled"][:3]], ["R1 S1 308 LEFT", "D 6D ??", ">1 16"])
    b.run("press 1")
    eq(b.state()["display"][-1], "1: HIT? hold")
    b.run("press 1 long")
    b.run("draw 4c to box 1")  # 20
    b.run("press 1 long")
    b.run("draw 5s to dealer")  # 21
    s = b.state()
    eq((s["result"], s["house"], s["lights"]["action"]), ({"1": -10}, 10, None))
    b.run("bj hit 3")
    eq(b.state()["replies"][0][0], "error")
    try:
        b.run("draw Th to box 9")
    except FormatError as e:
        assert "box N" in e.message, e.message
    else:
        raise AssertionError("box 9 accepted")
    kit.rm_tree(root)


def test_BJ_24_an_overfull_antenna_and_the_clear_after_it_are_taken_in_stride():
    # before: the runtime read a third word of every antenna event, and `truncated-cleared` (two
    # words, when an antenna that held more tags than it inventories is cleared) stopped the loop
    from felt.hal.sim.mfrc522 import SimTag
    from felt.sim.runner import card_uid

    root = kit.tmp_root("bj_bench_full")
    b = BlackjackBoard(root)
    b.run("table blackjack")
    for c in range(10):  # ten tags piled on box 7 between rounds (more than an inventory holds)
        b.chips["seat7"].place(SimTag(card_uid(c, "A")))
    b.settle(sweeps=4)
    assert [x for x in b.log if x == "antenna seat7: truncated"], b.log  # logged, not a card
    b.run("clear")
    b.run("shoe")
    eq(b.state()["replies"], [["ok", None]])
    kit.rm_tree(root)
