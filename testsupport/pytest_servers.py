"""The pytest side of starting `openstore serve`, shared by compat/ and browser/ conftests.

A conftest imports the ``openstore_binary`` fixture from here (importing a fixture into a conftest
registers it), starts its servers with ``start_server`` and serves them with ``running``, and
reports their logs with ``report_server_logs`` from its ``pytest_terminal_summary``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator, List, TypeVar

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


@pytest.fixture(scope="session")
def openstore_binary() -> Path:
    return existing_openstore_binary()


def running(server: Server) -> Iterator[Server]:
    """The body of a fixture serving a started server: `yield from running(start_server(…))`
    yields it and stops it at teardown."""
    yield server
    server.stop()


def report_server_logs(terminalreporter, exitstatus, servers: List[OpenStoreProcess]) -> None:
    """On failure, point at each server's log and show its last lines."""
    if exitstatus == 0 or not servers:
        return
    terminalreporter.section("openstore serve logs")
    for server in servers:
        terminalreporter.write_line(f"{server.log_path} (base URL {server.base_url})")
        tail = server.log_tail(15).rstrip()
        if tail:
            terminalreporter.write_line(tail)
