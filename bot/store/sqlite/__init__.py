"""The SQLite store (the embedded default): ``store`` opens it, ``driver`` runs scripts,
``commits`` group-commits every write, ``setup`` opens a database file and migrates it."""
