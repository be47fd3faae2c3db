# Simulated serial devices at their wire protocol, behind a pseudo-terminal so that pyserial (and
# any host tool) talks to them like hardware (host tools). The byte-level chip models are the
# firmware's own (firmware/felt/hal/sim/), so the MicroPython-side simulation behaves the same.
