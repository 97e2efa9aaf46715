#!/usr/bin/env bash
# The reliability and security suite (issue 15): each check tries hard to break one promise of the
# store against a live `openstore serve` and prints one line (what was tried, how many times, what
# was lost, which promise). See docs/reliability.md.
#
#   scripts/reliability.sh            CI size (the test command's `reliability` stage, ~6 minutes)
#   scripts/reliability.sh --full     full size (about 25 minutes; the figures in docs/reliability.md)
#   scripts/reliability.sh --only auth,crash
#
# Needs the compat venv (compat/.venv, made by scripts/test.sh; schemathesis is in
# compat/requirements.txt) and a built binary ($OPENSTORE_BIN, default .build/debug/openstore).
# The disk check mounts a small tmpfs (root); without mount rights it uses a file-size limit and says so.
# OPENSTORE_FUZZ_SEED=<seed> replays a run's random choices.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
export OPENSTORE_BIN="${OPENSTORE_BIN:-$REPO_ROOT/.build/debug/openstore}"
exec "${PYTHON_VENV:-$REPO_ROOT/compat/.venv}/bin/python" reliability/run.py "$@"
