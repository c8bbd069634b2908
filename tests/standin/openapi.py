"""Every request checked against Discord's own OpenAPI 3.1 description of its HTTP API.

The description (``discord-openapi.json``, from Discord's public discord-api-spec repository)
lives in ``shared/`` beside the repository, not in it. It is loaded and indexed once per process;
a compiled Draft 2020-12 validator is kept per operation and content type. What is checked: the
route (path template and method), path and query parameters, and the JSON body (or the
``payload_json`` part of a multipart body) against the operation's request schema, ranges,
lengths, enums and required fields included. A request it refuses is answered as Discord does:
400, code 50035, ``errors`` holding a tree of the fields at fault.

Where Discord itself is lenient and the description is silent, so is this check: query parameters
the description does not name are ignored (Discord ignores them), and formats other than integer
widths and snowflakes (``uri``, ``date-time``) are not checked.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .errors import FormErrors
from .errors import Path as FieldPath

# CI runs a fresh clone with a copy of ``shared/`` beside it: the repository root's parent.
SPEC_FILE = Path(__file__).resolve().parents[3] / "shared" / "discord-openapi.json"
SPEC_URI = "urn:discord-openapi"
JSON_TYPE = "application/json"
MULTIPART = "multipart/form-data"
METHODS = ("get", "put", "post", "patch", "delete")
INT32 = 2**31
INT64 = 2**63
# Discord parses boolean query parameters loosely; discord.py sends ``with_response=1``.
BOOLEANS = {"true": True, "false": False, "1": True, "0": False, "True": True, "False": False}
INTEGER = re.compile(r"^-?\d+$")
MEMO_SIZE = 4096  # distinct bodies whose verdict is kept


def lenient(document: dict[str, Any]) -> dict[str, Any]:
    """The description with the few places real Discord is more lenient than it, where the
    unmodified discord.py client depends on that leniency (each one says why)."""
    schemas = document["components"]["schemas"]
    # Discord reads a snowflake from a JSON string or an integer, and discord.py 2.7.1 sends
    # integers: ``recipient_id`` (Create DM), ``allowed_mentions.users`` and ``attachments[].id``
    # (a file's index). The description allows strings only.
    schemas["SnowflakeType"] = {
        "anyOf": [
            schemas["SnowflakeType"],
            {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        ]
    }
    return document


def dispatch_unions(document: dict[str, Any]) -> dict[str, Any]:
    """Rewrites each tagged union (a ``oneOf``/``anyOf`` of objects told apart by the
    enum of their ``type`` field: command options, components, callbacks) into one
    ``if``/``then`` per branch. With disjoint tags this accepts exactly what the union
    accepts, but checks the value against its own branch only, instead of all of them (several
    times faster), and reports that branch's errors."""
    schemas = document["components"]["schemas"]

    def resolve(node: Any) -> Any:
        for _ in range(16):  # chains of $refs are short
            ref = node.get("$ref", "") if isinstance(node, dict) else ""
            if not ref.startswith("#/components/schemas/"):
                break
            node = schemas[ref.rsplit("/", 1)[1]]
        return node

    def tags(branch: Any) -> list[Any] | None:
        target = resolve(branch)
        if not isinstance(target, dict) or "type" not in target.get("required", ()):
            return None
        tag = target.get("properties", {}).get("type")
        if not isinstance(tag, dict):
            return None
        if "const" in tag:
            return [tag["const"]]
        enum = tag.get("enum")
        return list(enum) if isinstance(enum, list) else None

    def rewrite(branches: list[Any]) -> list[Any] | None:
        found = [tags(b) for b in branches]
        flat = [t for ts in found if ts is not None for t in ts]
        if any(ts is None for ts in found) or len(flat) != len(set(flat)):
            return None
        guard = {"type": "object", "required": ["type"], "properties": {"type": {"enum": flat}}}
        return [guard] + [
            {"if": {"type": "object", "properties": {"type": {"enum": ts}}}, "then": branch}
            for ts, branch in zip(found, branches, strict=True)
        ]

    def visit(node: Any, depth: int) -> None:
        if depth > 64:
            return
        if isinstance(node, dict):
            for key in ("oneOf", "anyOf"):
                branches = node.get(key)
                if isinstance(branches, list) and len(branches) > 1:
                    checks = rewrite(branches)
                    if checks is not None:
                        del node[key]
                        node["allOf"] = [*node.get("allOf", []), *checks]
            for value in list(node.values()):
                visit(value, depth + 1)
        elif isinstance(node, list):
            for value in node:
                visit(value, depth + 1)

    visit(document["paths"], 0)
    visit(schemas, 0)
    return document


