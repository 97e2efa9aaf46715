"""The backend's RevenueCat-parity webhook events against a live store (#34 §4).

A renewal-date extension made with Apple's `app-store-server-library` (Extend a Subscription
Renewal Date) reaches the backend as RENEWAL_EXTENDED and leaves as SUBSCRIPTION_EXTENDED (RevenueCat:
"the expiration date of the current subscription period has been pushed back"); the dashboard's
TEST event arrives signed; each event carries the store, the country and the proceeds after
Apple's 30 % commission.
"""

from __future__ import annotations

import uuid

import requests
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest

from openstore_harness import FIXTURES, StoreClient
from test_backend_support import StoreWithBackend, api_client, wait_until

CATALOG = FIXTURES / "compat.storekit"
YEARLY = "compat.plus.yearly"
APPLE_ID = 1_700_034_004
DAY_MS = 86_400_000


def test_an_extension_a_test_event_and_proceeds_reach_the_webhooks(tmp_path):
    bundle = "com.example.backend.parity"
    rig = StoreWithBackend(tmp_path, CATALOG, bundle, APPLE_ID)
    store, backend, hooks, key = rig.store, rig.backend, rig.hooks, rig.key
    try:
        token = "7c3e2a10-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
        bought = StoreClient(store.base_url, store).buy(bundle, YEARLY, "cust-ext", appAccountToken=token)["transaction"]
        hooks.wait_for_types(["INITIAL_PURCHASE"])

        api = api_client(store, key)
        answer = api.extend_subscription_renewal_date(bought["originalTransactionId"], ExtendRenewalDateRequest(
            extendByDays=10, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
        assert answer.success, answer
        events = hooks.wait_for_types(["INITIAL_PURCHASE", "SUBSCRIPTION_EXTENDED"])
        extended = next(e for e in events if e["type"] == "SUBSCRIPTION_EXTENDED")
        assert extended["appUserId"] == token and extended["transactionId"] == bought["transactionId"], extended
        wait_until(lambda: backend.customer(token)["subscriptions"][0]["expiresDate"] == bought["expiresDate"] + 10 * DAY_MS,
                   what="customer info with the extended end")

        purchase = next(e for e in events if e["type"] == "INITIAL_PURCHASE")
        assert purchase["store"] == "APP_STORE" and purchase["storefront"] == "USA" and purchase["countryCode"] == "US", purchase
        assert purchase["commissionPercentage"] == 0.3
        assert purchase["proceedsMilliunits"] == round(purchase["priceMilliunits"] * 0.7), purchase

        r = requests.post(f"{backend.base_url}/v1/admin/webhooks/test", timeout=30)
        assert r.status_code == 200 and r.json()["event"]["type"] == "TEST", r.text
        test_event = hooks.wait_for_types(["INITIAL_PURCHASE", "SUBSCRIPTION_EXTENDED", "TEST"])[-1]
        assert test_event["id"] == r.json()["event"]["id"] and test_event["bundleId"] == bundle
        # The dashboard's button refuses a form posted from another site.
        foreign = requests.post(f"{backend.base_url}/webhooks/test", headers={"Origin": "https://evil.example"}, timeout=30)
        assert foreign.status_code == 403
        assert len(hooks.accepted()) == 3
    finally:
        rig.close()
