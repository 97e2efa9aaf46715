""".storekit fuzzing: a structure-aware mutator over the real catalogs (the repository's fixtures,
the corpus of public .storekit files, Apple's samples when present) feeds `openstore catalog
validate`. Pass: 0 crashes, 0 hangs over 1 s, every fault it reports names a JSON path (or, for
text that is not JSON, a line and column).

libFuzzer (`-sanitize=fuzzer`) would need a second full build of the package in its own scratch
folder: on this 2-core machine that costs more than the whole test command, so the mutator runs
against the real binary instead. Every input that ever crashed or hung is kept in
`fixtures/fuzz-crashers/`, and a small corpus of mutants with distinct faults in
`fixtures/fuzz-corpus/`; both are replayed first on every run."""

from __future__ import annotations

import copy
import json
import sys
import re
import subprocess
import time
from pathlib import Path
from typing import Any, List, Tuple

from harness import FIXTURES, REPO_ROOT, Size, Workspace, expect, openstore_bin, seeded_random

CRASHERS = FIXTURES / "fuzz-crashers"
CORPUS = FIXTURES / "fuzz-corpus"
BATCH = 40
sys.setrecursionlimit(50_000)  # json.dumps of a mutant nested 3,000 deep
FAULT_LINE = re.compile(r"^  (invalid JSON at line \d+, column \d+|[^\s:][^:]*): \S")


def seeds() -> List[Path]:
    found = sorted(REPO_ROOT.glob("compat/fixtures/*.storekit")) + sorted((REPO_ROOT / "Tests/StoreModelTests/Fixtures").rglob("*.storekit"))
    found += sorted((REPO_ROOT.parent / "shared/reference/storekit-samples").rglob("*.storekit"))
    found += [FIXTURES / "reliability.storekit"]
    return found


