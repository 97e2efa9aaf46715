"""Start-up: `openstore serve` on a fresh --data directory starts and answers, and so it does again
on the same data after a clean stop and after SIGKILL.

How long it takes is not asserted here (a shared machine running a debug build makes any bound
flaky): `openstore-bench --only startup` measures it beside its limit (see docs/benchmarks.md).
"""

from __future__ import annotations

import requests


def _answers(server, which: str) -> None:
    assert server.running, f"{which}: the process is not running:\n{server.log_tail()}"
    assert server.listening_after is not None, f"{which}: no 'listening on' line:\n{server.log_tail()}"
    r = requests.get(server.base_url + "/healthz", timeout=30)
    assert (r.status_code, r.json()) == (200, {"status": "ok"}), f"{which}: /healthz answered {r.status_code} {r.text}"
    apps = requests.get(server.base_url + "/storekit/v1/apps", timeout=30)
    assert apps.status_code == 200 and {a["bundleId"] for a in apps.json()["apps"]} >= {"com.example.backyardbirds"}, apps.text


def test_starts_and_answers_fresh_restarted_and_after_sigkill(fresh_server):
    server = fresh_server("startup")
    assert not server.data_dir.exists() or not any(server.data_dir.iterdir())
    server.start()
    _answers(server, "first start (fresh data)")
    root = requests.get(server.base_url + "/storekit/v1/root-certificate", timeout=30).content
    server.stop()
    server.start()
    _answers(server, "restart (same data)")
    server.kill()
    server.start()
    _answers(server, "restart after SIGKILL")
    # The same store came back each time: its certificate authority was kept, not made anew.
    assert requests.get(server.base_url + "/storekit/v1/root-certificate", timeout=30).content == root
