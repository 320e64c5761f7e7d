#!/usr/bin/env bash
# The three benchmarks in order, with the repository's venv. Extra args go to bench_quality.py.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
"$PY" benchmarks/bench_quality.py "$@"
"$PY" benchmarks/bench_index.py
"$PY" benchmarks/bench_search.py
