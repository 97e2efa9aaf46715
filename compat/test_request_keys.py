"""Request keys and send-attempt results as Apple documents them today (issue 16, items 10 and 15).

* Get Transaction History takes exactly the query parameters of Apple's `TransactionHistoryRequest`;
  `excludeRevoked` (deprecated in API 1.8 for `revoked`) answers its own code 4000025
  (`INVALID_EXCLUDE_REVOKED`), any other key 4000000.
* Get Notification History takes exactly `NotificationHistoryRequest`'s keys (`startDate`, `endDate`,
  `notificationType`, `notificationSubtype`, `transactionId`, `onlyFailures`); a misspelt or retired
  key (`originalTransactionId`, replaced in 1.8) is 4000000, never silently ignored.
* Get Test Notification Status names each attempt in `sendAttempts` with Apple's `SendAttemptResult`
  values, and no longer sends `firstSendAttemptResult` (deprecated in 1.8).

Apple's client never sends an undocumented key, so the odd keys go through its own request code
(`_make_request`): the JWT, headers and error parsing stay Apple's.
"""

from __future__ import annotations

import socket
import time
import uuid

import pytest
import requests
from appstoreserverlibrary.api_client import APIException
from appstoreserverlibrary.models.CheckTestNotificationResponse import CheckTestNotificationResponse
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.HistoryResponse import HistoryResponse
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationHistoryResponse import NotificationHistoryResponse
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest

from openstore_harness import FIXTURES, StoreClient
from post_receiver import PostReceiver  # testsupport/, on the path via openstore_harness
from test_notifications import admin, api_client, create_key, set_url, start

BUNDLE = "com.example.requestkeys"


class Failing(PostReceiver):
    """A notification receiver that answers every POST with HTTP 500."""

    def __init__(self):
        super().__init__("/notifications", status=500)


def refused_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/notifications"


def api_error(call) -> int:
    with pytest.raises(APIException) as error:
        call()
    return error.value.raw_api_error


def first_attempts(client, token, timeout=20.0):
    """The test notification's status once it has an attempt (a bound on a hang, not a speed check)."""
    deadline = time.monotonic() + timeout
    while True:
        raw = client._make_request(f"/inApps/v1/notifications/test/{token}", "GET", {}, None, dict)
        if raw.get("sendAttempts") or time.monotonic() > deadline:
            return raw
        time.sleep(0.05)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("requestkeys")
    server = start(tmp, "keys", BUNDLE, "Sandbox")
    try:
        client = api_client(server, create_key(server, tmp, BUNDLE), Environment.SANDBOX)
        store = StoreClient(server.base_url, server)
        tx = store.buy(BUNDLE, "compat.coins", f"k-{uuid.uuid4().hex[:8]}")["transaction"]["transactionId"]
        yield server, client, tx
    finally:
        server.stop()


def test_transaction_history_takes_only_apples_query_parameters(setup):
    _, client, tx = setup
    ok = client.get_transaction_history(tx, None, TransactionHistoryRequest(revoked=False))
    assert len(ok.signedTransactions) == 1
    history = f"/inApps/v2/history/{tx}"
    assert api_error(lambda: client._make_request(history, "GET", {"excludeRevoked": "true"}, None, HistoryResponse)) == 4000025
    assert api_error(lambda: client._make_request(history, "GET", {"productID": "compat.coins"}, None, HistoryResponse)) == 4000000
    assert api_error(lambda: client._make_request(history, "GET", {"revoked": "false", "onlyRevoked": "true"}, None, HistoryResponse)) == 4000000


def test_notification_history_takes_only_apples_request_keys(setup):
    server, client, tx = setup
    now = admin(server, "GET", "/time")["nowMs"]
    base = {"startDate": now - 86_400_000, "endDate": now + 1}
    documented = NotificationHistoryRequest(startDate=base["startDate"], endDate=base["endDate"], transactionId=tx, onlyFailures=True)
    assert client.get_notification_history(None, documented).hasMore is False
    path = "/inApps/v1/notifications/history"
    for key, value in [("onlyFailure", True), ("originalTransactionId", tx), ("notificationtype", "TEST"), ("excludeRevoked", True)]:
        error = api_error(lambda: client._make_request(path, "POST", {}, {**base, key: value}, NotificationHistoryResponse))
        assert error == 4000000, key


@pytest.mark.parametrize("answer,expected", [
    ("500", SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE),
    ("refused", SendAttemptResult.SOCKET_ISSUE),
])
def test_test_notification_status_names_each_attempt_as_apple_does(setup, answer, expected):
    server, client, _ = setup
    failing = Failing() if answer == "500" else None
    try:
        set_url(server, BUNDLE, failing.url if failing else refused_url(), "Sandbox")
        token = client.request_test_notification().testNotificationToken
        raw = first_attempts(client, token)
        # Apple's CheckTestNotificationResponse today: signedPayload and sendAttempts only.
        assert set(raw) == {"signedPayload", "sendAttempts"}
        assert set(raw["sendAttempts"][0]) == {"attemptDate", "sendAttemptResult"}
        status = client.get_test_notification_status(token)
        # Sandbox sends once (Apple: retries are production-only).
        assert [a.sendAttemptResult for a in status.sendAttempts] == [expected]
        assert isinstance(status, CheckTestNotificationResponse)
    finally:
        if failing:
            failing.stop()
