"""The subscription backend (`openstore backend`) against a live store, as a developer runs it.

The store delivers Notifications V2 to the backend over loopback; the backend verifies them with
the store's root (fetched by --trust-store), keeps customer info and sends signed webhooks to a
receiver here. After every step of a subscription's life, the backend's customer info equals what
the store's own Server API says (Apple's client calling Get All Subscription Statuses), and the
expected webhooks arrived once each with a valid HMAC. The outage test stops the backend while the
store renews, refunds and expires, then checks the restart reconciles everything.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
import requests

from openstore_harness import FIXTURES, CatalogApp, ServerProcess, StoreClient, make_verifier, openstore_bin
from appstoreserverlibrary.models.Environment import Environment
from test_backend_support import (
    BackendProcess, WebhookReceiver, api_client, backend_args, backend_subscriptions, create_key,
    set_notification_url, store_subscriptions, wait_until,
)

CATALOG = FIXTURES / "compat.storekit"
MONTHLY, YEARLY, LIFETIME, WEEKLY = "compat.plus.monthly", "compat.plus.yearly", "compat.lifetime", "compat.news.weekly"
APPLE_ID = 1_700_014_014
PLUS, NEWS = "C0FFEE20", "C0FFEE30"


class Rig:
    """A store, a backend pointed at it, and the webhook receiver."""

    def __init__(self, tmp_path, name: str):
        self.bundle = f"com.example.backend.{name}"
        self.folder = tmp_path / name
        self.store = ServerProcess(openstore_bin(), data_dir=self.folder / "store", log_path=self.folder / "store.log",
                                   apps=[CatalogApp(CATALOG, self.bundle, app_apple_id=APPLE_ID, environment="Sandbox")])
        self.store.start()
        self.client = StoreClient(self.store.base_url, self.store)
        self.key = create_key(self.store, self.folder, self.bundle)
        self.hooks = WebhookReceiver()
        self.slack = WebhookReceiver(secret="")
        self.backend = BackendProcess(openstore_bin(), self.folder / "backend",
                                      backend_args(self.store, self.bundle, self.key, self.hooks.url, APPLE_ID)
                                      + ["--slack-webhook", self.slack.url])
        self.start_backend()
        self.api = api_client(self.store, self.key)
        self.verifier = make_verifier(self.client.root_der(), self.bundle, Environment.SANDBOX, APPLE_ID)

    def start_backend(self):
        self.backend.start()
        set_notification_url(self.store, self.bundle, f"{self.backend.base_url}/apple/notifications/{self.bundle}")

    def admin(self, method: str, path: str, body=None):
        r = requests.request(method, self.store.base_url + "/admin/v1/worlds/default" + path, json=body, timeout=60)
        assert r.status_code == 200, f"{method} {path} → {r.status_code} {r.text}"
        return r.json() if r.content else {}

    def buy(self, product: str, user: str):
        return self.client.buy(self.bundle, product, "cust-" + user[:8], appAccountToken=user)["transaction"]

    def stored(self, user: str):
        """Wait until the backend's view equals the store's, then return customer info."""
        originals = []

        def same():
            nonlocal originals
            r = self.backend.get(f"/v1/customers/{user}")
            if r.status_code != 200:
                return False
            info = r.json()
            originals = [s["originalTransactionId"] for s in info["subscriptions"]]
            return originals and backend_subscriptions(info) == store_subscriptions(self.api, self.verifier, originals)

        try:
            wait_until(same, what="the backend to match the store")
        except AssertionError:
            info = self.backend.customer(user)
            assert backend_subscriptions(info) == store_subscriptions(self.api, self.verifier, originals)
        return self.backend.customer(user)

    def delivered(self, count: int):
        count *= 2  # each event goes to the JSON receiver and to the Slack one
        """Wait until the backend has recorded `count` deliveries as done (a webhook the receiver
        got but the backend had not yet recorded would be sent again after a crash: at least once)."""
        wait_until(lambda: self.backend.get("/v1/admin/deliveries").json()["outbox"] == {"delivered": count},
                   what=f"{count} deliveries recorded")

    def close(self):
        self.backend.stop()
        self.store.stop()
        self.hooks.stop()
        self.slack.stop()


@pytest.fixture
def rig(tmp_path):
    made = []

    def make(name):
        r = Rig(tmp_path, name)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()


def test_a_subscription_life_matches_the_store_step_by_step(rig):
    r = rig("life")
    user = str(uuid.uuid4())
    seen = 0

    def expect(*types):
        nonlocal seen
        events = r.hooks.wait_for_types(list(types), since=seen)
        seen += len(events)
        for e in events:
            assert e["appUserId"] == user and e["bundleId"] == r.bundle and e["environment"] == "Sandbox"
        return events

    # Buy: the monthly plan starts with its one-week free trial.
    first = r.buy(MONTHLY, user)
    [started] = expect("TRIAL_STARTED")
    assert started["productId"] == MONTHLY and started["entitlementIds"] == [PLUS] and started["periodType"] == "trial"
    info = r.stored(user)
    plus = info["entitlements"][PLUS]
    assert plus["isActive"] and plus["periodType"] == "trial" and plus["willRenew"] and plus["productId"] == MONTHLY

    # Renew: the trial converts.
    r.admin("POST", "/time/advance", {"duration": "8d"})
    [converted] = expect("TRIAL_CONVERTED")
    assert converted["priceMilliunits"] == 4990 and converted["currency"] == "USD" and converted["price"] == 4.99
    assert r.stored(user)["entitlements"][PLUS]["periodType"] == "normal"

    # Billing fails: grace period.
    r.admin("PATCH", "/settings", {"failRenewals": True, "billingGracePeriod": True})
    r.admin("POST", "/time/advance", {"duration": "31d"})
    expect("BILLING_ISSUE")
    plus = r.stored(user)["entitlements"][PLUS]
    assert plus["isActive"] and plus["billingIssueDetectedAt"] is not None and plus["gracePeriodExpiresDate"] is not None

    # Recover.
    r.admin("PATCH", "/settings", {"failRenewals": False})
    latest = r.backend.customer(user)["subscriptions"][0]["latestTransactionId"]
    r.admin("POST", f"/transactions/{latest}/resolve-issue")
    expect("RENEWAL", "BILLING_RECOVERED")
    plus = r.stored(user)["entitlements"][PLUS]
    assert plus["isActive"] and plus["billingIssueDetectedAt"] is None

    # Upgrade to the yearly plan.
    r.buy(YEARLY, user)
    [change] = expect("PRODUCT_CHANGE")
    assert change["productId"] == YEARLY
    assert r.stored(user)["entitlements"][PLUS]["productId"] == YEARLY

    # Cancel.
    latest = r.backend.customer(user)["subscriptions"][0]["latestTransactionId"]
    r.admin("POST", f"/transactions/{latest}/auto-renew", {"enabled": False})
    expect("CANCELLATION")
    assert r.stored(user)["entitlements"][PLUS]["willRenew"] is False

    # Expire.
    r.admin("POST", "/time/advance", {"duration": "400d"})
    expect("EXPIRATION")
    plus = r.stored(user)["entitlements"][PLUS]
    assert plus["isActive"] is False

    # Refund a non-consumable.
    bought = r.buy(LIFETIME, user)
    expect("NON_RENEWING_PURCHASE")
    assert r.backend.customer(user)["entitlements"][LIFETIME]["isActive"] is True
    r.admin("POST", f"/transactions/{bought['transactionId']}/refund", {"reason": 1})
    [refund] = expect("REFUND")
    assert refund["transactionId"] == bought["transactionId"]
    wait_until(lambda: r.backend.customer(user)["entitlements"][LIFETIME]["isActive"] is False, what="the refund")
    info = r.backend.customer(user)
    assert [n["revocationDate"] is not None for n in info["nonSubscriptions"]] == [True]
    assert info["managementURL"].startswith("https://") and info["firstSeen"] > 0

    # Once each: no event delivered twice, none left in the outbox.
    events = r.hooks.accepted()
    assert len({e["id"] for e in events}) == len(events) == seen
    wait_until(lambda: r.backend.get("/v1/admin/deliveries").json()["outbox"] == {"delivered": 2 * seen}, what="deliveries")
    # The Slack URL got the same events as one readable line each.
    texts = [json.loads(d["body"]) for d in r.slack.deliveries]
    assert len(texts) == seen and all(set(t) == {"text"} for t in texts)
    assert sorted(t["text"].split(":")[0] for t in texts) == sorted(e["type"] for e in events)
    # Customer info is exactly what the backend's /openapi.json documents.
    schemas = r.backend.get("/openapi.json").json()["components"]["schemas"]
    assert set(info) == set(schemas["CustomerInfo"]["properties"]) >= set(schemas["CustomerInfo"]["required"])
    for e in info["entitlements"].values():
        assert set(e) == set(schemas["Entitlement"]["properties"])
    assert all(set(x) == set(schemas["Subscription"]["properties"]) for x in info["subscriptions"])
    assert all(set(x) == set(schemas["NonSubscription"]["properties"]) for x in info["nonSubscriptions"])
    assert all(set(x) <= set(schemas["Event"]["properties"]) for x in events)
    assert first["transactionId"] in {s["originalTransactionId"] for s in info["subscriptions"]}


def test_a_failed_webhook_is_retried_with_backoff_and_logged(rig):
    r = rig("retry")
    answers = iter([500, 503])
    r.hooks.status = lambda: next(answers, 200)
    user = str(uuid.uuid4())
    r.buy(MONTHLY, user)
    [event] = r.hooks.wait_for_types(["TRIAL_STARTED"])
    wait_until(lambda: any(d["ok"] for d in r.backend.get(f"/v1/admin/deliveries?eventId={event['id']}").json()["deliveries"]
                           if d["url"] == r.hooks.url), what="the delivery log")
    log = [d for d in r.backend.get(f"/v1/admin/deliveries?eventId={event['id']}").json()["deliveries"] if d["url"] == r.hooks.url]
    assert [(d["attempt"], d["httpStatus"], d["ok"]) for d in sorted(log, key=lambda d: d["attempt"])] == [
        (1, 500, False), (2, 503, False), (3, 200, True)]
    # Exponential backoff (base 0.2 s): the second wait is at least the double of the first base.
    at = sorted(d["at"] for d in log)
    assert at[1] - at[0] >= 200 and at[2] - at[1] >= 400
    # The same bytes and the same event ID each time.
    bodies = {d["body"] for d in r.hooks.deliveries}
    assert len(r.hooks.deliveries) == 3 and len(bodies) == 1


def test_outage_then_restart_reconciles_and_sends_every_missed_webhook_once(rig):
    r = rig("outage")
    user = str(uuid.uuid4())
    r.buy(WEEKLY, user)
    lifetime = r.buy(LIFETIME, user)
    r.hooks.wait_for_types(["INITIAL_PURCHASE", "NON_RENEWING_PURCHASE"])
    before = len(r.hooks.accepted())
    r.delivered(before)
    r.backend.kill()
    # A simulated month without the backend (inside the sandbox's 30 days of Notification
    # History): a renewal, a refund, a cancellation and an expiry.
    r.admin("POST", "/time/advance", {"duration": "8d"})
    r.admin("POST", f"/transactions/{lifetime['transactionId']}/refund", {"reason": 1})
    renewed = r.client.signed_list(r.bundle, "cust-" + user[:8], "transactions")
    latest = [r.verifier.verify_and_decode_signed_transaction(j) for j in renewed]
    weekly = max((t for t in latest if t.productId == WEEKLY), key=lambda t: t.purchaseDate)
    r.admin("POST", f"/transactions/{weekly.transactionId}/auto-renew", {"enabled": False})
    r.admin("POST", "/time/advance", {"duration": "21d"})

    r.start_backend()  # reconciles on start
    missed = r.hooks.wait_for_types(["RENEWAL", "REFUND", "CANCELLATION", "EXPIRATION"], since=before)
    info = r.stored(user)
    assert info["entitlements"][NEWS]["isActive"] is False
    assert info["entitlements"][LIFETIME]["isActive"] is False
    # The start-up pass recovered them from Notification History (not only from statuses).
    # Its summary line may be printed just after the webhooks it sent arrived.
    wait_until(lambda: any("reconciled" in l for l in r.backend.lines), what="the start-up reconcile's summary line")
    [line] = [l for l in r.backend.lines if "reconciled" in l]
    assert int(re.search(r"notifications=(\d+)", line).group(1)) >= 4, line
    # An on-demand reconcile finds nothing new and sends nothing again.
    report = r.backend.post("/v1/admin/reconcile").json()
    assert report["notificationsApplied"] == 0 and report["errors"] == [], report
    assert report["notificationsAlreadyKnown"] >= 1
    events = r.hooks.accepted()
    assert len({e["id"] for e in events}) == len(events) == before + len(missed)


def test_missed_beyond_notification_history_is_recovered_from_transaction_history(rig):
    """The sandbox keeps 30 days of Notification History: a longer outage is recovered from
    Transaction History and the subscription statuses instead."""
    r = rig("long")
    user = str(uuid.uuid4())
    r.buy(MONTHLY, user)
    lifetime = r.buy(LIFETIME, user)
    r.hooks.wait_for_types(["TRIAL_STARTED", "NON_RENEWING_PURCHASE"])
    before = len(r.hooks.accepted())
    r.delivered(before)
    r.backend.kill()
    r.admin("POST", "/time/advance", {"duration": "8d"})
    r.admin("POST", f"/transactions/{lifetime['transactionId']}/refund", {"reason": 1})
    r.admin("POST", "/time/advance", {"duration": "62d"})
    r.start_backend()
    # Renewals at the trial's end (+7 days), then a month and two months later: between +35 and
    # +38, and between +65 and +69 days whatever today's date (70 days in all; the next is +96 or later).
    r.hooks.wait_for_types(["TRIAL_CONVERTED", "RENEWAL", "RENEWAL", "REFUND"], since=before)
    info = r.stored(user)
    assert info["entitlements"][PLUS]["isActive"] is True
    assert info["entitlements"][LIFETIME]["isActive"] is False
