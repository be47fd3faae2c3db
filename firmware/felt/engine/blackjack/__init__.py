# Blackjack, the second game family (engine layer, pure; hardware/rules-blackjack.md, BJ-*): house
# rules, one round's state machine for up to 7 boxes and the dealer, the multi-deck shoe. Imported
# only by a table configured for blackjack -- never on the poker path (RAM: hardware/memory.md).
