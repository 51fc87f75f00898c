"""The Model Context Protocol profile: tool ``inputSchema`` / ``outputSchema`` rules,
resource bounds, the ``structuredContent`` text fallback, a ``tools/list`` checker and a
bounded cache of compiled tool schemas.

The profile: schema depth 64, 10,000 subschemas, a step budget per validation
(``STEP_BUDGET``), evaluation depth 256, same-document references only (``#...``; any
other is a ``SchemaError`` of kind ``forbidden_reference``, never fetched), 2020-12 by
default with 2019-09, draft 7 and draft 6 when declared, ``format`` as an annotation.

>>> from mcp_jsonschema.mcp import ToolSchema
>>> tool = ToolSchema.input({"properties": {"city": {"type": "string"}}, "required": ["city"]})
>>> tool.is_valid({"city": "Oslo"})
True
>>> tool.to_wire()["type"]
'object'
"""

from mcp_jsonschema._native import (
    MAX_EVALUATION_DEPTH,
    MAX_SCHEMA_DEPTH,
    MAX_SUBSCHEMAS,
    STEP_BUDGET,
    SchemaCache,
    ToolReport,
    ToolSchema,
    check_tools_list,
    text_fallback,
)

__all__ = [
    "MAX_EVALUATION_DEPTH",
    "MAX_SCHEMA_DEPTH",
    "MAX_SUBSCHEMAS",
    "STEP_BUDGET",
    "SchemaCache",
    "ToolReport",
    "ToolSchema",
    "check_tools_list",
    "text_fallback",
]
