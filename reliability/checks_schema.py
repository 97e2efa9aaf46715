"""Schema-driven API fuzzing: schemathesis (PyPI, pinned in compat/requirements.txt) reads each
document a user would (the store's `/openapi.json`: device, admin, Server API, store-page and
dashboard forms; the subscription backend's `/openapi.json`) and runs `--checks all` on every
operation: no 5xx, every status and body as documented, requests the document allows accepted
and requests it forbids refused, 405 with a correct `Allow` for every method a path does not
serve, authentication enforced where declared. `reliability/schemathesis.toml` says which
answers count as accepting a valid request (docs/reliability.md, "The documents are exact")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import HERE, Size, Workspace, create_key, expect, seeded_random, token
from checks_backend import Backend

BACKYARD_BIRDS = "com.example.backyardbirds"
CONFIG = HERE / "schemathesis.toml"
# The backend runs with an API token, as in production, so /v1 needs it.
BACKEND_TOKEN = "schema-fuzz-token-4c1d"


def run(size: Size):
    _, seed = seeded_random("schema")
    seed %= 2**31
    with Workspace("schema") as ws:
        store = ws.server("schema", apps=()).start()  # the demo apps, their store pages, the dashboard
        key = create_key(store, ws.root, bundle_id=BACKYARD_BIRDS)
        backend = Backend(ws, ["--bundle-id", BACKYARD_BIRDS, "--app-apple-id", "1640000001", "--api-token", BACKEND_TOKEN])
        try:
            # The two documents are fuzzed at once: each schemathesis is one Python process, so
            # together they keep both cores busy (one after the other took 110 s at CI size).
            with ThreadPoolExecutor(max_workers=1) as pool:
                backend_fuzz = pool.submit(schemathesis, ws, "backend", f"{backend.url}/openapi.json", BACKEND_TOKEN, seed,
                                           examples=size.pick(60, 1100), target=size.pick(1000, 20000), size=size)
                cases, ops = schemathesis(ws, "store", f"{store.base_url}/openapi.json", long_token(key), seed,
                                          examples=size.pick(8, 130), target=size.pick(2000, 20000), size=size,
                                          # Server-Sent Event streams stay open by design (a client holds them
                                          # for hours): the fuzzer would wait on them forever. Their events are
                                          # checked by the Swift and compat suites.
                                          extra=["--exclude-path-regex", r"/(updates|events/stream)$"])
                backend_cases, backend_ops = backend_fuzz.result()
            expect(store.healthy(), "the store no longer answers /healthz after the schema fuzzing")
            pairs = allow_coverage(store.base_url, {"Authorization": f"Bearer {long_token(key)}"})
            store.stop()
            expect(backend.healthy(), "the backend no longer answers /healthz after the schema fuzzing")
            backend_pairs = allow_coverage(backend.url, {"Authorization": f"Bearer {BACKEND_TOKEN}"})
        finally:
            backend.stop()
        yield (f"schema-fuzz store: schemathesis --checks all, {cases} generated requests over {ops} documented "
               f"operations (seed {seed}); 0 failures of any kind (5xx, undocumented status or body, valid "
               "request refused, invalid request accepted, 405/Allow, auth), /healthz alive "
               "— promise: the store answers exactly as its /openapi.json documents")
        yield (f"405 coverage store: {pairs} path × method pairs the document does not serve, each 405 with "
               "exactly the documented methods in Allow — promise: a wrong method is told what the path takes")
        yield (f"schema-fuzz backend: schemathesis --checks all, {backend_cases} generated requests over {backend_ops} "
               f"documented operations (seed {seed}), bearer token required on /v1; 0 failures of any kind "
               "— promise: the subscription backend answers exactly as its /openapi.json documents")
        yield (f"405 coverage backend: {backend_pairs} path × method pairs the document does not serve, each 405 "
               "with exactly the documented methods in Allow — promise: a wrong method is told what the path takes")


METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")


def allow_coverage(base_url: str, headers: dict) -> int:
    """Every path of the served document × every method it does not list: 405 with `Allow`
    naming exactly the listed methods (RFC 9110 §15.5.6). Path parameters take a plain value that
    is no literal segment of another route, so each request reaches the path it names."""
    import requests

    doc = requests.get(f"{base_url}/openapi.json", timeout=30).json()
    pairs = 0
    for template, item in doc["paths"].items():
        served = sorted(m.upper() for m in item if m.upper() in METHODS)
        path = re.sub(r"\{world\}", "default", template)
        path = re.sub(r"\{[^}]+\}", "x1", path)
        for method in METHODS:
            if method in served:
                continue
            answer = requests.request(method, base_url + path, headers=headers, timeout=30)
            allow = sorted(m.strip() for m in answer.headers.get("Allow", "").split(",") if m.strip())
            expect(answer.status_code == 405 and allow == served,
                   f"{method} {path}: {answer.status_code}, Allow {allow}, want 405 and {served}")
            pairs += 1
    return pairs


def schemathesis(ws: Workspace, name: str, url: str, bearer: str, seed: int, *, examples: int, target: int,
                 size: Size, extra=()) -> tuple[int, str]:
    st = Path(sys.executable).with_name("schemathesis")
    cmd = [str(st), "--config-file", str(CONFIG), "run", url, "--checks", "all",
           "--max-examples", str(examples), "--seed", str(seed),
           # One worker: with two, CPython 3.11's parser raced in hypothesis's lambda descriptions
           # ("AST constructor recursion depth mismatch") and aborted a phase.
           "--workers", "1", "--request-timeout", "30",
           "--header", f"Authorization: Bearer {bearer}", *extra, "--no-color"]
    # A folder each: two run at once, and each keeps its own files (hypothesis's example database).
    cwd = ws.root / f"schemathesis-{name}"
    cwd.mkdir(exist_ok=True)
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=str(cwd), timeout=size.pick(1200, 10800),
                          env={**os.environ, "SCHEMATHESIS_HOOKS": ""})
    out = done.stdout + done.stderr
    generated = re.search(r"(\d+) generated", out)
    cases = int(generated.group(1)) if generated else 0
    # The failures themselves (request, response, reproduction) come before schemathesis's
    # warnings, which can be long: print that section, then the summary.
    failures = re.search(r"=+ (?:FAILURES|ERRORS) =+(.*?)(?:=+ WARNINGS =+|=+ SUMMARY =+)", out, re.S)
    expect(done.returncode == 0, f"schemathesis found failures in the {name}'s document (seed {seed}):\n"
                                 f"{failures.group(1)[:12000] if failures else ''}\n{out[-3000:]}")
    expect(cases >= target, f"schemathesis generated {cases} cases for the {name}, want at least {target}:\n{out[-2000:]}")
    ops = re.search(r"Tested: (\d+)", out)
    return cases, ops.group(1) if ops else "?"


def long_token(key) -> str:
    """A token valid for the whole run (Apple's limit: an hour)."""
    now = int(time.time())
    return token(key, iat=now, exp=now + 3500)
