"""The Validator API: verdicts, errors and their fields, options, evaluation, threads."""

from __future__ import annotations

import pickle
import threading

import pytest

from mcp_jsonschema import Evaluation, SchemaError, ValidationError, Validator

WEATHER = {
    "$defs": {"unit": {"enum": ["metric", "imperial"]}},
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "units": {"$ref": "#/$defs/unit"},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def test_verdicts():
    v = Validator(WEATHER)
    assert v.is_valid({"city": "Oslo", "days": 3, "units": "metric"})
    assert not v.is_valid({"city": "Oslo", "days": 8})
    assert v.validate({"city": "Lima"}) is None
    assert Validator(True).is_valid([1, {"a": None}])
    assert not Validator(False).is_valid(None)


def test_validation_error_fields():
    v = Validator(WEATHER)
    with pytest.raises(ValidationError) as caught:
        v.validate({"city": "Oslo", "units": "kelvin"})
    error = caught.value
    assert isinstance(error, ValueError)
    assert str(error) == '/units: expected one of "metric", "imperial", got "kelvin"'
    assert error.message == 'expected one of "metric", "imperial", got "kelvin"'
    assert error.instance_location == "/units"
    assert error.schema_location == "/$defs/unit/enum"
    assert error.keyword == "enum"
    assert error.kind == "enum"
    assert error.details == {"options": ["metric", "imperial"]}
    assert error.context == []
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.details, again.kind) == (str(error), error.details, error.kind)


@pytest.mark.parametrize(
    ("instance", "kind", "details"),
    [
        ({"city": ""}, "length", {"keyword": "minLength", "limit": 1, "actual": 0}),
        ({"city": "x", "days": 0}, "range", {"keyword": "minimum", "limit": 1}),
        ({}, "required", {"missing": "city", "because": None}),
        ({"city": "x", "extra": 1}, "unexpected", {"property": "extra"}),
        ({"city": 3}, "type", {"expected": ["string"], "actual": "integer"}),
    ],
)
def test_kinds_and_details(instance, kind, details):
    error = next(Validator(WEATHER).iter_errors(instance))
    assert (error.kind, error.details) == (kind, details), str(error)


def test_iter_errors_lists_every_error():
    errors = list(Validator(WEATHER).iter_errors({"days": 10, "units": "kelvin"}))
    assert [e.instance_location for e in errors] == ["", "/days", "/units"]
    assert list(Validator(WEATHER).iter_errors({"city": "x"})) == []


def test_hints_reach_the_message():
    error = next(Validator(WEATHER).iter_errors({"city": "x", "days": "3"}))
    assert error.message == 'expected integer, got string "3"; send the number itself, not a JSON-encoded string'
    error = next(Validator(WEATHER).iter_errors({"city": "x", "citty": 1}))
    assert 'did you mean "city"?' in error.message


def test_a_failed_union_carries_its_closest_branch():
    v = Validator(
        {
            "oneOf": [
                {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"]},
                {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]},
            ]
        }
    )
    with pytest.raises(ValidationError) as caught:
        v.validate({"kind": "square", "side": "2"})
    error = caught.value
    assert error.kind == "one_of"
    assert [e.instance_location for e in error.context] == ["/side"]
    assert str(error).splitlines()[1].startswith("  /side: expected number")


def test_schema_errors():
    with pytest.raises(SchemaError) as caught:
        Validator({"properties": {"n": {"minimum": "x"}}})
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.location == "/properties/n/minimum"
    assert error.kind == "invalid_keyword"
    assert str(error).startswith("/properties/n/minimum: ")
    with pytest.raises(SchemaError) as caught:
        Validator({"$ref": "https://example.com/s.json"})
    assert caught.value.kind == "unresolvable_reference"
    with pytest.raises(SchemaError, match="unknown draft"):
        Validator({}, draft="2030")


def test_drafts():
    # Draft 4's exclusiveMaximum is a boolean; 2020-12's a number.
    schema = {"maximum": 5, "exclusiveMaximum": True}
    assert not Validator(schema, draft="4").is_valid(5)
    assert not Validator(schema, draft=4).is_valid(5)
    assert not Validator(schema, draft="http://json-schema.org/draft-04/schema#").is_valid(5)
    with pytest.raises(SchemaError):
        Validator(schema)


def test_resources_are_the_only_remote_references():
    v = Validator(
        {"$ref": "http://localhost:1234/tree.json"},
        resources={"http://localhost:1234/tree.json": {"type": "array", "items": {"$ref": "#"}}},
    )
    assert v.is_valid([[], [[]]])
    assert not v.is_valid([[], 1])


