"""Device API behaviour (`/storekit/v1`) as a client sees it: shapes, defaults and error answers."""

from __future__ import annotations

import json
import socket
import uuid
from urllib.parse import urlsplit

import pytest

from openstore_harness import assert_error, describe, jws_parts, new_customer, ok_json

CONSUMABLE, NON_CONSUMABLE, NON_RENEWING = "compat.coins", "compat.lifetime", "compat.season"
SUB_WITH_TRIAL, SUB_YEARLY, SUB_WEEKLY = "compat.plus.monthly", "compat.plus.yearly", "compat.news.weekly"
SANDBOX = "com.example.sandbox"
DEVICE_PATHS = [
    "/healthz",
    "/storekit/v1/apps",
    "/storekit/v1/root-certificate",
    "/storekit/v1/apps/{bundleId}/products",
    "/storekit/v1/customers/{customer}",
    "/storekit/v1/apps/{bundleId}/purchases",
    "/storekit/v1/apps/{bundleId}/customers/{customer}/transactions",
    "/storekit/v1/apps/{bundleId}/customers/{customer}/entitlements",
    "/storekit/v1/apps/{bundleId}/customers/{customer}/unfinished",
    "/storekit/v1/apps/{bundleId}/customers/{customer}/transactions/{transactionId}/finish",
    "/storekit/v1/apps/{bundleId}/customers/{customer}/app-transaction",
]


def test_healthz(catalog_store):
    assert ok_json(catalog_store.get("/healthz")) == {"status": "ok"}


def test_openapi_document_is_served(catalog_store):
    doc = ok_json(catalog_store.get("/openapi.json"))
    assert doc["openapi"].startswith("3.1")
    missing = [p for p in DEVICE_PATHS if p not in doc["paths"]]
    assert not missing, f"undocumented routes: {missing}"


# -- products ----------------------------------------------------------------------------------

def test_products_of_the_compat_catalog(catalog_store):
    body = ok_json(catalog_store.products(SANDBOX))
    assert body["storefront"] == {"countryCode": "USA", "id": "143441", "currency": "USD", "locale": "en_US"}
    products = {p["id"]: p for p in body["products"]}
    assert {k: p["type"] for k, p in products.items()} == {
        CONSUMABLE: "Consumable", NON_CONSUMABLE: "Non-Consumable", NON_RENEWING: "Non-Renewable",
        SUB_WITH_TRIAL: "Auto-Renewable", SUB_YEARLY: "Auto-Renewable", SUB_WEEKLY: "Auto-Renewable"}
    coins = products[CONSUMABLE]
    assert (coins["price"], coins["displayPrice"], coins["currency"]) == ("0.99", "$0.99", "USD")
    assert coins["displayName"] == "Coins" and coins["description"] == "A handful of coins."
    assert coins["isFamilyShareable"] is False and "subscription" not in coins
    assert products[NON_CONSUMABLE]["isFamilyShareable"] is True
    assert "subscription" not in products[NON_RENEWING]

    monthly = products[SUB_WITH_TRIAL]["subscription"]
    assert monthly["subscriptionGroupID"] == "C0FFEE20" and monthly["groupLevel"] == 2
    assert monthly["subscriptionPeriod"] == {"unit": "month", "value": 1}
    assert monthly["introductoryOffer"] == {
        "type": "introductory", "paymentMode": "freeTrial", "price": "0", "displayPrice": "$0.00",
        "period": {"unit": "week", "value": 1}, "periodCount": 1}
    assert monthly["promotionalOffers"] == [] and monthly["winBackOffers"] == []
    assert isinstance(monthly["groupDisplayName"], str)
    yearly = products[SUB_YEARLY]["subscription"]
    assert yearly["groupLevel"] == 1 and yearly["subscriptionPeriod"] == {"unit": "year", "value": 1}
    assert "introductoryOffer" not in yearly


def test_products_filtered_by_id(catalog_store):
    body = ok_json(catalog_store.products(SANDBOX, [NON_CONSUMABLE, CONSUMABLE, "no.such.product"]))
    assert sorted(p["id"] for p in body["products"]) == [CONSUMABLE, NON_CONSUMABLE]


def test_products_for_another_storefront(catalog_store):
    body = ok_json(catalog_store.products(SANDBOX, [CONSUMABLE], storefront="FRA", locale="fr_FR"))
    assert body["storefront"]["countryCode"] == "FRA" and body["storefront"]["id"] == "143442"
    assert body["storefront"]["currency"] == "EUR" and body["products"][0]["currency"] == "EUR"
    assert body["storefront"]["locale"] == "fr_FR"


def test_products_errors(catalog_store):
    assert_error(catalog_store.products("com.example.nobody"), 404, "appNotFound")
    assert_error(catalog_store.products(SANDBOX, storefront="XYZ"), 422, "invalidStorefront")