def paths_of(node: Any, here: Tuple = ()) -> List[Tuple]:
    out = [here]
    if len(here) > 40:  # a mutant nested thousands deep: its depths are not worth walking
        return out
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths_of(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths_of(v, here + (i,))
    return out


def get(node: Any, path: Tuple) -> Any:
    for step in path:
        node = node[step]
    return node


WEIRD = [None, True, 0, -1, 2**63, -(2**63), 1e308, 3.5, "", " ", "x" * 5000, "\u0000", "\ud7ff\ufffd", "P1Y2M",
         "P-1W", "P99999Y", "-0.00", "1e400", "NaN", "9" * 40, [], {}, [None], {"": ""}, "USA", "en_US", "Consumable"]


def mutate(doc: Any, rng) -> bytes:
    """One structure-aware mutation (sometimes several) of a parsed catalog, or a byte-level one."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        paths = paths_of(doc)
        path = rng.choice(paths)
        kind = rng.randrange(9)
        if not path:
            continue
        parent, last = get(doc, path[:-1]), path[-1]
        if kind == 0:       # delete a key or element
            del parent[last]
        elif kind == 1:     # replace with a value of another type or an edge value
            parent[last] = copy.deepcopy(rng.choice(WEIRD))
        elif kind == 2 and isinstance(parent, list):  # duplicate an element
            parent.insert(last, copy.deepcopy(parent[last]))
        elif kind == 3:     # swap with another node's value
            other = rng.choice(paths)
            if other and other[:len(path)] != path and path[:len(other)] != other:
                parent[last] = copy.deepcopy(get(doc, other))
        elif kind == 4:     # nest deep
            value = parent[last]
            for _ in range(rng.choice([10, 100, 3000])):
                value = [value]
            parent[last] = value
        elif kind == 5 and isinstance(parent, dict):  # rename a key
            parent[rng.choice(["", "productID ", "_unknown", last.upper() if isinstance(last, str) else "x"])] = parent.pop(last)
        elif kind == 6 and isinstance(parent[last], list):  # grow an array
            parent[last] = parent[last] * rng.choice([2, 50])
        elif kind == 7 and isinstance(parent[last], str):  # unicode and control characters in text
            parent[last] = parent[last] + rng.choice(["\u202e", "\u0007", "\U0001F600", "\\", "\"", "\u0000"])
        elif kind == 8 and isinstance(parent[last], (int, float)) and not isinstance(parent[last], bool):
            parent[last] = rng.choice([-parent[last], parent[last] * 10**12, 0])
    text = json.dumps(doc, indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.5).encode()
    if rng.random() < 0.1:  # byte-level: truncate or flip
        if rng.random() < 0.5:
            text = text[: rng.randrange(max(1, len(text)))]
        else:
            i = rng.randrange(len(text))
            text = text[:i] + bytes([rng.randrange(256)]) + text[i + 1:]
    return text


def validate(files: List[Path], timeout: float) -> Tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run([str(openstore_bin()), "catalog", "validate", *map(str, files)], capture_output=True,
                          timeout=timeout, cwd=str(REPO_ROOT))
    return done.returncode, (done.stdout + done.stderr).decode(errors="replace"), time.monotonic() - started


def judge(files: List[Path], out: str) -> List[str]:
    """Problems in `catalog validate`'s output: a file without its verdict, a fault without a path."""
    problems = []
    for f in files:
        if f"{f}: OK" not in out and f"{f}: " not in out:
            problems.append(f"{f.name}: no verdict in the output")
    block = None
    for line in out.splitlines():
        if line.startswith("  ") and block is not None and not line.startswith("  warning"):
            if not FAULT_LINE.match(line):
                problems.append(f"{block}: a fault without a JSON path: {line.strip()[:200]}")
        elif not line.startswith("  "):
            block = line.split(": ")[0]
    return problems


def run(size: Size):
    budget = size.pick(30, 600)
    keep_corpus = size.full
    rng, seed = seeded_random("fuzz")
    with Workspace("fuzz") as ws:
        docs = []
        for path in seeds():
            try:
                docs.append(json.loads(path.read_bytes()))
            except ValueError:
                continue
        expect(len(docs) >= 5, f"only {len(docs)} seed catalogs found")
        # Replay the kept crashers and corpus first.
        kept = sorted(CRASHERS.glob("*.storekit")) + sorted(CORPUS.glob("*.storekit"))
        tried = 0
        for start in range(0, len(kept), BATCH):
            files = kept[start:start + BATCH]
            code, out, took = validate(files, timeout=60)
            expect(code in (0, 1), f"replaying kept inputs: exit {code}\n{out[-1500:]}")
            problems = judge(files, out)
            expect(not problems, f"replaying kept inputs: {problems[:5]}")
            tried += len(files)
        deadline = time.monotonic() + budget
        slowest = 0.0
        crashers: List[str] = []
        faults_seen = {}
        n = 0
        while time.monotonic() < deadline:
            files = []
            for _ in range(BATCH):
                path = ws.path("in", f"m{n}.storekit")
                path.write_bytes(mutate(rng.choice(docs), rng))
                files.append(path)
                n += 1
            try:
                code, out, took = validate(files, timeout=BATCH * 1.0 + 20)
            except subprocess.TimeoutExpired:
                code, out, took = -999, "timeout", BATCH * 1.0 + 20
            if code not in (0, 1):
                # Find the input: each alone, with a 1 s budget beyond start-up.
                for f in files:
                    try:
                        c, o, t = validate([f], timeout=20)
                        bad = c not in (0, 1)
                    except subprocess.TimeoutExpired:
                        bad, o = True, "hang"
                    if bad:
                        CRASHERS.mkdir(parents=True, exist_ok=True)
                        keep = CRASHERS / f"crash-{seed}-{f.stem}.storekit"
                        keep.write_bytes(f.read_bytes())
                        crashers.append(f"{keep.relative_to(REPO_ROOT)}: {o[-300:]}")
                expect(not crashers, f"catalog validate crashed or hung (seed {seed}); kept as fixtures:\n" + "\n".join(crashers[:3]))
            slowest = max(slowest, took / len(files))
            problems = judge(files, out)
            expect(not problems, f"seed {seed}: {problems[:5]}")
            block = ""
            for line in out.splitlines():
                if not line.startswith("  "):
                    block = line.split(": ")[0]
                    continue
                if FAULT_LINE.match(line):
                    kind = re.sub(r"\[\d+\]", "[]", line.split(": ", 1)[1])[:60]
                    if kind not in faults_seen:
                        faults_seen[kind] = block
                        # Full runs keep a mutant per new kind of fault (up to 60) as a replayed fixture.
                        # Mutants over 256 KB (grown arrays: one was 19 MB) are not kept: the fixtures live in git.
                        if (keep_corpus and len(list(CORPUS.glob("*.storekit"))) < 60 and Path(block).exists()
                                and Path(block).stat().st_size <= 256 * 1024):
                            CORPUS.mkdir(parents=True, exist_ok=True)
                            (CORPUS / f"fault-{len(faults_seen):03d}.storekit").write_bytes(Path(block).read_bytes())
            tried += len(files)
            for f in files:
                f.unlink()
        expect(slowest < 1.0, f"an input took {slowest:.2f} s on average in its batch")
        yield (f"storekit-fuzz: {tried} catalogs ({n} structure-aware mutants of {len(docs)} real .storekit files, seed {seed}, "
               f"{budget} s) through `openstore catalog validate`; 0 crashes, 0 hangs, slowest batch {slowest * 1000:.0f} ms per file, "
               f"{len(faults_seen)} distinct faults, each naming its JSON path — promise: any .storekit file gets a verdict with a location, never a crash")
