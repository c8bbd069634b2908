"""The addresses the bot hands out in Discord: a table's page, a league's page, and a seat's
private view by signed link. None whenever they cannot work (no ``TABULA_PUBLIC_URL``, no
secret for private links, or the server turned its pages off)."""

from __future__ import annotations

from collections import OrderedDict

from bot.config import WebSettings
from bot.pace.clock import Clock, epoch
from bot.store import Store
from bot.web.signing import Signer

KEPT = 4096


class Links:
    def __init__(self, store: Store, settings: WebSettings, clock: Clock) -> None:
        self.store = store
        self.base = settings.public_url
        self.clock = clock
        self.signer = Signer(settings.secret, settings.link_seconds) if settings.secret else None
        self._ids: OrderedDict[tuple[str, int], str] = OrderedDict()

    async def _public_id(self, kind: str, ref_id: int) -> str:
        """Page ids never change: asked of the store once per process."""
        key = (kind, ref_id)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = await self.store.public_id(kind, ref_id)
            while len(self._ids) > KEPT:
                self._ids.popitem(last=False)
        return found

    async def table(self, table_id: int, guild_id: int | None) -> str | None:
        if self.base is None or not await self.store.web_pages_on(guild_id):
            return None
        return f"{self.base}/t/{await self._public_id('table', table_id)}"

    async def league(self, league_id: int, guild_id: int) -> str | None:
        if self.base is None or not await self.store.web_pages_on(guild_id):
            return None
        return f"{self.base}/l/{await self._public_id('league', league_id)}"

    async def private(self, table_id: int, guild_id: int | None, seat: int, member_id: int
                      ) -> str | None:
        """A link to the seat's own view for that member, expiring (``TABULA_LINK_HOURS``)."""
        if self.base is None or self.signer is None \
                or not await self.store.web_pages_on(guild_id):
            return None
        public_id = await self._public_id("table", table_id)
        grant = self.signer.grant(public_id, seat, member_id, epoch(self.clock))
        return self.base + self.signer.path(grant)
