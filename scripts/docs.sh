#!/usr/bin/env bash
# Reference documentation (issue 17): the DocC catalogs of OpenStoreKit, StoreKitTypes (Product,
# Transaction, … which OpenStoreKit re-exports), StoreViews and StoreSigning (Sources/*/*.docc: API
# reference plus the articles "Getting started", "Testing with worlds", "Verifying signed data")
# built with swift-docc-plugin 1.5.0 and the toolchain's `docc`, offline. Writes dist/docs/TARGET/
# as static sites (open dist/docs/TARGET/documentation/TARGET/ through any web server, e.g.
# `python3 -m http.server -d dist/docs`), and dist/docs/index.html.
#
# Fails when a link does not resolve (a ``Symbol`` or <doc:Article> that does not exist, in an
# article or a doc comment) or when an article draws any other warning. Doc comments' missing
# parameter documentation stays a warning.
#
# About a minute once `swift build` has run (measured 2026-11-26 on 2 cores: 52 s for three modules
# at load 1; StoreKitTypes alone 15 s); not part of scripts/test.sh for that reason.
#
#   scripts/docs.sh [TARGET…]     default: OpenStoreKit StoreKitTypes StoreViews StoreSigning
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
command -v docc >/dev/null || { echo "docc is not in the toolchain (it ships with Swift 5.6+ on Linux)" >&2; exit 1; }
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(OpenStoreKit StoreKitTypes StoreViews StoreSigning)
OUT="$REPO_ROOT/dist/docs"
LOG="$(mktemp "${TMPDIR:-/tmp}/openstore-docs.XXXXXX")"
trap 'rm -f "$LOG"' EXIT
mkdir -p "$OUT"
start=$SECONDS
for target in "${TARGETS[@]}"; do
  lower="$(echo "$target" | tr '[:upper:]' '[:lower:]')"
  rm -rf "${OUT:?}/$target"
  swift package --allow-writing-to-directory "$OUT" generate-documentation --target "$target" \
    --output-path "$OUT/$target" --transform-for-static-hosting --hosting-base-path "$target" 2>&1 | tee -a "$LOG"
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
echo "built in $((SECONDS - start)) s"

# docc prints each warning as "warning: WHAT" and then "  --> FILE:LINE:COLUMN".
broken="$(awk '/^warning: /{w=$0; next} w && /^ *--> /{ if (w ~ /doesn.t exist/ || $2 ~ /\.md:/) print w "  (" $2 ")"; w="" }' "$LOG")"
if [[ -n "$broken" ]]; then
  echo "the reference has broken links or article warnings:" >&2
  echo "$broken" >&2
  exit 1
fi
echo "no broken link; open: python3 -m http.server -d dist/docs 8000  →  http://127.0.0.1:8000/"
