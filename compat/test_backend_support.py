"""Running `openstore backend` beside a live `openstore serve` for the backend's compat tests.

No tests here: a live backend process on a free loopback port, a webhook receiver that checks
every delivery's HMAC-SHA256 signature the way docs/backend.md tells users to, and a helper
that reads the store's own answer (Apple's `get_all_subscription_statuses`) to compare with
the backend's customer info.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import requests
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import REPO_ROOT, ServerProcess, api_client, create_key, store_environment  # noqa: F401  (re-exported)
import run_log  # testsupport/, on the path via openstore_harness
from openstore_process import end_process  # testsupport/
from post_receiver import Post, PostReceiver  # testsupport/

LISTENING = re.compile(r"listening on (http://[^\s/]+:\d+)")
SECRET = "whsec-compat-" + uuid.uuid4().hex[:8]


def verify_signature(body: bytes, header: str, secret: str, tolerance_s: Optional[int] = None) -> bool:
    """docs/backend.md's recipe: OpenStore-Signature is `t=<unix seconds>,v1=<hex>` and v1 is
    HMAC-SHA256(secret, "<t>." + body)."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    if "t" not in parts or "v1" not in parts:
        return False
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    if tolerance_s is not None and abs(time.time() - int(parts["t"])) > tolerance_s:
        return False
    return hmac.compare_digest(expected, parts["v1"])


class WebhookReceiver(PostReceiver):
    """Records every POST; answers with `status()` (200 unless a test says otherwise)."""

    def __init__(self, secret: str = SECRET):
        self.secret = secret
        self.deliveries: List[Dict[str, Any]] = []
        super().__init__("/hooks")

    def record(self, post: Post) -> None:
        self.deliveries.append({"body": post.body, "headers": post.headers, "answered": post.answered})

    def accepted(self) -> List[Dict[str, Any]]:
        """Events answered 2xx, each checked for a valid signature."""
        with self._lock:
            done = [d for d in self.deliveries if 200 <= d["answered"] < 300]
        events = []
        for d in done:
            assert verify_signature(d["body"], d["headers"]["OpenStore-Signature"], self.secret, tolerance_s=600), d
            event = json.loads(d["body"])
            assert d["headers"]["OpenStore-Event-Id"] == event["id"]
            events.append(event)
        return events

    def wait_for_types(self, expected: List[str], since: int = 0, timeout: float = 30) -> List[Dict[str, Any]]:
        """The events after the first `since`, once their types (as a multiset) equal `expected`.
        A bound on a hang, not a speed assertion."""
        deadline = time.monotonic() + timeout
        while True:
            got = self.accepted()[since:]
            if sorted(e["type"] for e in got) == sorted(expected) or time.monotonic() > deadline:
                assert sorted(e["type"] for e in got) == sorted(expected), [e["type"] for e in got]
                return got
            time.sleep(0.05)


class BackendProcess:
    """`openstore backend` on a free port, with its own database file."""

    def __init__(self, binary: Path, folder: Path, args: List[str], database: Optional[str] = None):
        self.binary = binary
        self.folder = folder
        self.args = args
        self.database = database  # several processes given one URL share it (docs/backend.md, "Many instances")
        self.proc: Optional[subprocess.Popen] = None
        self.base_url: Optional[str] = None
        self.lines: List[str] = []

    def start(self, timeout: float = 60) -> "BackendProcess":
        self.folder.mkdir(parents=True, exist_ok=True)
        # On the suite's PostgreSQL pass (OPENSTORE_TEST_POSTGRES_URL set), the backend keeps its
        # state in a PostgreSQL database of its own, as `--database postgres://…` does for users.
        database = self.database or store_environment(self.folder).get("OPENSTORE_DATABASE_URL") or str(self.folder / "backend.sqlite")
        cmd = [str(self.binary), "backend", "--host", "127.0.0.1", "--port", "0", "--database", database, *self.args]
        self.lines = []
        self.base_url = None
        ready = threading.Event()
        run_log.record_launch(cmd)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     cwd=str(REPO_ROOT), text=True, encoding="utf-8", errors="replace", bufsize=1)
        log = open(self.folder / "backend.log", "a", encoding="utf-8")

        def pump(proc=self.proc):
            for line in proc.stdout:
                self.lines.append(line)
                run_log.record_output(line)
                log.write(line)
                log.flush()
                m = LISTENING.search(line)
                if m and not ready.is_set():
                    self.base_url = m.group(1)
                    ready.set()
            log.close()

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("openstore backend did not start:\n" + "".join(self.lines[-40:]))
        return self

    def stop(self):
        proc, self.proc = self.proc, None
        end_process(proc)

    def kill(self):
        proc, self.proc = self.proc, None
        end_process(proc, kill=True)

    def get(self, path: str) -> requests.Response:
        return requests.get(self.base_url + path, timeout=30)

    def post(self, path: str, body: Any = None) -> requests.Response:
        return requests.post(self.base_url + path, json=body, timeout=120)

    def customer(self, user: str) -> Dict[str, Any]:
        r = self.get(f"/v1/customers/{user}")
        assert r.status_code == 200, r.text
        return r.json()


