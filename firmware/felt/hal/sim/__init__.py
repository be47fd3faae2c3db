# The simulated devices behind the sim HAL backend (chips at their wire protocol).
