# One module per feltctl command (see feltctl/cli.py).
