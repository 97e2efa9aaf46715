"""`openstore purchase --json` prints everything the device API signs (issue 16 §16): for a
subscription that is the transaction's JWS first, then `signedRenewalInfo:` and its JWS, then the
decoded payloads. Apple's verifier checks both JWS the command printed.
"""

from __future__ import annotations

import uuid

from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import StoreClient, make_verifier

SANDBOX = "com.example.sandbox"


def test_purchase_json_prints_a_subscriptions_signed_renewal_info(catalog_server):
    customer = f"cli-json-{uuid.uuid4().hex[:8]}"
    done = catalog_server.run_cli("purchase", "compat.plus.monthly", "--customer", customer, "--bundle-id", SANDBOX,
                                  "--server", catalog_server.base_url, "--json")
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    lines = out.splitlines()
    assert lines[1] == "signedRenewalInfo:", out
    verifier = make_verifier(StoreClient(catalog_server.base_url).root_der(), SANDBOX, Environment.SANDBOX)
    transaction = verifier.verify_and_decode_signed_transaction(lines[0])
    renewal = verifier.verify_and_decode_renewal_info(lines[2])
    assert transaction.productId == "compat.plus.monthly"
    assert renewal.originalTransactionId == transaction.originalTransactionId
    assert renewal.autoRenewProductId == "compat.plus.monthly"
    assert "renewalInfo:" in lines


def test_purchase_json_of_a_consumable_has_no_renewal_info(catalog_server):
    customer = f"cli-json-{uuid.uuid4().hex[:8]}"
    done = catalog_server.run_cli("purchase", "compat.coins", "--customer", customer, "--bundle-id", SANDBOX,
                                  "--server", catalog_server.base_url, "--json")
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "signedRenewalInfo:" not in out and "renewalInfo:" not in out
    assert out.splitlines()[1] == "transaction:"
