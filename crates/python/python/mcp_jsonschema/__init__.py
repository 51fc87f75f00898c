"""mcp-jsonschema for Python: a fast, resource-bounded JSON Schema validator (2020-12,
2019-09, drafts 7, 6 and 4) specialised for the Model Context Protocol.

>>> from mcp_jsonschema import Validator
>>> validator = Validator({"type": "object", "required": ["city"]})
>>> validator.is_valid({"city": "Oslo"})
True
>>> validator.validate({})
Traceback (most recent call last):
  ...
mcp_jsonschema._errors.ValidationError: (root): missing required property "city"

Instances are read as Python objects (dict, list, tuple, str, int, float, bool, None),
never as JSON text; anything else is a TypeError naming where it is. References resolve
only to the schema itself, the resources you register and the official metaschemas:
nothing is ever fetched. ``mcp_jsonschema.mcp`` holds the MCP profile (tool schemas, the
text fallback, the ``tools/list`` checker, a schema cache); ``mcp_jsonschema.sdk`` plugs
it into the official MCP Python SDK.
"""

from typing import Any

from mcp_jsonschema._errors import SchemaError, ValidationError
from mcp_jsonschema._native import Evaluation, Validator, __version__

JSON = dict[str, Any] | list[Any] | tuple[Any, ...] | str | int | float | bool | None
"""What an instance or a schema may be."""

__all__ = ["JSON", "Evaluation", "SchemaError", "ValidationError", "Validator", "__version__"]
