"""Minerva twins: other orders of the location and temple stacks."""

from __future__ import annotations

from collections.abc import Iterator

from rules.minerva.state import MinervaState
from tests.rules.peeks import PlantedPeek, keeping, moved, true_state_determinize

GAME_ID = "minerva"
DEPTHS = range(2, 60, 6)


def twins(state: MinervaState, seat: int) -> Iterator[MinervaState]:
    """Other orders of the location stack (round tiles where they were) and temple stack."""
    for turn in (1, -1):
        twin = state.clone()
        slots = [i for i, t in enumerate(twin.deck) if t != "R"]
        cards = moved([twin.deck[i] for i in slots], turn)
        for i, card in zip(slots, cards, strict=True):
            twin.deck[i] = card
        twin.temple_stack = moved(list(twin.temple_stack), turn)
        yield twin


def _real_deck(world: MinervaState, state: MinervaState) -> MinervaState:
    world.deck = list(state.deck)
    world.temple_stack = list(state.temple_stack)
    return world


# Minerva's easy level looks one move ahead, which never reveals a stack card to it: a peek
# there changes no decision, so only its searching levels are planted. Its stack shows in a
# search only through its short rollouts: its planted peeks are looked for at the hard level
# with its real budget, where they change a decision.
PLANTS = [
    PlantedPeek("search on the true state", true_state_determinize, ("hard",), real_budget=True),
    PlantedPeek("determinize keeps the deck order", lambda mp, g: keeping(mp, g, _real_deck),
                ("hard",), real_budget=True),
]
