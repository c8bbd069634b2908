"""Asynchronous play: clocks, paces, deadlines, reminders, member settings and the scheduler.

Nothing here imports Discord. The domain modules (clock, model, member, plan) are pure; the
scheduler drives them through the store and the table use cases and returns notices.
"""
