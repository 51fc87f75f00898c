"""Type stubs of mcp_jsonschema.mcp."""

from collections.abc import Iterator, Sequence
from typing import Any, Literal

from mcp_jsonschema import JSON
from mcp_jsonschema._errors import SchemaError, ValidationError

MAX_SCHEMA_DEPTH: int
MAX_SUBSCHEMAS: int
STEP_BUDGET: int
MAX_EVALUATION_DEPTH: int

class ToolSchema:
    """A tool's ``inputSchema`` or ``outputSchema`` compiled under the MCP profile."""

    @staticmethod
    def input(schema: JSON) -> ToolSchema:
        """Compiles an ``inputSchema``: an object schema whose ``type`` is ``"object"``
        (added when missing). Raises ``SchemaError``."""
    @staticmethod
    def output(schema: JSON) -> ToolSchema:
        """Compiles an ``outputSchema``: any schema; its root becomes an object schema
        only when nothing else gives it a shape. Raises ``SchemaError``."""
    @property
    def role(self) -> Literal["input", "output"]: ...
    def is_valid(self, instance: JSON) -> bool:
        """Whether ``instance`` (arguments, or structured content) conforms."""
    def validate(self, instance: JSON) -> None:
        """Raises ``ValidationError`` (the first error) unless ``instance`` conforms."""
    def iter_errors(self, instance: JSON) -> Iterator[ValidationError]:
        """Every error of ``instance``."""
    def to_wire(self) -> dict[str, Any]:
        """The schema as ``tools/list`` should carry it (root type default, ``$schema``)."""
    def memory_usage(self) -> int: ...

class ToolReport:
    """What ``check_tools_list`` found for one tool."""

    name: str
    input: ToolSchema | SchemaError
    output: ToolSchema | SchemaError | None
    ok: bool
    problems: list[str]

def text_fallback(
    structured_content: JSON, content: Sequence[JSON] | None = None
) -> dict[str, Any] | None:
    """The TextContent block to add beside ``structured_content`` for clients that only
    read ``content``: one for a non-object result when ``content`` has no text block."""

def check_tools_list(result: JSON) -> list[ToolReport]:
    """Compiles the schemas of every tool of a ``tools/list`` result (``{"tools": [...]}``
    or the list itself); one tool's problems never stop the others."""

class SchemaCache:
    """A bounded, thread-safe cache of compiled tool schemas, keyed by content; errors
    are never cached."""

    def __init__(self, capacity: int = 1024) -> None: ...
    def input(self, schema: JSON) -> ToolSchema: ...
    def output(self, schema: JSON) -> ToolSchema: ...
    @property
    def capacity(self) -> int: ...
    def memory_usage(self) -> int: ...
    def __len__(self) -> int: ...
