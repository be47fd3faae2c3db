# Hand evaluation: the evaluator and its tables.
