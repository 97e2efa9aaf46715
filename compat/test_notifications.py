"""App Store Server Notifications V2 against a live store, checked by Apple's own library.

Apple's `SignedDataVerifier.verify_and_decode_notification` verifies every notification type the
store sends (and its nested signed transaction and renewal info), in Sandbox and in Production.
Apple's `AppStoreServerAPIClient` runs `request_test_notification`, `get_test_notification_status`
and `get_notification_history` against the store. The crash test kills the store with SIGKILL
while deliveries are in flight and checks nothing is lost after a restart.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path
from typing import Dict, List

import pytest
import requests
from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2

from notification_receiver import Blackhole, Receiver
from openstore_harness import (  # noqa: F401  (create_key, api_client: also imported from here by other tests)
    FIXTURES, CatalogApp, ServerProcess, StoreClient, api_client, create_key, make_verifier, openstore_bin,
)

CATALOG = FIXTURES / "compat.storekit"
COINS, LIFETIME, MONTHLY = "compat.coins", "compat.lifetime", "compat.plus.monthly"
APPLE_ID = 1_700_000_777

EXPECTED = [
    "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
    "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "REFUND", "REFUND_REVERSED", "TEST",
]


def start(tmp: Path, name: str, bundle: str, environment: str) -> ServerProcess:
    proc = ServerProcess(openstore_bin(), data_dir=tmp / name / "data", log_path=tmp / name / "server.log",
                         apps=[CatalogApp(CATALOG, bundle, app_apple_id=APPLE_ID, environment=environment)])
    return proc.start()


def admin(server: ServerProcess, method: str, path: str, body=None) -> Dict:
    r = requests.request(method, server.base_url + "/admin/v1/worlds/default" + path, json=body, timeout=30)
    assert r.status_code == 200, f"{method} {path} → {r.status_code} {r.text}"
    return r.json()


def set_url(server: ServerProcess, bundle: str, url: str, environment: str) -> None:
    done = server.run_cli("app", "set-notification-url", "--bundle-id", bundle, "--url", url,
                          "--environment", environment, "--server", server.base_url)
    assert done.returncode == 0, done.stderr.decode() + done.stdout.decode()


def name(n) -> str:
    t = n.notificationType.value if n.notificationType else n.rawNotificationType
    s = n.subtype.value if n.subtype else n.rawSubtype
    return f"{t}/{s}" if s else t


@pytest.mark.parametrize("environment", ["Sandbox", "Production"])
def test_every_notification_type_verifies_with_apples_verifier(tmp_path, environment):
    bundle = f"com.example.notify.{environment.lower()}"
    env = Environment.SANDBOX if environment == "Sandbox" else Environment.PRODUCTION
    server = start(tmp_path, environment, bundle, environment)
    receiver = Receiver()
    try:
        set_url(server, bundle, receiver.url, environment)
        store = StoreClient(server.base_url, server)
        customer = f"n-{uuid.uuid4().hex[:8]}"
        monthly = store.buy(bundle, MONTHLY, customer)["transaction"]
        tx = monthly["transactionId"]
        receiver.wait_for(1)
        admin(server, "POST", "/time/advance", {"duration": "32d"})            # past the intro week: renewed
        receiver.wait_for(2)
        admin(server, "POST", f"/transactions/{tx}/auto-renew", {"enabled": False})
        receiver.wait_for(3)
        admin(server, "POST", "/time/advance", {"duration": "40d"})            # runs out
        receiver.wait_for(4)
        coins = store.buy(bundle, COINS, customer)["transaction"]
        coins_id = coins["transactionId"]
        receiver.wait_for(5)
        r = requests.post(f"{server.base_url}/storekit/v1/apps/{bundle}/customers/{customer}/transactions/{coins_id}/refund-request",
                          json={"reason": "UNINTENDED_PURCHASE"}, timeout=30)
        assert r.status_code == 200, r.text
        receiver.wait_for(6)
        admin(server, "POST", f"/refund-requests/{r.json()['id']}/decide", {"grant": False})
        receiver.wait_for(7)
        admin(server, "POST", f"/transactions/{coins_id}/refund", {"reason": 1})
        receiver.wait_for(8)
        admin(server, "POST", f"/transactions/{coins_id}/reverse-refund")
        receiver.wait_for(9)

        client = api_client(server, create_key(server, tmp_path, bundle), env)
        token = client.request_test_notification().testNotificationToken
        signed = receiver.wait_for(10)
        verifier = make_verifier(store.root_der(), bundle, env, app_apple_id=APPLE_ID)
        decoded = [verifier.verify_and_decode_notification(p) for p in signed]
        assert sorted(map(name, decoded)) == sorted(EXPECTED)
        assert [name(n) for n in decoded if n.notificationType != NotificationTypeV2.TEST][:4] == EXPECTED[:4]
        for n in decoded:
            assert n.version == "2.0" and re.fullmatch(r"[0-9a-f-]{36}", n.notificationUUID)
            assert n.data.bundleId == bundle and n.data.environment == env and n.data.appAppleId == APPLE_ID
            if n.notificationType == NotificationTypeV2.TEST:
                assert n.data.signedTransactionInfo is None
                continue
            t = verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo)
            assert t.bundleId == bundle
            if t.productId == MONTHLY:
                info = verifier.verify_and_decode_renewal_info(n.data.signedRenewalInfo)
                assert info.originalTransactionId == t.originalTransactionId
                assert n.data.status is not None
            if n.notificationType == NotificationTypeV2.CONSUMPTION_REQUEST:
                assert n.data.consumptionRequestReason.value == "UNINTENDED_PURCHASE"
        assert all(h.get("Content-Type") == "application/json" for h in receiver.headers)

        status = client.get_test_notification_status(token)
        assert verifier.verify_and_decode_notification(status.signedPayload).notificationType == NotificationTypeV2.TEST
        assert [a.sendAttemptResult.value for a in status.sendAttempts] == ["SUCCESS"]

        now = admin(server, "GET", "/time")["nowMs"]
        history = client.get_notification_history(None, NotificationHistoryRequest(startDate=now - 25 * 86_400_000, endDate=now + 1))
        items = history.notificationHistory
        assert history.hasMore is False and items
        uuids = {n.notificationUUID for n in decoded}
        for item in items:
            n = verifier.verify_and_decode_notification(item.signedPayload)
            assert n.notificationUUID in uuids
            assert [a.sendAttemptResult.value for a in item.sendAttempts] == ["SUCCESS"]
        with pytest.raises(APIException) as error:
            client.get_notification_history(None, NotificationHistoryRequest(
                startDate=now - 1000, endDate=now, notificationType=NotificationTypeV2.REFUND, transactionId=coins_id))
        assert error.value.api_error.value == 4000019
    finally:
        receiver.stop()
        server.stop()


def test_no_url_is_4040007(tmp_path):
    bundle = "com.example.notify.nourl"
    server = start(tmp_path, "nourl", bundle, "Sandbox")
    try:
        client = api_client(server, create_key(server, tmp_path, bundle), Environment.SANDBOX)
        with pytest.raises(APIException) as error:
            client.request_test_notification()
        assert error.value.http_status_code == 404 and error.value.raw_api_error == 4040007
        with pytest.raises(APIException) as error:
            client.get_test_notification_status(str(uuid.uuid4()))
        assert error.value.raw_api_error == 4040008
    finally:
        server.stop()


def test_undelivered_notifications_survive_sigkill(tmp_path):
    """Deliveries in flight (a receiver that never answers) when the store is killed with SIGKILL
    are sent after the restart: the outbox was committed with the purchases."""
    bundle = "com.example.notify.crash"
    server = start(tmp_path, "crash", bundle, "Production")
    hole = Blackhole()
    port = hole.port
    try:
        set_url(server, bundle, f"http://127.0.0.1:{port}/notifications", "Production")
        store = StoreClient(server.base_url, server)
        bought = []
        for index in range(6):
            t = store.buy(bundle, COINS, f"crash-{index}")["transaction"]
            bought.append(t["transactionId"])
        deadline = time.monotonic() + 5
        while hole.accepted == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hole.accepted > 0, "the store never tried to deliver"
        server.kill()
    finally:
        hole.stop()
    receiver = Receiver(port)
    try:
        server.start()
        signed = receiver.wait_for(len(bought), timeout=30)
        verifier = make_verifier(StoreClient(server.base_url, server).root_der(), bundle, Environment.PRODUCTION, app_apple_id=APPLE_ID)
        decoded = [verifier.verify_and_decode_notification(p) for p in signed]
        got = {verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo).transactionId for n in decoded}
        assert got == set(bought)
        assert all(n.notificationType == NotificationTypeV2.ONE_TIME_CHARGE for n in decoded)
    finally:
        receiver.stop()
        server.stop()
