"""Settings from the environment (names fixed by DESIGN.md)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

HELP = """\
Tabula needs a Discord bot token to go online. Set:

  DISCORD_TOKEN        the bot token (Discord Developer Portal > your application > Bot)
  TABULA_DB            the SQLite file (default ./tabula.db)
  TABULA_DEV_GUILD     optional: a server id to sync commands to at once while developing
  DISCORD_API_BASE     optional: a REST proxy or local test server (default Discord's)
  DISCORD_GATEWAY_URL  optional: a gateway proxy or local test server
  LOG_LEVEL            optional: DEBUG, INFO (default), WARNING

To try a game without Discord, play at a terminal table:

  python -m bot local palatinus --players 3
  python -m bot local palatinus --auto
"""


DEFAULT_DB = "./tabula.db"


class ConfigError(ValueError):
    pass


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
class Settings:
    token: str
    db_path: str = DEFAULT_DB
    dev_guild: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    log_level: str = "INFO"

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
        )
