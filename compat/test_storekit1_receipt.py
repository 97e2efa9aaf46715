"""StoreKit 1 on Linux (issue 30): the app receipt file that `import StoreKit` writes for an app
(here the Apphud article's paywall app, `apphud-paywall-example`, after a purchase) is a receipt
Apple's own `ReceiptUtility` reads: it finds the transaction the store recorded.
"""

from __future__ import annotations

import base64
import subprocess

from appstoreserverlibrary.receipt_utility import ReceiptUtility

from openstore_harness import REPO_ROOT, CatalogApp, StoreClient, b64url_json, new_customer, ok_json

BUNDLE = "com.example.paywall"
CATALOG = REPO_ROOT / "Tests/Fixtures/storekit1.storekit"
EXAMPLE = REPO_ROOT / ".build/debug/apphud-paywall-example"


def test_receipt_utility_reads_the_transaction_id_from_the_receipt_file_the_layer_wrote(fresh_server, tmp_path):
    assert EXAMPLE.exists(), f"{EXAMPLE} is missing: run `swift build` first"
    server = fresh_server("storekit1", apps=[CatalogApp(CATALOG, BUNDLE)]).start()
    client = StoreClient(server.base_url)
    customer = new_customer("sk1")
    secret = "0penStoreKitPaywallSecret42"
    assert client.put(f"/admin/v1/apps/{BUNDLE}/shared-secret", {"sharedSecret": secret}).status_code == 200

    device = tmp_path / "device"
    run = subprocess.run([str(EXAMPLE), "buy", "sk1.weekly", "--store", server.base_url, "--customer", customer,
                          "--device", str(device)], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr
    assert any(line.startswith("Subscription active: Premium Weekly until:") for line in run.stdout.splitlines()), run.stdout

    # The file the layer wrote, at the documented place.
    receipt_file = device / "receipts" / "default" / BUNDLE / customer / "StoreKit" / "receipt"
    receipt = base64.b64encode(receipt_file.read_bytes()).decode()
    signed = ok_json(client.get(f"/storekit/v1/apps/{BUNDLE}/customers/{customer}/transactions"))["signedTransactions"]
    transaction_id = b64url_json(signed[0].split(".")[1])["transactionId"]
    assert ReceiptUtility().extract_transaction_id_from_app_receipt(receipt) == transaction_id
