"""PostgreSQL migrations, numbered as the SQLite ones (same schema, PostgreSQL dialect)."""
