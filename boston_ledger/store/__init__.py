"""The ledger in SQLite: schema and migrations, opening it, one reader per concept, the writers."""
