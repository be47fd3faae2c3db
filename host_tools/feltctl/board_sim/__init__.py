# A simulated MicroPython BOARD behind a pty (host tools): simboard (the pty side) and vm (the
# persistent MicroPython unix interpreter that plays the board's flash and REPL).
