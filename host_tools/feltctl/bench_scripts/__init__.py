# Bench scripts (host tools): the small test language for tables of hardware/bench-scripts.md,
# parsed and run against the simulated table (`feltctl bench`).
