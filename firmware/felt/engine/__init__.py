# The rules engine: pure functions and state machines. No I/O, no clock, no randomness --
# cards, time and console entries come in as arguments (RULES.md is the specification).
