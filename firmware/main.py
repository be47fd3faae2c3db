# Device entry (runtime layer): pick the board map, open its HAL, run the table (felt.runtime.app builds
# the rest in boot order). FELT_HAL / FELT_DATA (the Raspberry Pi service) override the board
# file's HAL and the "/" data root; a Pico has no environment and uses the defaults.
from felt.runtime import app

root = app.data_root()
board = app.load_board(root, app.getenv("FELT_HAL"))
app.run(app.open_hal(app.getenv("FELT_HAL") or board.hal), board, root)
