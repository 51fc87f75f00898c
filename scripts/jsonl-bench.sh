#!/usr/bin/env bash
# "JSON Lines at scale" (README): generates logs of 10k, 100k and 1M tool calls for
# examples/get-weather.schema.json (70% valid; the rest an empty city, a made-up unit, a
# day out of range or sent as a string, an extra property, a null), then times
# `validate --mcp-input --jsonl` on each with every binary given, text output to
# /dev/null, and prints one Markdown table row per run: wall time and peak RSS.
#
# Usage: scripts/jsonl-bench.sh [BINARY ...]   (default: target/release/mcp-jsonschema)
# Environment: JSONL_BENCH_LINES (default "10000 100000 1000000"), JSONL_BENCH_TIMEOUT
# (seconds per run, default 600; a run cut off shows "> N s").
# The logs go to a temporary directory, removed at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(target/release/mcp-jsonschema)
read -r -a counts <<<"${JSONL_BENCH_LINES:-10000 100000 1000000}"
limit=${JSONL_BENCH_TIMEOUT:-600}
schema=examples/get-weather.schema.json
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Line i's call is chosen by arithmetic on i, so every awk writes the same file.
generate() {
    awk -v n="$1" 'BEGIN {
        split("Oslo|Lima|São Paulo|Zürich|東京|Reykjavík|New York|Cape Town|Kraków|Montréal", city, "|")
        for (i = 1; i <= n; i++) {
            c = "\"" city[i % 10 + 1] "\""; d = i % 7 + 1; k = i % 20
            if (k < 6)       printf "{\"city\": %s, \"units\": \"metric\", \"days\": %d}\n", c, d
            else if (k < 10) printf "{\"city\": %s, \"units\": \"imperial\"}\n", c
            else if (k < 12) printf "{\"city\": %s}\n", c
            else if (k < 14) printf "{\"days\": %d, \"city\": %s}\n", d, c
            else if (k == 14) printf "{\"city\": \"\", \"units\": \"metric\"}\n"
            else if (k == 15) printf "{\"units\": \"kelvin\", \"days\": 10}\n"
            else if (k == 16) printf "{\"city\": %s, \"days\": \"%d\"}\n", c, d
            else if (k == 17) printf "{\"city\": %s, \"verbose\": true}\n", c
            else if (k == 18) printf "{\"city\": %s, \"days\": 0, \"units\": \"celsius\"}\n", c
            else              printf "{\"city\": null}\n"
        }
    }'
}

echo "| binary | lines | MB | wall time | peak RSS | summary (stderr) |"
echo "|---|---:|---:|---:|---:|---|"
for n in "${counts[@]}"; do
    log="$dir/calls-$n.jsonl"
    generate "$n" >"$log"
    mb=$(awk -v b="$(wc -c <"$log")" 'BEGIN { printf "%.2f", b / 1e6 }')
    for binary in "${binaries[@]}"; do
        status=0
        if [ -x /usr/bin/time ]; then
            timeout "$limit" /usr/bin/time -f '%e %M' -o "$dir/time" \
                "$binary" validate --mcp-input "$schema" --jsonl "$log" \
                >/dev/null 2>"$dir/stderr" || status=$?
        else
            # No GNU time: wall time from bash, no RSS.
            start=$(date +%s.%N)
            timeout "$limit" "$binary" validate --mcp-input "$schema" --jsonl "$log" \
                >/dev/null 2>"$dir/stderr" || status=$?
            echo "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') -" >"$dir/time"
        fi
        if [ "$status" = 124 ]; then
            echo "| $(basename "$binary") | $n | $mb | > $limit s (cut off) | - | - |"
            continue
        fi
        # GNU time puts "Command exited with non-zero status" first for exit code 1.
        read -r seconds kb < <(tail -n 1 "$dir/time")
        rss=$([ "$kb" = - ] && echo - || awk -v k="$kb" 'BEGIN { printf "%.1f MiB", k / 1024 }')
        summary=$(tail -n 1 "$dir/stderr")
        echo "| $(basename "$binary") | $n | $mb | $seconds s | $rss | $summary (exit $status) |"
    done
done
