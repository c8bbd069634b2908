"""The Discord layer under the cogs.

Imports point one way: ``ids`` → ``components`` → ``respond`` → ``delivery`` → ``flows`` /
``lobby`` → ``items``; the cogs stand on these, and ``bot.client`` on the cogs.
"""
