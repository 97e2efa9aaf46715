"""Refund control (#34): the backend answers the App Store's refund requests by the app's policy.

A customer asks the store for a refund; the store sends CONSUMPTION_REQUEST to the backend; the
backend sends Send Consumption Information to the store's Server API with the policy's
`refundPreference`, but only for a customer whose consent the app recorded (Apple's
`customerConsented`: "If not, don't respond to the CONSUMPTION_REQUEST notification"). The store's
decision then follows what it was told (its refund decision with no tester's verdict follows the
developer's `refundPreference`), and the backend counts it and sends its webhooks.
"""

from __future__ import annotations

import requests

from openstore_harness import FIXTURES, StoreClient
from test_backend_support import StoreWithBackend, wait_until

CATALOG = FIXTURES / "compat.storekit"
YEARLY, COINS = "compat.plus.yearly", "compat.coins"
APPLE_ID = 1_700_034_001


def test_refund_requests_are_answered_by_policy_for_consenting_customers_and_the_decision_follows(tmp_path):
    bundle = "com.example.backend.refunds"
    rig = StoreWithBackend(tmp_path, CATALOG, bundle, APPLE_ID, extra=["--refund-control", "preferDecline"])
    store, backend, hooks, key = rig.store, rig.backend, rig.hooks, rig.key
    try:
        client = StoreClient(store.base_url, store)
        ann_token, bob_token = "5a1f0c7e-0d7e-4a51-9a63-2b3c4d5e6f70", "6b2f1d8f-1e8f-4b62-8b74-3c4d5e6f7081"
        ann = client.buy(bundle, YEARLY, "cust-ann", appAccountToken=ann_token)["transaction"]
        bob = client.buy(bundle, COINS, "cust-bob", appAccountToken=bob_token)["transaction"]
        wait_until(lambda: backend.get(f"/v1/customers/{ann_token}").status_code == 200
                   and backend.get(f"/v1/customers/{bob_token}").status_code == 200, what="both customers at the backend")

        # The app records ann's consent; bob gave none.
        r = requests.put(f"{backend.base_url}/v1/customers/{ann_token}/consumption-consent", json={"consented": True}, timeout=30)
        assert r.status_code == 200 and r.json()["consented"] is True, r.text
        bad = requests.put(f"{backend.base_url}/v1/customers/{ann_token}/consumption-consent", json={"consented": "yes"}, timeout=30)
        assert bad.status_code == 400 and bad.json()["error"] == "malformed", bad.text

        # Both ask the store for a refund, as a customer does on the device.
        store_requests = {}
        for customer, tx, reason in [("cust-ann", ann, "UNINTENDED_PURCHASE"), ("cust-bob", bob, "FULFILLMENT_ISSUE")]:
            r = requests.post(f"{store.base_url}/storekit/v1/apps/{bundle}/customers/{customer}/transactions/"
                              f"{tx['transactionId']}/refund-request", json={"reason": reason}, timeout=30)
            assert r.status_code == 200, r.text
            store_requests[customer] = r.json()["id"]

        def by_transaction():
            report = backend.get("/v1/admin/refund-requests").json()
            return {q["transactionId"]: q for q in report["requests"]}

        wait_until(lambda: {q["state"] for q in by_transaction().values()} == {"answered", "noConsent"}
                   and len(by_transaction()) == 2, what="ann's request answered, bob's left unanswered")
        answered = by_transaction()[ann["transactionId"]]
        assert answered["refundPreference"] == "DECLINE" and answered["reason"] == "UNINTENDED_PURCHASE", answered
        assert by_transaction()[bob["transactionId"]]["attempts"] == 0

        # The store decides as a tester leaves it to the developer's preference: ann's declined
        # (the backend asked DECLINE), bob's granted (no consumption information, so in full).
        for customer in ("cust-ann", "cust-bob"):
            r = requests.post(f"{store.base_url}/admin/v1/worlds/default/refund-requests/{store_requests[customer]}/decide",
                              json={}, timeout=30)
            assert r.status_code == 200, r.text
        decided = {q["id"]: q["state"] for q in
                   requests.get(f"{store.base_url}/admin/v1/worlds/default/refund-requests", timeout=30).json()["refundRequests"]}
        assert decided == {store_requests["cust-ann"]: "declined", store_requests["cust-bob"]: "granted"}, decided

        wait_until(lambda: backend.get("/v1/admin/refund-requests").json()["counts"]
                   == {"requested": 2, "answered": 1, "granted": 1, "declined": 1}, what="the decisions counted")
        overview = backend.get("/v1/admin/overview").json()
        assert overview["refundRequests"] == {"requested": 2, "answered": 1, "granted": 1, "declined": 1}

        events = hooks.wait_for_types(["INITIAL_PURCHASE", "NON_RENEWING_PURCHASE", "REFUND_REQUESTED", "REFUND_REQUESTED",
                                       "CONSUMPTION_REQUEST_ANSWERED", "REFUND"], timeout=60)
        answer = next(e for e in events if e["type"] == "CONSUMPTION_REQUEST_ANSWERED")
        assert answer["appUserId"] == ann_token and answer["refundRequest"]["refundPreference"] == "DECLINE", answer
        requested = {e["appUserId"]: e["refundRequest"]["reason"] for e in events if e["type"] == "REFUND_REQUESTED"}
        assert requested == {ann_token: "UNINTENDED_PURCHASE", bob_token: "FULFILLMENT_ISSUE"}, requested
        assert next(e for e in events if e["type"] == "REFUND")["appUserId"] == bob_token
    finally:
        rig.close()
