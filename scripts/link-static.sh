#!/usr/bin/env bash
# link-static.sh OUT [CONFIG]: links `openstore` with the Swift runtime and Foundation inside
# (`swiftc -static-stdlib`, the link `swift build --static-swift-stdlib` does) from the objects of
# the last `swift build` (CONFIG debug, the default, or release), into OUT. Seconds instead of a
# second full build: the test command checks a static binary this way on every run (issue 17).
#
# Why not `swift build --static-swift-stdlib` into the same build folder (measured 2026-11-26,
# Swift 6.3.1, 2 cores): the compile commands gain -static-stdlib but the incremental driver keeps
# the objects compiled against the dynamic resource folder, whose Foundation modules do not ask for
# Foundation's static helpers, so the link fails (797 undefined swift_ucal_*, swift_ucnv_*, CF…
# symbols). Passing the helpers with -Xlinker also reaches the build plugin's host tool (linked
# dynamically, where they do not exist) and fails there, and the next normal build
# relinked the executables and the test bundle (60 s). So this script runs SwiftPM's own link command for the
# product (read from the build folder's llbuild manifest) with three changes: the output is OUT,
# -static-stdlib is added, and the libraries that an object compiled with -static-stdlib
# autolinks (a one-line probe importing the same Foundation modules, compiled here) are added in
# one linker group. Nothing in the build folder changes, so the next `swift build` does nothing.
#
# Environment: SCRATCH (default .build), PRODUCT (default openstore).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
OUT="${1:?usage: link-static.sh OUT [debug|release]}"
CONFIG="${2:-debug}"
SCRATCH="${SCRATCH:-$REPO_ROOT/.build}"
PRODUCT="${PRODUCT:-openstore}"
MANIFEST="$SCRATCH/$CONFIG.yaml"
[[ -f "$MANIFEST" ]] || { echo "no $MANIFEST: run swift build${CONFIG:+ -c $CONFIG} first" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"
OUT="$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/openstore-link-static.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

python3 - "$MANIFEST" "$PRODUCT" "$CONFIG" "$OUT" "$WORK" <<'PY'
import json, os, re, subprocess, sys
manifest, product, config, out, work = sys.argv[1:]
text = open(manifest).read()
# SwiftPM's llbuild manifest: the product's link command is "C.<product>-<triple>-<config>.exe".
# (Another product's name can start with this one's, as openstore-bench does: the output names it.)
commands = re.finditer(r'^  "C\.' + re.escape(product) + r'-[^"]*-' + config + r'\.exe":\n(?:    .*\n)*?    args: (\[.*\])$',
                       text, re.M)
links = [args for args in (json.loads(m.group(1)) for m in commands)
         if "-o" in args and os.path.basename(args[args.index("-o") + 1]) == product]
if len(links) != 1:
    sys.exit(f"{manifest} has {len(links)} link commands for {product}: this SwiftPM lays out its build differently; use scripts/release.sh")
args = links[0]
linked = args[args.index("-o") + 1]
if not os.path.exists(linked):
    sys.exit(f"{linked} is missing: run `swift build{' -c release' if config == 'release' else ''} --product {product}` first")
filelist = next(a[1:] for a in args if a.startswith("@") and a.endswith("Objects.LinkFileList"))
objects = [line.strip().strip("'\"") for line in open(filelist) if line.strip()]
missing = [o for o in objects if not os.path.exists(o)]
if missing:
    sys.exit(f"{len(missing)} object(s) of {product} are missing (e.g. {missing[0]}): build first")

# The toolchain that built the objects (the link command starts with its swiftc).
swiftc = args[0]
extract = os.path.join(os.path.dirname(swiftc), "swift-autolink-extract")

# Which toolchain Foundation modules the objects link (their autolink entries), and what the same
# imports autolink when compiled against the static resource folder.
autolink = subprocess.run([extract, *objects, "-o", "-"], check=True,
                          capture_output=True, text=True).stdout.split()
modules = [m for m in ("Foundation", "FoundationNetworking", "FoundationXML") if f"-l{m}" in autolink]
extra = []
if modules:
    probe = os.path.join(work, "probe.swift")
    with open(probe, "w") as f:
        f.writelines(f"import {m}\n" for m in modules)
    subprocess.run([swiftc, "-static-stdlib", "-parse-as-library", "-c", probe, "-module-name", "probe",
                    "-o", os.path.join(work, "probe.o")], check=True, cwd=work)
    static = subprocess.run([extract, os.path.join(work, "probe.o"), "-o", "-"], check=True,
                            capture_output=True, text=True).stdout.split()
    extra = [lib for lib in dict.fromkeys(static) if lib not in autolink]

args[args.index("-o") + 1] = out
args.insert(1, "-static-stdlib")  # a driver flag: its place does not matter
if extra:
    args += ["-Xlinker", "--start-group", *[x for lib in extra for x in ("-Xlinker", lib)], "-Xlinker", "--end-group"]
print(f"linking {out} with -static-stdlib" + (f" (+ {' '.join(extra)} for {', '.join(modules)})" if extra else ""))
result = subprocess.run(args, cwd=work, capture_output=True, text=True)
# The toolchain's static Foundation draws one harmless linker warning (mktemp); show anything else.
noise = re.compile(r"warning: the use of `mktemp' is dangerous")
shown = [l for l in (result.stdout + result.stderr).splitlines() if l.strip() and not noise.search(l)]
if result.returncode != 0:
    print("\n".join(shown[-40:]), file=sys.stderr)
    sys.exit(f"the static link failed (exit {result.returncode})")
if shown:
    print("\n".join(shown[:20]))
PY
echo "$OUT $(du -h "$OUT" | cut -f1)"
