"""AppTransaction's `deviceVerification`, `deviceVerificationNonce` and `preorderDate` (issue 16
item 7; WWDC22 "What's new with in-app purchase"), decoded by Apple's verifier.

Apple's recipe for checking `deviceVerification`: SHA-384 of the lowercased
`deviceVerificationNonce` string followed by the lowercased device verification identifier
(`identifierForVendor`), compared with the base64 value. The device API gives each customer's
identifier (`GET /storekit/v1/customers/{name}` → `deviceVerificationID`); hashlib recomputes it here.
"""

from __future__ import annotations

import base64
import hashlib
import re
import uuid

from openstore_harness import StoreClient, ok_json

UUID_RE = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"


def test_device_verification_matches_apples_recipe(catalog_app):
    store: StoreClient = catalog_app.store
    customer = f"dv-{uuid.uuid4().hex[:8]}"
    first = ok_json(store.app_transaction(catalog_app.bundle_id, customer))
    device_id = ok_json(store.customer(customer))["deviceVerificationID"]
    assert re.fullmatch(UUID_RE, device_id)
    nonces = set()
    for signed in (first["signedAppTransaction"], ok_json(store.app_transaction(catalog_app.bundle_id, customer))["signedAppTransaction"]):
        decoded = catalog_app.verifier.verify_and_decode_app_transaction(signed)
        nonce = decoded.deviceVerificationNonce
        assert re.fullmatch(UUID_RE, nonce)
        expected = base64.b64encode(hashlib.sha384((nonce.lower() + device_id.lower()).encode()).digest()).decode()
        assert decoded.deviceVerification == expected
        nonces.add(nonce)
    assert len(nonces) == 2, "each app transaction carries a fresh nonce"
    # Another customer is another device.
    other = f"dv-{uuid.uuid4().hex[:8]}"
    store.app_transaction(catalog_app.bundle_id, other)
    assert ok_json(store.customer(other))["deviceVerificationID"] != device_id
    assert ok_json(store.customer(customer))["deviceVerificationID"] == device_id, "the ID is stable"


def test_preorder_date_is_a_customer_setting(catalog_app):
    store: StoreClient = catalog_app.store
    customer = f"po-{uuid.uuid4().hex[:8]}"
    original = catalog_app.verifier.verify_and_decode_app_transaction(
        ok_json(store.app_transaction(catalog_app.bundle_id, customer))["signedAppTransaction"])
    assert original.preorderDate is None
    preorder = original.originalPurchaseDate - 30 * 86_400_000
    answer = ok_json(store.put_app_transaction(catalog_app.bundle_id, customer, preorderDate=preorder))
    assert catalog_app.verifier.verify_and_decode_app_transaction(answer["signedAppTransaction"]).preorderDate == preorder
    again = ok_json(store.app_transaction(catalog_app.bundle_id, customer))
    assert catalog_app.verifier.verify_and_decode_app_transaction(again["signedAppTransaction"]).preorderDate == preorder
    # A pre-order after the purchase is refused; 0 clears it.
    r = store.put_app_transaction(catalog_app.bundle_id, customer, preorderDate=original.originalPurchaseDate + 1)
    assert r.status_code == 422 and r.json()["error"] == "unprocessableRequest", r.text
    cleared = ok_json(store.put_app_transaction(catalog_app.bundle_id, customer, preorderDate=0))
    assert catalog_app.verifier.verify_and_decode_app_transaction(cleared["signedAppTransaction"]).preorderDate is None
