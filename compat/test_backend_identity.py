"""Identity (#34 §2) end to end: a live store sells, its notifications reach `openstore backend`,
and the app posts the signed transaction as a real app does after `purchase()`.

- A purchase made before the app names its user (no appAccountToken) belongs to an anonymous
  `$anon:` customer; when the app posts it for a signed-in user, that customer merges in.
- Posted for a second identified user it moves (the default policy, RevenueCat's "Transfer to new
  App User ID") with a signed TRANSFER webhook; under `--transfer-policy keep` it stays (409).
- The app's AppTransaction, posted, gives customer info's first download and its version.
- Deleting the customer erases what names them, from the API and from the database file, while
  the overview's figures stay the same.
"""

from __future__ import annotations

import requests

from openstore_harness import FIXTURES
from test_backend_support import StoreWithBackend, wait_until

CATALOG = FIXTURES / "compat.storekit"
YEARLY = "compat.plus.yearly"
APPLE_ID = 1_700_034_002
ANN, BOB = "ann.identity@example.com", "bob.identity@example.com"


def signed_transactions(rig: StoreWithBackend, customer: str):
    return rig.client.signed_list(rig.bundle, customer, "transactions")


def test_anonymous_purchase_merges_on_post_then_transfers_and_deletion_erases_the_customer(tmp_path):
    rig = StoreWithBackend(tmp_path, CATALOG, "com.example.backend.identity", APPLE_ID)
    backend, hooks = rig.backend, rig.hooks
    try:
        rig.client.buy(rig.bundle, YEARLY, "store-customer-1")
        first = hooks.wait_for_types(["INITIAL_PURCHASE"])[0]
        anonymous = first["appUserId"]
        assert anonymous.startswith("$anon:"), first
        assert backend.customer(anonymous)["subscriptions"][0]["status"] == 1

        # The app posts the purchase for ann once she signs in: the anonymous customer is hers now.
        signed = signed_transactions(rig, "store-customer-1")[0]
        r = backend.post(f"/v1/customers/{ANN}/transactions", {"signedTransaction": signed})
        assert r.status_code == 200, r.text
        ann = r.json()
        assert ann["appUserId"] == ANN and ann["originalAppUserId"] == anonymous and ann["aliases"] == [anonymous]
        assert ann["entitlements"] and all(e["isActive"] for e in ann["entitlements"].values())
        assert backend.customer(anonymous)["appUserId"] == ANN
        assert [e["type"] for e in backend.get(f"/v1/customers/{ANN}/events").json()["events"]] == ["INITIAL_PURCHASE"]

        # The app's AppTransaction, as the store signs it, gives the first download.
        app_tx = rig.client.app_transaction(rig.bundle, "store-customer-1").json()
        r = backend.post(f"/v1/customers/{ANN}/app-transaction", {"signedAppTransaction": app_tx["signedAppTransaction"]})
        assert r.status_code == 200, r.text
        assert r.json()["originalApplicationVersion"] == app_tx["appTransaction"]["originalApplicationVersion"]
        assert r.json()["originalPurchaseDate"] == app_tx["appTransaction"]["originalPurchaseDate"]
        forged = app_tx["signedAppTransaction"][:-4] + ("AAAA" if not app_tx["signedAppTransaction"].endswith("AAAA") else "BBBB")
        assert backend.post(f"/v1/customers/{ANN}/app-transaction", {"signedAppTransaction": forged}).status_code == 403

        # The same Apple account signed in as bob: the purchase moves to him, with a TRANSFER webhook.
        r = backend.post(f"/v1/customers/{BOB}/transactions", {"signedTransaction": signed})
        assert r.status_code == 200 and r.json()["subscriptions"], r.text
        transfer = hooks.wait_for_types(["TRANSFER"], since=1)[0]   # its signature checked by the receiver
        assert transfer["transferredFrom"] == [ANN] and transfer["transferredTo"] == [BOB] and transfer["appUserId"] == BOB
        assert backend.customer(ANN)["subscriptions"] == []

        r = requests.put(f"{backend.base_url}/v1/customers/{BOB}/attributes",
                         json={"attributes": {"$email": {"value": BOB}, "$displayName": {"value": "Bob Identity"}}}, timeout=30)
        assert r.status_code == 200 and r.json()["subscriberAttributes"]["$displayName"]["value"] == "Bob Identity", r.text
        figures = backend.get("/v1/admin/overview").json()

        # A deletion request: bob is gone from the API and from the file; the figures are not.
        r = requests.delete(f"{backend.base_url}/v1/customers/{BOB}", timeout=30)
        assert r.status_code == 200 and r.json() == {"deleted": BOB}, r.text
        assert backend.get(f"/v1/customers/{BOB}").status_code == 404
        after = backend.get("/v1/admin/overview").json()
        moving = {"asOf", "windowStart"}   # the instant the figures are judged at, by the wall clock
        assert {k: v for k, v in after.items() if k not in moving} == {k: v for k, v in figures.items() if k not in moving}
        database = tmp_path / "backend" / "backend.sqlite"
        if database.exists():   # the SQLite pass; on PostgreSQL the Swift tests scan every table instead
            for path in [database, database.with_name("backend.sqlite-wal")]:
                if path.exists():
                    data = path.read_bytes()
                    for secret in [BOB, "Bob Identity"]:
                        assert secret.encode() not in data, f"{secret} in {path.name}"
        # ann never asked to be deleted: the transfer event she sees names a stand-in, not bob.
        events = backend.get("/v1/events").json()["events"]
        transfers = [e for e in events if e["type"] == "TRANSFER"]
        assert len(transfers) == 1 and transfers[0]["transferredFrom"] == [ANN]
        assert transfers[0]["transferredTo"][0].startswith("$deleted:")
    finally:
        rig.close()


def test_under_keep_a_purchase_stays_with_its_first_customer(tmp_path):
    rig = StoreWithBackend(tmp_path, CATALOG, "com.example.backend.keep", APPLE_ID + 1, extra=["--transfer-policy", "keep"])
    backend = rig.backend
    try:
        rig.client.buy(rig.bundle, YEARLY, "store-customer-2")
        signed = signed_transactions(rig, "store-customer-2")[0]
        assert backend.post(f"/v1/customers/{ANN}/transactions", {"signedTransaction": signed}).status_code == 200
        r = backend.post(f"/v1/customers/{BOB}/transactions", {"signedTransaction": signed})
        assert r.status_code == 409 and r.json()["error"] == "purchaseBelongsToAnotherCustomer", r.text
        assert ANN not in r.text, "the other customer is not named"
        wait_until(lambda: backend.customer(ANN)["subscriptions"] != [], what="ann keeps it")
        assert backend.customer(BOB)["subscriptions"] == []
    finally:
        rig.close()