def _offer(offer):
    """An offer as a user reads it on the purchase sheet: mode, price, period × count."""
    return (offer["paymentMode"], offer["price"], offer["period"], offer["periodCount"])


MONTH, WEEK, QUARTER, YEAR = ({"unit": "month", "value": 1}, {"unit": "week", "value": 1},
                              {"unit": "month", "value": 3}, {"unit": "year", "value": 1})


def test_demo_catalogs(demo_store):
    """The built-in demo apps, as the products listing shows them (Sources/StoreModel/Demo)."""
    birds = {p["id"]: p for p in ok_json(demo_store.products("com.example.backyardbirds"))["products"]}
    consumables = {pid: p["price"] for pid, p in birds.items() if p["type"] == "Consumable"}
    assert consumables == {
        "com.example.backyardbirds.pellets": "0.99", "com.example.backyardbirds.sunflowerseeds": "1.99",
        "com.example.backyardbirds.nectar": "1.49", "com.example.backyardbirds.suetcake": "2.99",
        "com.example.backyardbirds.mealworms": "3.99", "com.example.backyardbirds.feastbundle": "9.99",
    }
    passes = {pid: p for pid, p in birds.items() if p["type"] == "Auto-Renewable"}
    assert set(birds) == set(consumables) | set(passes)
    # The three-level Backyard Birds Pass: Premium 1 (highest), Family 2, Individual 3.
    levels = {pid: p["subscription"]["groupLevel"] for pid, p in passes.items()}
    assert levels == {"com.example.backyardbirds.pass.premium": 1, "com.example.backyardbirds.pass.family": 2,
                      "com.example.backyardbirds.pass.individual": 3}
    for p in passes.values():
        sub = p["subscription"]
        assert sub["subscriptionGroupID"] == "BB0PASS1" and sub["groupDisplayName"] == "Backyard Birds Pass"
        assert sub["subscriptionPeriod"] == MONTH
    assert {pid: (p["price"], p["displayPrice"]) for pid, p in passes.items()} == {
        "com.example.backyardbirds.pass.premium": ("11.99", "$11.99"),
        "com.example.backyardbirds.pass.family": ("7.99", "$7.99"),
        "com.example.backyardbirds.pass.individual": ("4.99", "$4.99"),
    }
    # Every level starts with a free trial: a month for Premium, a week for Family and Individual.
    assert {pid: _offer(p["subscription"]["introductoryOffer"]) for pid, p in passes.items()} == {
        "com.example.backyardbirds.pass.premium": ("freeTrial", "0", MONTH, 1),
        "com.example.backyardbirds.pass.family": ("freeTrial", "0", WEEK, 1),
        "com.example.backyardbirds.pass.individual": ("freeTrial", "0", WEEK, 1),
    }
    premium = passes["com.example.backyardbirds.pass.premium"]["subscription"]
    assert [(o["id"], _offer(o)) for o in premium["promotionalOffers"]] == [
        ("com.example.backyardbirds.pass.premium.loyalty", ("payUpFront", "24.99", QUARTER, 1))]
    assert [(o["id"], _offer(o)) for o in premium["winBackOffers"]] == [
        ("com.example.backyardbirds.pass.premium.welcomeback", ("payAsYouGo", "5.99", MONTH, 2))]

    truck = {p["id"]: p for p in ok_json(demo_store.products("com.example.foodtruck"))["products"]}
    assert set(truck) == {"com.example.foodtruck.annualhistory", "com.example.foodtruck.socialfeedplus.monthly",
                          "com.example.foodtruck.socialfeedplus.yearly"}
    history = truck["com.example.foodtruck.annualhistory"]
    assert (history["type"], history["price"], history["displayName"]) == ("Non-Consumable", "4.99", "Annual Sales History")
    monthly = truck["com.example.foodtruck.socialfeedplus.monthly"]
    yearly = truck["com.example.foodtruck.socialfeedplus.yearly"]
    for plan, price, period in ((monthly, "4.99", MONTH), (yearly, "49.99", YEAR)):
        sub = plan["subscription"]
        assert (plan["type"], plan["price"], sub["subscriptionPeriod"]) == ("Auto-Renewable", price, period)
        # Both plans share level 1 of Social Feed+: switching between them is a crossgrade.
        assert (sub["subscriptionGroupID"], sub["groupDisplayName"], sub["groupLevel"]) == ("F7E50C1A", "Social Feed+", 1)
    # Monthly: a one-week free trial. Yearly: three months for $9.99, paid up front.
    assert _offer(monthly["subscription"]["introductoryOffer"]) == ("freeTrial", "0", WEEK, 1)
    assert _offer(yearly["subscription"]["introductoryOffer"]) == ("payUpFront", "9.99", QUARTER, 1)
    assert yearly["subscription"]["introductoryOffer"]["displayPrice"] == "$9.99"


