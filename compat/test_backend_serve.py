"""The whole system in one command (#14 item 7), and Family Sharing through the backend (#14's test list).

`openstore serve` with no arguments (only OPENSTORE_PORT set, to a free port, in an empty folder)
hosts the two demo apps and starts the subscription backend on the next port; the demo apps'
Production and Sandbox notification URLs point to it, and it reconciles with a Server API key the
store made for it. A newcomer buys on `/store`, the app posts the transaction, the clock moves on,
and the backend's customer info follows: the renewal arrives as a real Notification V2 (the
backend reconciles only at start here), and customer info equals what the store's Server API
says (Apple's client: Get All Subscription Statuses).

Family Sharing: the store gives each member of the purchaser's family a FAMILY_SHARED copy of a
shareable subscription. The store sends notifications for the purchaser's transactions only (a
grant emits no event of its own: docs/lifecycle.md, World+Family.swift), so the member's copy
reaches the backend as the member's app posts it, and its renewals through reconcile
(Transaction History per known customer). The organizer's info equals the store's Get All
Subscription Statuses; the member's equals the store's Transaction History (the store answers
Get All Subscription Statuses with no data for a FAMILY_SHARED original transaction).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import requests
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, TransactionHistoryRequest

from openstore_harness import StoreClient, make_verifier, openstore_bin
from openstore_process import free_port
from serve_process import Started, refused
from test_backend_support import api_client, backend_subscriptions, store_subscriptions, wait_until

BIRDS, BIRDS_APPLE_ID = "com.example.backyardbirds", 1_640_000_001
INDIVIDUAL = "com.example.backyardbirds.pass.individual"  # one-week free trial, then 4.99 a month
FAMILY = "com.example.backyardbirds.pass.family"  # familyShareable, one-week free trial, then 7.99
PASS_GROUP = "BB0PASS1"  # the Backyard Birds Pass subscription group: the default entitlement's name
BACKEND_LINE = re.compile(r"Subscription backend listening on (http://[^\s/]+:\d+)")


class WholeSystem:
    """`openstore serve` started bare in its own folder, and what it printed."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.store = Started([], {"OPENSTORE_PORT": str(free_port()), "HOME": str(folder)}, cwd=folder)
        deadline = time.monotonic() + 60
        self.backend_url = None
        while self.backend_url is None:
            for line in list(self.store.stdout):
                m = BACKEND_LINE.search(line)
                if m:
                    self.backend_url = m.group(1)
            assert time.monotonic() < deadline and self.store.proc.poll() is None, \
                "no backend line:\n" + "".join(self.store.stdout + self.store.stderr)
            time.sleep(0.05)
        self.client = StoreClient(self.store.url)
        self.key = self.create_key()
        self.api = api_client(self, self.key)
        self.verifier = make_verifier(self.client.root_der(), BIRDS, Environment.SANDBOX, BIRDS_APPLE_ID)

    @property
    def base_url(self) -> str:  # for test_backend_support.api_client
        return self.store.url

    def create_key(self):
        out = self.folder / "AuthKey_test.p8"
        done = subprocess.run([str(openstore_bin()), "keys", "create", "--bundle-id", BIRDS, "--data",
                               str(self.folder / ".openstore"), "--out", str(out), "--json"],
                              capture_output=True, text=True, timeout=60, cwd=str(self.folder))
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def admin(self, method: str, path: str, body=None):
        r = requests.request(method, self.store.url + "/admin/v1/worlds/default" + path, json=body, timeout=60)
        assert r.status_code == 200, f"{method} {path} → {r.status_code} {r.text}"
        return r.json() if r.content else {}

    def backend(self, method: str, path: str, body=None) -> requests.Response:
        return requests.request(method, self.backend_url + path, json=body, timeout=120)

    def app_posts_transactions(self, customer: str) -> None:
        """What the app does after a purchase (docs/backend.md): StoreKit 2's jwsRepresentation
        of each transaction, posted to the backend under the app's user ID."""
        for signed in self.client.signed_list(BIRDS, customer, "transactions"):
            r = self.backend("POST", f"/v1/customers/{customer}/transactions", {"signedTransaction": signed})
            assert r.status_code == 200, r.text

    def equals_store(self, customer: str, count: int = 1) -> dict:
        """Waits until the backend's customer info equals the store's Server API for the
        customer's subscriptions; returns the info."""
        seen = {}

        def same():
            r = self.backend("GET", f"/v1/customers/{customer}")
            if r.status_code != 200:
                return False
            seen["info"] = info = r.json()
            originals = [s["originalTransactionId"] for s in info["subscriptions"]]
            seen["store"] = store = store_subscriptions(self.api, self.verifier, originals) if originals else {}
            return len(originals) == count and backend_subscriptions(info) == store

        try:
            wait_until(same, what=f"{customer}'s customer info to equal the store's Server API")
        except AssertionError:
            assert backend_subscriptions(seen.get("info", {"subscriptions": []})) == seen.get("store"), seen
            raise
        return seen["info"]

    def member_equals_store(self, member: str) -> dict:
        """A family member's copy: the store answers Get All Subscription Statuses with no data
        for a FAMILY_SHARED original transaction (noted in docs/backend.md), so the member's
        subscription is compared with the store's Transaction History (Apple's client, v2)."""
        seen = {}

        def same():
            info = seen["info"] = self.backend("GET", f"/v1/customers/{member}").json()
            [sub] = info["subscriptions"]
            page = self.api.get_transaction_history(sub["latestTransactionId"], None,
                                                    TransactionHistoryRequest(sort=Order.DESCENDING))
            latest = self.verifier.verify_and_decode_signed_transaction(page.signedTransactions[0])
            seen["store"] = store = {"latestTransactionId": latest.transactionId, "originalTransactionId": latest.originalTransactionId,
                                     "productId": latest.productId, "expiresDate": latest.expiresDate,
                                     "ownershipType": latest.inAppOwnershipType.value}
            mine = {k: sub[k] for k in ("latestTransactionId", "originalTransactionId", "productId", "expiresDate")}
            mine["ownershipType"] = info["entitlements"][PASS_GROUP]["ownershipType"]
            return mine == store

        try:
            wait_until(same, what=f"{member}'s customer info to equal the store's Transaction History")
        except AssertionError:
            raise AssertionError(seen)
        return seen["info"]

    def stop(self):
        self.store.stop()


