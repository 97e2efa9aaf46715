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


def test_sigterm_at_any_moment_of_start_up_exits_cleanly(tmp_path):
    """SIGTERM while the store or its subscription backend is still starting (a deploy stopping a
    pod that just started) is a clean stop: exit 0, nothing crashed. Found by the parallel suite:
    a stop during start-up freed the backend's SQLite connections open, and debug builds trapped
    in 99 of 100 such stops."""
    import os
    import subprocess
    import time

    from openstore_harness import openstore_bin

    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENSTORE_")}
    for attempt, delay in enumerate([None, None, None, 0.0, 0.05, 0.1, 0.2, 0.4]):
        data = tmp_path / f"data-{attempt}"
        proc = subprocess.Popen([str(openstore_bin()), "serve", "--port", "0", "--data", str(data)], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if delay is None:  # right after the store says it listens, while its backend starts
            for line in proc.stdout:
                if "listening on" in line:
                    break
        else:
            time.sleep(delay)
        proc.terminate()
        out, err = proc.communicate(timeout=60)
        # Before the store installs its handler, SIGTERM's default action ends it (-15); after,
        # it stops cleanly (0). A crash is a trap (-4) or another signal, and says "crashed".
        assert proc.returncode in (0, -15) and "crashed" not in err, \
            f"SIGTERM {'after the listening line' if delay is None else f'{delay} s after launch'}: exit {proc.returncode}\n{err[-4000:]}"
