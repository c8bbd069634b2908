"""The web pages (aiohttp): a page per table with its replay, league pages, private views by
signed link, ``/healthz`` and ``/metrics``. No discord import: the bot's process starts the
server with a gateway probe (``bot.app``), and ``python -m bot web`` serves the same pages alone
on the same database."""
