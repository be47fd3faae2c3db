# One hand's state machine and its parts (betting, openers, pots, showdown, settlement).
