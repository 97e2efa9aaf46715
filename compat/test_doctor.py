"""`openstore doctor` (issue 17): checks a running store and says what is wrong in plain words,
exit status 1 when something is, 0 when all is well."""

from __future__ import annotations

import json
import subprocess

import requests

from notification_receiver import Receiver
from openstore_harness import FIXTURES, openstore_bin
from openstore_process import free_port
from serve_process import Started

CATALOG = FIXTURES / "compat.storekit"
BUNDLE = "com.example.doctor"


def doctor(*args: str):
    done = subprocess.run([str(openstore_bin()), "doctor", *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout + done.stderr


def test_doctor_names_what_is_wrong_and_passes_a_healthy_store(tmp_path):
    receiver = Receiver()
    dead = f"http://127.0.0.1:{free_port()}/gone"
    (tmp_path / "compat.storekit").write_bytes(CATALOG.read_bytes())
    config = tmp_path / "openstore.json"
    config.write_text(json.dumps({"port": 0, "data": str(tmp_path / "data"), "apps": [{
        "catalog": "compat.storekit", "bundleId": BUNDLE,
        "notificationURLs": {"sandbox": receiver.url, "production": dead}}]}))
    store = Started(["--config", str(config)], {}, cwd=tmp_path)
    try:
        args = ["--server", store.url, "--config", str(config)]
        status, out = doctor(*args)
        assert status == 1, out
        assert "ok    The store answers at " + store.url in out, out
        assert f"ok    The data folder {tmp_path / 'data'} is writable and holds the store's database." in out, out
        assert "ok    The catalog " in out and "compat.storekit loads." in out, out
        assert f"ok    {BUNDLE}: its catalog is loaded (" in out, out
        assert f"ok    {BUNDLE}: the Sandbox notification URL {receiver.url} answers (HTTP " in out, out
        assert f"FAIL  {BUNDLE}: the Production notification URL {dead} does not answer (connection refused" in out, out
        assert "1 problem(s) found." in out, out

        r = requests.put(f"{store.url}/admin/v1/worlds/default/apps/{BUNDLE}/notification-url",
                         json={"url": receiver.url, "environment": "Production"}, timeout=30)
        assert r.status_code == 200, r.text
        status, out = doctor(*args)
        assert status == 0 and "All is well." in out and "FAIL" not in out, out

        broken = tmp_path / "broken.storekit"
        broken.write_text(CATALOG.read_text().replace('"recurringSubscriptionPeriod" : "P1M"', '"recurringSubscriptionPeriod" : "P1X"'))
        status, out = doctor("--server", store.url, "--data", str(tmp_path / "data"), "--catalog", str(broken))
        assert status == 1, out
        assert f"FAIL  The catalog {broken} does not load:" in out and "recurringSubscriptionPeriod" in out, out

        status, out = doctor("--server", store.url, "--data", str(tmp_path / "elsewhere"))
        assert status == 1 and f"FAIL  The data folder {tmp_path / 'elsewhere'} does not exist here." in out, out
    finally:
        store.stop()
        receiver.stop()
    status, out = doctor("--server", store.url, "--data", str(tmp_path / "data"))
    assert status == 1 and f"FAIL  Nothing answers at {store.url}: is `openstore serve` running there?" in out, out
