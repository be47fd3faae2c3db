# Host-side blackjack tools (CPython): the basic-strategy player and the house-edge reference check
# (strategy.py, edge.py). They import the firmware's engine (felt.engine.blackjack), never copy it.
