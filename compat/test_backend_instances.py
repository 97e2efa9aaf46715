"""Two `openstore backend` processes on one PostgreSQL database, as a team deploys them behind a
load balancer (docs/backend.md, "Many instances"), against a live store.

The store's notifications go through a round-robin balancer here (one that fails over when an
instance refuses connections) to both instances. A burst of renewals arrives at once; one
instance is killed with SIGKILL in the middle of it. Then: every notification an instance
answered 200 is in the database; after the survivor reconciles, the transaction of every
notification the kill cut off is known, and every customer's state equals the store's Get All
Subscription Statuses; every event reached the webhook receiver with a valid
HMAC, the dead instance's leased deliveries from the survivor, and none twice but the one the
dead instance may have had in flight. PostgreSQL pass only.

Size: BACKEND_INSTANCES_CUSTOMERS (default 150: 150 purchases and 450 renewals, 600
notifications). At 2,500 customers it is the issue's 10,000 notifications.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Tuple

import pytest
import requests

from openstore_harness import FIXTURES, CatalogApp, ServerProcess, StoreClient, jws_parts, make_verifier, openstore_bin
from appstoreserverlibrary.models.Environment import Environment
from test_backend_support import (
    BackendProcess, WebhookReceiver, api_client, backend_args, backend_subscriptions, create_key,
    set_notification_url, store_subscriptions, wait_until,
)
from openstore_process import store_environment
from post_receiver import Post, PostReceiver

pytestmark = pytest.mark.skipif(not os.environ.get("OPENSTORE_TEST_POSTGRES_URL"),
                                reason="many backend instances share a PostgreSQL database")

CATALOG = FIXTURES / "compat.storekit"
MONTHLY = "compat.plus.monthly"
APPLE_ID = 1_700_014_015
CUSTOMERS = int(os.environ.get("BACKEND_INSTANCES_CUSTOMERS", "150"))


class Balancer(PostReceiver):
    """Round robin over the instances' notification URLs; an instance refusing connections is
    skipped (a dead one), a request cut mid-way is answered 502, as a load balancer does. Records
    each notification's UUID with the instance and the answer the store got."""

    def __init__(self, targets: List[str]):
        self.targets = targets
        self.answers: List[Tuple[str, int, int]] = []  # (notificationUUID, instance index, status)
        self.transactions: Dict[str, str] = {}  # notificationUUID → its transaction's ID
        self._next = 0
        super().__init__("")
        self.url = self.url.rstrip("/")

    def answer(self, path: str, body: bytes, headers: Dict[str, str]) -> int:
        status, index = self.forward(path, body, headers.get("Content-Type", "application/json"))
        try:
            payload = jws_parts(json.loads(body)["signedPayload"])[1]
            notification = payload["notificationUUID"]
            transaction = jws_parts(payload["data"]["signedTransactionInfo"])[1]["transactionId"]
        except Exception:  # noqa: BLE001 (a body that is not a notification is still forwarded)
            notification, transaction = "?", "?"
        with self._lock:
            self.answers.append((notification, index, status))
            self.transactions[notification] = transaction
        return status

    def record(self, post: Post) -> None:
        pass  # `answer` keeps what the test needs

    def forward(self, path: str, body: bytes, content_type: str) -> Tuple[int, int]:
        with self._lock:
            first = self._next % len(self.targets)
            self._next += 1
        for step in range(len(self.targets)):
            index = (first + step) % len(self.targets)
            try:
                r = requests.post(self.targets[index] + path, data=body, headers={"Content-Type": content_type}, timeout=60)
                return r.status_code, index
            except requests.ConnectionError as error:
                if "Connection refused" in str(error):
                    continue  # that instance is down: the next one
                return 502, index
        return 503, -1

    def answered(self, status: int = 200) -> List[Tuple[str, int, int]]:
        with self._lock:
            return [a for a in self.answers if a[2] == status]


def psql(url: str, sql: str) -> List[str]:
    bin_dir = os.environ.get("OPENSTORE_PG_BIN")
    exe = os.path.join(bin_dir, "psql") if bin_dir else "psql"
    out = subprocess.run([exe, url, "-tAc", sql], capture_output=True, text=True, timeout=60, check=True).stdout
    return [line for line in out.splitlines() if line]


