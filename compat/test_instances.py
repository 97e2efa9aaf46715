"""Many store instances on one PostgreSQL (issue 11 §3, docs/deploy.md): two real `openstore serve`
processes share a database; each world is served by the instance holding its lease, requests for
it reach that owner from either instance, a killed owner's worlds move within the lease time, a
paused owner cannot write over its successor, and SIGTERM hands leases back at once.

Needs the throw-away cluster of scripts/test.sh (OPENSTORE_TEST_POSTGRES_URL); the suite's SQLite
run skips this file, its PostgreSQL run requires it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List

import pytest
import requests

from notification_receiver import Receiver
from openstore_harness import jws_parts, openstore_bin, until
from openstore_process import free_port, store_environment, store_rows
from test_server_api import BUNDLE, CATALOG, LIFETIME, MONTHLY

PG_URL = os.environ.get("OPENSTORE_TEST_POSTGRES_URL")
if not PG_URL and os.environ.get("OPENSTORE_REQUIRE_POSTGRES") == "1":
    raise RuntimeError("OPENSTORE_REQUIRE_POSTGRES=1 but OPENSTORE_TEST_POSTGRES_URL is not set")
pytestmark = pytest.mark.skipif(not PG_URL, reason="the suite's SQLite run (no OPENSTORE_TEST_POSTGRES_URL)")

LEASE_SECONDS = 2.0
WEEKLY = "compat.news.weekly"  # P1W, no introductory offer


class Instance:
    """One `openstore serve` of the group: its own port and log, the shared database."""

    def __init__(self, name: str, root: Path, shared: Path, demo: bool = False):
        self.name = name
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.folder = root / name
        self.folder.mkdir(parents=True, exist_ok=True)
        self.log_path = root / f"{name}.log"
        self.env = store_environment(shared)
        self.proc = None
        self.demo = demo

    def start(self) -> "Instance":
        cmd = [str(openstore_bin()), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--data", str(self.folder), "--no-backend", "--lease-seconds", str(LEASE_SECONDS)]
        if not self.demo:
            cmd += ["--catalog", str(CATALOG), "--bundle-id", BUNDLE]
        self.proc = subprocess.Popen(cmd, env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=open(self.log_path, "a"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, f"{self.name} exited:\n{self.log_path.read_text()}"
            try:
                if requests.get(self.base_url + "/readyz", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, f"{self.name} did not become ready"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def device(self, world: str, method: str, path: str, **body) -> requests.Response:
        return requests.request(method, f"{self.base_url}/storekit/v1/worlds/{world}{path}", json=body or None, timeout=120)

    def admin(self, method: str, path: str, **body) -> Dict:
        r = requests.request(method, f"{self.base_url}/admin/v1{path}", json=body or None, timeout=600)
        assert 200 <= r.status_code < 300, (self.name, method, path, r.status_code, r.text)
        return r.json() if r.content else {}


@pytest.fixture
def group(tmp_path):
    shared = tmp_path / "shared"
    instances: List[Instance] = []

    def start(name: str, demo: bool = False) -> Instance:
        instance = Instance(name, tmp_path, shared, demo).start()
        instances.append(instance)
        return instance

    yield start, shared
    for instance in instances:
        instance.stop()


def two_instances_and_a_world_of_a(group):
    """Instances a and b on one database, and a new world created through (so owned by) a."""
    start, shared = group
    a, b = start("a"), start("b")
    world = "w-" + uuid.uuid4().hex[:8]
    a.admin("POST", "/worlds", id=world)
    assert owner_of(a.env, world) == a.base_url
    return a, b, world, shared


def instances_listing(env: Dict) -> Dict:
    done = subprocess.run([str(openstore_bin()), "instances", "--json", "--within", str(LEASE_SECONDS)],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def owner_of(env: Dict, world: str) -> str:
    for instance in instances_listing(env)["instances"]:
        if world in instance["worlds"]:
            return instance["address"]
    return ""


def renewal_rows(shared: Path, world: str, product: str = MONTHLY) -> List[tuple]:
    """(customer, purchase_ms, expires_ms) of every transaction of the product in the world."""
    return store_rows(shared, f"SELECT customer, purchase_ms, expires_ms FROM transactions "
                              f"WHERE world = '{world}' AND product_id = '{product}' ORDER BY customer, purchase_ms")


def assert_periods_end_to_end(rows: List[tuple], customers: List[str], periods: int) -> None:
    by_customer: Dict[str, List[tuple]] = {}
    for customer, start, end in rows:
        by_customer.setdefault(customer, []).append((start, end))
    assert sorted(by_customer) == sorted(customers), "every subscriber has transactions, and only they"
    for customer, spans in by_customer.items():
        # The purchase plus one transaction per renewal: none twice, none skipped.
        assert len(spans) == periods + 1, (customer, len(spans), spans)
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert start == end, f"{customer}: a period starts at {start}, not where the last ended ({end})"


def test_two_instances_sell_a_non_consumable_once_to_1000_concurrent_buyers(group):
    a, b, world, shared = two_instances_and_a_world_of_a(group)
    customer = "buyer"

    def buy(i: int) -> requests.Response:
        return (a if i % 2 else b).device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=LIFETIME, customer=customer)

    with ThreadPoolExecutor(32) as pool:
        answers = list(pool.map(buy, range(1000)))
    statuses = [r.status_code for r in answers]
    assert statuses.count(200) == 1, {s: statuses.count(s) for s in set(statuses)}
    refused = [r for r in answers if r.status_code != 200]
    assert all(r.status_code == 409 and r.json()["error"] == "alreadyPurchased" for r in refused), \
        {(r.status_code, r.text[:80]) for r in refused if r.status_code != 409}
    # Half went to the instance not owning the world: forwarded, answered by the owner.
    rows = store_rows(shared, f"SELECT count(*) FROM transactions WHERE world = '{world}' AND customer = '{customer}'")
    assert rows == [(1,)]


def test_a_clock_jump_on_one_instance_renews_each_period_once_while_the_other_serves(group):
    start, shared = group
    a, b = start("a"), start("b")
    receiver = Receiver()
    try:
        world = "w-" + uuid.uuid4().hex[:8]
        b.admin("POST", "/worlds", id=world)
        a.admin("PUT", f"/worlds/{world}/apps/{BUNDLE}/notification-url", url=receiver.url, environment="Sandbox")
        customers = [f"sub{i:03d}" for i in range(200)]
        with ThreadPoolExecutor(16) as pool:
            bought = list(pool.map(lambda i: (a if i % 2 else b).device(
                world, "POST", f"/apps/{BUNDLE}/purchases", productId=MONTHLY, customer=customers[i]), range(200)))
        assert all(r.status_code == 200 for r in bought), [r.text for r in bought if r.status_code != 200][:3]

        stop = threading.Event()
        served: List[int] = []

        def keep_reading():
            i = 0
            while not stop.is_set():
                r = b.device(world, "GET", f"/apps/{BUNDLE}/customers/{customers[i % 200]}/transactions")
                served.append(r.status_code)
                i += 1

        reader = threading.Thread(target=keep_reading)
        reader.start()
        try:
            a.admin("POST", f"/worlds/{world}/time/advance", duration="P6M")
        finally:
            stop.set()
            reader.join()
        assert served and all(s == 200 for s in served), {s: served.count(s) for s in set(served)}
        # A one-week free trial, then monthly: renewals at 1 week and 1 week + 1…5 months.
        assert_periods_end_to_end(renewal_rows(shared, world), customers, periods=6)
        # Every renewal's notification delivered exactly once (by notificationUUID), by the owner.
        expected = 200 + 200 * 6  # SUBSCRIBED, then DID_RENEW per renewal
        payloads = receiver.wait_for(expected, timeout=120)
        time.sleep(1.5)  # anything delivered twice would arrive now
        decoded = [jws_parts(p)[1] for p in receiver.signed_payloads()]
        uuids = [n["notificationUUID"] for n in decoded]
        assert len(uuids) == len(set(uuids)) == expected, (len(uuids), len(set(uuids)))
        renewals = [n for n in decoded if n["notificationType"] == "DID_RENEW"]
        assert len(renewals) == 1200
        assert len(payloads) >= expected
    finally:
        receiver.stop()


def test_a_killed_owner_hands_its_world_over_mid_jump_and_the_year_completes_exactly(group):
    a, b, world, shared = two_instances_and_a_world_of_a(group)
    customers = [f"sub{i:03d}" for i in range(100)]
    acknowledged = []
    for i, customer in enumerate(customers):
        r = (a if i % 2 else b).device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=WEEKLY, customer=customer)
        assert r.status_code == 200, r.text
        acknowledged.append(jws_parts(r.json()["signedTransaction"])[1]["transactionId"])

    clock_before = store_rows(shared, f"SELECT config FROM worlds WHERE id = '{world}'")
    def advance():
        try:
            requests.post(f"{a.base_url}/admin/v1/worlds/{world}/time/advance", json={"duration": "P1Y"}, timeout=600)
        except requests.RequestException:
            pass  # its owner is killed mid-request

    jump = threading.Thread(target=advance)
    jump.start()
    # The owner saves the clock's new time first, then applies the year's 5,200 renewals: it is
    # killed as soon as the clock has moved, so most or all of them are left to the other instance.
    until("the jump begins", lambda: store_rows(shared, f"SELECT config FROM worlds WHERE id = '{world}'") != clock_before,
          timeout=120)
    a.kill()
    jump.join()
    killed_at = time.monotonic()
    renewed_at_kill = len(renewal_rows(shared, world, WEEKLY)) - 100

    # The other instance takes the world over (on a request, or by its heartbeat) within the lease.
    until("the other instance serves the world",
          lambda: b.device(world, "GET", f"/apps/{BUNDLE}/customers/{customers[0]}/transactions").status_code == 200,
          timeout=LEASE_SECONDS * 3 + 5)
    assert time.monotonic() - killed_at <= LEASE_SECONDS * 3 + 5
    assert owner_of(b.env, world) == b.base_url
    # It finishes the year the killed owner had started: each weekly period renewed once.
    total = 100 * 52
    until("the year completes", lambda: len(renewal_rows(shared, world, WEEKLY)) >= 100 + total, timeout=180)
    time.sleep(0.5)
    assert_periods_end_to_end(renewal_rows(shared, world, WEEKLY), customers, periods=52)
    # No acknowledged purchase lost.
    ids = {str(row[0]) for row in store_rows(shared, f"SELECT id FROM transactions WHERE world = '{world}'")}
    assert set(acknowledged) <= ids
    print(f"killed with {renewed_at_kill} of {total} renewals written")


def test_a_paused_owner_past_its_lease_cannot_write_and_gives_the_world_up(group):
    a, b, world, shared = two_instances_and_a_world_of_a(group)
    first = a.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=MONTHLY, customer="before")
    assert first.status_code == 200, first.text

    a.proc.send_signal(signal.SIGSTOP)
    try:
        time.sleep(LEASE_SECONDS + 0.5)
        # B finds the lease expired and takes the world over (a higher epoch).
        # (A 503 while the lease is still running out on a loaded machine is retried, as a client does.)
        taken = until("the other instance takes the world over", lambda: (lambda r: r if r.status_code != 503 else None)(
            b.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=MONTHLY, customer="during")), timeout=LEASE_SECONDS * 6)
        assert taken.status_code == 200, taken.text
        assert owner_of(b.env, world) == b.base_url
    finally:
        a.proc.send_signal(signal.SIGCONT)
    # A wakes up believing it owns the world. Its write is refused by the database (503, nothing
    # written) or its heartbeat noticed first and it forwards to B; either way exactly one
    # transaction, written under B's lease.
    late = a.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=MONTHLY, customer="after")
    if late.status_code == 503:
        assert late.headers.get("Retry-After", "").isdigit()
        late = until("the retry reaches the new owner", lambda: (
            lambda r: r if r.status_code != 503 else None)(
            a.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=MONTHLY, customer="after")), timeout=10)
    assert late.status_code == 200, late.text
    counts = dict(store_rows(shared, f"SELECT customer, count(*) FROM transactions WHERE world = '{world}' GROUP BY customer"))
    assert counts == {"before": 1, "during": 1, "after": 1}, counts
    # A gave the world up: it no longer lists it, and B still owns it.
    # (A is listed again once its next heartbeat lands: on a loaded machine that can follow the check above.)
    until("the paused instance gives the world up", lambda: owner_of(a.env, world) == b.base_url, timeout=LEASE_SECONDS * 2)

    def a_listed_without_the_world():
        a_listing = [i for i in instances_listing(a.env)["instances"] if i["address"] == a.base_url]
        return bool(a_listing) and world not in a_listing[0]["worlds"]
    until("the paused instance is listed again, without the world", a_listed_without_the_world)


def test_sigterm_hands_the_worlds_back_at_once(group):
    a, b, world, shared = two_instances_and_a_world_of_a(group)
    a.proc.send_signal(signal.SIGTERM)
    a.proc.wait(timeout=20)
    listing = instances_listing(b.env)
    # Handed back: unowned, or already taken by b's next heartbeat (which adopts unowned worlds,
    # and on a loaded machine can land before this listing does).
    taken_by_b = any(world in i["worlds"] for i in listing["instances"] if i["address"] == b.base_url)
    assert world in listing["unownedWorlds"] or taken_by_b, listing
    assert all(i["address"] != a.base_url for i in listing["instances"]), "the stopped instance left the list"
    # The next request anywhere takes it over at once: no 503 while a lease runs out.
    r = b.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=LIFETIME, customer="c")
    assert r.status_code == 200, r.text
    assert owner_of(b.env, world) == b.base_url


def test_worlds_spread_over_the_instances(group):
    start, shared = group
    a = start("a")
    worlds = [f"ci-{i:02d}" for i in range(20)]
    for world in worlds:
        a.admin("POST", "/worlds", id=world)
    a.proc.send_signal(signal.SIGTERM)
    a.proc.wait(timeout=20)
    # Three instances start on a store whose worlds nobody holds: each claims its share.
    b, c, d = start("b"), start("c"), start("d")
    def spread():
        listing = instances_listing(b.env)
        owned = {i["address"]: len(i["worlds"]) for i in listing["instances"]}
        # All 21 (the 20 and default) owned, each instance holding some: within a few heartbeats.
        settled = not listing["unownedWorlds"] and sum(owned.values()) == 21 and len(owned) == 3 and min(owned.values()) >= 1
        return owned if settled else None

    until("the worlds spread over the three instances", spread, timeout=LEASE_SECONDS * 8)
    # Each instance's /metrics says how many leases it holds (docs/metrics.md), as the database does
    # once the instances stop moving worlds.
    def metrics_agree():
        listing = {i["address"]: len(i["worlds"]) for i in instances_listing(b.env)["instances"]}
        held = {}
        for instance in (b, c, d):
            text = requests.get(instance.base_url + "/metrics", timeout=10).text
            line = next(l for l in text.splitlines() if l.startswith("openstore_leases_held"))
            held[instance.base_url] = int(float(line.split()[-1]))
        return held if held == listing and sum(held.values()) == 21 else None

    until("each instance's leases metric matches the database", metrics_agree, timeout=LEASE_SECONDS * 8)


def test_transaction_updates_stream_from_the_owner_through_the_other_instance(group):
    a, b, world, shared = two_instances_and_a_world_of_a(group)
    first = a.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=MONTHLY, customer="streamer")
    assert first.status_code == 200, first.text
    # The stream is opened on the instance that does not own the world: it is forwarded, and the
    # owner's Server-Sent Events arrive through it as they happen.
    stream = requests.get(f"{b.base_url}/storekit/v1/worlds/{world}/apps/{BUNDLE}/customers/streamer/updates?heartbeat=0.2",
                          stream=True, timeout=30)
    try:
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        bought = a.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=LIFETIME, customer="streamer")
        assert bought.status_code == 200, bought.text
        wanted = jws_parts(bought.json()["signedTransaction"])[1]["transactionId"]
        deadline = time.monotonic() + 30
        seen = []
        for line in stream.iter_lines(decode_unicode=True):
            if line.startswith("data:") and "signedTransaction" in line:
                signed = json.loads(line[len("data:"):])["signedTransaction"]
                seen.append(jws_parts(signed)[1]["transactionId"])
                if seen[-1] == wanted:
                    break
            assert time.monotonic() < deadline, f"no update for {wanted} through the forwarded stream: {seen}"
    finally:
        stream.close()


def test_a_store_page_form_posted_to_the_other_instance_buys_once_and_a_foreign_origin_is_still_refused(group):
    start, shared = group
    a, b = start("a", demo=True), start("b", demo=True)
    world = "w-" + uuid.uuid4().hex[:8]
    a.admin("POST", "/worlds", id=world)
    assert owner_of(a.env, world) == a.base_url
    page = f"{b.base_url}/store/backyard-birds-pass"
    query = {"customer": "visitor", "world": world}
    # The visitor's browser talks to b (its Origin is b); the world's owner is a. The form is
    # forwarded with the Host the browser used, so a's same-origin check still sees one site.
    shown = requests.get(page, params=query, timeout=30)
    assert shown.status_code == 200 and 'value="subscribe"' in shown.text, shown.text[:300]
    bought = requests.post(f"{page}/actions", params=query, headers={"Origin": b.base_url},
                           data={"action": "subscribe", "product": "com.example.backyardbirds.pass.individual"},
                           allow_redirects=False, timeout=30)
    # The owner's 303 reaches the browser as it is (the forwarder follows no redirect).
    assert bought.status_code == 303 and bought.headers.get("X-OpenStore-Result") == "purchased", \
        (bought.status_code, bought.headers, bought.text[:300])
    # Another site's form is refused as before, forwarded or not, and buys nothing.
    foreign = requests.post(f"{page}/actions", params={"customer": "victim", "world": world}, headers={"Origin": "http://evil.example"},
                            data={"action": "subscribe", "product": "com.example.backyardbirds.pass.individual"},
                            allow_redirects=False, timeout=30)
    assert foreign.status_code == 403, foreign.status_code
    counts = dict(store_rows(shared, f"SELECT customer, count(*) FROM transactions WHERE world = '{world}' GROUP BY customer"))
    assert counts == {"visitor": 1}, counts


def test_a_request_forwarded_to_a_paused_owner_is_answered_once_its_lease_lapses(group):
    a, b, world, shared = two_instances_and_a_world_of_a(group)
    a.proc.send_signal(signal.SIGSTOP)
    try:
        # The paused owner's kernel still accepts the forwarded connection; nothing answers it.
        began = time.monotonic()
        r = b.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=LIFETIME, customer="waiting")
        waited = time.monotonic() - began
        # Answered once the lease lapsed (a bound on a hang, not a speed figure), with a retry hint.
        assert waited < LEASE_SECONDS * 4 + 10, waited
        assert r.status_code == 503 and r.headers.get("Retry-After", "").isdigit(), (r.status_code, r.text[:200])
        retried = until("the retry is served by the other instance", lambda: (
            lambda x: x if x.status_code != 503 else None)(
            b.device(world, "POST", f"/apps/{BUNDLE}/purchases", productId=LIFETIME, customer="waiting")), timeout=20)
        assert retried.status_code == 200, retried.text
        assert owner_of(b.env, world) == b.base_url
    finally:
        a.proc.send_signal(signal.SIGCONT)
    counts = dict(store_rows(shared, f"SELECT customer, count(*) FROM transactions WHERE world = '{world}' GROUP BY customer"))
    assert counts == {"waiting": 1}, counts
