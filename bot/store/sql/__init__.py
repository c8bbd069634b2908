"""The store's SQL, written once for both backends.

Each store operation is a *script*: a generator that yields ``Statement``s and is sent each
one's result (``script.py``). A backend only runs scripts: SQLite on its connection's thread,
inside its group commit; PostgreSQL on a pooled connection, inside a transaction
(``database.py`` is what both provide). So a query exists once, whatever runs it, and a
backend keeps only what truly differs: placeholders, how a transaction and the group commit
run, the pool, and the DDL of its migrations.
"""
