"""Python objects in: what is JSON, what is refused (a TypeError naming where), and that
nothing crashes or recurses without bound."""

from __future__ import annotations

import collections
import enum

import pytest

from mcp_jsonschema import Validator
from mcp_jsonschema.mcp import ToolSchema

ANY = Validator(True)


def same(instance, expected):
    """`instance` is read as the JSON value `expected`."""
    assert Validator({"const": expected}).is_valid(instance), (instance, expected)


def test_json_types():
    same({"a": [1, 2.5, "x", True, None]}, {"a": [1, 2.5, "x", True, None]})
    same((1, (2, 3)), [1, [2, 3]])
    same("ünïcødé ✓", "ünïcødé ✓")
    assert not Validator({"const": 1}).is_valid(True)
    assert Validator({"type": "integer"}).is_valid(1.0)
    assert not Validator({"type": "integer"}).is_valid(1.5)
    assert Validator({"type": "boolean"}).is_valid(False)
    assert Validator({"type": "null"}).is_valid(None)


def test_subclasses_are_read_as_their_base():
    class Color(enum.IntEnum):
        RED = 1

    class Name(str):
        def __str__(self):
            raise AssertionError("no method of the subclass runs")

    same(collections.OrderedDict(a=Color.RED), {"a": 1})
    same(collections.defaultdict(list, {Name("k"): [Name("v")]}), {"k": ["v"]})


def test_integers():
    same(2**63 - 1, 2**63 - 1)
    same(2**64 - 1, 2**64 - 1)
    same(-(2**63), -(2**63))
    assert Validator({"minimum": 2**64}).is_valid(2**70)
    assert not Validator({"maximum": 2**64}).is_valid(2**70)
    assert Validator({"type": "integer"}).is_valid(10**30)
    with pytest.raises(TypeError, match=r"instance at /n: this int \(401 digits\) is too large"):
        ANY.is_valid({"n": 10**400})


@pytest.mark.parametrize(
    ("instance", "message"),
    [
        ({"a": {1, 2}}, "instance at /a: set is not a JSON value"),
        ({"a": [b"x"]}, "instance at /a/0: bytes is not a JSON value"),
        ({1: 2}, r"instance at \(root\): a dict key must be a str, got int"),
        ({"a": {(1,): 2}}, "instance at /a: a dict key must be a str, got tuple"),
        ([float("nan")], "instance at /0: float nan is not a JSON number"),
        ({"x": float("inf")}, "instance at /x: float inf is not a JSON number"),
        ([-float("inf")], "instance at /0: float -inf is not a JSON number"),
        ({"s": "\ud800"}, "instance at /s: this str is not valid Unicode"),
        ({"a/b": {"~": object()}}, "instance at /a~1b/~0: object is not a JSON value"),
        (1j, r"instance at \(root\): complex is not a JSON value"),
    ],
)
def test_what_is_not_json_is_a_type_error_naming_where(instance, message):
    for run in (ANY.is_valid, ANY.validate, lambda i: list(ANY.iter_errors(i)), ANY.evaluate):
        with pytest.raises(TypeError, match=message):
            run(instance)


def test_a_container_that_contains_itself():
    loop = []
    loop.append(loop)
    with pytest.raises(TypeError, match=r"instance at /0: this list contains itself: it is the one at \(root\)"):
        ANY.is_valid(loop)
    data = {"a": [1, {}]}
    data["a"][1]["b"] = data["a"]
    with pytest.raises(TypeError, match="instance at /a/1/b: this list contains itself: it is the one at /a"):
        ANY.is_valid(data)
    cyclic = {}
    cyclic["self"] = cyclic
    with pytest.raises(TypeError, match="this dict contains itself"):
        Validator(cyclic)


def nested(levels: int) -> object:
    """A string inside `levels` lists."""
    value: object = "leaf"
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("checker", "bound"),
    [(ANY, 1000), (ToolSchema.output({"type": "array"}), 256)],  # the MCP profile's: 256
)
def test_nesting_past_the_evaluation_depth(checker, bound):
    assert checker.is_valid(nested(bound))
    with pytest.raises(TypeError, match=f"nested deeper than {bound} levels"):
        checker.is_valid(nested(bound + 1))


def test_very_deep_nesting_is_no_crash():
    deep = None
    for _ in range(200_000):
        deep = {"a": deep}
    with pytest.raises(TypeError, match="nested deeper than 1000 levels"):
        ANY.is_valid(deep)


def test_schemas_are_converted_the_same_way():
    with pytest.raises(TypeError, match="schema at /properties/a: set is not a JSON value"):
        Validator({"properties": {"a": {1}}})
    with pytest.raises(TypeError, match="schema at /enum/0: float nan"):
        Validator({"enum": [float("nan")]})
