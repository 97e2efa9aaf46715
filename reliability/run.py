"""The reliability and security suite (issue 15): each check tries hard to break one promise of
the store and prints one line: what was tried, how many times, what was lost, which promise.

    python reliability/run.py            # CI size (the test command's `reliability` stage)
    python reliability/run.py --full     # full size (the figures in docs/reliability.md)
    python reliability/run.py --only auth,crash

Exit status 1 when any check fails; the last line is `N passed, N failed`.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Size  # noqa: E402
import checks_auth  # noqa: E402
import checks_backend  # noqa: E402
import checks_concurrency  # noqa: E402
import checks_crash  # noqa: E402
import checks_disk  # noqa: E402
import checks_fuzz  # noqa: E402
import checks_hostile  # noqa: E402
import checks_idle  # noqa: E402
import checks_schema  # noqa: E402
import checks_soak  # noqa: E402

# In the priority order; each entry: name, function(size) -> list of report lines.
CHECKS = [
    ("auth", checks_auth.run),
    ("concurrency", checks_concurrency.run),
    ("hostile", checks_hostile.run),
    ("crash", checks_crash.run),
    ("disk", checks_disk.run),
    ("schema", checks_schema.run),
    ("backend", checks_backend.run),
    ("fuzz", checks_fuzz.run),
    ("soak", checks_soak.run),
    ("idle", checks_idle.run),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="full size (minutes to hours) instead of CI size")
    parser.add_argument("--only", default="", help="comma-separated check names: " + ", ".join(n for n, _ in CHECKS))
    args = parser.parse_args()
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    unknown = only - {n for n, _ in CHECKS}
    if unknown:
        parser.error(f"unknown check(s): {', '.join(sorted(unknown))}")
    size = Size(full=args.full)
    print(f"reliability suite, {'full' if size.full else 'CI'} size", flush=True)
    passed = failed = 0
    for name, check in CHECKS:
        if only and name not in only:
            continue
        started = time.monotonic()
        try:
            for line in check(size):
                passed += 1
                print(f"PASS {line}", flush=True)
        except Exception as e:  # a broken promise or a harness fault: both fail the run
            failed += 1
            detail = str(e) if isinstance(e, AssertionError) else traceback.format_exc()
            print(f"FAIL {name}: {detail}", flush=True)
        print(f"     ({name}: {time.monotonic() - started:.0f} s)", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
