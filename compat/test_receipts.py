"""App receipts and `verifyReceipt` (issue 16 §9). Apple's `ReceiptUtility` (the Python
app-store-server-library) reads our PKCS#7 app receipts and extracts the transaction ID an app
server then hands to the App Store Server API; `verifyReceipt` answers with Apple's responseBody
and status codes.
"""

from __future__ import annotations

import base64
import uuid

from appstoreserverlibrary.receipt_utility import ReceiptUtility

from openstore_harness import StoreClient, ok_json

SANDBOX = "com.example.sandbox"
PROD = "com.example.prod"


def _receipt(client: StoreClient, bundle: str, customer: str) -> str:
    return ok_json(client.get(f"/storekit/v1/apps/{bundle}/customers/{customer}/receipt"))["receiptData"]


def test_apples_receipt_utility_extracts_the_transaction_id_from_our_receipt(catalog_server):
    client = StoreClient(catalog_server.base_url)
    customer = f"receipt-{uuid.uuid4().hex[:8]}"
    bought = client.buy(SANDBOX, "compat.lifetime", customer)
    transaction_id = bought["transaction"]["transactionId"]
    receipt = _receipt(client, SANDBOX, customer)
    # PKCS#7 SignedData (OID 1.2.840.113549.1.7.2), as Apple's utility insists.
    assert base64.b64decode(receipt)[:2] == b"\x30\x82"
    assert ReceiptUtility().extract_transaction_id_from_app_receipt(receipt) == transaction_id


def test_a_receipt_without_purchases_has_no_transaction_id(catalog_server):
    client = StoreClient(catalog_server.base_url)
    customer = f"receipt-{uuid.uuid4().hex[:8]}"
    assert client.put(f"/storekit/v1/customers/{customer}", {}).status_code < 300
    assert ReceiptUtility().extract_transaction_id_from_app_receipt(_receipt(client, SANDBOX, customer)) is None


def test_a_subscription_receipt_names_its_transaction_and_verify_receipt_reads_it(catalog_server):
    client = StoreClient(catalog_server.base_url)
    customer = f"receipt-{uuid.uuid4().hex[:8]}"
    bought = client.buy(SANDBOX, "compat.plus.monthly", customer)
    transaction_id = bought["transaction"]["transactionId"]
    receipt = _receipt(client, SANDBOX, customer)
    assert ReceiptUtility().extract_transaction_id_from_app_receipt(receipt) == transaction_id

    secret = "c0ffee" + uuid.uuid4().hex[:26]
    assert client.put(f"/admin/v1/apps/{SANDBOX}/shared-secret", {"sharedSecret": secret}).status_code == 200
    answer = ok_json(client.post("/sandbox/verifyReceipt", {"receipt-data": receipt, "password": secret}))
    assert answer["status"] == 0 and answer["environment"] == "Sandbox"
    assert answer["receipt"]["bundle_id"] == SANDBOX and answer["receipt"]["receipt_type"] == "ProductionSandbox"
    assert [t["transaction_id"] for t in answer["receipt"]["in_app"]] == [transaction_id]
    assert [t["transaction_id"] for t in answer["latest_receipt_info"]] == [transaction_id]
    assert answer["pending_renewal_info"][0]["auto_renew_status"] == "1"
    assert ReceiptUtility().extract_transaction_id_from_app_receipt(answer["latest_receipt"]) == transaction_id
    # Sent to production: Apple's 21007, retry in the sandbox.
    assert ok_json(client.post("/verifyReceipt", {"receipt-data": receipt, "password": secret}))["status"] == 21007
