"""Type stubs of mcp_jsonschema (the classes are native, built from crates/python)."""

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from mcp_jsonschema._errors import SchemaError as SchemaError
from mcp_jsonschema._errors import ValidationError as ValidationError

__version__: str

JSON = dict[str, Any] | list[Any] | tuple[Any, ...] | str | int | float | bool | None
"""What an instance or a schema may be: JSON as Python's `json` module reads it (tuples
read as arrays; subclasses of these types as their base)."""

class Validator:
    """A compiled JSON Schema, ready to validate any number of instances from any thread.

    Args:
        schema: the schema (a dict or a bool).
        draft: the dialect of a schema without ``$schema``: ``"2020-12"`` (the default),
            ``"2019-09"``, ``"7"``, ``"6"``, ``"4"``, or a metaschema URI.
        assert_formats: whether ``format`` is an assertion (off: an annotation only).
        resources: documents that ``$ref`` may name, by URI. Nothing is ever fetched: an
            unregistered remote reference is a ``SchemaError``.
        formats: checkers of your own, by format name, each ``callable(str) -> bool``,
            run where formats are asserted (``assert_formats=True``); one that raises
            makes the validation raise that exception.

    Raises:
        SchemaError: the schema cannot be compiled (``location`` says where).
        TypeError: the schema or a resource is not JSON.
    """

    def __init__(
        self,
        schema: JSON,
        *,
        draft: str | int | None = None,
        assert_formats: bool = False,
        resources: Mapping[str, JSON] | None = None,
        formats: Mapping[str, Callable[[str], bool]] | None = None,
    ) -> None: ...
    def is_valid(self, instance: JSON) -> bool:
        """Whether ``instance`` conforms. Raises TypeError if it is not JSON."""
    def validate(self, instance: JSON) -> None:
        """Raises ``ValidationError`` (the first error) unless ``instance`` conforms."""
    def iter_errors(self, instance: JSON) -> Iterator[ValidationError]:
        """Every error of ``instance``, in schema order (none when it conforms)."""
    def evaluate(self, instance: JSON) -> Evaluation:
        """One evaluation: verdict, errors, annotations and the 2020-12 output formats.
        The first call builds an annotating program beside the validating one."""
    def memory_usage(self) -> int:
        """Approximate heap bytes held by the compiled schema."""

class Evaluation:
    """The result of ``Validator.evaluate``."""

    @property
    def valid(self) -> bool:
        """Whether the instance conforms."""
    def errors(self) -> list[ValidationError]:
        """Every error (none when the instance conforms)."""
    def annotations(self) -> list[dict[str, Any]]:
        """The annotations of the subschemas that passed, each a dict with
        ``instance_location``, ``keyword_location``, ``absolute_keyword_location``,
        ``schema_location``, ``keyword`` and ``value``."""
    def flag(self) -> dict[str, Any]:
        """The ``flag`` output format: ``{"valid": ...}``."""
    def basic(self) -> dict[str, Any]:
        """The ``basic`` output format."""
    def detailed(self) -> dict[str, Any]:
        """The ``detailed`` output format."""
    def verbose(self) -> dict[str, Any]:
        """The ``verbose`` output format."""
