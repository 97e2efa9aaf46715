#!/usr/bin/env bash
# One binary (issue 17): builds `openstore` in release with the Swift runtime linked in
# (--static-swift-stdlib), the OpenAPI document compiled in (Plugins/EmbedResources; the demo
# catalogs and the web pages' styles are Swift source), and the git commit it was built from
# (`openstore --version`). Writes dist/openstore-linux-ARCH and its .sha256, then checks that
# `ldd` lists no Swift runtime library and that the binary runs from an empty folder.
#
# Its own build folder: --static-swift-stdlib compiles every module against the toolchain's static
# resource folder, so sharing a folder with openstore-bench's dynamic release build
# (.build-release) would recompile everything (~12 min) at each switch between the two. The
# test command's quicker check of a static binary is scripts/link-static.sh.
#
# Environment:
#   SCRATCH=…   build folder (default .build-release-static; gitignored; never the shared .build)
#   NICE=15     niceness of the build (a release build takes ~12 minutes on 2 cores)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
SCRATCH="${SCRATCH:-$REPO_ROOT/.build-release-static}"
ARCH="$(uname -m)"
OUT="$REPO_ROOT/dist/openstore-linux-$ARCH"

commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if [[ "$commit" != unknown && -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  commit="$commit-dirty"
fi
export OPENSTORE_BUILD_COMMIT="$commit"

echo "building openstore $commit (release, static Swift runtime) in $SCRATCH"
start=$SECONDS
# One release build at a time on this machine (two would each take both cores for twice as long).
flock /tmp/openstore-release.lock nice -n "${NICE:-15}" \
  swift build -c release --product openstore --static-swift-stdlib --scratch-path "$SCRATCH"
echo "built in $((SECONDS - start)) s"

mkdir -p "$REPO_ROOT/dist"
cp "$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/openstore" "$OUT"
# Debug info stays in the build folder: 225 MB unstripped, 105 MB stripped (measured 2026-11-23).
strip "$OUT"
(cd "$REPO_ROOT/dist" && sha256sum "$(basename "$OUT")" >"$(basename "$OUT").sha256")

scripts/check-binary.sh "$OUT"
echo "dist/$(basename "$OUT") $(du -h "$OUT" | cut -f1)  sha256 $(cut -d' ' -f1 "$OUT.sha256")"

# One purchase through Apple's verifier from the binary alone in an empty folder.
if [[ -x "$REPO_ROOT/compat/.venv/bin/python" ]]; then
  OPENSTORE_STATIC_BIN="$OUT" OPENSTORE_EXPECT_COMMIT="$commit" "$REPO_ROOT/compat/.venv/bin/python" -m pytest "$REPO_ROOT/compat/test_binary.py" -q -p no:cacheprovider
else
  echo "compat/.venv is missing: run scripts/test.sh once to check a purchase through Apple's verifier" >&2
fi
