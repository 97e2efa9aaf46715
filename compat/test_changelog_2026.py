"""What Apple added to the App Store Server API and Notifications since the talks, refereed by
Apple's own library (app-store-server-library 3.1.2):

* API 1.21 / Notifications April 27, 2026: monthly subscriptions with a 12-month commitment:
  `billingPlanType`, `TransactionCommitmentInfo`, `renewalBillingPlanType`, `RenewalCommitmentInfo`
  (StoreKit article "Managing the life cycle of monthly subscriptions with a 12-month commitment").
* Notifications November 4, 2025: `RESCIND_CONSENT` with `appData` instead of `data`.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import requests
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType

from notification_receiver import Receiver
from openstore_harness import FIXTURES, CatalogApp, ServerProcess, StoreClient, make_verifier, openstore_bin
from test_notifications import admin, api_client, create_key, name, set_url

APPLE_ID = 1_700_000_888
YEARLY = "compat.plus.yearly"


def commitment_catalog(tmp: Path) -> Path:
    """compat.storekit with Xcode 26.5's billing plan on the yearly subscription."""
    catalog = json.loads((FIXTURES / "compat.storekit").read_text())
    for group in catalog["subscriptionGroups"]:
        for subscription in group["subscriptions"]:
            if subscription["productID"] == YEARLY:
                subscription["billingPlans"] = [{"billingPlanType": "MONTHLY", "commitmentDisplayPrice": "47.88",
                                                 "displayPrice": "3.99", "internalID": "BP000001", "isEnabled": True}]
    path = tmp / "commitment.storekit"
    path.write_text(json.dumps(catalog, indent=2))
    return path


def start(tmp: Path, name_: str, bundle: str, environment: str, catalog: Path) -> ServerProcess:
    proc = ServerProcess(openstore_bin(), data_dir=tmp / name_ / "data", log_path=tmp / name_ / "server.log",
                         apps=[CatalogApp(catalog, bundle, app_apple_id=APPLE_ID, environment=environment)])
    return proc.start()


def test_monthly_plan_with_12_month_commitment_decodes_with_apples_verifier(tmp_path):
    bundle = "com.example.commitment"
    server = start(tmp_path, "commitment", bundle, "Production", commitment_catalog(tmp_path))
    receiver = Receiver()
    try:
        set_url(server, bundle, receiver.url, "Production")
        store = StoreClient(server.base_url, server)
        verifier = make_verifier(store.root_der(), bundle, Environment.PRODUCTION, app_apple_id=APPLE_ID)
        customer = f"c-{uuid.uuid4().hex[:8]}"

        bought = store.buy(bundle, YEARLY, customer, billingPlanType="MONTHLY")
        t = verifier.verify_and_decode_signed_transaction(bought["signedTransaction"])
        assert t.billingPlanType == BillingPlanType.MONTHLY and t.price == 3990
        assert (t.commitmentInfo.billingPeriodNumber, t.commitmentInfo.totalBillingPeriods, t.commitmentInfo.commitmentPrice) == (1, 12, 47880)
        assert t.commitmentInfo.commitmentExpiresDate > t.expiresDate
        info = verifier.verify_and_decode_renewal_info(bought["signedRenewalInfo"])
        assert info.renewalBillingPlanType == RenewalBillingPlanType.MONTHLY and info.renewalPrice == 3990
        assert info.commitmentInfo.commitmentAutoRenewStatus == AutoRenewStatus.ON
        assert info.commitmentInfo.commitmentRenewalBillingPlanType == RenewalBillingPlanType.MONTHLY
        assert info.commitmentInfo.commitmentRenewalDate == t.commitmentInfo.commitmentExpiresDate
        assert info.commitmentInfo.commitmentAutoRenewProductId == YEARLY

        # A month later: DID_RENEW for billing period 2 of 12 (not a year later, as up front).
        admin(server, "POST", "/time/advance", {"duration": "32d"})
        # "Cancels the renewal of the commitment, not the remaining payments."
        cancelled = admin(server, "POST", f"/transactions/{t.transactionId}/auto-renew", {"enabled": False})
        after = verifier.verify_and_decode_renewal_info(cancelled["signedRenewalInfo"])
        assert after.autoRenewStatus == AutoRenewStatus.ON
        assert after.commitmentInfo.commitmentAutoRenewStatus == AutoRenewStatus.OFF

        # Deliveries may arrive in any order; the events' order is their signedDate's.
        decoded = sorted((verifier.verify_and_decode_notification(p) for p in receiver.wait_for(3)), key=lambda n: n.signedDate)
        assert [name(n) for n in decoded] == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]
        renewed = verifier.verify_and_decode_signed_transaction(decoded[1].data.signedTransactionInfo)
        assert renewed.billingPlanType == BillingPlanType.MONTHLY and renewed.commitmentInfo.billingPeriodNumber == 2
        assert renewed.commitmentInfo.commitmentExpiresDate == t.commitmentInfo.commitmentExpiresDate

        # The same fields through the Server API.
        client = api_client(server, create_key(server, tmp_path, bundle), Environment.PRODUCTION)
        statuses = client.get_all_subscription_statuses(t.transactionId)
        last = statuses.data[0].lastTransactions[0]
        assert verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).commitmentInfo.billingPeriodNumber == 2
        assert verifier.verify_and_decode_renewal_info(last.signedRenewalInfo).commitmentInfo.commitmentAutoRenewStatus == AutoRenewStatus.OFF

        # An up-front purchase of the same product says so, with no commitment.
        upfront = store.buy(bundle, YEARLY, f"u-{uuid.uuid4().hex[:8]}")
        u = verifier.verify_and_decode_signed_transaction(upfront["signedTransaction"])
        assert u.billingPlanType == BillingPlanType.BILLED_UPFRONT and u.commitmentInfo is None and u.price == 39990
        # A plan the product does not have is refused.
        r = store.purchase(bundle, "compat.plus.monthly", f"x-{uuid.uuid4().hex[:8]}", billingPlanType="MONTHLY")
        assert r.status_code == 404 and r.json()["error"] == "productUnavailable", r.text
    finally:
        receiver.stop()
        server.stop()