@pytest.fixture(scope="module")
def system(tmp_path_factory):
    whole = WholeSystem(tmp_path_factory.mktemp("whole-system"))
    yield whole
    whole.stop()


def buy_on_store_page(system: WholeSystem, customer: str, product: str) -> None:
    """Presses Subscribe on the web store's Backyard Birds Pass page (/store, a
    SubscriptionStoreView) with the plan chosen, as a visitor would without JavaScript."""
    page = f"{system.store.url}/store/backyard-birds-pass"
    r = requests.get(page, params={"customer": customer}, timeout=30)
    assert r.status_code == 200 and 'value="subscribe"' in r.text, r.text[:300]
    r = requests.post(f"{page}/actions", params={"customer": customer}, data={"action": "subscribe", "product": product},
                      allow_redirects=False, timeout=30)
    assert r.status_code == 303 and r.headers.get("X-OpenStore-Result") == "purchased", (r.status_code, r.headers, r.text[:300])


def test_serve_with_no_arguments_runs_the_backend_and_a_store_purchase_moves_it(system):
    store_port = int(system.store.url.rsplit(":", 1)[1])
    backend_port = int(system.backend_url.rsplit(":", 1)[1])
    # The next port, unless something else on this shared machine holds it (then a free one).
    if backend_port != store_port + 1:
        assert any("taken" in line for line in system.store.stderr), system.store.stderr
    for bundle in (BIRDS, "com.example.foodtruck"):
        urls = system.admin("GET", f"/apps/{bundle}/notification-url")
        expected = f"{system.backend_url}/apple/notifications/{bundle}"
        assert urls["productionURL"] == expected and urls["sandboxURL"] == expected, urls
    # The backend's key material stays out of what serve prints.
    p8 = next((system.folder / ".openstore" / "backend").glob("AuthKey_*.p8")).read_text()
    key_body = "".join(line for line in p8.splitlines() if "-----" not in line)
    assert key_body[10:50] not in "".join(system.store.stdout + system.store.stderr)

    newcomer = f"newcomer-{uuid.uuid4().hex[:8]}"
    buy_on_store_page(system, newcomer, INDIVIDUAL)
    system.app_posts_transactions(newcomer)
    info = system.equals_store(newcomer)
    plus = info["entitlements"][PASS_GROUP]
    assert plus["isActive"] and plus["productId"] == INDIVIDUAL and plus["periodType"] == "trial"
    assert plus["ownershipType"] == "PURCHASED" and plus["environment"] == "Sandbox"
    first_expiry = plus["expiresDate"]

    # A week and a day later the trial has converted: the store renews and notifies the backend.
    system.admin("POST", "/time/advance", {"duration": "8d"})
    wait_until(lambda: system.backend("GET", f"/v1/customers/{newcomer}").json()["entitlements"][PASS_GROUP]["periodType"] == "normal",
               what="the renewal to reach the backend")
    info = system.equals_store(newcomer)
    plus = info["entitlements"][PASS_GROUP]
    assert plus["isActive"] and plus["expiresDate"] > first_expiry
    events = [e["type"] for e in system.backend("GET", f"/v1/customers/{newcomer}/events").json()["events"]]
    assert events == ["TRIAL_STARTED", "TRIAL_CONVERTED"], events
    # It came as a notification: the store's history shows DID_RENEW delivered to the backend.
    original = info["subscriptions"][0]["originalTransactionId"]
    notifications = requests.get(f"{system.store.url}/admin/v1/worlds/default/notifications",
                                 params={"bundleId": BIRDS}, timeout=30).json()["notifications"]
    renewals = [n for n in notifications if n["notificationType"] == "DID_RENEW" and n["originalTransactionId"] == original]
    assert len(renewals) == 1 and renewals[0]["delivered"] and renewals[0]["customer"] == newcomer, notifications