def test_formats_annotate_unless_asserted():
    assert Validator({"format": "email"}).is_valid("nope")
    assert not Validator({"format": "email"}, assert_formats=True).is_valid("nope")
    assert Validator({"format": "email"}, assert_formats=True).is_valid("a@example.com")


def test_formats_of_your_own():
    seen = []

    def ticket(text: str) -> bool:
        seen.append(text)
        return text.startswith("TICKET-")

    v = Validator({"items": {"format": "ticket"}}, assert_formats=True, formats={"ticket": ticket})
    assert v.is_valid(["TICKET-1", 2])
    assert not v.is_valid(["TICKET-1", "7"])
    assert seen == ["TICKET-1", "TICKET-1", "7"]
    error = next(v.iter_errors(["x"]))
    assert (error.kind, error.details) == ("format", {"format": "ticket"})


def test_a_format_checker_that_raises_makes_validation_raise():
    def broken(text: str) -> bool:
        raise KeyError(text)

    v = Validator({"format": "x"}, assert_formats=True, formats={"x": broken})
    for run in (v.is_valid, v.validate, lambda i: list(v.iter_errors(i))):
        with pytest.raises(KeyError, match="boom"):
            run("boom")
    assert v.is_valid(1)  # nothing pending afterwards
    with pytest.raises(TypeError, match="not callable"):
        Validator({}, formats={"x": 3})


def test_evaluate():
    v = Validator({"title": "Weather", "properties": {"days": {"type": "integer", "description": "How many"}}})
    evaluation = v.evaluate({"days": 3})
    assert isinstance(evaluation, Evaluation)
    assert evaluation.valid
    assert evaluation.flag() == {"valid": True}
    found = [(a["instance_location"], a["keyword"], a["value"]) for a in evaluation.annotations()]
    assert found == [("", "title", "Weather"), ("/days", "description", "How many"), ("", "properties", ["days"])]
    assert evaluation.basic()["valid"] is True
    failed = v.evaluate({"days": "3"})
    assert not failed.valid
    assert failed.annotations() == []
    assert [e.instance_location for e in failed.errors()] == ["/days"]
    basic = failed.basic()
    assert basic["valid"] is False
    assert basic["errors"][0]["instanceLocation"] == "/days"
    assert failed.detailed()["valid"] is False
    assert failed.verbose()["valid"] is False


def test_one_validator_shared_by_threads():
    v = Validator(WEATHER)
    good = {"city": "Oslo", "days": 3, "units": "metric", "tags": list(range(100))}
    good.pop("tags")
    big_good = [{"city": f"c{i}", "days": 1 + i % 7} for i in range(200)]
    list_schema = Validator({"$defs": WEATHER["$defs"], "type": "array", "items": WEATHER})
    failures = []

    def work():
        for _ in range(200):
            if not v.is_valid(good) or v.is_valid({"days": 9}):
                failures.append("small")
            if not list_schema.is_valid(big_good):
                failures.append("large")
            try:
                list_schema.validate(big_good + [{"city": 1}])
                failures.append("no error")
            except ValidationError as error:
                if error.instance_location != "/200/city":
                    failures.append(error.instance_location)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_the_gil_is_released_while_a_large_instance_is_validated():
    # Another thread counts, with timestamps, while a large instance is validated with
    # no Python code in the schema. Holding the GIL, the engine would leave that thread
    # no bytecode to run until the call returned: no count could fall inside the call.
    import sys
    import time

    # A lookahead pattern runs on the backtracking engine, a few steps per character:
    # the check takes far longer than reading the 2,000 strings in.
    v = Validator({"items": {"pattern": "^(?:(?=a)a)*$"}})
    instance = ["a" * 2_000] * 8_000  # 200 ms or so
    ticks = []
    stop = threading.Event()

    def other():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    thread = threading.Thread(target=other)
    thread.start()
    try:
        while not ticks:
            time.sleep(0.001)
        start = time.perf_counter()
        assert v.is_valid(instance)
        end = time.perf_counter()
    finally:
        stop.set()
        thread.join()
    # A margin at both ends: at the call's bytecode boundaries the GIL may change hands
    # for a switch interval (5 ms) whether or not the engine releases it.
    margin = 3 * sys.getswitchinterval()
    inside = [t for t in ticks if start + margin < t < end - margin]
    assert end - start > 4 * margin, f"the call took {end - start:.3f} s: too quick to tell"
    assert inside, f"no tick in {end - start:.3f} s of validation"
