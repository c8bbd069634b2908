"""Sharding settings: TABULA_SHARD_COUNT and TABULA_SHARD_IDS are checked, pick the kind of bot,
and limit the work done once at start to the servers of this process's shards."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.app import ShardedTabulaBot, TabulaBot, create_bot
from bot.config import ConfigError, Settings, Sharding
from bot.tables.outbox import Outbox
from bot.ui.restart import catch_up as restart_catch_up
from bot.ui.round_deadlines import RoundKeeper

SHARD_0 = 0 << 22 | 123  # (guild_id >> 22) % 2 == 0
SHARD_1 = 1 << 22 | 456  # (guild_id >> 22) % 2 == 1


def test_unset_means_one_plain_connection_that_owns_every_server() -> None:
    sharding = Sharding.from_env({})
    assert not sharding.sharded and sharding.owns(SHARD_1) and sharding.owns(None)


def test_a_count_alone_runs_every_shard_here() -> None:
    sharding = Sharding.from_env({"TABULA_SHARD_COUNT": " 4 "})
    assert sharding == Sharding(count=4) and sharding.sharded
    assert sharding.owns(SHARD_0) and sharding.owns(SHARD_1)


def test_auto_lets_discord_choose_the_count() -> None:
    sharding = Sharding.from_env({"TABULA_SHARD_COUNT": "auto"})
    assert sharding.auto and sharding.sharded and sharding.count is None
    assert sharding.owns(SHARD_1)


def test_a_cluster_owns_the_servers_of_its_shards_and_dms_go_to_shard_0() -> None:
    first = Sharding.from_env({"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "0"})
    second = Sharding.from_env({"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": " 1 "})
    assert first.owns(SHARD_0) and not first.owns(SHARD_1) and first.owns(None)
    assert second.owns(SHARD_1) and not second.owns(SHARD_0) and not second.owns(None)
    assert Sharding.from_env({"TABULA_SHARD_COUNT": "3", "TABULA_SHARD_IDS": "2,0"}).ids == (0, 2)


@pytest.mark.parametrize(("env", "words"), [
    ({"TABULA_SHARD_IDS": "0"}, "needs TABULA_SHARD_COUNT"),
    ({"TABULA_SHARD_COUNT": "0"}, "whole number"),
    ({"TABULA_SHARD_COUNT": "two"}, "whole number"),
    ({"TABULA_SHARD_COUNT": "-1"}, "whole number"),
    ({"TABULA_SHARD_COUNT": "auto", "TABULA_SHARD_IDS": "0"}, "not auto"),
    ({"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "2"}, "0 to 1"),
    ({"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "0,0"}, "twice"),
    ({"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "0;1"}, "separated by commas"),
    ({"TABULA_SHARD_COUNT": "2", "TABULA_SHARD_IDS": "0,"}, "separated by commas"),
])
def test_bad_values_are_refused_with_one_line(env: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError, match=words) as caught:
        Settings.from_env({"DISCORD_TOKEN": "t", **env})
    assert "\n" not in str(caught.value)


async def test_the_settings_pick_the_kind_of_bot() -> None:
    plain = create_bot(Settings(token="x"), render_workers=0)
    assert type(plain) is TabulaBot
    cluster = create_bot(Settings(token="x", sharding=Sharding(count=4, ids=(1, 3))),
                         render_workers=0)
    assert isinstance(cluster, ShardedTabulaBot)
    assert (cluster.shard_count, cluster.shard_ids) == (4, [1, 3])
    everything = create_bot(Settings(token="x", sharding=Sharding(auto=True)), render_workers=0)
    assert isinstance(everything, ShardedTabulaBot) and everything.shard_count is None
    for bot in (plain, cluster, everything):
        async with bot:  # set up and closed as a run would, without connecting
            pass


async def test_start_up_catch_up_is_left_to_the_process_that_owns_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = create_bot(Settings(token="x", sharding=Sharding(count=2, ids=(1,))),
                     render_workers=0)
    tables = [SimpleNamespace(id=1, guild_id=SHARD_0), SimpleNamespace(id=2, guild_id=SHARD_1),
              SimpleNamespace(id=3, guild_id=None)]
    touched: list[tuple[str, int]] = []

    async def catch_up(table_id: int) -> Any:
        touched.append(("announce", table_id))

    async def run_computers(table_id: int) -> Any:
        touched.append(("computers", table_id))

    async def listed(*_: Any) -> list[Any]:
        return tables

    async def ready() -> None:
        return None

    fake = SimpleNamespace(unannounced=listed, catch_up=catch_up, run_computers=run_computers,
                           store=SimpleNamespace(with_computers=listed))
    monkeypatch.setattr(bot, "wait_until_ready", ready)
    async def none_half_open() -> list[Any]:
        return []

    services: Any = SimpleNamespace(tables=fake, rounds=SimpleNamespace(opening=none_half_open))
    services.outbox = Outbox(fake, bot.delivery)
    owns = bot.settings.sharding.owns
    keeper = RoundKeeper(bot, services, bot.delivery, owns)
    await restart_catch_up(bot, services, keeper, [], owns)
    assert touched == [("announce", 2), ("computers", 2)]
