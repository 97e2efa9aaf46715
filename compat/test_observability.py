"""Metrics and logs (issue 17), after one scripted scenario against a live store started from a
config file with `--log-format json`:

  four purchases (two consumables, a non-consumable, a subscription) with notifications
  delivered, a renewal (the clock jumps 32 days), a renewal that fails billing (fail-renewals on,
  10 more days) and its recovery by billing retry (switch off, 2 days), then the receiver goes
  away: one more purchase and a refund, whose notifications fail (SOCKET_ISSUE; Sandbox does not
  retry), and one call to the App Store Server API with a key made by `openstore keys create`.

`/metrics` is parsed with `prometheus-client`'s own text parser and every counter has its exact
value. Every log line is JSON, every response's `X-Request-ID` names log lines of that request,
each failed delivery is logged once with its world, app, customer and transaction, and none of
the secrets the store was given (admin token, shared secret, the receiver URL's key, the API
key's private key, the bearer token signed with it) appears anywhere in its output.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import time
import uuid
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
import requests
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from prometheus_client.parser import text_string_to_metric_families

import run_log
from notification_receiver import Receiver
from openstore_harness import FIXTURES, REPO_ROOT, openstore_bin
from openstore_process import free_port
from serve_process import Started

CATALOG = FIXTURES / "compat.storekit"
BUNDLE = "com.example.observed"
COINS, LIFETIME, MONTHLY = "compat.coins", "compat.lifetime", "compat.plus.monthly"


def _b64(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


class Scenario:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.token = f"admin-{uuid.uuid4().hex}"
        self.shared_secret = uuid.uuid4().hex  # Apple's form: 32 hex digits
        self.url_key = f"urlkey-{uuid.uuid4().hex}"
        self.receiver = Receiver()
        self.customer = f"obs-{uuid.uuid4().hex[:8]}"
        self.responses: List[requests.Response] = []
        self.secrets: List[str] = [self.token, self.shared_secret, self.url_key]
        self.failed_transactions: List[str] = []
        (tmp / "compat.storekit").write_bytes(CATALOG.read_bytes())
        config = tmp / "openstore.json"
        config.write_text(json.dumps({
            "port": 0, "data": str(tmp / "data"), "adminToken": self.token, "logFormat": "json",
            "apps": [{"catalog": "compat.storekit", "bundleId": BUNDLE, "environment": "Sandbox", "sharedSecret": self.shared_secret,
                      "notificationURLs": {"sandbox": f"{self.receiver.url}?key={self.url_key}"}}],
        }))
        self.store = Started(["--config", str(config), "--log-level", "info"], {}, cwd=tmp)

    def call(self, method: str, path: str, admin: bool = False, **kw) -> requests.Response:
        headers = kw.pop("headers", {})
        if admin:
            headers["Authorization"] = f"Bearer {self.token}"
        r = requests.request(method, self.store.url + path, headers=headers, timeout=30, **kw)
        self.responses.append(r)
        return r

    def buy(self, product: str) -> str:
        r = self.call("POST", f"/storekit/v1/apps/{BUNDLE}/purchases", json={"productId": product, "customer": self.customer})
        assert r.status_code == 200, r.text
        return r.json()["transaction"]["transactionId"]

    def run(self) -> None:
        self.buy(COINS)
        self.buy(COINS)
        lifetime = self.buy(LIFETIME)
        self.buy(MONTHLY)
        self.receiver.wait_for(4)
        # The week's free trial converts on day 7 (DID_RENEW); the next renewal is a month later.
        r = self.call("POST", "/admin/v1/worlds/default/time/advance", admin=True, json={"duration": "32d"})
        assert r.status_code == 200, r.text
        self.receiver.wait_for(5)
        # Billing fails (the Transaction Manager's fail-renewals switch): the renewal due around day
        # 37 enters billing retry (DID_FAIL_TO_RENEW), whose daily attempts keep failing silently
        # until billing works again; the next attempt then recovers it (DID_RENEW/BILLING_RECOVERY).
        self.settings(failRenewals=True)
        self.advance("10d")
        self.receiver.wait_for(6)
        self.settings(failRenewals=False)
        self.advance("2d")
        self.receiver.wait_for(7)
        self.delivered_types = [json.loads(_b64(p.split(".")[1]))["notificationType"] for p in self.receiver.signed_payloads()]
        dead = f"http://127.0.0.1:{free_port()}/gone"
        r = self.call("PUT", f"/admin/v1/worlds/default/apps/{BUNDLE}/notification-url", admin=True,
                      json={"url": dead, "environment": "Sandbox"})
        assert r.status_code == 200, r.text
        coins = self.buy(COINS)
        r = self.call("POST", f"/admin/v1/worlds/default/transactions/{coins}/refund", admin=True, json={"reason": 1})
        assert r.status_code == 200, r.text
        self.failed_transactions = [coins, coins]
        # A request with its own request ID, one that is not found, and one the Server API answers.
        self.call("GET", "/healthz", headers={"X-Request-ID": "client-chosen-id-42"})
        self.call("GET", "/storekit/v1/apps/no.such.app/products")
        self.server_api(lifetime)
        self.verify_receipt()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.sample("openstore_notification_attempts_total", result="SOCKET_ISSUE") < 2:
            time.sleep(0.1)

    def settings(self, **switches) -> None:
        r = self.call("PATCH", "/admin/v1/worlds/default/settings", admin=True, json=switches)
        assert r.status_code == 200, r.text

    def advance(self, duration: str) -> None:
        r = self.call("POST", "/admin/v1/worlds/default/time/advance", admin=True, json={"duration": duration})
        assert r.status_code == 200, r.text

    def verify_receipt(self) -> None:
        """The config file's sharedSecret, tried right and wrong on /sandbox/verifyReceipt."""
        r = self.call("GET", f"/storekit/v1/apps/{BUNDLE}/customers/{self.customer}/receipt")
        assert r.status_code == 200, r.text
        receipt = r.json()["receiptData"]
        self.verify_receipt_statuses = {}
        for name, password in [("right", self.shared_secret), ("wrong", "0" * 32)]:
            answer = self.call("POST", "/sandbox/verifyReceipt", json={"receipt-data": receipt, "password": password})
            assert answer.status_code == 200, answer.text
            self.verify_receipt_statuses[name] = answer.json()["status"]

    def server_api(self, transaction_id: str) -> None:
        out = self.tmp / "AuthKey.p8"
        done = subprocess.run([str(openstore_bin()), "keys", "create", "--bundle-id", BUNDLE, "--data", str(self.tmp / "data"),
                               "--out", str(out), "--json"], capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))
        assert done.returncode == 0, done.stderr
        info = json.loads(done.stdout.strip().splitlines()[-1])
        pem = Path(info["privateKeyFile"]).read_bytes()
        body = "".join(line for line in pem.decode().splitlines() if "-----" not in line)
        self.secrets += [body, body[10:50]]
        client = AppStoreServerAPIClient(pem, info["keyId"], info["issuerId"], BUNDLE, Environment.SANDBOX)
        client._base_url = self.store.url
        self.secrets.append(client._generate_token())
        run_log.record_secrets(self.secrets)  # and the whole run's logs are checked for them (scripts/test.sh)
        assert client.get_transaction_info(transaction_id).signedTransactionInfo

    def metrics(self) -> Dict[Tuple[str, Tuple], float]:
        r = requests.get(self.store.url + "/metrics", timeout=30)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain"), r.text
        self.metrics_text = r.text
        samples = {}
        for family in text_string_to_metric_families(r.text):
            for s in family.samples:
                samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
        return samples

    def sample(self, name: str, **labels) -> float:
        return self.metrics().get((name, tuple(sorted(labels.items()))), 0)


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    s = Scenario(tmp_path_factory.mktemp("observability"))
    try:
        s.run()
        s.final_metrics = s.metrics()
    finally:
        s.store.stop()
        s.receiver.stop()
    return s


