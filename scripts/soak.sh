#!/usr/bin/env bash
# The soak test of the README ("Load and churn"), in a release build: the checks of
# tests/load.rs for minutes. 2, 4 and 8 threads share one Validator per benchmark case and
# one SchemaCache, each thread count for SOAK_SECONDS (60 by default; the first argument
# overrides it), over every instance of every case; then a cache of 1,000 is fed 10,000
# distinct tool schemas (variants of every case's) from one thread and 10,000 more from 8.
# Prints the report: verdicts, checks per second, resident memory per round, the cache's
# bound and its memory_usage() against the heap and the resident memory it took.
#
# The benchmark data is ../shared/bench-data beside the checkout, or
# $MCP_JSONSCHEMA_BENCH_DATA; without it only the MCP cases run (the report says so).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export SOAK_SECONDS="${1:-${SOAK_SECONDS:-60}}"
cargo test --release --test load -- soak --exact --ignored --nocapture
