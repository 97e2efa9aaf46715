"""Catalog text that JSON must escape, end to end: a product whose ID and display name carry quotes,
backslashes, control characters, U+2028 and emoji is listed, bought and signed, and Apple's
`SignedDataVerifier` verifies every JWS and reads the same ID back, character for character.
The same transaction comes back from the Server API and verifies too.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import FIXTURES, CatalogApp, StoreClient, jws_parts, make_verifier, ok_json

CATALOG = FIXTURES / "hostile-text.storekit"
BUNDLE = "com.example.hostile.text"
HOSTILE_ID = 'compat."quoted"\\back\tslash\u0007bell\u2028\U0001F426'
HOSTILE_NAME = 'Say "hi" \\ to\n\U0001F426 \u0001 the <b>birds</b>'
SUB_ID = 'compat.sub "\\" \U0001F426'


def test_hostile_ids_are_bought_signed_and_verified(fresh_server, tmp_path):
    server = fresh_server("hostile-text", apps=[CatalogApp(CATALOG, BUNDLE, environment="Sandbox")]).start()
    store = StoreClient(server.base_url, server)
    verifier = make_verifier(store.root_der(), BUNDLE, Environment.SANDBOX)

    listed = {p["id"]: p for p in ok_json(store.products(BUNDLE))["products"]}
    assert set(listed) == {HOSTILE_ID, SUB_ID}
    assert listed[HOSTILE_ID]["displayName"] == HOSTILE_NAME and listed[SUB_ID]["displayName"] == HOSTILE_NAME

    customer = f'cust "{uuid.uuid4().hex[:6]}" \\ \U0001F426'
    body = store.buy(BUNDLE, HOSTILE_ID, customer)
    tx = verifier.verify_and_decode_signed_transaction(body["signedTransaction"])
    assert tx.productId == HOSTILE_ID and tx.bundleId == BUNDLE and tx.price == 1990
    _, raw = jws_parts(body["signedTransaction"])
    assert raw == body["transaction"] and raw["productId"] == HOSTILE_ID

    sub = store.buy(BUNDLE, SUB_ID, customer)
    sub_tx = verifier.verify_and_decode_signed_transaction(sub["signedTransaction"])
    info = verifier.verify_and_decode_renewal_info(sub["signedRenewalInfo"])
    assert sub_tx.productId == SUB_ID and info.productId == SUB_ID and info.autoRenewProductId == SUB_ID
    assert sub_tx.subscriptionGroupIdentifier == "C0FFEE92"

    # Transaction.all for that customer (whose name needs escaping in the URL too).
    listed_tx = [verifier.verify_and_decode_signed_transaction(j).productId
                 for j in store.signed_list(BUNDLE, requests_quote(customer), "transactions")]
    assert listed_tx == [HOSTILE_ID, SUB_ID]

    # And through the Server API, with Apple's client.
    out = tmp_path / "AuthKey.p8"
    done = server.run_cli("keys", "create", "--bundle-id", BUNDLE, "--data", str(server.data_dir), "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr.decode()
    key = json.loads(done.stdout.decode().strip().splitlines()[-1])
    client = AppStoreServerAPIClient(Path(key["privateKeyFile"]).read_bytes(), key["keyId"], key["issuerId"], BUNDLE,
                                     Environment.SANDBOX)
    client._base_url = server.base_url
    again = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(tx.transactionId).signedTransactionInfo)
    assert again.productId == HOSTILE_ID and again.transactionId == tx.transactionId


def requests_quote(text: str) -> str:
    from urllib.parse import quote
    return quote(text, safe="")
