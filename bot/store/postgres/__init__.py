"""The PostgreSQL store (the ``postgres`` extra): ``store`` opens it, ``tables``,
``seats``, ``timing`` and ``leagues`` hold its rows (module for module as in the SQLite store),
``setup`` applies the migrations."""
