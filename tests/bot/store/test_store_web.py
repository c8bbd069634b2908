"""The web pages' rows, on both backends: random public ids and servers' pages turned off."""

from __future__ import annotations

import pytest

from bot.store import Store


async def test_a_public_id_is_made_once_and_kept(store: Store) -> None:
    first = await store.public_id("table", 7)
    assert len(first) >= 16 and first.replace("-", "").replace("_", "").isalnum()
    assert await store.public_id("table", 7) == first
    assert await store.find_public_id(first) == ("table", 7)


async def test_public_ids_are_random_not_counted(store: Store) -> None:
    ids = [await store.public_id("table", n) for n in range(1, 6)]
    ids.append(await store.public_id("league", 1))
    assert len(set(ids)) == len(ids)
    assert not any(i.isdigit() for i in ids)
    assert await store.find_public_id(ids[-1]) == ("league", 1)


async def test_an_unknown_public_id_names_nothing(store: Store) -> None:
    assert await store.find_public_id("nothing-here") is None
    with pytest.raises(ValueError):
        await store.public_id("member", 1)


async def test_a_server_can_turn_its_pages_off_and_on(store: Store) -> None:
    assert await store.web_pages_on(5)
    assert await store.web_pages_on(None)
    await store.set_web_pages(5, False)
    assert not await store.web_pages_on(5)
    assert await store.web_pages_on(6)
    await store.set_web_pages(5, True)
    assert await store.web_pages_on(5)
