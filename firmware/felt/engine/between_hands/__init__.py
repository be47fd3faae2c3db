# What carries across hands: button and blinds, the ledger, clocks.
