#!/usr/bin/env bash
# check-binary.sh BINARY: the checks a downloaded `openstore` must pass (issue 17).
#   - `ldd` lists no Swift runtime library (libswiftCore, libFoundation*, libdispatch, libBlocksRuntime);
#     skipped with --dynamic-ok (the debug build the test command runs links them dynamically)
#   - copied alone into an empty folder, `--version` answers and `serve --data` there starts, serves
#     /openapi.json and the demo apps, and keeps its data in that folder.
# One purchase through Apple's verifier is compat/test_binary.py (run by scripts/test.sh).
set -euo pipefail
BIN="${1:?usage: check-binary.sh BINARY [--dynamic-ok]}"
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

if [[ "${2:-}" != "--dynamic-ok" ]]; then
  if ldd "$BIN" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|libswift_'; then
    echo "FAIL: $BIN links the Swift runtime dynamically (ldd above)" >&2
    exit 1
  fi
  echo "ok: ldd lists no Swift runtime library:"
  ldd "$BIN" | sed 's/^/    /'
fi

EMPTY="$(mktemp -d "${TMPDIR:-/tmp}/openstore-binary.XXXXXX")"
pid=""
cleanup() {
  if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$EMPTY"
}
trap cleanup EXIT
cp "$BIN" "$EMPTY/openstore"
cd "$EMPTY"
# No resource bundle, no build folder, no Swift toolchain on PATH.
env -i HOME="$EMPTY" PATH=/usr/bin:/bin ./openstore --version | tee version.txt
grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-z-]+\)$' version.txt
env -i HOME="$EMPTY" PATH=/usr/bin:/bin ./openstore serve --port 0 --data ./data >serve.log 2>&1 &
pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*' serve.log | head -1 || true)"
  [[ -n "$url" ]] && break
  kill -0 "$pid" 2>/dev/null || { cat serve.log >&2; echo "FAIL: serve exited" >&2; exit 1; }
  sleep 0.1
done
[[ -n "$url" ]] || { cat serve.log >&2; echo "FAIL: serve did not start" >&2; exit 1; }
python3 - "$url" <<'PY'
import json, sys, urllib.request
url = sys.argv[1]
spec = json.load(urllib.request.urlopen(url + "/openapi.json", timeout=30))
assert spec["openapi"].startswith("3.") and len(spec["paths"]) > 50, "openapi.json is not the store's"
apps = json.load(urllib.request.urlopen(url + "/storekit/v1/apps", timeout=30))["apps"]
assert {a["bundleId"] for a in apps} >= {"com.example.backyardbirds", "com.example.foodtruck"}, apps
print(f"ok: serves openapi.json ({len(spec['paths'])} paths) and {len(apps)} demo apps from an empty folder")
PY
[[ -f data/store.sqlite ]] || { echo "FAIL: no data/store.sqlite in the folder" >&2; exit 1; }
echo "ok: its data is in the folder it was started in"
