"""Per-call times of mcp_jsonschema against what Python users have, on the four MCP cases
(benches/data/mcp) and three field cases (the `classic/` data the Rust benchmarks use:
GeoJSON, CITM catalog, Fast), interleaved in one process.

    scripts/python.sh --bench            # builds the wheel, installs the peers, runs this

Peers: python-jsonschema 4.26 (the MCP SDK's), jsonschema-rs 0.61.2 (the Rust
`jsonschema` crate's binding) and fastjsonschema 2.22 (drafts 4, 6 and 7 only: shown
where it gives every verdict ours gives). Metrics, per call, best of `--repeat` rounds
(each operation of a case timed in turn, round after round):
compile (the schema checked and compiled, as each library does it), `is_valid` on the
case's valid instances, and `validate` on its invalid ones (the exception raised and
caught). "conversion" is ours on the `true` schema: reading the instance from Python
objects, which every call pays before validating.

The field cases' data is `$MCP_JSONSCHEMA_BENCH_DATA`, else `shared/bench-data` beside
the repository; without it only the MCP cases run.
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import json
import os
import pathlib
import sys
import timeit
from collections.abc import Callable
from typing import Any

import fastjsonschema
import jsonschema
import jsonschema_rs

import mcp_jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_cases() -> list[tuple[str, Any, list[Any], list[Any]]]:
    """(name, schema, valid instances, invalid instances) per case."""
    cases = []
    for name in ("conditional", "pydantic", "weather", "zod"):
        data = json.loads((ROOT / "benches" / "data" / "mcp" / f"{name}.json").read_text())
        cases.append((f"mcp-{name}", data["schema"], data["valid"], data["invalid"]))
    data_dir = pathlib.Path(os.environ.get("MCP_JSONSCHEMA_BENCH_DATA", ROOT.parent / "shared" / "bench-data"))
    classic = data_dir / "classic"
    if not classic.is_dir():
        print(f"bench: no field cases ({classic} not found)", file=sys.stderr)
        return cases

    def read(file: str) -> Any:
        return json.loads((classic / file).read_text())

    cases.append(("GeoJSON", read("geojson.json"), [read("canada.json")], []))
    cases.append(("CITM catalog", read("citm_catalog_schema.json"), [read("citm_catalog.json")], []))
    cases.append(("Fast", read("fast_schema.json"), [read("fast_valid.json")], [read("fast_invalid.json")]))
    return cases


class Peer:
    """One library: how it compiles, answers and raises."""

    def __init__(self, name: str, compile: Callable[[Any], Any], is_valid: Callable[[Any, Any], bool],
                 validate: Callable[[Any, Any], None], error: type[BaseException]) -> None:
        self.name, self.compile, self.is_valid, self.validate, self.error = name, compile, is_valid, validate, error


def python_jsonschema_compile(schema: Any) -> Any:
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def fast_is_valid(check: Any, instance: Any) -> bool:
    try:
        check(instance)
        return True
    except fastjsonschema.JsonSchemaException:
        return False


PEERS = [
    Peer("mcp_jsonschema", mcp_jsonschema.Validator, lambda v, i: v.is_valid(i), lambda v, i: v.validate(i),
         mcp_jsonschema.ValidationError),
    # Formats as annotations for all three peers, as ours and python-jsonschema take them
    # by default (jsonschema-rs and fastjsonschema assert them in draft 7).
    Peer("jsonschema-rs", lambda schema: jsonschema_rs.validator_for(schema, validate_formats=False), lambda v, i: v.is_valid(i), lambda v, i: v.validate(i),
         jsonschema_rs.ValidationError),
    Peer("python-jsonschema", python_jsonschema_compile, lambda v, i: v.is_valid(i), lambda v, i: v.validate(i),
         jsonschema.ValidationError),
    Peer("fastjsonschema", lambda schema: fastjsonschema.compile(schema, use_formats=False), fast_is_valid, lambda v, i: v(i),
         fastjsonschema.JsonSchemaException),
]


class Timing:
    """One timed operation: `run` makes `calls` calls; its best time per call over the
    rounds it was given."""

    def __init__(self, run: Callable[[], Any], calls: int) -> None:
        self.timer = timeit.Timer(run)
        number, elapsed = self.timer.autorange()
        # About 50 ms a round.
        self.number = max(1, int(number * 0.05 / max(elapsed, 1e-9)))
        self.calls = calls
        self.best = float("inf")

    def round(self) -> None:
        self.best = min(self.best, self.timer.timeit(self.number) / self.number)

    def per_call(self) -> float:
        """Microseconds."""
        return self.best / self.calls * 1e6


def measure(case: tuple[str, Any, list[Any], list[Any]], repeat: int) -> dict[str, dict[str, float | None]]:
    """Per-call times by peer and metric; the operations of a case are timed in turn, one
    round each, `repeat` times, so that the machine's drift falls on all of them alike."""
    name, schema, valid, invalid = case
    ours = mcp_jsonschema.Validator(schema)
    timings: dict[tuple[str, str], Timing] = {}
    for peer in PEERS:
        try:
            compiled = peer.compile(schema)
        except Exception as error:  # fastjsonschema refuses some dialects
            print(f"bench: {name}: {peer.name} cannot compile: {type(error).__name__}", file=sys.stderr)
            continue
        verdicts = [peer.is_valid(compiled, i) for i in valid + invalid]
        if verdicts != [ours.is_valid(i) for i in valid + invalid]:
            print(f"bench: {name}: {peer.name} disagrees with ours: left out", file=sys.stderr)
            continue

        def failing(peer: Peer = peer, compiled: Any = compiled) -> None:
            for instance in invalid:
                try:
                    peer.validate(compiled, instance)
                except peer.error:
                    pass

        timings[peer.name, "compile"] = Timing(lambda peer=peer: peer.compile(schema), 1)
        timings[peer.name, "is_valid"] = Timing(
            lambda peer=peer, compiled=compiled: [peer.is_valid(compiled, i) for i in valid], len(valid)
        )
        if invalid:
            timings[peer.name, "validate"] = Timing(failing, len(invalid))
    anything = mcp_jsonschema.Validator(True)
    timings["conversion", "is_valid"] = Timing(lambda: [anything.is_valid(i) for i in valid], len(valid))
    for _ in range(repeat):
        for timing in timings.values():
            timing.round()
    results: dict[str, dict[str, float | None]] = {}
    for peer in [p.name for p in PEERS] + ["conversion"]:
        results[peer] = {
            metric: (timings[peer, metric].per_call() if (peer, metric) in timings else None)
            for metric in ("compile", "is_valid", "validate")
        }
    return results


def cell(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in
                         ("mcp-jsonschema", "jsonschema-rs", "jsonschema", "fastjsonschema"))
    print(f"Python {sys.version.split()[0]}; {versions}; microseconds per call, best of {args.repeat}\n")
    names = [peer.name for peer in PEERS]
    print("| case | per call | " + " | ".join(names) + " | python-jsonschema / ours | jsonschema-rs / ours | conversion / ours |")
    print("|---|---|" + "---:|" * (len(names) + 3))
    for case in load_cases():
        results = measure(case, args.repeat)
        for metric in ("compile", "is_valid", "validate"):
            ours = results["mcp_jsonschema"][metric]
            if ours is None:
                continue
            cells = [cell(results[name][metric]) for name in names]
            ratios = []
            for peer in ("python-jsonschema", "jsonschema-rs"):
                theirs = results[peer][metric]
                ratios.append("-" if theirs is None else f"{theirs / ours:.1f}x")
            share = results["conversion"]["is_valid"] / ours if metric == "is_valid" else None
            ratios.append("-" if share is None else f"{min(share, 1.0):.0%}")
            print(f"| {case[0]} | {metric} | " + " | ".join(cells + ratios) + " |")


if __name__ == "__main__":
    main()
