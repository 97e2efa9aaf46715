"""Schema-driven API fuzzing: schemathesis (PyPI) generates requests for every operation of
`/openapi.json` (device, admin, Server API, store-page and dashboard forms) and checks each
answer: no 5xx, and every response (SSE events included) matches the documented schema."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from harness import Size, Workspace, create_key, expect, seeded_random, token

BACKYARD_BIRDS = "com.example.backyardbirds"


def run(size: Size):
    target = size.pick(2000, 20000)
    examples = size.pick(15, 170)  # 150 at full size generated 18,057 (some operations exhaust their inputs)
    _, seed = seeded_random("schema")
    with Workspace("schema") as ws:
        store = ws.server("schema", apps=()).start()  # the demo apps, their store pages, the dashboard
        key = create_key(store, ws.root, bundle_id=BACKYARD_BIRDS)
        st = Path(sys.executable).with_name("schemathesis")
        cmd = [str(st), "run", f"{store.base_url}/openapi.json",
               "--checks", "not_a_server_error,response_schema_conformance",
               "--phases", "examples,fuzzing", "--max-examples", str(examples), "--seed", str(seed % (2**31)),
               "--workers", "2", "--request-timeout", "30",
               # Server-Sent Event streams stay open by design (a client holds them for hours): the
               # fuzzer would wait on them forever. Their events are checked by the Swift and compat suites.
               "--exclude-path-regex", r"/(updates|events/stream)$",
               # One token for every operation: the Server API's get past authentication; the
               # admin API and dashboard answer loopback without one anyway.
               "--header", f"Authorization: Bearer {long_token(key)}",
               "--report", "ndjson", "--report-dir", str(ws.path("report", "x").parent), "--no-color"]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ws.root), timeout=size.pick(900, 7200),
                              env={**os.environ, "SCHEMATHESIS_HOOKS": ""})
        out = done.stdout + done.stderr
        generated = re.search(r"(\d+) generated", out)
        cases = int(generated.group(1)) if generated else 0
        # The failures themselves (request, response, reproduction) come before schemathesis's
        # warnings, which can be long: print that section, then the summary.
        failures = re.search(r"=+ FAILURES =+(.*?)(?:=+ WARNINGS =+|=+ SUMMARY =+)", out, re.S)
        expect(done.returncode == 0, f"schemathesis found failures (seed {seed}):\n"
                                     f"{failures.group(1)[:12000] if failures else ''}\n{out[-3000:]}")
        expect(cases >= target, f"schemathesis generated {cases} cases, want at least {target}:\n{out[-2000:]}")
        expect(store.healthy(), "the store no longer answers /healthz after the schema fuzzing")
        store.stop()
        ops = re.search(r"Tested: (\d+)", out)
        yield (f"schema-fuzz: schemathesis, {cases} generated requests over {ops.group(1) if ops else '?'} documented operations "
               f"(seed {seed}); 0 responses ≥ 500, 0 schema violations, /healthz alive at the end "
               "— promise: every surface answers as /openapi.json documents, whatever it is sent")


def long_token(key) -> str:
    """A token valid for the whole run (Apple's limit: an hour)."""
    import time
    now = int(time.time())
    return token(key, iat=now, exp=now + 3500)
