# Firmware-side simulated table (sim layer): the real controller, loop and drivers against the sim
# HAL device models, driven by the bench statement language (runner.py). Entry: felt.sim.main.
