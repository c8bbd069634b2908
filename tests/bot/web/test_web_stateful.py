"""What changes with time, checked after every random step: private links open until they
expire and never for another seat or member; a client's accepted requests never exceed its
bucket (``burst`` plus ``rate`` per second since its first request), whatever others do."""

from __future__ import annotations

import math

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from bot.web.limits import Buckets
from bot.web.signing import Grant, Refused, Signer
from tests.examples import examples

BURST, RATE = 5.0, 2.0
CLIENTS = ("a", "b", "c")


class LinksAndLimits(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000_000.0
        self.signer = Signer("stateful-secret-0123456789", ttl=3600)
        self.links: list[Grant] = []
        self.buckets = Buckets(lambda: self.now)
        self.first: dict[str, float] = {}
        self.accepted: dict[str, int] = {}

    @rule(seat=st.integers(0, 3), member=st.integers(1, 4))
    def issue(self, seat: int, member: int) -> None:
        self.links.append(self.signer.grant("page", seat, member, int(self.now)))

    @rule(seconds=st.floats(0, 2_000, allow_nan=False))
    def wait(self, seconds: float) -> None:
        self.now += seconds

    @rule(client=st.sampled_from(CLIENTS))
    def request(self, client: str) -> None:
        self.first.setdefault(client, self.now)
        wait = self.buckets.take(client, BURST, RATE)
        if wait == 0:
            self.accepted[client] = self.accepted.get(client, 0) + 1
        else:
            # Waiting as long as Retry-After says (whole seconds) lets the client in.
            self.now += math.ceil(wait)
            assert self.buckets.take(client, BURST, RATE) == 0
            self.accepted[client] = self.accepted.get(client, 0) + 1

    @invariant()
    def no_client_beats_its_bucket(self) -> None:
        for client, count in self.accepted.items():
            assert count <= BURST + RATE * (self.now - self.first[client]) + 1e-6

    @invariant()
    def links_open_until_they_expire_and_only_as_signed(self) -> None:
        now = int(self.now)
        for g in self.links:
            sig = self.signer.path(g).rsplit("sig=", 1)[1]
            args = (str(g.seat), g.member, str(g.expires), sig)
            if now < g.expires:
                assert self.signer.check("page", *args, now=now) == g
            else:
                with pytest.raises(Refused, match="expired"):
                    self.signer.check("page", *args, now=now)
            others = {self.signer.member("page", n) for n in range(1, 6)} - {g.member}
            for seat, member in ((g.seat + 1, g.member), (g.seat, min(others))):
                with pytest.raises(Refused, match="signature"):
                    self.signer.check("page", str(seat), str(member), str(g.expires), sig,
                                      now=now)
            with pytest.raises(Refused, match="signature"):
                self.signer.check("page", args[0], args[1], str(g.expires + 3600), sig,
                                  now=now)


TestLinksAndLimits = LinksAndLimits.TestCase
TestLinksAndLimits.settings = settings(max_examples=examples(40), stateful_step_count=25,
                                       deadline=None)
