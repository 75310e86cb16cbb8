"""The game: the engine, tariffs, settlement, invariants. Pure: no I/O beyond reading a tariff file."""
