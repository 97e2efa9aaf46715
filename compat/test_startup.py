"""Start-up time: `openstore serve` on a fresh --data directory prints `listening on` within a second.

Measured as wall time from spawning the process to reading its `listening on` line (the harness
records both), on the first start (which creates the database and the certificate authority) and on
a restart of the same data.
"""

from __future__ import annotations

import requests

MAX_START_SECONDS = 1.0


def _check(server, which: str, seen: list) -> None:
    took = server.listening_after
    assert took is not None, f"no 'listening on' line:\n{server.log_tail()}"
    seen.append(f"{which}: {took:.3f}s")
    print(f"openstore serve {which}: listening after {took:.3f}s")
    assert took <= MAX_START_SECONDS, f"{which}: 'listening on' after {took:.3f}s (> {MAX_START_SECONDS}s); seen: {seen}"
    assert requests.get(server.base_url + "/healthz", timeout=5).status_code == 200


def test_listening_within_a_second(fresh_server):
    server = fresh_server("startup")
    assert not server.data_dir.exists() or not any(server.data_dir.iterdir())
    seen: list = []
    server.start()
    _check(server, "first start (fresh data)", seen)
    server.stop()
    server.start()
    _check(server, "restart (same data)", seen)
    server.kill()
    server.start()
    _check(server, "restart after SIGKILL", seen)
