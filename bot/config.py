"""Settings from the environment (names fixed by DESIGN.md)."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

HELP = """\
Tabula needs a Discord bot token to go online. Set:

  DISCORD_TOKEN        the bot token (Discord Developer Portal > your application > Bot)
  TABULA_DB            the SQLite file (default ./tabula.db), or a postgresql:// URL
  TABULA_DEV_GUILD     optional: a server id to sync commands to at once while developing
  DISCORD_API_BASE     optional: a REST proxy or local test server (default Discord's)
  DISCORD_GATEWAY_URL  optional: a gateway proxy or local test server
  TABULA_SHARD_COUNT   optional: the total number of shards, or "auto" (Discord's advice)
  TABULA_SHARD_IDS     optional: the shards this process runs, e.g. 0,1 (needs the count)
  LOG_LEVEL            optional: DEBUG, INFO (default), WARNING
  TABULA_HEARTBEAT     optional: a file the bot rewrites while connected to Discord, for
                       `python -m bot healthcheck` (a container's HEALTHCHECK)
  TABULA_WEB           optional: host:port to serve the web pages on (off by default)
  TABULA_PUBLIC_URL    optional: the address players reach those pages by
  TABULA_WEB_SECRET    optional: the key that signs private links (needed for them)
  TABULA_LINK_HOURS    optional: how long a private link works (default 24)
  TABULA_TRUSTED_PROXIES  optional: reverse proxies (addresses or CIDRs, comma-separated)
                       whose X-Forwarded-For names the client (loopback always is)

To try a game without Discord, play at a terminal table:

  python -m bot local palatinus --players 3
  python -m bot local palatinus --auto
"""


DEFAULT_DB = "./tabula.db"


class ConfigError(ValueError):
    pass


def heartbeat_path(env: Mapping[str, str] | None = None) -> Path | None:
    """``TABULA_HEARTBEAT``: the heartbeat file, or None when unset or blank."""
    env = os.environ if env is None else env
    text = env.get("TABULA_HEARTBEAT", "").strip()
    return Path(text) if text else None


def database_path(env: Mapping[str, str] | None = None) -> str:
    """``TABULA_DB``, or the default file when it is unset or blank."""
    env = os.environ if env is None else env
    return env.get("TABULA_DB", "").strip() or DEFAULT_DB


def check_database_folder(path: str) -> None:
    """A clear error now rather than SQLite's "unable to open database file" after login."""
    folder = Path(path).absolute().parent
    if not folder.is_dir():
        raise ConfigError(f"TABULA_DB: the folder {folder} does not exist (for {path}).")
    if Path(path).is_dir():
        raise ConfigError(f"TABULA_DB: {path} is a folder; name the database file in it.")


@dataclass(frozen=True)
class Sharding:
    """Which gateway shards this process runs.

    ``count`` None: one plain connection (no sharding), or with ``auto`` every shard Discord
    advises, all in this process. ``ids`` None: all ``count`` shards in this process. A
    server belongs to shard ``(guild_id >> 22) % count``; DMs arrive on shard 0."""

    count: int | None = None
    ids: tuple[int, ...] | None = None
    auto: bool = False

    @property
    def sharded(self) -> bool:
        return self.auto or self.count is not None

    @property
    def name(self) -> str:
        """This process among those sharing a database (its claims and replies carry it)."""
        if self.count is None or self.ids is None:
            return "all"
        return "shards " + ",".join(map(str, self.ids)) + f" of {self.count}"

    def owns(self, guild_id: int | None) -> bool:
        """True when this process's shards receive the server's events (``None``: a DM).
        Without a fixed count, or with every shard here, it owns everything."""
        if self.count is None or self.ids is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.count
        return shard in self.ids

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Sharding:
        count_text = env.get("TABULA_SHARD_COUNT", "").strip().lower()
        ids_text = env.get("TABULA_SHARD_IDS", "").strip()
        if not count_text:
            if ids_text:
                raise ConfigError("TABULA_SHARD_IDS needs TABULA_SHARD_COUNT (the total).")
            return cls()
        if count_text == "auto":
            if ids_text:
                raise ConfigError("TABULA_SHARD_IDS needs a fixed TABULA_SHARD_COUNT, not auto.")
            return cls(auto=True)
        if not count_text.isdigit() or int(count_text) < 1:
            raise ConfigError("TABULA_SHARD_COUNT must be a whole number of shards (1 or more)"
                              " or auto.")
        count = int(count_text)
        if not ids_text:
            return cls(count=count)
        parts = [p.strip() for p in ids_text.split(",")]
        if not all(p.isdigit() for p in parts):
            raise ConfigError("TABULA_SHARD_IDS must list shard numbers separated by commas,"
                              " e.g. 0,1.")
        ids = tuple(int(p) for p in parts)
        if len(set(ids)) != len(ids):
            raise ConfigError("TABULA_SHARD_IDS names a shard twice.")
        if max(ids) >= count:
            raise ConfigError(f"TABULA_SHARD_IDS: shards are numbered 0 to {count - 1}.")
        return cls(count=count, ids=tuple(sorted(ids)))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class WebSettings:
    """The web pages: where they listen (None: off), the address players use, the secret
    that signs private links and how long such a link works."""

    listen: tuple[str, int] | None = None
    public_url: str | None = None
    secret: str | None = None
    link_seconds: int = 24 * 3600
    # Reverse proxies believed when they name the client (X-Forwarded-For); loopback always.
    trusted_proxies: tuple[Network, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WebSettings:
        env = os.environ if env is None else env
        listen = env.get("TABULA_WEB", "").strip()
        public = env.get("TABULA_PUBLIC_URL", "").strip().rstrip("/")
        if public and not public.startswith(("http://", "https://")):
            raise ConfigError("TABULA_PUBLIC_URL must start with https:// (or http://).")
        hours = env.get("TABULA_LINK_HOURS", "").strip() or "24"
        if not hours.isdigit() or not 1 <= int(hours) <= 24 * 31:
            raise ConfigError("TABULA_LINK_HOURS must be a whole number of hours, 1 to 744.")
        secret = env.get("TABULA_WEB_SECRET", "").strip()
        if secret and len(secret) < 16:
            raise ConfigError("TABULA_WEB_SECRET must be at least 16 characters long.")
        return cls(parse_listen(listen) if listen else None, public or None, secret or None,
                   int(hours) * 3600, trusted_proxies(env))


def trusted_proxies(env: Mapping[str, str] | None = None) -> tuple[Network, ...]:
    """``TABULA_TRUSTED_PROXIES``: addresses or CIDRs, comma-separated (none when unset)."""
    env = os.environ if env is None else env
    text = env.get("TABULA_TRUSTED_PROXIES", "").strip()
    if not text:
        return ()
    try:
        return tuple(ipaddress.ip_network(item.strip(), strict=False)
                     for item in text.split(","))
    except ValueError:
        raise ConfigError("TABULA_TRUSTED_PROXIES must be addresses or CIDRs, comma-separated,"
                          " e.g. 172.18.0.0/16,10.0.0.7.") from None


def parse_listen(text: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:8080`` for IPv6) as a pair."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError("TABULA_WEB must be host:port, e.g. 0.0.0.0:8080.")
    return host, int(port)


@dataclass(frozen=True)
class Settings:
    token: str
    db_path: str = DEFAULT_DB
    dev_guild: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    log_level: str = "INFO"
    sharding: Sharding = Sharding()
    heartbeat: Path | None = None
    web: WebSettings = WebSettings()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(HELP)
        guild = env.get("TABULA_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError("TABULA_DEV_GUILD must be a server id (digits only).")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")
        return cls(
            token=token,
            db_path=database_path(env),
            dev_guild=int(guild) if guild else None,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            log_level=level,
            sharding=Sharding.from_env(env),
            heartbeat=heartbeat_path(env),
            web=WebSettings.from_env(env),
        )
