"""A Bowtie harness over the binding, in process: Bowtie's ``direct:`` connector imports
it, so the official suite reaches the engine without a subprocess or a container::

    bowtie suite -i direct:mcp_jsonschema.bowtie:harness json-schema-test-suite/tests/draft2020-12

It speaks Bowtie's protocol (version 1) as the ``mcp-jsonschema bowtie`` command does:
flag runs through ``Validator.is_valid``, annotation runs through
``Validator.evaluate``, the case's registry registered as ``resources`` (nothing is
ever fetched). Used by ``scripts/bowtie.sh``.
"""

from __future__ import annotations

import platform
import traceback
from typing import Any

from mcp_jsonschema import Validator, __version__

DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema#": "7",
    "http://json-schema.org/draft-06/schema#": "6",
    "http://json-schema.org/draft-04/schema#": "4",
}
"""The dialects, by the URI Bowtie names them with, as ``Validator(draft=...)`` takes them."""

HOME = "https://crates.io/crates/mcp-jsonschema"


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class Harness:
    """One connection: the dialect it was told, and the answers."""

    def __init__(self) -> None:
        self._draft = "2020-12"

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        command = message.get("cmd")
        if command == "start":
            return {
                "version": 1,
                "implementation": {
                    "language": "python",
                    "name": "mcp-jsonschema-python",
                    "version": __version__,
                    "dialects": list(DIALECTS),
                    "homepage": HOME,
                    "documentation": HOME,
                    "issues": HOME,
                    "source": HOME,
                    "language_version": platform.python_version(),
                    "os": platform.system(),
                },
            }
        if command == "dialect":
            draft = DIALECTS.get(message.get("dialect", ""))
            if draft is None:
                return {"ok": False}
            self._draft = draft
            return {"ok": True}
        if command == "run":
            return self._run(message)
        if command == "stop":
            return {}
        raise RuntimeError(f"unknown request: {message!r}")

    def _run(self, message: dict[str, Any]) -> dict[str, Any]:
        seq = message.get("seq")
        case = message.get("case", {})
        output = message.get("output", "flag")
        if output not in ("flag", "annotations"):
            return {"seq": seq, "skipped": True, "message": f"the {output!r} output is not supported"}
        try:
            validator = Validator(case["schema"], draft=self._draft, resources=case.get("registry"))
        except Exception as error:  # noqa: BLE001  (reported, as Bowtie asks)
            return {"seq": seq, "errored": True, "context": {"message": f"the schema does not compile: {error}"}}
        results = []
        for test in case["tests"]:
            try:
                if output == "flag":
                    results.append({"valid": validator.is_valid(test["instance"])})
                else:
                    results.append(_annotated(validator, test["instance"]))
            except Exception as error:  # noqa: BLE001
                results.append(
                    {"errored": True, "context": {"message": str(error), "traceback": traceback.format_exc()}}
                )
        return {"seq": seq, "results": results}


def _annotated(validator: Validator, instance: Any) -> dict[str, Any]:
    evaluation = validator.evaluate(instance)
    annotations = []
    for annotation in evaluation.annotations():
        place = annotation["schema_location"]
        location = place if "#" in place else f"#{place}"
        annotations.append(
            {
                "keyword": annotation["keyword"],
                "instanceLocation": annotation["instance_location"],
                "keywordLocation": f"{location}/{_escape(annotation['keyword'])}",
                "annotation": annotation["value"],
            }
        )
    return {"valid": evaluation.valid, "annotations": annotations}


def harness() -> type[Harness]:
    """The factory Bowtie's ``direct:`` connector calls (``direct:mcp_jsonschema.bowtie:harness``)."""
    return Harness