def test_a_family_shared_subscription_reaches_the_backend_for_organizer_and_member(system):
    group = f"family-{uuid.uuid4().hex[:8]}"
    organizer, member = f"organizer-{uuid.uuid4().hex[:6]}", f"member-{uuid.uuid4().hex[:6]}"
    for who in (organizer, member):
        system.admin("PUT", f"/customers/{who}/family", {"group": group})
    system.client.buy(BIRDS, FAMILY, organizer)
    for who in (organizer, member):
        system.app_posts_transactions(who)

    mine = system.equals_store(organizer)["entitlements"][PASS_GROUP]
    shared = system.member_equals_store(member)["entitlements"][PASS_GROUP]
    assert mine["ownershipType"] == "PURCHASED" and shared["ownershipType"] == "FAMILY_SHARED"
    assert mine["isActive"] and shared["isActive"] and shared["productId"] == FAMILY
    assert shared["expiresDate"] == mine["expiresDate"]

    # A renewal: the organizer's arrives as a notification, the member's copy through reconcile.
    system.admin("POST", "/time/advance", {"duration": "8d"})
    r = system.backend("POST", "/v1/admin/reconcile")
    assert r.status_code == 200 and r.json()["errors"] == [], r.text
    mine = system.equals_store(organizer)["entitlements"][PASS_GROUP]
    shared = system.member_equals_store(member)["entitlements"][PASS_GROUP]
    assert shared["ownershipType"] == "FAMILY_SHARED" and shared["periodType"] == "normal"
    assert shared["isActive"] and shared["expiresDate"] == mine["expiresDate"]


