"""Helpers for the Hadrian's Wall tests: pinned setups and sheets edited into a situation."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from rules.core import Action, Event
from rules.hadrians_wall import GAME
from rules.hadrians_wall.components import FATE_IDS, PLAYER_CARD_IDS
from rules.hadrians_wall.state import Sheet, State, clone

Edit = Callable[[Sheet], None]


def pinned(players: int, fate: list[str] | None = None, **options: Any) -> dict[str, Any]:
    """Options that pin every random part of setup (Fate deck F01..F48 unless given)."""
    opts: dict[str, Any] = {
        "fate_order": fate or list(FATE_IDS),
        "player_cards": [list(PLAYER_CARD_IDS) for _ in range(players)],
    }
    if players <= 2:
        opts["neutral_order"] = list(reversed(PLAYER_CARD_IDS))
    opts.update(options)
    return opts


def start(players: int = 1, fate: list[str] | None = None, **options: Any) -> State:
    return GAME.setup(players, "kit", pinned(players, fate, **options))


def chosen(state: State, pick: int = 0) -> State:
    """Every seat chooses its drawn card number ``pick`` as Path: the Year's actions begin."""
    for seat in range(state.players):
        card = state.sheets[seat]["drawn"][pick]
        state = GAME.apply(state, seat, {"type": "choose", "path": card}).state
    return state


def edit(state: State, seat: int, change: Edit) -> State:
    """A copy of the state whose sheet for ``seat`` went through ``change``."""
    sheet = clone(state.sheets[seat])
    change(sheet)
    sheets = list(state.sheets)
    sheets[seat] = sheet
    return dataclasses.replace(state, sheets=tuple(sheets))


def hand(**goods: int) -> Edit:
    """Set the hand to exactly these goods."""

    def change(sheet: Sheet) -> None:
        sheet["hand"] = {g: 0 for g in sheet["hand"]}
        sheet["hand"].update(goods)

    return change


def act(state: State, seat: int, action: Action | str) -> tuple[State, tuple[Event, ...]]:
    if isinstance(action, str):
        action = GAME.parse_action(state, seat, action)
    t = GAME.apply(state, seat, action)
    return t.state, t.events


def pass_all(state: State) -> State:
    """Every active seat passes (Road income taken as renown first)."""
    for _ in range(50):
        if state.phase != "actions":
            return state
        for seat in sorted(GAME.active_seats(state)):
            kind = "road" if state.sheets[seat]["road_pending"] else "pass"
            action: Action = {"type": "pass"} if kind == "pass" else {
                "type": "road", "attribute": "renown"}
            state = GAME.apply(state, seat, action).state
            if state.phase != "actions":
                return state
    raise AssertionError("the Year did not end")


def legal_types(state: State, seat: int) -> set[str]:
    return {a["type"] for a in GAME.legal_actions(state, seat)}


def clone_state(state: State) -> State:
    return GAME.load(clone(GAME.dump(state)))