# -- customers ---------------------------------------------------------------------------------

def customer_fields(r) -> dict:
    """A customer answer without its `deviceVerificationID` (AppStore.deviceVerificationID, a
    lowercase UUID of the customer's device), which is checked here and returned apart."""
    body = dict(ok_json(r))
    device = body.pop("deviceVerificationID")
    assert isinstance(device, str) and str(uuid.UUID(device)) == device, device
    return body


def test_customer_put_get(catalog_store):
    name = new_customer()
    assert_error(catalog_store.customer(name), 404, "customerNotFound")
    assert customer_fields(catalog_store.put_customer(name, storefront="FRA", locale="fr_FR")) == {
        "name": name, "storefront": "FRA", "locale": "fr_FR"}
    assert customer_fields(catalog_store.customer(name)) == {"name": name, "storefront": "FRA", "locale": "fr_FR"}
    assert ok_json(catalog_store.put_customer(name, locale="en_GB"))["storefront"] == "FRA"
    # One device per customer: the ID stays the same across reads and updates.
    assert len({ok_json(catalog_store.customer(name))["deviceVerificationID"] for _ in range(2)}
               | {ok_json(catalog_store.put_customer(name, locale="fr_FR"))["deviceVerificationID"]}) == 1


def test_customer_defaults_and_bad_storefront(catalog_store):
    name = new_customer()
    assert customer_fields(catalog_store.put_customer(name)) == {"name": name, "storefront": "USA", "locale": "en_US"}
    assert_error(catalog_store.put_customer(new_customer(), storefront="XYZ"), 422, "invalidStorefront")
    assert_error(catalog_store.put(f"/storekit/v1/customers/{new_customer()}", raw=b"{not json"), 400, "malformedRequest")


def test_first_purchase_creates_the_customer(catalog_store):
    name = new_customer()
    catalog_store.buy(SANDBOX, CONSUMABLE, name)
    assert customer_fields(catalog_store.customer(name)) == {"name": name, "storefront": "USA", "locale": "en_US"}


# -- purchases ---------------------------------------------------------------------------------

def test_second_non_consumable_purchase_conflicts(catalog_store):
    name = new_customer()
    catalog_store.buy(SANDBOX, NON_CONSUMABLE, name)
    assert_error(catalog_store.purchase(SANDBOX, NON_CONSUMABLE, name), 409, "alreadyPurchased")


def test_consumables_can_be_bought_again(catalog_store):
    name = new_customer()
    first = catalog_store.buy(SANDBOX, CONSUMABLE, name)["transaction"]["transactionId"]
    second = catalog_store.buy(SANDBOX, CONSUMABLE, name, quantity=10)["transaction"]
    assert second["transactionId"] != first and second["quantity"] == 10


@pytest.mark.parametrize("product_id,quantity", [
    (CONSUMABLE, 0), (CONSUMABLE, -1), (CONSUMABLE, 11), (NON_CONSUMABLE, 2), (SUB_WITH_TRIAL, 2), (NON_RENEWING, 2)])
def test_invalid_quantity(catalog_store, product_id, quantity):
    assert_error(catalog_store.purchase(SANDBOX, product_id, new_customer(), quantity=quantity), 422, "invalidQuantity")


@pytest.mark.parametrize("token", ["not-a-uuid", "", "1234", "7e3fb20b-4cdb-47cc-936d-99d65f60813"])
def test_invalid_app_account_token(catalog_store, token):
    assert_error(catalog_store.purchase(SANDBOX, CONSUMABLE, new_customer(), appAccountToken=token), 400,
                 "invalidAppAccountToken")


@pytest.mark.parametrize("raw", [
    b"{not json", b"", b"[]", b"null",
    b'{"customer": "x"}',                                     # no productId
    b'{"productId": "compat.coins"}',                         # no customer
    b'{"productId": 7, "customer": "x"}',                     # wrong type
    b'{"productId": "compat.coins", "customer": "x", "quantity": "2"}',
    b'{"productId": "compat.coins", "customer": "x", "quantity": 1.5}',
], ids=["bad-json", "empty", "array", "null", "no-productId", "no-customer", "productId-number", "quantity-string",
        "quantity-fraction"])
def test_malformed_purchase(catalog_store, raw):
    r = catalog_store.post(f"/storekit/v1/apps/{SANDBOX}/purchases", raw=raw)
    assert r.status_code == 400, describe(r)
    # A fractional quantity is not an integer: a malformed request, like any other wrong type.
    assert r.json()["error"] == "malformedRequest", describe(r)


