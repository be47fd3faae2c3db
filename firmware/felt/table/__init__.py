# Controller layer: the table (physical events in, engine inputs out) and its parts.
