"""The pytest side of starting `openstore serve`, shared by compat/ and browser/ conftests."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, List, TypeVar

import pytest

from openstore_process import OpenStoreProcess, openstore_bin

Server = TypeVar("Server", bound=OpenStoreProcess)


def existing_openstore_binary() -> Path:
    """The binary under test, or a test failure that says how to get one."""
    path = openstore_bin()
    if not path.exists():
        pytest.fail(f"openstore binary not found at {path}: run `swift build` first or set OPENSTORE_BIN", pytrace=False)
    return path


def start_server(make: Callable[..., Server], tmp_path_factory, name: str, registry: List[OpenStoreProcess]) -> Server:
    """`make(data_dir=…, log_path=…)` in a fresh folder, started; kept in `registry` so the
    session can stop it. A failed start reports the server's own output, not a traceback."""
    root = tmp_path_factory.mktemp(name)
    server = make(data_dir=root / "data", log_path=root / "server.log")
    registry.append(server)
    try:
        server.start()
    except Exception as e:
        server.stop()
        pytest.fail(f"could not start openstore serve ({name}): {e}", pytrace=False)
    return server
