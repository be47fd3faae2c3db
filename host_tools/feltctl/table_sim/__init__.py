# The simulated TABLE driven from the host (host tools): the firmware's sim runner in a child
# interpreter (process, driver), the live demo, the interactive bench, PHH -> physical events.
