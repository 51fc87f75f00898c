"""The exceptions of mcp_jsonschema: built by the native module, defined here so that
they are plain Python classes (attributes, pickling, subclassing as usual)."""

from __future__ import annotations

from typing import Any


class ValidationError(ValueError):
    """An instance that does not conform to its schema.

    ``str(error)`` is ``location: message`` (``(root)`` for the whole instance), followed,
    for an ``anyOf`` / ``oneOf`` that no branch accepts, by the closest branch's errors,
    one per line, indented.
    """

    message: str
    """The problem in words, hints included, without the location."""
    instance_location: str
    """JSON Pointer to the failing part of the instance (``""`` for the whole)."""
    schema_location: str
    """JSON Pointer to the schema keyword that failed."""
    keyword: str | None
    """The keyword that failed (``"minimum"``, ``"required"``); None for a ``false``
    schema and for a stop at a limit."""
    kind: str
    """Which check failed, in snake case: ``"type"``, ``"required"``, ``"any_of"``,
    ``"false_schema"``, ``"budget_exhausted"``, ..."""
    details: dict[str, Any]
    """The failed keyword's operands (``{"keyword": "maxLength", "limit": 3,
    "actual": 5}``); empty for applicators and limit stops."""
    context: list[ValidationError]
    """For a failed ``anyOf`` / ``oneOf``: the closest branch's errors; else empty."""

    def __init__(
        self,
        text: str,
        message: str,
        instance_location: str,
        schema_location: str,
        keyword: str | None,
        kind: str,
        details: dict[str, Any],
        context: list[ValidationError],
    ) -> None:
        super().__init__(text)
        self.message = message
        self.instance_location = instance_location
        self.schema_location = schema_location
        self.keyword = keyword
        self.kind = kind
        self.details = details
        self.context = context

    def __reduce__(self) -> Any:
        return (
            type(self),
            (
                self.args[0],
                self.message,
                self.instance_location,
                self.schema_location,
                self.keyword,
                self.kind,
                self.details,
                self.context,
            ),
        )


class SchemaError(ValueError):
    """A schema that cannot be compiled. ``str(error)`` is ``location: message``."""

    location: str
    """JSON Pointer to the offending place in the schema (prefixed by a registered
    document's URI when the problem lies there)."""
    kind: str
    """What kind of problem, in snake case: ``"invalid_keyword"``, ``"invalid_pattern"``,
    ``"unresolvable_reference"``, ``"forbidden_reference"``, ``"unknown_dialect"``,
    ``"limit_exceeded"``, ..."""
    message: str
    """The problem in words, without the location."""

    def __init__(self, text: str, location: str, kind: str, message: str) -> None:
        super().__init__(text)
        self.location = location
        self.kind = kind
        self.message = message

    def __reduce__(self) -> Any:
        return (type(self), (self.args[0], self.location, self.kind, self.message))
