"""A Bowtie ``direct:`` connectable that drives a harness program over stdin/stdout.

Bowtie reaches implementations through containers, which these machines do not have;
its ``direct:`` connector imports a Python object instead. This one starts the harness
(``cmd``, split like a shell command line), writes each request as a JSON line and
reads one reply line back, as a container connection would::

    bowtie suite -i "direct:bowtie_shim:harness,cmd=target/release/mcp-jsonschema bowtie" \
        json-schema-test-suite/tests/draft2020-12

(with this folder on ``PYTHONPATH``). Used by ``scripts/bowtie.sh``.
"""

import json
import shlex
import subprocess


class Harness:
    """One running harness process."""

    def __init__(self, cmd):
        self._process = subprocess.Popen(
            shlex.split(cmd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    async def request(self, message):
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()
        if message.get("cmd") == "stop":
            # No reply to a stop: let the harness exit.
            self._process.stdin.close()
            self._process.wait()
            return {}
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the harness exited ({self._process.wait()})")
        return json.loads(line)


def harness(cmd):
    """The factory Bowtie calls (``direct:bowtie_shim:harness,cmd=...``)."""
    return lambda: Harness(cmd)
