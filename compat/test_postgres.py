"""The store on PostgreSQL (issue 11): readiness, a database that goes away and comes back, two
instances starting at once on an empty database, and a server that cannot be reached.

These tests need the throw-away cluster scripts/test.sh starts (OPENSTORE_TEST_POSTGRES_URL,
OPENSTORE_PG_DIR); the suite's SQLite run skips them, its PostgreSQL run (OPENSTORE_REQUIRE_POSTGRES=1)
fails without them. The whole
compat suite also runs a second time on PostgreSQL in scripts/test.sh (each store on its own
database, see testsupport/openstore_process.py).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
import requests

from openstore_harness import REPO_ROOT, StoreClient, assert_error, new_customer, ok_json, openstore_bin
from openstore_process import free_port, store_environment

PG_URL = os.environ.get("OPENSTORE_TEST_POSTGRES_URL")
if not PG_URL and os.environ.get("OPENSTORE_REQUIRE_POSTGRES") == "1":
    raise RuntimeError("OPENSTORE_REQUIRE_POSTGRES=1 but OPENSTORE_TEST_POSTGRES_URL is not set (scripts/postgres.sh starts a cluster)")
# The SQLite run of the suite skips these; scripts/test.sh's PostgreSQL run requires them.
pytestmark = pytest.mark.skipif(not PG_URL, reason="the suite's SQLite run (no OPENSTORE_TEST_POSTGRES_URL)")

BB = "com.example.backyardbirds"
PASS_INDIVIDUAL = "com.example.backyardbirds.pass.individual"
PELLETS = "com.example.backyardbirds.pellets"


def cluster(action: str) -> None:
    """Stops or starts the test cluster (scripts/postgres.sh's pg_ctl_cluster)."""
    done = subprocess.run(["bash", "-c", f'source "{REPO_ROOT}/scripts/postgres.sh" && pg_ctl_cluster {action}'],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"pg_ctl {action} failed:\n{done.stdout}{done.stderr}"


def psql(url: str, sql: str) -> str:
    psql_bin = os.path.join(os.environ.get("OPENSTORE_PG_BIN", ""), "psql") if os.environ.get("OPENSTORE_PG_BIN") else "psql"
    done = subprocess.run([psql_bin, url, "-tAc", sql], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_readyz_names_the_database_without_its_password(fresh_server):
    server = fresh_server("pg-ready")
    server.start()
    r = requests.get(server.base_url + "/readyz", timeout=10)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ready"
    assert body["schemaVersion"] == body["expectedSchemaVersion"] >= 1
    assert body["database"].startswith("postgres://openstore:***@127.0.0.1:")
    password = PG_URL.split("//", 1)[1].split("@", 1)[0].split(":", 1)[1]
    assert password not in r.text


@pytest.mark.alone
def test_a_database_that_goes_away_gives_503_and_the_store_recovers_losing_nothing(fresh_server):
    server = fresh_server("pg-outage")
    server.start()
    store = StoreClient(server.base_url, server)
    before = new_customer("pg-before")
    first = ok_json(store.purchase(BB, PASS_INDIVIDUAL, before))
    assert first["status"] == "purchased"

    cluster("stop")
    try:
        during = new_customer("pg-during")
        r = store.purchase(BB, PASS_INDIVIDUAL, during)
        assert r.status_code == 503, r.text
        assert r.headers.get("Retry-After", "").isdigit()
        assert r.json()["error"] == "serviceUnavailable"
        ready = requests.get(server.base_url + "/readyz", timeout=10)
        assert ready.status_code == 503 and ready.headers.get("Retry-After", "").isdigit()
        assert ready.json()["status"] == "unavailable"
        # The liveness check still answers: the process is fine, its database is not.
        assert requests.get(server.base_url + "/healthz", timeout=10).status_code == 200
    finally:
        cluster("start")

    # The same process recovers by itself: no restart.
    deadline = time.monotonic() + 30
    while requests.get(server.base_url + "/readyz", timeout=10).status_code != 200:
        assert time.monotonic() < deadline, "the store did not become ready again after the database came back"
        time.sleep(0.2)
    after = ok_json(store.purchase(BB, PASS_INDIVIDUAL, during))
    assert after["status"] == "purchased"
    # What was acknowledged before the outage is still there; the refused purchase left no trace
    # (the customer could buy after it), and ownership still holds.
    assert len(store.signed_list(BB, before, "transactions")) == 1
    assert len(store.signed_list(BB, during, "transactions")) == 1
    assert_error(store.purchase(BB, PASS_INDIVIDUAL, before), 409, "alreadyPurchased")
    consumable = ok_json(store.purchase(BB, PELLETS, before))
    assert consumable["status"] == "purchased"


def test_two_instances_starting_at_once_on_an_empty_database_create_the_schema_once(tmp_path):
    data = tmp_path / "shared"
    env = store_environment(data)  # one fresh database for both
    url = env["OPENSTORE_DATABASE_URL"]
    assert psql(url, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_version'") == "0"
    procs = []
    try:
        ports = [free_port(), free_port()]
        for index, port in enumerate(ports):
            folder = tmp_path / f"instance{index}"
            folder.mkdir()
            procs.append(subprocess.Popen(
                [str(openstore_bin()), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(folder)],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        for port, proc in zip(ports, procs):
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, f"an instance exited with {proc.returncode}:\n{proc.stdout.read()}"
                try:
                    if requests.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                assert time.monotonic() < deadline, "an instance did not become ready"
                time.sleep(0.1)
        # Each migration once (1: the store's tables, 2: leases, instances, identifier blocks, 3: integer keys, 4: the epoch key).
        assert psql(url, "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_version") == "1,2,3,4"
        # Both came up as instances of one store: each listed, the default world owned by one.
        listed = psql(url, "SELECT count(*) FROM store_instances")
        assert listed == "2", listed
        assert psql(url, "SELECT count(*) FROM world_leases WHERE world = 'default'") == "1"
    finally:
        for proc in procs:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_an_unreachable_database_is_named_by_host_and_port_at_start(tmp_path):
    port = free_port()  # nothing listens there
    done = subprocess.run(
        [str(openstore_bin()), "serve", "--port", str(free_port()), "--data", str(tmp_path / "data"),
         "--database", f"postgres://store:s3cret-pw@127.0.0.1:{port}/openstore"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        env={k: v for k, v in os.environ.items() if not k.startswith("OPENSTORE_")})
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert f"127.0.0.1:{port}" in said, said
    assert "s3cret-pw" not in said