class SpecMissing(FileNotFoundError):
    """The description is not where the tests look for it: validation cannot be skipped."""


@dataclass(frozen=True)
class Parameter:
    name: str
    pointer: str
    required: bool


@dataclass
class Operation:
    method: str
    template: str
    path_params: dict[str, Parameter] = field(default_factory=dict)
    query_params: dict[str, Parameter] = field(default_factory=dict)
    # content type -> JSON pointer of its schema
    bodies: dict[str, str] = field(default_factory=dict)
    body_required: bool = False


@dataclass(frozen=True)
class Route:
    template: str
    segments: tuple[str | None, ...]  # None: a parameter
    names: tuple[str, ...]  # parameter names, in order
    operations: Mapping[str, Operation]

    @property
    def literal_count(self) -> int:
        return sum(s is not None for s in self.segments)


@dataclass
class Match:
    route: Route | None
    operation: Operation | None
    params: dict[str, str]


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _int32(value: object) -> bool:
    return not isinstance(value, int) or -INT32 <= value < INT32


def _int64(value: object) -> bool:
    return not isinstance(value, int) or -INT64 <= value < INT64


def _snowflake(value: object) -> bool:
    # Digits only is the pattern's job; this bounds the value to 64 bits.
    return not isinstance(value, str) or not value.isdigit() or int(value) < 2**64


def _format_checker() -> FormatChecker:
    # Only formats Discord enforces as value ranges; the rest are annotations here.
    checker = FormatChecker(formats=())
    checker.checks("int32")(_int32)
    checker.checks("int64")(_int64)
    checker.checks("snowflake")(_snowflake)
    return checker


