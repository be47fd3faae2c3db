# Persistence: the write-ahead journal (file and raw-flash ring), recovery, the boot antenna check.