def test_the_demo_paywall_shows_the_offering_the_backend_serves_and_its_experiment_splits_it(system):
    """#34 §6: with an offering configured in the backend, the Backyard Birds Pass paywall on
    /store shows its plans and copy; with an experiment running, each new customer sees their
    variant's, and the backend's report counts them."""
    def page(customer):
        r = requests.get(f"{system.store.url}/store/backyard-birds-pass?customer={customer}", timeout=60)
        assert r.status_code == 200, r.text
        return r.text

    assert "Backyard Birds Pass" in page("shopper-0")  # no offering yet: the page's own copy
    for offering_id, body in [
        ("default", {"packages": [{"id": "individual", "productId": INDIVIDUAL}, {"id": "family", "productId": FAMILY}],
                     "metadata": {"title": "Birds all year", "subtitle": "Every plan"}}),
        ("family_sale", {"packages": [{"id": "family", "productId": FAMILY}],
                         "metadata": {"title": "Families fly free", "subtitle": "The family plan"}}),
    ]:
        r = system.backend("PUT", f"/v1/admin/apps/{BIRDS}/offerings/{offering_id}", body)
        assert r.status_code == 200, r.text
    html = page("shopper-1")
    assert "Birds all year" in html and f'data-product-id="{INDIVIDUAL}"' in html

    r = system.backend("PUT", "/v1/admin/experiments/family-sale", {"bundleId": BIRDS, "control": "default", "treatment": "family_sale"})
    assert r.status_code == 200, r.text
    seen = {}
    for i in range(12):
        customer = f"visitor-{i}"
        html = page(customer)
        variant = system.backend("GET", f"/v1/customers/{customer}/offerings?bundleId={BIRDS}").json()["experiment"]["variant"]
        seen[variant] = seen.get(variant, 0) + 1
        if variant == "treatment":
            assert "Families fly free" in html and f'data-product-id="{INDIVIDUAL}"' not in html, customer
        else:
            assert "Birds all year" in html and f'data-product-id="{INDIVIDUAL}"' in html, customer
    assert set(seen) == {"control", "treatment"}, seen
    report = system.backend("GET", "/v1/admin/experiments/family-sale").json()
    assert {v["variant"]: v["customers"] for v in report["variants"]} == seen
    assert system.backend("POST", "/v1/admin/experiments/family-sale/stop").status_code == 200


def test_the_backend_switch_is_a_flag_a_variable_and_a_config_key(tmp_path):
    """docs/configuration.md: flag beats variable beats file, for --backend/--no-backend too.
    Without the backend nothing of it is made: no DATA/backend folder, no notification URLs."""
    config = tmp_path / "openstore.json"
    config.write_text(json.dumps({"port": 0, "backend": False}))

    def started(name, args, env):
        data = tmp_path / name
        store = Started(["--config", str(config), "--data", str(data), *args], env, cwd=tmp_path)
        try:
            made = (data / "backend").exists()  # made before the store listens, when the backend runs
            if made:
                wait_until(lambda: any(BACKEND_LINE.search(line) for line in store.stdout), what="the backend line")
            urls = requests.get(f"{store.url}/admin/v1/worlds/default/apps/{BIRDS}/notification-url", timeout=30).json()
            return made, urls
        finally:
            store.stop()

    made, urls = started("file-off", [], {})
    assert not made and urls.get("sandboxURL") is None and urls.get("productionURL") is None
    made, urls = started("variable-on", [], {"OPENSTORE_BACKEND": "on"})
    assert made and urls["sandboxURL"].endswith(f"/apple/notifications/{BIRDS}")
    made, _ = started("flag-off", ["--no-backend"], {"OPENSTORE_BACKEND": "on"})
    assert not made
    assert "OPENSTORE_BACKEND" in refused(["--config", str(config)], {"OPENSTORE_BACKEND": "maybe"}, tmp_path)
