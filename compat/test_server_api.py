"""The App Store Server API (`/inApps/v1`, `/inApps/v2`) driven by Apple's own Python client.

Apple's `AppStoreServerAPIClient` (app-store-server-library 3.1.2) runs unchanged against a live
`openstore serve`; only `_base_url` points at it. Keys come from `openstore keys create`, as a
developer's come from App Store Connect. Every JWS the store returns is checked by Apple's
`SignedDataVerifier`. Order IDs are read from the store's SQLite file (read-only), since signed
transactions don't carry them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import uuid
from pathlib import Path
from typing import Dict, List, Optional

import pytest
import requests
from appstoreserverlibrary.api_client import APIError, APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.AccountTenure import AccountTenure
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.PlayTime import PlayTime
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.models.UserStatus import UserStatus

from openstore_harness import FIXTURES, CatalogApp, ServerProcess, StoreClient, make_verifier, openstore_bin
from openstore_process import store_environment, store_rows
import run_log  # testsupport/

BUNDLE = "com.example.sandbox"
OTHER_BUNDLE = "com.example.other"
CATALOG = FIXTURES / "compat.storekit"
COINS = "compat.coins"                 # Consumable
LIFETIME = "compat.lifetime"           # NonConsumable
SEASON = "compat.season"               # NonRenewingSubscription
MONTHLY = "compat.plus.monthly"        # RecurringSubscription, group C0FFEE20
WEEKLY = "compat.news.weekly"          # RecurringSubscription, group C0FFEE30
PLUS_GROUP = "C0FFEE20"
NEWS_GROUP = "C0FFEE30"
N_COINS = 45
N_SEASONS = 5


# -- fixtures ------------------------------------------------------------------------------------

class Key:
    def __init__(self, info: Dict[str, str]):
        self.info = info
        self.key_id = info["keyId"]
        self.issuer_id = info["issuerId"]
        self.bundle_id = info["bundleId"]
        self.p8 = Path(info["privateKeyFile"]).read_bytes()


def create_key(server: ServerProcess, tmp: Path, bundle_id: str = BUNDLE, world: Optional[str] = None) -> Key:
    out = tmp / f"AuthKey_{uuid.uuid4().hex[:8]}.p8"
    args = ["keys", "create", "--bundle-id", bundle_id, "--data", str(server.data_dir), "--out", str(out), "--json"]
    if world:
        args += ["--world", world]
    done = server.run_cli(*args)
    assert done.returncode == 0, done.stderr.decode()
    info = json.loads(done.stdout.decode().strip().splitlines()[-1])
    run_log.record_secret(Path(info["privateKeyFile"]).read_text())
    assert re.fullmatch(r"[A-Z0-9]{10}", info["keyId"]), info
    assert str(uuid.UUID(info["issuerId"])) == info["issuerId"], info
    return Key(info)


def api_client(server: ServerProcess, key: Key, bundle_id: Optional[str] = None, p8: Optional[bytes] = None) -> AppStoreServerAPIClient:
    client = AppStoreServerAPIClient(p8 or key.p8, key.key_id, key.issuer_id, bundle_id or key.bundle_id, Environment.SANDBOX)
    client._base_url = server.base_url
    return client


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    binary = openstore_bin()
    if not binary.exists():
        pytest.fail(f"openstore binary not found at {binary}", pytrace=False)
    root = tmp_path_factory.mktemp("server-api")
    proc = ServerProcess(binary, data_dir=root / "data", log_path=root / "server.log",
                         apps=[CatalogApp(CATALOG, BUNDLE, environment="Sandbox"),
                               CatalogApp(CATALOG, OTHER_BUNDLE, environment="Sandbox")])
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def keydir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("keys")


@pytest.fixture(scope="module")
def key(server, keydir) -> Key:
    return create_key(server, keydir)


@pytest.fixture(scope="module")
def client(server, key) -> AppStoreServerAPIClient:
    return api_client(server, key)


@pytest.fixture(scope="module")
def device(server) -> StoreClient:
    return StoreClient(server.base_url, server)


@pytest.fixture(scope="module")
def verifier(device):
    return make_verifier(device.root_der(), BUNDLE, Environment.SANDBOX)


def buy(device: StoreClient, product: str, customer: str, **extra) -> Dict:
    return device.buy(BUNDLE, product, customer, **extra)["transaction"]


@pytest.fixture(scope="module")
def big(device) -> Dict:
    """A customer with 3 pages of history: coins, seasons, a lifetime unlock, two subscriptions."""
    name = f"big-{uuid.uuid4().hex[:8]}"
    bought: List[Dict] = []
    for i in range(N_COINS):
        bought.append(buy(device, COINS, name))
        if i % 10 == 0 and len([b for b in bought if b["productId"] == SEASON]) < N_SEASONS:
            bought.append(buy(device, SEASON, name))
    while len([b for b in bought if b["productId"] == SEASON]) < N_SEASONS:
        bought.append(buy(device, SEASON, name))
    bought.append(buy(device, LIFETIME, name))
    bought.append(buy(device, MONTHLY, name))
    bought.append(buy(device, WEEKLY, name))
    return {"name": name, "bought": bought, "ids": [b["transactionId"] for b in bought]}


def decode_all(verifier, signed: List[str]) -> List:
    return [verifier.verify_and_decode_signed_transaction(s) for s in signed]


def history(client, verifier, any_id: str, request: Optional[TransactionHistoryRequest] = None,
            version=GetTransactionHistoryVersion.V2, revision: Optional[str] = None):
    """Every page from `revision` on: (decoded transactions, pages, last revision)."""
    request = request or TransactionHistoryRequest()
    out, pages = [], []
    while True:
        page = client.get_transaction_history(any_id, revision, request, version)
        assert page.bundleId == BUNDLE and page.environment == Environment.SANDBOX and isinstance(page.appAppleId, int)
        assert len(page.signedTransactions) <= 20
        pages.append(page)
        out += decode_all(verifier, page.signedTransactions)
        revision = page.revision
        assert isinstance(revision, str) and revision
        if not page.hasMore:
            return out, pages, revision


def expect_api_error(call, status: int, code: int):
    with pytest.raises(APIException) as caught:
        call()
    e = caught.value
    assert e.http_status_code == status, (e.http_status_code, e.raw_api_error, e.error_message)
    if code is not None:
        assert e.raw_api_error == code, (e.raw_api_error, e.error_message)
        # Codes newer than the library (4000044, 4000209) reach the caller as raw_api_error only.
        assert e.api_error == (APIError(code) if code in APIError._value2member_map_ else None)
        assert e.error_message
    return e


def raw(client, method: str, path: str, params=None, body=None) -> requests.Response:
    return requests.request(method, client._base_url + path, params=params, headers=client._get_headers(),
                            json=body, timeout=30)


def assert_raw_error(r: requests.Response, code: int):
    assert r.status_code == code // 10000, (r.status_code, r.text)
    assert r.headers["Content-Type"] == "application/json", r.headers
    body = r.json()
    assert body["errorCode"] == code and isinstance(body["errorMessage"], str) and body["errorMessage"], body


def order_ids(server: ServerProcess) -> Dict[str, str]:
    return {str(tid): order for tid, order in store_rows(server.data_dir, "SELECT id, order_id FROM transactions")}


# -- history: pages, order, versions -----------------------------------------------------------

def test_history_pages_ascending_by_default(client, verifier, big):
    got, pages, _ = history(client, verifier, big["ids"][0])
    assert len(pages) >= 3
    assert [p.hasMore for p in pages] == [True] * (len(pages) - 1) + [False]
    assert all(len(p.signedTransactions) == 20 for p in pages[:-1])
    assert [t.transactionId for t in got] == big["ids"]


def test_history_descending(client, verifier, big):
    got, pages, _ = history(client, verifier, big["ids"][5], TransactionHistoryRequest(sort=Order.DESCENDING))
    assert [t.transactionId for t in got] == list(reversed(big["ids"]))
    assert len(pages) >= 3


def test_any_id_opens_the_history(client, verifier, big, device):
    app_tx = device.app_transaction(BUNDLE, big["name"]).json()
    app_transaction_id = app_tx["appTransaction"]["appTransactionId"]
    keys = [big["ids"][-1], big["bought"][-1]["originalTransactionId"], app_transaction_id]
    for any_id in keys:
        page = client.get_transaction_history(any_id, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        assert [t.transactionId for t in decode_all(verifier, page.signedTransactions)] == big["ids"][:20]


def test_v1_leaves_out_finished_consumables(client, verifier, device):
    name = f"v1-{uuid.uuid4().hex[:8]}"
    coin_a, coin_b = buy(device, COINS, name), buy(device, COINS, name)
    life = buy(device, LIFETIME, name)
    client.finish_transaction(coin_a["transactionId"])
    client.finish_transaction(life["transactionId"])
    v1, _, _ = history(client, verifier, life["transactionId"], version=GetTransactionHistoryVersion.V1)
    v2, _, _ = history(client, verifier, life["transactionId"], version=GetTransactionHistoryVersion.V2)
    assert [t.transactionId for t in v1] == [coin_b["transactionId"], life["transactionId"]]
    assert [t.transactionId for t in v2] == [coin_a["transactionId"], coin_b["transactionId"], life["transactionId"]]
    # The Python client's default version is v1.
    default = client.get_transaction_history(life["transactionId"], None, TransactionHistoryRequest())
    assert len(default.signedTransactions) == 2


# -- history: filters ----------------------------------------------------------------------------

def ids_for(client, verifier, big, request) -> List[str]:
    return [t.transactionId for t in history(client, verifier, big["ids"][0], request)[0]]


def expected(big, keep) -> List[str]:
    return [b["transactionId"] for b in big["bought"] if keep(b)]


def test_filter_product_id(client, verifier, big):
    assert ids_for(client, verifier, big, TransactionHistoryRequest(productIds=[SEASON])) == expected(big, lambda b: b["productId"] == SEASON)
    both = ids_for(client, verifier, big, TransactionHistoryRequest(productIds=[LIFETIME, WEEKLY]))
    assert both == expected(big, lambda b: b["productId"] in (LIFETIME, WEEKLY))


@pytest.mark.parametrize("product_type,product", [
    (ProductType.CONSUMABLE, COINS), (ProductType.NON_CONSUMABLE, LIFETIME),
    (ProductType.NON_RENEWABLE, SEASON), (ProductType.AUTO_RENEWABLE, None),
])
def test_filter_product_type(client, verifier, big, product_type, product):
    got = ids_for(client, verifier, big, TransactionHistoryRequest(productTypes=[product_type]))
    if product:
        assert got == expected(big, lambda b: b["productId"] == product)
    else:
        assert got == expected(big, lambda b: b["productId"] in (MONTHLY, WEEKLY))


def test_filter_several_product_types(client, verifier, big):
    got = ids_for(client, verifier, big, TransactionHistoryRequest(productTypes=[ProductType.NON_CONSUMABLE, ProductType.NON_RENEWABLE]))
    assert got == expected(big, lambda b: b["productId"] in (LIFETIME, SEASON))


def test_filter_subscription_group(client, verifier, big):
    assert ids_for(client, verifier, big, TransactionHistoryRequest(subscriptionGroupIdentifiers=[NEWS_GROUP])) == expected(big, lambda b: b["productId"] == WEEKLY)
    got = ids_for(client, verifier, big, TransactionHistoryRequest(subscriptionGroupIdentifiers=[NEWS_GROUP, PLUS_GROUP]))
    assert got == expected(big, lambda b: b["productId"] in (MONTHLY, WEEKLY))


def test_filter_dates_start_inclusive_end_exclusive(client, verifier, big):
    dates = sorted({b["purchaseDate"] for b in big["bought"]})
    assert len(dates) >= 3, "purchases should span several milliseconds"
    start, end = dates[1], dates[-1]
    got = ids_for(client, verifier, big, TransactionHistoryRequest(startDate=start, endDate=end))
    assert got == expected(big, lambda b: start <= b["purchaseDate"] < end)
    assert got, "the window holds purchases"
    only_start = ids_for(client, verifier, big, TransactionHistoryRequest(startDate=dates[-1]))
    assert only_start == expected(big, lambda b: b["purchaseDate"] >= dates[-1])
    future_end = ids_for(client, verifier, big, TransactionHistoryRequest(endDate=int(time.time() * 1000) + 10**9))
    assert future_end == big["ids"]


def test_filter_ownership_and_revoked(client, verifier, big):
    assert ids_for(client, verifier, big, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED)) == big["ids"]
    assert ids_for(client, verifier, big, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED)) == []
    assert ids_for(client, verifier, big, TransactionHistoryRequest(revoked=False)) == big["ids"]
    assert ids_for(client, verifier, big, TransactionHistoryRequest(revoked=True)) == []


def test_filters_and_together(client, verifier, big):
    assert ids_for(client, verifier, big, TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE], productIds=[SEASON])) == []
    dates = sorted({b["purchaseDate"] for b in big["bought"]})
    request = TransactionHistoryRequest(
        productTypes=[ProductType.CONSUMABLE, ProductType.NON_RENEWABLE], productIds=[COINS, SEASON, LIFETIME],
        startDate=dates[1], revoked=False, inAppOwnershipType=InAppOwnershipType.PURCHASED, sort=Order.DESCENDING)
    got = ids_for(client, verifier, big, request)
    assert got == list(reversed(expected(big, lambda b: b["productId"] in (COINS, SEASON) and b["purchaseDate"] >= dates[1])))


# -- revision: a later change shows up again ----------------------------------------------------

def test_revision_resumes_after_a_change(client, verifier, device):
    name = f"rev-{uuid.uuid4().hex[:8]}"
    bought = [buy(device, COINS, name) for _ in range(23)] + [buy(device, LIFETIME, name)]
    first, pages, revision = history(client, verifier, bought[0]["transactionId"])
    assert len(pages) == 2 and len(first) == 24
    # Nothing changed: resuming gives nothing, and hasMore is false.
    again = client.get_transaction_history(bought[0]["transactionId"], revision, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
    assert again.signedTransactions == [] and again.hasMore is False
    # A modification (set app account token) moves the transaction after the revision.
    token = str(uuid.uuid4())
    client.set_app_account_token(bought[5]["transactionId"], UpdateAppAccountTokenRequest(appAccountToken=token.upper()))
    later, _, revision2 = history(client, verifier, bought[0]["transactionId"], revision=revision)
    assert [t.transactionId for t in later] == [bought[5]["transactionId"]]
    assert later[0].appAccountToken == token
    assert revision2 != revision
    # And it is now last in modification order.
    everything, _, _ = history(client, verifier, bought[0]["transactionId"])
    assert [t.transactionId for t in everything][-1] == bought[5]["transactionId"]
    assert len(everything) == 24


# -- errors --------------------------------------------------------------------------------------

def test_bad_and_unknown_ids(client):
    for bad in ["abc", "12a", "-5", "1.5"]:
        expect_api_error(lambda: client.get_transaction_info(bad), 400, 4000006)
        expect_api_error(lambda: client.get_transaction_history(bad, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2), 400, 4000006)
    expect_api_error(lambda: client.get_transaction_info("9" * 18), 404, 4040010)
    expect_api_error(lambda: client.get_transaction_history("9" * 18, None, TransactionHistoryRequest()), 404, 4040010)
    expect_api_error(lambda: client.get_app_transaction_info("9" * 18), 404, 4040010)
    expect_api_error(lambda: client.get_refund_history("9" * 18, None), 404, 4040010)
    expect_api_error(lambda: client.finish_transaction("9" * 18), 404, 4040010)


def test_bad_dates(client, big):
    any_id = big["ids"][0]
    expect_api_error(lambda: client.get_transaction_history(any_id, None, TransactionHistoryRequest(startDate=2000, endDate=1000)), 400, 4000013)
    expect_api_error(lambda: client.get_transaction_history(any_id, None, TransactionHistoryRequest(startDate=1000, endDate=1000)), 400, 4000013)
    path = f"/inApps/v2/history/{any_id}"
    assert_raw_error(raw(client, "GET", path, {"startDate": "yesterday"}), 4000015)
    assert_raw_error(raw(client, "GET", path, {"endDate": "-1"}), 4000016)


@pytest.mark.parametrize("params,code", [
    ({"sort": "SIDEWAYS"}, 4000021), ({"productType": "FREE"}, 4000022), ({"inAppOwnershipType": "BORROWED"}, 4000026),
    ({"revoked": "maybe"}, 4000030), ({"revision": "not-a-revision"}, 4000005),
])
def test_bad_filters(client, big, params, code):
    assert_raw_error(raw(client, "GET", f"/inApps/v2/history/{big['ids'][0]}", params), code)


def test_revision_of_the_other_sort_is_refused(client, big):
    page = client.get_transaction_history(big["ids"][0], None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
    expect_api_error(lambda: client.get_transaction_history(
        big["ids"][0], page.revision, TransactionHistoryRequest(sort=Order.DESCENDING), GetTransactionHistoryVersion.V2), 400, 4000005)


def test_wrong_keys_get_401(server, key, keydir, big):
    any_id = big["ids"][0]
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    stranger = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    cases = [
        api_client(server, key, p8=stranger),                       # right key ID, wrong private key
        api_client(server, key, bundle_id=OTHER_BUNDLE),            # bid doesn't match the key
    ]
    wrong_issuer = AppStoreServerAPIClient(key.p8, key.key_id, str(uuid.uuid4()), BUNDLE, Environment.SANDBOX)
    wrong_issuer._base_url = server.base_url
    unknown_kid = AppStoreServerAPIClient(key.p8, "ZZZZZZZZZZ", key.issuer_id, BUNDLE, Environment.SANDBOX)
    unknown_kid._base_url = server.base_url
    for client in cases + [wrong_issuer, unknown_kid]:
        e = expect_api_error(lambda: client.get_transaction_info(any_id), 401, None)
        assert e.raw_api_error is None
    r = requests.get(server.base_url + f"/inApps/v1/transactions/{any_id}", timeout=30)
    assert r.status_code == 401 and "Unauthenticated" in r.text
    r = requests.get(server.base_url + f"/inApps/v1/transactions/{any_id}", headers={"Authorization": "Bearer x.y.z"}, timeout=30)
    assert r.status_code == 401


def test_keys_are_scoped_to_app_and_world(server, keydir, big):
    other_app = api_client(server, create_key(server, keydir, bundle_id=OTHER_BUNDLE))
    expect_api_error(lambda: other_app.get_transaction_info(big["ids"][0]), 404, 4040010)
    # A key of another world is a valid key that sees none of this world's transactions: Apple's
    # answer for a transaction the caller doesn't have is 404 TransactionIdNotFoundError.
    world = f"w{uuid.uuid4().hex[:6]}"
    created = requests.post(f"{server.base_url}/admin/v1/worlds", json={"id": world}, timeout=30)
    assert created.status_code in (200, 201), created.text
    other_world = api_client(server, create_key(server, keydir, world=world))
    expect_api_error(lambda: other_world.get_transaction_info(big["ids"][0]), 404, 4040010)


def test_key_created_while_serving_works_at_once(server, keydir, big):
    fresh = api_client(server, create_key(server, keydir))
    assert fresh.get_transaction_info(big["ids"][0]).signedTransactionInfo


# -- single lookups ------------------------------------------------------------------------------

def test_get_transaction_info(client, verifier, big):
    for b in [big["bought"][0], big["bought"][-1]]:
        t = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(b["transactionId"]).signedTransactionInfo)
        assert t.transactionId == b["transactionId"] and t.productId == b["productId"] and t.bundleId == BUNDLE


def test_get_app_transaction_info(client, verifier, big):
    signed = client.get_app_transaction_info(big["ids"][3]).signedAppTransactionInfo
    app_tx = verifier.verify_and_decode_app_transaction(signed)
    assert app_tx.bundleId == BUNDLE and app_tx.appTransactionId
    # The appTransactionId opens it too, but Get Transaction Info refuses it.
    again = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(app_tx.appTransactionId).signedAppTransactionInfo)
    assert again.appTransactionId == app_tx.appTransactionId
    expect_api_error(lambda: client.get_transaction_info(app_tx.appTransactionId), 400, 4000048)


def test_look_up_order_id(server, client, verifier, big):
    orders = order_ids(server)
    target = big["bought"][7]
    found = client.look_up_order_id(orders[target["transactionId"]])
    assert found.status == 0
    assert [t.transactionId for t in decode_all(verifier, found.signedTransactions)] == [target["transactionId"]]
    missing = client.look_up_order_id("NOTANORDER")
    assert missing.status == 1 and not missing.signedTransactions


def test_refund_history_is_empty_without_refunds(client, big):
    page = client.get_refund_history(big["ids"][0], None)
    assert page.signedTransactions == [] and page.hasMore is False and page.revision
    again = client.get_refund_history(big["ids"][0], page.revision)
    assert again.signedTransactions == [] and again.hasMore is False
    expect_api_error(lambda: client.get_refund_history(big["ids"][0], "garbage!"), 400, 4000005)


# -- changes -------------------------------------------------------------------------------------

def test_finish_transaction(client, device):
    name = f"fin-{uuid.uuid4().hex[:8]}"
    coin = buy(device, COINS, name)
    assert len(device.signed_list(BUNDLE, name, "unfinished")) == 1
    client.finish_transaction(coin["transactionId"])
    client.finish_transaction(coin["transactionId"])  # idempotent
    assert device.signed_list(BUNDLE, name, "unfinished") == []


def test_set_app_account_token_errors(client, device):
    name = f"aat-{uuid.uuid4().hex[:8]}"
    coin = buy(device, COINS, name)
    expect_api_error(lambda: client.set_app_account_token(coin["transactionId"], UpdateAppAccountTokenRequest(appAccountToken="not-a-uuid")), 400, 4000183)
    expect_api_error(lambda: client.set_app_account_token("abc", UpdateAppAccountTokenRequest(appAccountToken=str(uuid.uuid4()))), 400, 4000006)
    expect_api_error(lambda: client.set_app_account_token("9" * 18, UpdateAppAccountTokenRequest(appAccountToken=str(uuid.uuid4()))), 404, 4040010)
    token = str(uuid.uuid4())
    client.set_app_account_token(coin["transactionId"], UpdateAppAccountTokenRequest(appAccountToken=token))
    assert client.get_transaction_info(coin["transactionId"]).signedTransactionInfo


def consumption_row(server, transaction_id: str):
    rows = store_rows(server.data_dir, f"SELECT version, body FROM consumption_info WHERE transaction_id = {int(transaction_id)}")
    return rows[0] if rows else None


def test_send_consumption_information_v2(server, client, device):
    name = f"cons-{uuid.uuid4().hex[:8]}"
    coin, sub = buy(device, COINS, name), buy(device, MONTHLY, name)
    request = ConsumptionRequest(customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
                                 consumptionPercentage=50000, refundPreference=RefundPreference.GRANT_PRORATED)
    client.send_consumption_information(coin["transactionId"], request)
    version, body = consumption_row(server, coin["transactionId"])
    assert version == 2 and json.loads(body)["consumptionPercentage"] == 50000
    # Subscriptions: no consumptionPercentage.
    expect_api_error(lambda: client.send_consumption_information(sub["transactionId"], request), 400, 4000209)
    client.send_consumption_information(sub["transactionId"], ConsumptionRequest(
        customerConsented=True, sampleContentProvided=True, deliveryStatus=DeliveryStatus.UNDELIVERED_OTHER))
    expect_api_error(lambda: client.send_consumption_information(coin["transactionId"], ConsumptionRequest(
        customerConsented=False, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)), 400, 4000035)
    path = f"/inApps/v2/transactions/consumption/{coin['transactionId']}"
    good = {"customerConsented": True, "sampleContentProvided": False, "deliveryStatus": "DELIVERED"}
    assert raw(client, "PUT", path, body=good).status_code == 202
    assert_raw_error(raw(client, "PUT", path, body={**good, "deliveryStatus": "LOST"}), 4000036)
    assert_raw_error(raw(client, "PUT", path, body={**good, "sampleContentProvided": "no"}), 4000041)
    assert_raw_error(raw(client, "PUT", path, body={**good, "refundPreference": "MAYBE"}), 4000044)
    assert_raw_error(raw(client, "PUT", path, body={k: v for k, v in good.items() if k != "customerConsented"}), 4000035)
    expect_api_error(lambda: client.send_consumption_information("x1", request), 400, 4000006)
    expect_api_error(lambda: client.send_consumption_information("9" * 18, request), 404, 4040010)


def v1_request(**overrides) -> ConsumptionRequestV1:
    fields = dict(customerConsented=True, consumptionStatus=ConsumptionStatus.PARTIALLY_CONSUMED, platform=Platform.APPLE,
                  sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
                  appAccountToken="", accountTenure=AccountTenure(3),
                  playTime=PlayTime(3), lifetimeDollarsRefunded=LifetimeDollarsRefunded(1),
                  lifetimeDollarsPurchased=LifetimeDollarsPurchased(3),
                  userStatus=UserStatus.ACTIVE)
    fields.update(overrides)
    return ConsumptionRequestV1(**fields)


def test_send_consumption_data_v1(server, client, device):
    name = f"cons1-{uuid.uuid4().hex[:8]}"
    coin, life = buy(device, COINS, name), buy(device, LIFETIME, name)
    client.send_consumption_data(coin["transactionId"], v1_request(appAccountToken=str(uuid.uuid4()).upper()))
    assert consumption_row(server, coin["transactionId"])[0] == 1
    expect_api_error(lambda: client.send_consumption_data(life["transactionId"], v1_request()), 400, 4000047)
    expect_api_error(lambda: client.send_consumption_data(coin["transactionId"], v1_request(customerConsented=False)), 400, 4000035)
    path = f"/inApps/v1/transactions/consumption/{coin['transactionId']}"
    good = {"customerConsented": True, "consumptionStatus": 1, "platform": 1, "sampleContentProvided": False,
            "deliveryStatus": 0, "appAccountToken": "", "accountTenure": 0, "playTime": 0,
            "lifetimeDollarsRefunded": 0, "lifetimeDollarsPurchased": 0, "userStatus": 0}
    assert raw(client, "PUT", path, body=good).status_code == 202
    for field, value, code in [("consumptionStatus", 4, 4000034), ("platform", 3, 4000039), ("deliveryStatus", 6, 4000036),
                               ("appAccountToken", "nope", 4000033), ("accountTenure", 8, 4000032), ("playTime", -1, 4000040),
                               ("lifetimeDollarsRefunded", 8, 4000038), ("lifetimeDollarsPurchased", 8, 4000037),
                               ("userStatus", 5, 4000042), ("refundPreference", 4, 4000044), ("sampleContentProvided", 1, 4000041)]:
        assert_raw_error(raw(client, "PUT", path, body={**good, field: value}), code)


# -- quirks of Apple's clients and the rate limit -------------------------------------------------

def test_booleans_any_case_and_parameters_in_any_order(client, verifier, big):
    path = f"/inApps/v2/history/{big['ids'][0]}"
    for value in ["true", "True", "TRUE"]:
        r = raw(client, "GET", path, [("revoked", value)])
        assert r.status_code == 200 and r.json()["signedTransactions"] == []
    a = raw(client, "GET", path, [("productId", SEASON), ("revoked", "false"), ("productType", "NON_RENEWABLE"), ("productId", LIFETIME)])
    b = raw(client, "GET", path, [("productType", "NON_RENEWABLE"), ("productId", LIFETIME), ("revoked", "False"), ("productId", SEASON)])
    ids = lambda r: [t.transactionId for t in decode_all(verifier, r.json()["signedTransactions"])]
    assert ids(a) == ids(b) == expected(big, lambda x: x["productId"] == SEASON)
    assert a.headers["Content-Type"] == "application/json"


def test_rate_limit(tmp_path):
    binary = openstore_bin()
    data = tmp_path / "data"
    proc = subprocess.Popen([str(binary), "serve", "--port", "0", "--data", str(data), "--rate-limit", "3",
                             "--catalog", str(CATALOG), "--bundle-id", BUNDLE],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
                            env=store_environment(data))
    try:
        base = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and base is None:
            line = proc.stdout.readline()
            m = re.search(r"listening on (http://\S+:\d+)", line or "")
            if m:
                base = m.group(1)
            elif proc.poll() is not None:
                pytest.fail("server exited")
        assert base
        server = ServerProcess(binary, data_dir=data, log_path=tmp_path / "unused.log")
        server.base_url = base
        key = create_key(server, tmp_path)
        client = api_client(server, key)
        codes = []
        for _ in range(5):
            try:
                client.get_transaction_info("1")
            except APIException as e:
                codes.append((e.http_status_code, e.raw_api_error))
        assert codes[:3] == [(404, 4040010)] * 3
        assert codes[3:] == [(429, 4290000)] * 2
        # Another key has its own budget.
        other = api_client(server, create_key(server, tmp_path))
        expect_api_error(lambda: other.get_transaction_info("1"), 404, 4040010)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