def backend_args(server: ServerProcess, bundle: str, key: Dict[str, str], webhook_url: str, app_apple_id: int,
                 environment: str = "Sandbox") -> List[str]:
    return ["--bundle-id", bundle, "--app-apple-id", str(app_apple_id), "--environment", environment, "--no-apple-root",
            "--trust-store", server.base_url, "--api-key", key["privateKeyFile"], "--key-id", key["keyId"],
            "--issuer-id", key["issuerId"], "--api-base-url", server.base_url,
            "--webhook", f"{webhook_url}={SECRET}", "--webhook-retry-base", "0.2", "--reconcile-interval", "0"]


def set_notification_url(server: ServerProcess, bundle: str, url: str, environment: str = "Sandbox") -> None:
    done = server.run_cli("app", "set-notification-url", "--bundle-id", bundle, "--url", url,
                          "--environment", environment, "--server", server.base_url)
    assert done.returncode == 0, done.stderr.decode() + done.stdout.decode()


def store_subscriptions(client: AppStoreServerAPIClient, verifier, original_ids: List[str]) -> Dict[str, Dict[str, Any]]:
    """The store's answer (Get All Subscription Statuses), as the fields customer info carries."""
    out: Dict[str, Dict[str, Any]] = {}
    for original in original_ids:
        for group in client.get_all_subscription_statuses(original).data:
            for item in group.lastTransactions:
                tx = verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
                rn = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
                status = int(item.status.value if item.status is not None else item.rawStatus)
                out[item.originalTransactionId] = {
                    "status": status, "latestTransactionId": tx.transactionId, "productId": tx.productId,
                    "expiresDate": tx.expiresDate, "autoRenewProductId": rn.autoRenewProductId,
                    "willRenew": rn.autoRenewStatus is not None and int(rn.autoRenewStatus.value) == 1 and status in (1, 3, 4),
                    "gracePeriodExpiresDate": rn.gracePeriodExpiresDate if status == 4 else None,
                    "revocationDate": tx.revocationDate,
                }
    return out


def backend_subscriptions(info: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    keys = ["status", "latestTransactionId", "productId", "expiresDate", "autoRenewProductId", "willRenew",
            "gracePeriodExpiresDate", "revocationDate"]
    return {s["originalTransactionId"]: {k: s.get(k) for k in keys} for s in info["subscriptions"]}


def wait_until(check: Callable[[], bool], timeout: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class StoreWithBackend:
    """A live store selling `catalog` for `bundle` in Sandbox, `openstore backend` pointed at it
    (with `extra` flags) and a webhook receiver: the rig of the backend's end-to-end tests."""

    def __init__(self, tmp_path: Path, catalog: Path, bundle: str, app_apple_id: int, extra: Optional[List[str]] = None):
        from openstore_harness import CatalogApp, StoreClient, openstore_bin
        self.bundle = bundle
        self.store = ServerProcess(openstore_bin(), data_dir=tmp_path / "store", log_path=tmp_path / "store.log",
                                   apps=[CatalogApp(catalog, bundle, app_apple_id=app_apple_id, environment="Sandbox")])
        self.store.start()
        self.hooks = WebhookReceiver()
        self.backend: Optional[BackendProcess] = None
        try:
            self.key = create_key(self.store, tmp_path, bundle)
            self.backend = BackendProcess(openstore_bin(), tmp_path / "backend",
                                          backend_args(self.store, bundle, self.key, self.hooks.url, app_apple_id) + (extra or []))
            self.backend.start()
            set_notification_url(self.store, bundle, f"{self.backend.base_url}/apple/notifications/{bundle}")
            self.client = StoreClient(self.store.base_url, self.store)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.backend is not None:
            self.backend.stop()
        self.store.stop()
        self.hooks.stop()