def test_unknown_product_and_app(catalog_store):
    assert_error(catalog_store.purchase(SANDBOX, "compat.nothing", new_customer()), 404, "productUnavailable")
    assert_error(catalog_store.purchase("com.example.nobody", CONSUMABLE, new_customer()), 404, "appNotFound")


def _raw_post(base_url: str, path: str, body: bytes):
    """POST over a bare socket: a server may answer 413 and close before reading the whole body,
    which `requests` reports as a connection error instead of the answer."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        head = (f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        try:
            sock.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, socket.timeout):
            pass
    response = b"".join(chunks)
    head, _, payload = response.partition(b"\r\n\r\n")
    assert head, "no HTTP response to an oversized body"
    status = int(head.split(b" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in
               (line.decode("latin-1").partition(":") for line in head.split(b"\r\n")[1:])}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        decoded, rest = b"", payload
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if size == 0:
                break
            decoded, rest = decoded + rest[:size], rest[size + 2:]
        payload = decoded
    return status, headers, payload


def test_payload_too_large(catalog_store):
    big = b'{"productId": "compat.coins", "customer": "x", "pad": "' + b"x" * (16 * 1024 * 1024) + b'"}'
    status, headers, payload = _raw_post(catalog_store.base_url, f"/storekit/v1/apps/{SANDBOX}/purchases", big)
    assert status == 413, (status, payload[:300])
    assert headers.get("content-type", "").split(";")[0] == "application/json"
    assert json.loads(payload)["error"] == "payloadTooLarge"


def test_subscription_purchase_returns_renewal_info_only_for_auto_renewables(catalog_store):
    name = new_customer()
    assert {"signedRenewalInfo", "renewalInfo"} <= catalog_store.buy(SANDBOX, SUB_WEEKLY, name).keys()
    for product_id in (CONSUMABLE, NON_CONSUMABLE, NON_RENEWING):
        assert not {"signedRenewalInfo", "renewalInfo"} & catalog_store.buy(SANDBOX, product_id, name).keys()


def test_app_account_token_is_recorded(catalog_store):
    token = str(uuid.uuid4())
    tx = catalog_store.buy(SANDBOX, CONSUMABLE, new_customer(), appAccountToken=token)["transaction"]
    assert tx["appAccountToken"] == token


# -- finishing ---------------------------------------------------------------------------------

def _ids(store, customer, which):
    return sorted(jws_parts(j)[1]["transactionId"] for j in store.signed_list(SANDBOX, customer, which))


def test_finish_removes_from_unfinished(catalog_store):
    name = new_customer()
    a = catalog_store.buy(SANDBOX, CONSUMABLE, name)["transaction"]["transactionId"]
    b = catalog_store.buy(SANDBOX, NON_CONSUMABLE, name)["transaction"]["transactionId"]
    assert _ids(catalog_store, name, "unfinished") == sorted([a, b])
    assert ok_json(catalog_store.finish(SANDBOX, name, b)) == {"transactionId": b, "finished": True}
    assert _ids(catalog_store, name, "unfinished") == [a]
    # Finishing twice is harmless.
    assert ok_json(catalog_store.finish(SANDBOX, name, b)) == {"transactionId": b, "finished": True}
    assert ok_json(catalog_store.finish(SANDBOX, name, a))["finished"] is True
    assert _ids(catalog_store, name, "unfinished") == []
    assert _ids(catalog_store, name, "transactions") == [b]
    assert _ids(catalog_store, name, "entitlements") == [b]


def test_finish_unknown_transaction(catalog_store):
    name = new_customer()
    catalog_store.buy(SANDBOX, CONSUMABLE, name)
    assert_error(catalog_store.finish(SANDBOX, name, "999999999999999"), 404, "transactionNotFound")


def test_transactions_of_another_customer_cannot_be_finished(catalog_store):
    alice, bob = new_customer(), new_customer()
    tx = catalog_store.buy(SANDBOX, CONSUMABLE, alice)["transaction"]["transactionId"]
    catalog_store.buy(SANDBOX, CONSUMABLE, bob)
    assert_error(catalog_store.finish(SANDBOX, bob, tx), 404, "transactionNotFound")
    assert tx in _ids(catalog_store, alice, "unfinished")


# -- app transaction ---------------------------------------------------------------------------

def test_app_transaction_put_validates_types(catalog_store):
    name = new_customer()
    ok_json(catalog_store.put_customer(name))
    path = f"/storekit/v1/apps/{SANDBOX}/customers/{name}/app-transaction"
    assert_error(catalog_store.put(path, {"originalPurchaseDate": "yesterday"}), 400, "malformedRequest")
    assert_error(catalog_store.put(path, {"originalApplicationVersion": 2.5}), 400, "malformedRequest")
    assert_error(catalog_store.put(path, raw=b"{"), 400, "malformedRequest")
    assert_error(catalog_store.app_transaction("com.example.nobody", name), 404, "appNotFound")
