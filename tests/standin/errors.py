"""Discord's error shapes: the JSON body, the status and the form-error tree of code 50035."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]
Path = tuple[str | int, ...]

# Codes the stand-in answers with (Discord's JSON error codes).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
REQUEST_TOO_LARGE = 40005
EMPTY_MESSAGE = 50006
CANNOT_DM_USER = 50007
CANNOT_EDIT_OTHERS = 50005
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
INVALID_JSON = 50109


class ApiError(Exception):
    """An error answer: HTTP status, Discord code, message and optional form errors.

    ``kind`` names the rule that was broken (used in violation records); ``violation`` says
    whether the bot broke one of Discord's limits (True) or merely got a refusal a real bot
    must expect and handle, such as a closed DM (False).
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        kind: str,
        errors: JSON | None = None,
        details: list[str] | None = None,
        violation: bool = True,
        headers: dict[str, str] | None = None,
        extra: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.kind = kind
        self.errors = errors
        self.details = details if details is not None else [message]
        self.violation = violation
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> JSON:
        out: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        out.update(self.extra)
        return out


class FormErrors:
    """Collects field errors and renders Discord's nested ``errors`` object.

    A path such as ``("embeds", 0, "fields")`` becomes
    ``{"embeds": {"0": {"fields": {"_errors": [{"code": ..., "message": ...}]}}}}``.
    """

    def __init__(self, prefix: Path = ()) -> None:
        self.prefix = prefix
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((self.prefix + path, code, message))

    def extend(self, other: FormErrors) -> None:
        self.items.extend(other.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def to_dict(self) -> JSON:
        root: JSON = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def details(self) -> list[str]:
        return [
            f"{'.'.join(str(p) for p in path) or '<body>'}: {msg}" for path, _, msg in self.items
        ]

    def raise_if_any(self, kind: str) -> None:
        if self.items:
            raise ApiError(
                400,
                INVALID_FORM_BODY,
                "Invalid Form Body",
                kind=kind,
                errors=self.to_dict(),
                details=self.details(),
            )


def max_length(errors: FormErrors, path: Path, value: str | list[Any], limit: int) -> None:
    if len(value) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def bad_length(errors: FormErrors, path: Path, value: str | list[Any], low: int, high: int) -> None:
    if not low <= len(value) <= high:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


class UsageError(ValueError):
    """The test asked for something a Discord user could not do (unknown command, bad value,
    a button that is not on the message...)."""


class RefusedAnswer(AssertionError):
    """The bot answered, but the stand-in refused the answer as Discord would."""
