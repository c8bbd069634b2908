"""The SQLite store (the embedded default): ``store`` opens it, ``tables``, ``seats``,
``timing`` and ``leagues`` hold its rows, ``commits`` group-commits every write, ``setup``
opens a database file and applies the migrations."""
