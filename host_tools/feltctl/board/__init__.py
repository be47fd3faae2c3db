# A board over the raw REPL (host tools): the serial transport, the verified atomic deploy,
# the ROMFS image and release signing. Kept empty: modules are imported where used.
