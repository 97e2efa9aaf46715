"""Server API subscription endpoints with Apple's own Python client: Get All Subscription Statuses
(with the `status` filter), Extend a Subscription Renewal Date, mass extension and its status.
Statuses and extensions are checked against what the signed payloads say, verified by Apple's
`SignedDataVerifier`."""

from __future__ import annotations

import uuid

import pytest
import requests
from appstoreserverlibrary.api_client import APIException
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.Status import Status

from openstore_harness import CatalogApp, ServerProcess, StoreClient, make_verifier, openstore_bin
from test_server_api import BUNDLE, CATALOG, MONTHLY, PLUS_GROUP, WEEKLY, NEWS_GROUP, api_client, create_key

DAY_MS = 86_400_000


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("server-api-subs")
    proc = ServerProcess(openstore_bin(), data_dir=root / "data", log_path=root / "server.log",
                         apps=[CatalogApp(CATALOG, BUNDLE, environment="Sandbox")])
    proc.start()
    key = create_key(proc, root)
    device = StoreClient(proc.base_url, proc)
    verifier = make_verifier(device.root_der(), BUNDLE, "Sandbox", None)
    yield proc, api_client(proc, key), device, verifier
    proc.stop()


def test_all_subscription_statuses_and_filter(env):
    _, client, device, verifier = env
    customer = f"subs-{uuid.uuid4().hex[:8]}"
    monthly = device.buy(BUNDLE, MONTHLY, customer)["transaction"]
    weekly = device.buy(BUNDLE, WEEKLY, customer)["transaction"]

    response = client.get_all_subscription_statuses(monthly["transactionId"])
    assert response.bundleId == BUNDLE and response.environment.value == "Sandbox"
    groups = {item.subscriptionGroupIdentifier: item.lastTransactions for item in response.data}
    assert set(groups) == {PLUS_GROUP, NEWS_GROUP}
    for group, tx in ((PLUS_GROUP, monthly), (NEWS_GROUP, weekly)):
        [last] = groups[group]
        assert last.status == Status.ACTIVE and last.originalTransactionId == tx["originalTransactionId"]
        decoded = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
        assert decoded.transactionId == tx["transactionId"]
        renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
        assert renewal.originalTransactionId == tx["originalTransactionId"] and renewal.autoRenewStatus.value == 1

    # Any transaction ID of the customer works; the filter keeps only the asked statuses.
    assert client.get_all_subscription_statuses(weekly["transactionId"], [Status.EXPIRED]).data == []
    active = client.get_all_subscription_statuses(weekly["transactionId"], [Status.ACTIVE, Status.EXPIRED])
    assert {item.subscriptionGroupIdentifier for item in active.data} == {PLUS_GROUP, NEWS_GROUP}

    with pytest.raises(APIException) as bad:
        client.get_all_subscription_statuses("not-a-number")
    assert bad.value.http_status_code == 400 and bad.value.raw_api_error == 4000006


def test_extend_one_subscription_and_errors(env):
    _, client, device, verifier = env
    customer = f"ext-{uuid.uuid4().hex[:8]}"
    # The weekly plan has no intro offer, so the first period is paid and may be extended.
    tx = device.buy(BUNDLE, WEEKLY, customer)["transaction"]
    request_id = str(uuid.uuid4())
    response = client.extend_subscription_renewal_date(
        tx["originalTransactionId"],
        ExtendRenewalDateRequest(extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=request_id))
    assert response.success is True and response.originalTransactionId == tx["originalTransactionId"]
    assert response.effectiveDate == tx["expiresDate"] + 7 * DAY_MS
    info = client.get_transaction_info(tx["transactionId"])
    assert verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).expiresDate == tx["expiresDate"] + 7 * DAY_MS

    with pytest.raises(APIException) as too_long:
        client.extend_subscription_renewal_date(
            tx["originalTransactionId"],
            ExtendRenewalDateRequest(extendByDays=91, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4())))
    assert too_long.value.raw_api_error == 4000009


def test_mass_extension_and_status(env, tmp_path):
    """In a world of its own, so exactly its three subscribers are active: each one's renewal date
    moves by the three days, as the signed transaction and renewal info then say."""
    proc, _, device, verifier = env
    world = f"mass-{uuid.uuid4().hex[:8]}"
    assert requests.post(f"{proc.base_url}/admin/v1/worlds", json={"id": world}, timeout=30).status_code == 201
    client = api_client(proc, create_key(proc, tmp_path, world=world))
    bought = []
    for index in range(3):
        r = requests.post(f"{proc.base_url}/storekit/v1/worlds/{world}/apps/{BUNDLE}/purchases",
                          json={"productId": WEEKLY, "customer": f"mass-{index}"}, timeout=30)
        assert r.status_code == 200, r.text
        bought.append(r.json()["transaction"])
    request_id = str(uuid.uuid4())
    started = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=request_id,
        productId=WEEKLY))
    assert started.requestIdentifier == request_id
    status = client.get_status_of_subscription_renewal_date_extensions(request_id, WEEKLY)
    assert status.requestIdentifier == request_id and status.complete is True
    assert (status.succeededCount, status.failedCount) == (3, 0)
    for tx in bought:
        moved = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(tx["transactionId"]).signedTransactionInfo)
        assert moved.expiresDate == tx["expiresDate"] + 3 * DAY_MS
        [group] = client.get_all_subscription_statuses(tx["transactionId"]).data
        [last] = group.lastTransactions
        renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
        assert renewal.renewalDate == tx["expiresDate"] + 3 * DAY_MS
    with pytest.raises(APIException) as unknown:
        client.get_status_of_subscription_renewal_date_extensions(str(uuid.uuid4()), WEEKLY)
    assert unknown.value.http_status_code == 404 and unknown.value.raw_api_error == 4040009
    requests.delete(f"{proc.base_url}/admin/v1/worlds/{world}", timeout=30)
