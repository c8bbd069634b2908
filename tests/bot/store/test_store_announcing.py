"""The claim to announce a table's versions and the answers owed to movers, on both stores."""

from __future__ import annotations

from bot.store import NewAction, Store
from bot.store.announcing import Claim, PendingReply, Turn
from tests.bot.store.test_store import started

LEASE = 60


async def moved(store: Store, table_id: int, moves: int) -> None:
    for n in range(moves):
        await store.record(table_id, 1 + n, {"n": n + 1}, NewAction("act", 0, 1))


async def test_a_claim_lets_one_process_post_each_range_in_order(store: Store) -> None:
    table_id = await started(store)  # version 1
    await store.mark_announced(table_id, 1)
    await moved(store, table_id, 3)  # versions 2..4
    # "b" holds versions 2..3 (its notice); "a", with a notice of version 4, waits.
    assert await store.claim_announcement(table_id, 1, 3, "b", 100, LEASE) == Claim(
        Turn.POST, 1, 3)
    assert await store.claim_announcement(table_id, 3, 4, "a", 101, LEASE) == Claim(Turn.BUSY)
    await store.mark_announced(table_id, 3)
    assert await store.claim_announcement(table_id, 3, 4, "a", 102, LEASE) == Claim(
        Turn.POST, 3, 4)
    await store.mark_announced(table_id, 4)
    # A late notice of versions told already: nothing to post.
    assert await store.claim_announcement(table_id, 1, 3, "b", 103, LEASE) == Claim(Turn.TOLD)


async def test_versions_nobody_told_come_one_by_one_before_a_later_notice(store: Store) -> None:
    table_id = await started(store)
    await store.mark_announced(table_id, 1)
    await moved(store, table_id, 3)
    assert await store.claim_announcement(table_id, 3, 4, "a", 100, LEASE) == Claim(
        Turn.POST, 1, 2)
    await store.mark_announced(table_id, 2)
    assert await store.claim_announcement(table_id, 3, 4, "a", 100, LEASE) == Claim(
        Turn.POST, 2, 3)
    await store.mark_announced(table_id, 3)
    assert await store.claim_announcement(table_id, 3, 4, "a", 100, LEASE) == Claim(
        Turn.POST, 3, 4)


async def test_a_crashed_claim_is_taken_over_whole(store: Store) -> None:
    table_id = await started(store)
    await store.mark_announced(table_id, 1)
    await moved(store, table_id, 3)
    assert (await store.claim_announcement(table_id, 1, 3, "b", 100, LEASE)).turn is Turn.POST
    # "b" died while posting 2..3: another process waits out its lease, then posts the same
    # range again (same nonce); "b" itself, restarted, takes it over at once.
    assert (await store.claim_announcement(table_id, 3, 4, "a", 100 + LEASE - 1, LEASE)
            ).turn is Turn.BUSY
    assert await store.claim_announcement(table_id, 3, 4, "a", 100 + LEASE + 1, LEASE) == Claim(
        Turn.POST, 1, 3, retold=True)
    assert await store.claim_announcement(table_id, 3, 4, "a", 100 + LEASE + 2, LEASE) == Claim(
        Turn.POST, 1, 3, retold=True)  # "a" failed mid-way itself: its own claim, again
    assert await store.claim_announcement(table_id, 3, 4, "b", 101, LEASE) == Claim(Turn.BUSY)


async def test_owed_answers_are_kept_per_process_until_given_or_expired(store: Store) -> None:
    table_id = await started(store)
    mine = PendingReply("11", table_id, None, "7", "token-a", 1_000, "shards 0 of 2")
    other = PendingReply("12", table_id, None, "7", "token-b", 1_000, "shards 1 of 2")
    late = PendingReply("13", table_id, None, "7", "token-c", 500, "shards 0 of 2")
    for reply in (mine, other, late):
        await store.add_reply(reply)
    assert await store.pending_replies(600, "shards 0 of 2") == [mine]
    await store.drop_reply("11")
    assert await store.pending_replies(600, "shards 0 of 2") == []
    assert await store.pending_replies(600, "shards 1 of 2") == [other]
