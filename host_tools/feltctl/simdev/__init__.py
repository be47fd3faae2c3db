# Simulated serial devices at their wire protocol, behind a pseudo-terminal so that pyserial (and
# any host tool) talks to them like hardware. The byte-level models live in firmware/felt/hal/
# (simdev_*.py) so the MicroPython-side simulation uses the very same behaviour.
