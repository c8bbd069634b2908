"""SQLite migrations, numbered as the PostgreSQL ones (same schema, SQLite dialect)."""
