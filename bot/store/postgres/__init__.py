"""The PostgreSQL store (the ``postgres`` extra): ``store`` opens it and runs scripts, ``steps``
writes a move in one statement, ``setup`` applies the migrations."""
