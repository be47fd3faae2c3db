# Device drivers: each owns an injected bus or pin and a codec; poll(now_ms) -> events.
# Drivers know nothing of poker.
