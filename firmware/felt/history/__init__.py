# Hand histories: the PHH reader/writer, replay, and the engine's self-play.
