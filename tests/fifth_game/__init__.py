"""A fifth game kept for the tests: its folders mirror the packages (``rules/pebbles``,
``rendering/pebbles``), ready to be copied into a tree where discovery finds them."""
