# feltctl: the host-side tools (CPython) -- flash, sim, replay, monitor, export.
# They import firmware modules (package `felt`) rather than copying logic.
