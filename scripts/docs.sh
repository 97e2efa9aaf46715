#!/usr/bin/env bash
# Reference documentation (issue 17): the DocC catalogs of OpenStoreKit, StoreViews and
# StoreSigning (Sources/*/*.docc: API reference plus the articles "Getting started", "Testing with
# worlds", "Verifying signed data") built with swift-docc-plugin 1.5.0 and the toolchain's `docc`,
# offline. Writes dist/docs/TARGET/ as static sites (open dist/docs/TARGET/documentation/TARGET/
# through any web server, e.g. `python3 -m http.server -d dist/docs`), and dist/docs/index.html.
#
#   scripts/docs.sh [TARGET…]     default: OpenStoreKit StoreViews StoreSigning
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
command -v docc >/dev/null || { echo "docc is not in the toolchain (it ships with Swift 5.6+ on Linux)" >&2; exit 1; }
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(OpenStoreKit StoreViews StoreSigning)
OUT="$REPO_ROOT/dist/docs"
mkdir -p "$OUT"
for target in "${TARGETS[@]}"; do
  lower="$(echo "$target" | tr '[:upper:]' '[:lower:]')"
  rm -rf "${OUT:?}/$target"
  swift package --allow-writing-to-directory "$OUT" generate-documentation --target "$target" \
    --output-path "$OUT/$target" --transform-for-static-hosting --hosting-base-path "$target"
  echo "dist/docs/$target/documentation/$lower/"
done
{
  echo '<!doctype html><meta charset="utf-8"><title>OpenStoreKit reference</title><h1>OpenStoreKit reference</h1><ul>'
  for target in "${TARGETS[@]}"; do
    lower="$(echo "$target" | tr '[:upper:]' '[:lower:]')"
    echo "<li><a href=\"$target/documentation/$lower/\">$target</a></li>"
  done
  echo '</ul>'
} >"$OUT/index.html"
echo "open: python3 -m http.server -d dist/docs 8000  →  http://127.0.0.1:8000/"
