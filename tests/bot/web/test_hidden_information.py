"""The public pages show only what the public view shows, for every game: the engine is asked
for no seat's view while a page and all its replay images are served, every image is the render
of the public view of its step, and a live game's seed and actions (which name hidden pieces)
never reach the HTML."""

from __future__ import annotations

import json
from typing import Any

import pytest

import rendering
from bot.tables import gamelog
from rules import ENTRIES, GAMES
from rules.core import Game
from tests.bot.web.conftest import ALICE, BOB, HOSTILE, Web, play

MOVES = 12  # moves played before the pages are read, while the game is still on


class Watched:
    """A game that notes every seat whose view is asked for."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self.asked: set[int | None] = set()

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        self.asked.add(seat)
        return self._game.view(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


@pytest.mark.parametrize("game_id", sorted(ENTRIES))
async def test_pages_and_images_come_from_public_views_only(game_id: str, web: Web) -> None:
    if not rendering.has_renderer(game_id):
        pytest.skip(f"{game_id} has no renderer")
    facts = ENTRIES[game_id].facts
    members = (ALICE, BOB, HOSTILE)[: facts.seats]
    table_id = await play(web.tables, game_id, 1, members, moves=min(MOVES, facts.midgame_moves),
                          seed=f"{game_id}-hidden")
    watched = Watched(GAMES[game_id])
    web.site.games = {**GAMES, game_id: watched}  # type: ignore[dict-item]
    web.site.use_store(web.store)
    public_id = await web.store.public_id("table", table_id)
    page = await (await web.client.get(f"/t/{public_id}")).text()
    table = await web.store.get_table(table_id)
    assert table is not None and table.status == "playing"
    played = gamelog.effective(await web.store.actions(table_id))
    images = []
    for step in range(len(played) + 1):
        r = await web.client.get(f"/t/{public_id}/img/{step}-0.png")
        assert r.status == 200
        images.append(await r.read())
    assert watched.asked == {None}, "a page asked the engine for a seat's own view"

    # Each image is the render of that step's public view, replayed independently here.
    game = GAMES[game_id]
    names = [m.name for m in members]
    state = game.setup(len(members), table.seed, table.options)
    states = [state]
    for p in played:
        state = game.apply(state, p.seat, p.action).state
        states.append(state)
    for step, (s, image) in enumerate(zip(states, images, strict=True)):
        assert image == rendering.render_pngs(game_id, {**game.view(s, None),
                                                        "names": names})[0], step
        # The same image whatever was hidden: a state re-dealt behind every screen.
        hidden = game.determinize(s, None, f"other-{step}")
        assert image == rendering.render_pngs(game_id, {**game.view(hidden, None),
                                                        "names": names})[0], step

    # While the game is live, neither the seed nor an action's JSON is on the page.
    assert table.seed not in page
    for p in played:
        assert json.dumps(p.action) not in page
        assert json.dumps(p.action, separators=(",", ":")) not in page
