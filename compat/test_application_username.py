"""StoreKit 1's `applicationUsername` on the device API (issue 16 §8): a UUID becomes the signed
transaction's `appAccountToken`, as "What's new with in-app purchase" (WWDC22) describes; any other
value sets nothing. Apple's verifier reads the token back.
"""

from __future__ import annotations

import uuid

from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import StoreClient, make_verifier

SANDBOX = "com.example.sandbox"


def test_a_uuid_application_username_becomes_the_app_account_token(catalog_server):
    client = StoreClient(catalog_server.base_url)
    verifier = make_verifier(client.root_der(), SANDBOX, Environment.SANDBOX)
    name = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
    body = client.buy(SANDBOX, "compat.coins", f"sk1-{uuid.uuid4().hex[:8]}", applicationUsername=name)
    assert verifier.verify_and_decode_signed_transaction(body["signedTransaction"]).appAccountToken == name.lower()

    other = client.buy(SANDBOX, "compat.coins", f"sk1-{uuid.uuid4().hex[:8]}", applicationUsername="jane@example.com")
    assert verifier.verify_and_decode_signed_transaction(other["signedTransaction"]).appAccountToken is None
