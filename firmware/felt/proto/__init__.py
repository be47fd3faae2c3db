# Protocol codecs: pure bytes in, frames/events out; encode(command) -> bytes. No I/O, no clock.
