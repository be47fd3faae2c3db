# Runtime layer: the loop (the only clock), its event queue, the board map, the heap policy, the app.