def test_two_instances_share_a_burst_and_one_is_killed_mid_way(tmp_path):
    bundle = "com.example.backend.many"
    store = ServerProcess(openstore_bin(), data_dir=tmp_path / "store", log_path=tmp_path / "store.log",
                          apps=[CatalogApp(CATALOG, bundle, app_apple_id=APPLE_ID, environment="Sandbox")])
    store.start()
    hooks = WebhookReceiver()
    balancer = None
    instances: List[BackendProcess] = []
    try:
        client = StoreClient(store.base_url, store)
        key = create_key(store, tmp_path, bundle)
        database = store_environment(tmp_path / "backend-db")["OPENSTORE_DATABASE_URL"]
        args = backend_args(store, bundle, key, hooks.url, APPLE_ID) + ["--webhook-lease", "16"]
        instances = [BackendProcess(openstore_bin(), tmp_path / name, args, database=database).start() for name in ("a", "b")]
        a, b = instances
        balancer = Balancer([i.base_url for i in instances])
        set_notification_url(store, bundle, f"{balancer.url}/apple/notifications/{bundle}")

        users = [str(uuid.uuid4()) for _ in range(CUSTOMERS)]
        with ThreadPoolExecutor(16) as pool:
            bought = list(pool.map(lambda i: client.buy(bundle, MONTHLY, f"many{i:05d}", appAccountToken=users[i])["transaction"],
                                   range(CUSTOMERS)))
        wait_until(lambda: len(balancer.answered()) >= CUSTOMERS, timeout=300, what="every purchase's notification answered")

        # Three months at once: each subscription renews three times (a first week's trial, then monthly).
        advance = threading.Thread(target=lambda: requests.post(
            f"{store.base_url}/admin/v1/worlds/default/time/advance", json={"duration": "P3M"}, timeout=1800))
        advance.start()
        wait_until(lambda: len(balancer.answers) >= CUSTOMERS + CUSTOMERS, timeout=600, what="a third of the renewals delivered")
        a.kill()
        advance.join()
        expected = CUSTOMERS * 4
        wait_until(lambda: len({n for n, _, _ in balancer.answers}) >= expected, timeout=600, what="every notification delivered once")

        # Nothing an instance answered 200 is lost, the killed one's included.
        applied = set(psql(database, 'SELECT "notificationUUID" FROM bk_notifications'))
        acknowledged = {n for n, _, _ in balancer.answered()}
        assert acknowledged <= applied, f"{len(acknowledged - applied)} answered 200 but not stored"
        by_a = {n for n, index, _ in balancer.answered() if index == 0}
        assert by_a and len(by_a) < len(acknowledged), "both instances took part"

        # What the store could not deliver (cut by the kill) comes back through the survivor's reconcile.
        report = b.post("/v1/admin/reconcile").json()
        assert not report["errors"], report
        api = api_client(store, key)
        verifier = make_verifier(client.root_der(), bundle, Environment.SANDBOX, APPLE_ID)
        for user, transaction in zip(users, bought):
            info = b.customer(user)
            assert backend_subscriptions(info) == store_subscriptions(api, verifier, [transaction["originalTransactionId"]]), user
        # The notifications cut by the kill may be older than Sandbox's 30 days of Notification
        # History by the store's clock (three months passed); their transactions came back through
        # Transaction History, as Apple's would.
        stored = set(psql(database, 'SELECT "notificationUUID" FROM bk_notifications'))
        cut = {n for n, _, _ in balancer.answers} - stored
        known = set(psql(database, 'SELECT "transactionId" FROM bk_transactions'))
        assert all(balancer.transactions[n] in known for n in cut), [n for n in cut if balancer.transactions[n] not in known]

        # Every event reached the receiver, signed; none twice but one the killed instance may have had in flight.
        events = set(psql(database, "SELECT id FROM bk_events"))
        wait_until(lambda: b.get("/v1/admin/deliveries").json()["outbox"] == {"delivered": len(events)}, timeout=300,
                   what="every webhook delivered (the killed instance's after its lease)")
        delivered = [e["id"] for e in hooks.accepted()]
        assert set(delivered) == events
        twice = {e for e in delivered if delivered.count(e) > 1}
        assert len(twice) <= 1 and all(delivered.count(e) == 2 for e in twice), twice
    finally:
        for instance in instances:
            instance.stop()
        if balancer:
            balancer.stop()
        hooks.stop()
        store.stop()
