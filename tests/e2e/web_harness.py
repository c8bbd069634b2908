"""The bot with its web pages on a free local port, and the links its messages carry."""

from __future__ import annotations

import socket

from bot.config import WebSettings
from tests.standin import Message
from tests.standin.messages import walk_components

SECRET = "an-end-to-end-secret-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_settings() -> WebSettings:
    port = free_port()
    return WebSettings(listen=("127.0.0.1", port), public_url=f"http://127.0.0.1:{port}",
                       secret=SECRET)


def links(message: Message) -> dict[str, str]:
    """The message's link buttons: label -> address."""
    return {c["label"]: c["url"] for c in walk_components(message.components) if "url" in c}