def test_metrics_count_the_scenario_exactly(scenario):
    m = scenario.final_metrics

    def value(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        assert key in m, f"{name}{labels} is not in /metrics: {sorted(k for k in m if k[0].startswith(name[:20]))}"
        return m[key]

    assert value("openstore_purchases_total", product_type="Consumable") == 3
    assert value("openstore_purchases_total", product_type="NonConsumable") == 1
    assert value("openstore_purchases_total", product_type="RecurringSubscription") == 1
    assert value("openstore_purchases_total", product_type="NonRenewingSubscription") == 0
    # The trial's conversion and the billing recovery renew; the renewal that could not be billed
    # is one billing failure (docs/metrics.md: DID_RENEW, billing recoveries included; DID_FAIL_TO_RENEW).
    assert sorted(scenario.delivered_types[4:]) == ["DID_FAIL_TO_RENEW", "DID_RENEW", "DID_RENEW"], scenario.delivered_types
    assert value("openstore_renewals_total") == 2
    assert value("openstore_billing_failures_total") == 1
    assert value("openstore_events_total", type="DID_RENEW") == 2
    assert value("openstore_events_total", type="DID_FAIL_TO_RENEW") == 1
    assert value("openstore_refunds_total") == 1
    assert value("openstore_events_total", type="REFUND") == 1
    assert value("openstore_notification_attempts_total", result="SUCCESS") == 7
    assert value("openstore_notification_attempts_total", result="SOCKET_ISSUE") == 2
    assert value("openstore_notification_attempts_total", result="TIMED_OUT") == 0
    assert value("openstore_notification_outbox_depth") == 0  # Sandbox does not retry
    assert value("openstore_notification_oldest_pending_age_seconds") == 0
    # Every clock jump applied the events it passed before answering, and the next renewal is a
    # month ahead: nothing is overdue. (A lag above 0 while work is due and cannot be applied:
    # compat/test_observability_faults.py.)
    assert value("openstore_scheduler_lag_seconds") == 0
    assert value("openstore_worlds") == 1
    assert value("openstore_customers") == 1
    purchases = [(labels, v) for (name, labels), v in m.items()
                 if name == "openstore_http_requests_total" and dict(labels).get("method") == "POST"
                 and dict(labels).get("route", "").endswith("/purchases")]
    assert [(dict(labels)["status"], v) for labels, v in purchases] == [("200", 5)], purchases
    route = dict(purchases[0][0])["route"]
    assert value("openstore_http_request_duration_seconds_count", route=route, method="POST") == 5
    assert value("openstore_http_request_duration_seconds_bucket", route=route, method="POST", le="+Inf") == 5
    not_found = sum(v for (name, labels), v in m.items() if name == "openstore_http_requests_total" and dict(labels).get("status") == "404")
    assert not_found == 1


def test_logs_are_json_with_request_ids_and_failed_deliveries_in_context(scenario):
    lines = [json.loads(line) for line in scenario.store.stderr if line.strip()]
    assert lines, "no log lines"
    # Standard output too: the start banner is one JSON object, with the same keys (issue 32).
    banner = [json.loads(line) for line in scenario.store.stdout if line.strip()]
    assert banner and banner[0]["url"] == scenario.store.url, banner
    assert banner[0]["apps"][0]["bundleId"] == BUNDLE, banner
    for line in banner:
        assert {"time", "level", "label", "message"} <= line.keys(), line
    for line in lines:
        assert {"time", "level", "label", "message"} <= line.keys(), line
    by_id: Dict[str, List[dict]] = {}
    for line in lines:
        if "request_id" in line:
            by_id.setdefault(line["request_id"], []).append(line)
    for r in scenario.responses:
        rid = r.headers.get("X-Request-ID")
        assert rid, f"{r.request.method} {r.url} has no X-Request-ID"
        assert any(l.get("path") == r.request.path_url.split("?")[0] for l in by_id.get(rid, [])), (rid, r.url)
    assert len({r.headers["X-Request-ID"] for r in scenario.responses}) == len(scenario.responses)
    assert any(r.headers["X-Request-ID"] == "client-chosen-id-42" for r in scenario.responses)
    failed = [l for l in lines if l["message"] == "notification delivery failed"]
    assert len(failed) == 2, failed
    for line, transaction in zip(sorted(failed, key=lambda l: l["notification_type"]), ["ONE_TIME_CHARGE", "REFUND"]):
        assert line["notification_type"] == transaction
    for line in failed:
        assert (line["world"], line["app"], line["customer"], line["send_attempt_result"]) == \
            ("default", BUNDLE, scenario.customer, "SOCKET_ISSUE"), line
        assert line["transaction"] == scenario.failed_transactions[0], line
        assert line["level"] == "warning"
    purchase_lines = [l for l in lines if l.get("route", "").endswith("/purchases") and l["message"] == "request"]
    assert len(purchase_lines) == 5 and all(l["app"] == BUNDLE and l["status"] == 200 for l in purchase_lines), purchase_lines


def test_no_secret_reaches_the_output(scenario):
    output = "".join(scenario.store.stdout + scenario.store.stderr)
    assert len(scenario.secrets) >= 6
    for secret in scenario.secrets:
        assert secret not in output, f"a secret ({secret[:6]}…) appears in the store's output"


def test_the_grafana_dashboard_asks_only_for_metrics_the_store_exports(scenario):
    dashboard = json.loads((REPO_ROOT / "docs" / "grafana" / "openstore.json").read_text())
    asked = {name for panel in dashboard["panels"] for target in panel["targets"]
             for name in re.findall(r"openstore_[a-z_]+", target["expr"])}
    assert len(asked) >= 10
    exported = set(re.findall(r"^(openstore_[a-z_]+)", scenario.metrics_text, re.M))
    assert asked <= exported, sorted(asked - exported)


def test_the_config_files_shared_secret_guards_verify_receipt(scenario):
    """`sharedSecret` in openstore.json is the app's verifyReceipt password (docs/configuration.md):
    the right one reads the receipt (status 0), a wrong one is Apple's 21004."""
    assert scenario.verify_receipt_statuses == {"right": 0, "wrong": 21004}
