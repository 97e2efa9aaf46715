"""The lifecycle engine seen through Apple's own verifier: renewals fired by the world clock,
billing retry with grace, subscription status, and the Transaction Manager's simulated errors, each
checked on live stores (Sandbox and Production) over the device and admin APIs."""

from __future__ import annotations

import uuid

import pytest
import requests
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import VerificationException

from openstore_harness import CatalogApp, ServerProcess, StoreClient, make_verifier, openstore_bin
from test_server_api import CATALOG, MONTHLY, PLUS_GROUP

SANDBOX = "com.example.life.sandbox"
PRODUCTION = "com.example.life.prod"
PROD_APPLE_ID = 2233445566


@pytest.fixture(scope="module")
def life(tmp_path_factory):
    root = tmp_path_factory.mktemp("lifecycle")
    proc = ServerProcess(openstore_bin(), data_dir=root / "data", log_path=root / "server.log",
                         apps=[CatalogApp(CATALOG, SANDBOX, environment="Sandbox"),
                               CatalogApp(CATALOG, PRODUCTION, environment="Production", app_apple_id=PROD_APPLE_ID)])
    proc.start()
    store = StoreClient(proc.base_url, proc)
    root_der = store.root_der()
    verifiers = {SANDBOX: make_verifier(root_der, SANDBOX, Environment.SANDBOX, None),
                 PRODUCTION: make_verifier(root_der, PRODUCTION, Environment.PRODUCTION, PROD_APPLE_ID)}
    yield proc, verifiers
    proc.stop()


def admin(proc, method, path, **body):
    r = requests.request(method, proc.base_url + "/admin/v1" + path, json=body or None, timeout=60)
    assert 200 <= r.status_code < 300, (method, path, r.status_code, r.text)
    return r.json() if r.content else {}


def device(proc, world, method, path, **body):
    return requests.request(method, f"{proc.base_url}/storekit/v1/worlds/{world}{path}", json=body or None, timeout=60)


@pytest.mark.parametrize("bundle", [SANDBOX, PRODUCTION])
def test_renewals_fired_by_the_clock_verify_with_apples_verifier(life, bundle):
    proc, verifiers = life
    verifier = verifiers[bundle]
    world = f"renew-{uuid.uuid4().hex[:8]}"
    admin(proc, "POST", "/worlds", id=world)
    customer = "ren"
    bought = device(proc, world, "POST", f"/apps/{bundle}/purchases", productId=MONTHLY, customer=customer).json()
    first = verifier.verify_and_decode_signed_transaction(bought["signedTransaction"])
    admin(proc, "POST", f"/worlds/{world}/time/advance", duration="P3M")

    listed = device(proc, world, "GET", f"/apps/{bundle}/customers/{customer}/transactions").json()["signedTransactions"]
    txs = [verifier.verify_and_decode_signed_transaction(j) for j in listed]
    # The one-week free trial, then renewals at +1 week, +1 week 1 month and +1 week 2 months: four
    # transactions in three months (the next renewal, at +1 week 3 months, is still ahead).
    assert len(txs) == 4, [(t.transactionReason, t.purchaseDate) for t in txs]
    assert first.offerDiscountType is not None and first.expiresDate == first.purchaseDate + 7 * 86_400_000
    renewals = txs[1:]
    assert all(t.transactionReason.value == "RENEWAL" for t in renewals)
    assert all(t.originalTransactionId == first.transactionId for t in renewals)
    assert len({t.transactionId for t in txs}) == len(txs) and len({t.webOrderLineItemId for t in txs}) == len(txs)
    for earlier, later in zip(txs, txs[1:]):
        assert later.purchaseDate == earlier.expiresDate

    statuses = device(proc, world, "GET", f"/apps/{bundle}/customers/{customer}/subscriptions").json()["statuses"]
    [status] = statuses
    assert status["subscriptionGroupID"] == PLUS_GROUP and status["state"] == "subscribed" and status["status"] == 1
    latest = verifier.verify_and_decode_signed_transaction(status["signedTransaction"])
    renewal = verifier.verify_and_decode_renewal_info(status["signedRenewalInfo"])
    assert latest.transactionId == txs[-1].transactionId
    assert renewal.renewalDate == latest.expiresDate and renewal.recentSubscriptionStartDate == first.purchaseDate
    admin(proc, "DELETE", f"/worlds/{world}")


def test_billing_retry_with_grace_period_in_renewal_info(life):
    proc, verifiers = life
    verifier = verifiers[SANDBOX]
    world = f"billing-{uuid.uuid4().hex[:8]}"
    admin(proc, "POST", "/worlds", id=world)
    bought = device(proc, world, "POST", f"/apps/{SANDBOX}/purchases", productId=MONTHLY, customer="bill").json()
    admin(proc, "PATCH", f"/worlds/{world}/settings", failRenewals=True, billingGracePeriod=True)
    first = verifier.verify_and_decode_signed_transaction(bought["signedTransaction"])
    admin(proc, "POST", f"/worlds/{world}/time/advance", duration="8d")

    [status] = device(proc, world, "GET", f"/apps/{SANDBOX}/customers/bill/subscriptions").json()["statuses"]
    assert status["state"] == "inGracePeriod" and status["status"] == 4
    renewal = verifier.verify_and_decode_renewal_info(status["signedRenewalInfo"])
    assert renewal.isInBillingRetryPeriod is True
    assert renewal.gracePeriodExpiresDate == first.expiresDate + 16 * 86_400_000
    admin(proc, "DELETE", f"/worlds/{world}")


def test_simulated_errors_reach_the_device(life):
    proc, verifiers = life
    world = f"errors-{uuid.uuid4().hex[:8]}"
    admin(proc, "POST", "/worlds", id=world)
    device(proc, world, "POST", f"/apps/{SANDBOX}/purchases", productId=MONTHLY, customer="err")

    admin(proc, "PUT", f"/worlds/{world}/simulated-errors/Load%20Products", error="networkError")
    r = device(proc, world, "GET", f"/apps/{SANDBOX}/products")
    assert r.status_code == 409 and r.json()["error"] == "networkError"
    admin(proc, "DELETE", f"/worlds/{world}/simulated-errors/Load%20Products")
    assert device(proc, world, "GET", f"/apps/{SANDBOX}/products").status_code == 200

    for api, method, path in [("Subscription Status", "GET", "/subscriptions"), ("App Store Sync", "POST", "/sync"),
                              ("App Transaction", "GET", "/app-transaction"), ("Manage Subscriptions Sheet", "POST", "/manage-subscriptions")]:
        admin(proc, "PUT", f"/worlds/{world}/simulated-errors/{requests.utils.quote(api)}", error="unknown")
        r = device(proc, world, method, f"/apps/{SANDBOX}/customers/err{path}")
        assert r.status_code == 409 and r.json()["error"] == "unknown", (api, r.text)

    # Verification: the signed data handed out no longer verifies, as with StoreKit Testing.
    admin(proc, "PUT", f"/worlds/{world}/simulated-errors/Verification", error="invalidSignature")
    [jws] = device(proc, world, "GET", f"/apps/{SANDBOX}/customers/err/transactions").json()["signedTransactions"]
    with pytest.raises(VerificationException):
        verifiers[SANDBOX].verify_and_decode_signed_transaction(jws)
    admin(proc, "DELETE", f"/worlds/{world}/simulated-errors/Verification")
    [jws] = device(proc, world, "GET", f"/apps/{SANDBOX}/customers/err/transactions").json()["signedTransactions"]
    verifiers[SANDBOX].verify_and_decode_signed_transaction(jws)
    admin(proc, "DELETE", f"/worlds/{world}")
