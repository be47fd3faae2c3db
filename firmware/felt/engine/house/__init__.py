# House rules: the settings record, their values, cash-game rules.
