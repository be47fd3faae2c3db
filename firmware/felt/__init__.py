# Felt: open firmware for smart poker tables. Everything under firmware/ goes onto the device
# and runs on MicroPython as well as CPython.
VERSION = "0.1.0"