class Spec:
    """The indexed description: routes by segment count, validators compiled on first use."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource: Resource[Any] = DRAFT202012.create_resource(document)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.format_checker = _format_checker()
        self.routes: dict[int, list[Route]] = {}
        for template, item in document["paths"].items():
            route = self._route(template, item)
            self.routes.setdefault(len(route.segments), []).append(route)
        for routes in self.routes.values():
            # The most literal template wins: ``/messages/@original`` before ``/{message_id}``.
            routes.sort(key=lambda r: -r.literal_count)
        self._validators: dict[str, Draft202012Validator] = {}
        self._checked: dict[tuple[str, str], list[tuple[FieldPath, str, str]]] = {}

    def _route(self, template: str, item: dict[str, Any]) -> Route:
        segments: list[str | None] = []
        names: list[str] = []
        for part in template.strip("/").split("/"):
            if part.startswith("{") and part.endswith("}"):
                segments.append(None)
                names.append(part[1:-1])
            else:
                segments.append(part)
        base = f"/paths/{_escape(template)}"
        shared = self._parameters(item.get("parameters", []), f"{base}/parameters")
        operations: dict[str, Operation] = {}
        for method in METHODS:
            if method not in item:
                continue
            op_pointer = f"{base}/{method}"
            spec_op = item[method]
            params = dict(shared)
            params.update(
                self._parameters(spec_op.get("parameters", []), f"{op_pointer}/parameters")
            )
            operation = Operation(method.upper(), template)
            for (where, name), param in params.items():
                target = operation.path_params if where == "path" else operation.query_params
                if where in ("path", "query"):
                    target[name] = param
            body = spec_op.get("requestBody")
            if body is not None:
                operation.body_required = bool(body.get("required"))
                for content_type in body.get("content", {}):
                    operation.bodies[content_type] = (
                        f"{op_pointer}/requestBody/content/{_escape(content_type)}/schema"
                    )
            operations[method.upper()] = operation
        return Route(template, tuple(segments), tuple(names), operations)

    def _parameters(
        self, params: list[dict[str, Any]], pointer: str
    ) -> dict[tuple[str, str], Parameter]:
        out: dict[tuple[str, str], Parameter] = {}
        for index, param in enumerate(params):
            where, name = param["in"], param["name"]
            out[(where, name)] = Parameter(
                name, f"{pointer}/{index}/schema", bool(param.get("required"))
            )
        return out

    # -- lookup ---------------------------------------------------------------------------
    def match(self, method: str, path: str) -> Match:
        """The route ``path`` (relative to the API base) falls under, and its operation."""
        parts = path.strip("/").split("/")
        for route in self.routes.get(len(parts), []):
            values: list[str] = []
            for segment, part in zip(route.segments, parts, strict=True):
                if segment is None:
                    if not part:
                        break
                    values.append(part)
                elif segment != part:
                    break
            else:
                params = dict(zip(route.names, values, strict=True))
                return Match(route, route.operations.get(method.upper()), params)
        return Match(None, None, {})

    def validator(self, pointer: str) -> Draft202012Validator:
        found = self._validators.get(pointer)
        if found is None:
            schema = {"$ref": f"{SPEC_URI}#{pointer}"}
            found = Draft202012Validator(
                schema, registry=self.registry, format_checker=self.format_checker
            )
            self._validators[pointer] = found
        return found

    # -- checking -------------------------------------------------------------------------
    def check_params(self, operation: Operation, params: Mapping[str, str],
                     query: Mapping[str, str]) -> FormErrors:
        errors = FormErrors()
        for name, value in params.items():
            param = operation.path_params.get(name)
            if param is not None:
                self._check_text(errors, (name,), param, value)
        for name, param in operation.query_params.items():
            if name in query:
                self._check_text(errors, (name,), param, query[name])
            elif param.required:
                errors.add((name,), "BASE_TYPE_REQUIRED", "This field is required")
        return errors

    def _check_text(self, errors: FormErrors, path: FieldPath, param: Parameter,
                    text: str) -> None:
        # Path and query values arrive as text; try the readings Discord's parser accepts.
        validator = self.validator(param.pointer)
        candidates: list[Any] = []
        if INTEGER.match(text):
            candidates.append(int(text))
        if text in BOOLEANS:
            candidates.append(BOOLEANS[text])
        candidates.append(text)
        first: list[ValidationError] | None = None
        for candidate in candidates:
            found = list(validator.iter_errors(candidate))
            if not found:
                return
            if first is None or all(e.validator == "type" for e in first):
                first = found
        assert first is not None
        for error in first:
            _add(errors, path, error)

    def check_body(self, operation: Operation, content_type: str, body: Any,
                   present: bool) -> FormErrors:
        """``body``: the decoded JSON (for multipart, the ``payload_json`` part)."""
        errors = FormErrors()
        if not operation.bodies:
            return errors
        if not present:
            if operation.body_required:
                errors.add((), "BASE_TYPE_REQUIRED", "A request body is required.")
            return errors
        pointer = operation.bodies.get(content_type)
        if pointer is None:
            allowed = ", ".join(operation.bodies)
            errors.add((), "CONTENT_TYPE_INVALID", f"Content type must be one of {allowed}.")
            return errors
        # Bots send the same bodies again and again (a command tree at every start, the same
        # callbacks): each distinct one is checked once.
        key = (pointer, json.dumps(body, sort_keys=True))
        items = self._checked.get(key)
        if items is None:
            found = FormErrors()
            for error in self.validator(pointer).iter_errors(body):
                _add(found, (), error)
            items = found.items
            if len(self._checked) >= MEMO_SIZE:
                self._checked.clear()
            self._checked[key] = items
        errors.items.extend(items)
        return errors


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors worth reporting: inside a ``oneOf``/``anyOf``, those of the branch whose tag
    (``type`` enum or const) and JSON type fit the value (the one with the fewest errors if
    several do)."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        yield error
        return
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    if len(branches) < len(error.validator_value):
        yield error  # several branches matched a ``oneOf``
        return
    depth = len(error.absolute_path)
    alive = [
        [leaf for sub in subs for leaf in _leaves(sub)]
        for subs in branches.values()
        if not any(_mismatch(sub, depth) for sub in subs)
    ]
    if not alive:
        yield error  # the value fits no branch's type or tag
        return
    # Untagged unions (e.g. string or integer choices): the branch the value comes closest to.
    yield from min(alive, key=len)


def _mismatch(error: ValidationError, depth: int) -> bool:
    relative = list(error.absolute_path)[depth:]
    if error.validator == "type" and not relative:
        return True
    return error.validator in ("enum", "const") and relative == ["type"]


def _add(errors: FormErrors, prefix: FieldPath, error: ValidationError) -> None:
    leaves = list(_leaves(error))
    # A width format repeats a range error at the same place: report the range.
    ranged = {tuple(x.absolute_path) for x in leaves if x.validator != "format"}
    for leaf in leaves:
        if leaf.validator == "format" and tuple(leaf.absolute_path) in ranged:
            continue
        path = prefix + tuple(leaf.absolute_path)
        code, message = _describe(leaf)
        if leaf.validator == "required":
            missing = [n for n in leaf.validator_value if n not in leaf.instance]
            for name in missing:
                errors.add((*path, name), code, message)
        else:
            errors.add(path, code, message)


# A length keyword -> the (lower, upper) pair Discord words as one rule.
LENGTHS = {
    kind: pair
    for pair in (("minLength", "maxLength"), ("minItems", "maxItems"),
                 ("minProperties", "maxProperties"))
    for kind in pair
}


def _describe(error: ValidationError) -> tuple[str, str]:
    """Discord's error code and wording for a failed keyword."""
    kind, limit = error.validator, error.validator_value
    if kind == "maximum":
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
    if kind == "minimum":
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
    if kind in LENGTHS:
        low, high = (error.schema.get(k) for k in LENGTHS[kind])
        if low is not None and high is not None:
            return "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        if high is not None:
            return "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length."
        return "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length."
    if kind == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if kind in ("enum", "const"):
        choices = limit if kind == "enum" else [limit]
        return "BASE_TYPE_CHOICES", f"Value must be one of {json.dumps(choices)}."
    if kind == "pattern":
        return "STRING_TYPE_REGEX", f"String value did not match validation regex {limit}."
    if kind == "format":
        return "NUMBER_TYPE_COERCE", f"Value {json.dumps(error.instance)} is not {limit}."
    if kind in ("oneOf", "anyOf") and error.context and all(
        sub.validator == "const" for sub in error.context
    ):
        choices = [sub.validator_value for sub in error.context]
        return "BASE_TYPE_CHOICES", f"Value must be one of {json.dumps(choices)}."
    if kind == "type":
        return "BASE_TYPE_BAD_TYPE", f"Value must be of type {json.dumps(limit)}."
    return "INVALID_FORM_BODY", error.message


@functools.cache
def load_spec(path: Path = SPEC_FILE) -> Spec:
    """The description, read once per process. A missing file fails loudly."""
    if not path.is_file():
        raise SpecMissing(
            f"Discord's OpenAPI description is missing: expected {path} (the shared/ folder "
            "beside the repository); every stand-in request is validated against it"
        )
    return Spec(dispatch_unions(lenient(json.loads(path.read_text(encoding="utf-8")))))
