"""One file with the output of every server a test run starts, for the secrets check at the end of
scripts/test.sh (issue 17: no key, token or shared secret is ever printed in a log).

With OPENSTORE_TEST_RUN_LOG set, the launchers append each line a store or backend prints to that
file, and each secret they hand it (admin and API tokens, shared secrets, private keys) to the
file beside it with `.secrets` appended. The command lines themselves are not recorded: they carry
the secrets on purpose. Without the variable nothing is written.
"""

from __future__ import annotations

import os
import threading
from typing import Iterable, Mapping, Optional, Sequence

_lock = threading.Lock()
SECRET_FLAGS = ("--admin-token", "--api-token", "--shared-secret")
SECRET_VARIABLES = ("OPENSTORE_ADMIN_TOKEN", "OPENSTORE_API_TOKEN")


def _append(suffix: str, text: str) -> None:
    base = os.environ.get("OPENSTORE_TEST_RUN_LOG")
    if not base:
        return
    with _lock, open(base + suffix, "a", encoding="utf-8") as f:
        f.write(text)


def record_output(line: str) -> None:
    """A line the server printed (its log)."""
    _append("", line if line.endswith("\n") else line + "\n")


def record_secret(value: Optional[str]) -> None:
    """A secret the test gave a server; PEM keys are recorded line by line (a log that printed
    one would break it into lines too)."""
    if not value:
        return
    lines = [l.strip() for l in value.splitlines() if l.strip() and not l.startswith("-----")]
    _append(".secrets", "".join(f"{l}\n" for l in lines if len(l) >= 8))


def record_launch(args: Sequence[str], env: Optional[Mapping[str, str]] = None) -> None:
    """The secrets on a server's command line and in its environment."""
    for i, arg in enumerate(args[:-1]):
        if arg in SECRET_FLAGS:
            record_secret(args[i + 1])
    for arg in args:
        for flag in SECRET_FLAGS:
            if arg.startswith(flag + "="):
                record_secret(arg.split("=", 1)[1])
    for name in SECRET_VARIABLES:
        record_secret((env or {}).get(name))


def record_secrets(values: Iterable[str]) -> None:
    for value in values:
        record_secret(value)
