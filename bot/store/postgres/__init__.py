"""The PostgreSQL store (the ``postgres`` extra): ``store`` migrates and opens it and runs
scripts, ``steps`` writes a move in one statement."""