def test_rescind_consent_sends_app_data_that_apples_verifier_decodes(tmp_path):
    bundle = "com.example.consent"
    server = start(tmp_path, "consent", bundle, "Production", FIXTURES / "compat.storekit")
    receiver = Receiver()
    try:
        set_url(server, bundle, receiver.url, "Production")
        store = StoreClient(server.base_url, server)
        customer = f"k-{uuid.uuid4().hex[:8]}"
        app_transaction = store.app_transaction(bundle, customer).json()
        done = server.run_cli("rescind-consent", "--bundle-id", bundle, "--customer", customer, "--server", server.base_url, "--json")
        assert done.returncode == 0, done.stderr.decode() + done.stdout.decode()
        answer = json.loads(done.stdout.decode())
        assert answer["notificationType"] == "RESCIND_CONSENT"

        verifier = make_verifier(store.root_der(), bundle, Environment.PRODUCTION, app_apple_id=APPLE_ID)
        n = verifier.verify_and_decode_notification(receiver.wait_for(1)[0])
        assert n.notificationType == NotificationTypeV2.RESCIND_CONSENT and n.subtype is None
        assert n.data is None and n.summary is None
        assert (n.appData.bundleId, n.appData.appAppleId, n.appData.environment) == (bundle, APPLE_ID, Environment.PRODUCTION)
        decoded = verifier.verify_and_decode_app_transaction(n.appData.signedAppTransactionInfo)
        assert decoded.appTransactionId == app_transaction["appTransaction"]["appTransactionId"] == answer["appTransaction"]["appTransactionId"]

        # Kept in Notification History, filterable by its type.
        client = api_client(server, create_key(server, tmp_path, bundle), Environment.PRODUCTION)
        now = admin(server, "GET", "/time")["nowMs"]
        history = client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now - 86_400_000, endDate=now + 1, notificationType=NotificationTypeV2.RESCIND_CONSENT))
        assert [verifier.verify_and_decode_notification(i.signedPayload).notificationUUID for i in history.notificationHistory] == [n.notificationUUID]

        # A customer who never had the app has no consent to rescind.
        r = requests.post(f"{server.base_url}/admin/v1/worlds/default/apps/{bundle}/customers/nobody-{uuid.uuid4().hex[:6]}/rescind-consent", timeout=30)
        assert r.status_code == 404, r.text
    finally:
        receiver.stop()
        server.stop()
