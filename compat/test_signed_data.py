"""Apple's SignedDataVerifier (app-store-server-library 3.1.2, strict, offline) against a live store.

Every JWS the store emits (transactions of all four product types, renewal info, app transactions,
and the lists behind Transaction.all / currentEntitlements / unfinished) must verify with the store's
root certificate, in SANDBOX and in PRODUCTION, and must say what the purchase asked for.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import uuid

import pytest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import VerificationException, VerificationStatus
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding
from cryptography.x509.oid import NameOID

from checks import check_app_transaction, check_renewal_info, check_transaction
from openstore_harness import add_period, assert_error, jws_parts, make_verifier, milliunits, new_customer, now_ms, ok_json

CONSUMABLE, NON_CONSUMABLE, NON_RENEWING = "compat.coins", "compat.lifetime", "compat.season"
SUB_WITH_TRIAL, SUB_YEARLY, SUB_WEEKLY = "compat.plus.monthly", "compat.plus.yearly", "compat.news.weekly"


def buy_and_check(app, product_id, customer=None, *, quantity=1, token=None, storefront="USA"):
    """Purchase through the device API, then verify and check everything it returned."""
    customer = customer or new_customer()
    product = app.store.product(app.bundle_id, product_id, storefront=storefront)
    extra = {}
    if quantity != 1:
        extra["quantity"] = quantity
    if token is not None:
        extra["appAccountToken"] = token
    t0 = now_ms()
    body = app.store.buy(app.bundle_id, product_id, customer, **extra)
    t1 = now_ms()
    assert body["status"] == "purchased"
    _, raw = jws_parts(body["signedTransaction"])
    assert body["transaction"] == raw, "the decoded copy must equal the signed payload"
    tx = check_transaction(app, body["signedTransaction"], product=product, quantity=quantity, token=token,
                           storefront=storefront, t0=t0, t1=t1)
    info = None
    if product["type"] == "Auto-Renewable":
        assert "signedRenewalInfo" in body and "renewalInfo" in body, sorted(body)
        _, raw_info = jws_parts(body["signedRenewalInfo"])
        assert body["renewalInfo"] == raw_info
        info = check_renewal_info(app, body["signedRenewalInfo"], tx, product, token)
    else:
        assert "signedRenewalInfo" not in body and "renewalInfo" not in body, sorted(body)
    return customer, tx, info


# -- the root certificate ----------------------------------------------------------------------

@pytest.mark.parametrize("which", ["demo", "catalog"])
def test_root_certificate_endpoint_and_cli_export_agree(which, request, tmp_path):
    store = request.getfixturevalue(f"{which}_store")
    r = store.root_certificate()
    assert r.status_code == 200
    assert r.headers.get("Content-Type", "").split(";")[0].strip() == "application/pkix-cert"
    cert = x509.load_der_x509_certificate(r.content)
    assert cert.issuer == cert.subject, "the root is self-signed"
    assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert cert.public_bytes(Encoding.DER) == r.content

    out = tmp_path / "root.der"
    done = store.server.run_cli("keys", "root", "--der", str(out), "--data", str(store.server.data_dir))
    assert done.returncode == 0, done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace")
    assert out.read_bytes() == r.content, "`openstore keys root --der` must export the served root"


def test_apps_are_listed_with_their_environment(catalog_store, demo_store):
    catalog = {a["bundleId"]: a for a in catalog_store.apps()}
    assert set(catalog) == {"com.example.prod", "com.example.sandbox"}, "explicit --catalog replaces the demo apps"
    assert catalog["com.example.prod"]["environment"] == "Production"
    assert catalog["com.example.prod"]["appAppleId"] == 1234567890
    assert catalog["com.example.sandbox"]["environment"] == "Sandbox"
    demo = {a["bundleId"]: a for a in demo_store.apps()}
    assert {"com.example.backyardbirds", "com.example.foodtruck"} <= set(demo)
    for app in list(catalog.values()) + list(demo.values()):
        assert isinstance(app["appAppleId"], int) and not isinstance(app["appAppleId"], bool), app
        assert app["environment"] in ("Sandbox", "Production"), app
        assert isinstance(app["name"], str) and app["name"], app


# -- every product type, both environments -----------------------------------------------------

def test_consumable(catalog_app):
    buy_and_check(catalog_app, CONSUMABLE, token=str(uuid.uuid4()))


def test_consumable_with_quantity(catalog_app):
    buy_and_check(catalog_app, CONSUMABLE, quantity=3)


def test_non_consumable(catalog_app):
    buy_and_check(catalog_app, NON_CONSUMABLE, token=str(uuid.uuid4()))


def test_non_renewing_subscription(catalog_app):
    buy_and_check(catalog_app, NON_RENEWING)


def test_auto_renewable_with_free_trial(catalog_app):
    _, tx, info = buy_and_check(catalog_app, SUB_WITH_TRIAL, token=str(uuid.uuid4()))
    # Spelled out for the catalog (P1W free trial), beyond what the generic check derives from the product.
    assert tx.offerPeriod == "P1W" and tx.price == 0
    assert tx.expiresDate - tx.purchaseDate == 7 * 24 * 3600 * 1000
    assert info is not None


def test_auto_renewable_without_intro_offer(catalog_app):
    _, tx, _ = buy_and_check(catalog_app, SUB_WEEKLY)
    assert tx.expiresDate - tx.purchaseDate == 7 * 24 * 3600 * 1000 and tx.price == 1990


def test_auto_renewable_yearly_calendar_period(catalog_app):
    _, tx, _ = buy_and_check(catalog_app, SUB_YEARLY)
    start = dt.datetime.fromtimestamp(tx.purchaseDate / 1000, tz=dt.timezone.utc)
    end = dt.datetime.fromtimestamp(tx.expiresDate / 1000, tz=dt.timezone.utc)
    assert (end.year, end.month) == (start.year + 1, start.month) and tx.price == 39990


def test_storefront_of_the_customer(catalog_app):
    customer = new_customer()
    r = catalog_app.store.put_customer(customer, storefront="FRA", locale="fr_FR")
    body = ok_json(r)
    assert {k: v for k, v in body.items() if k != "deviceVerificationID"} == {"name": customer, "storefront": "FRA", "locale": "fr_FR"}
    assert str(uuid.UUID(body["deviceVerificationID"])) == body["deviceVerificationID"]
    buy_and_check(catalog_app, NON_CONSUMABLE, customer, storefront="FRA")


def test_app_transaction_matches_transactions(catalog_app):
    customer, tx, _ = buy_and_check(catalog_app, NON_CONSUMABLE)
    _, tx2, _ = buy_and_check(catalog_app, CONSUMABLE, customer)
    apptx = check_app_transaction(catalog_app, ok_json(catalog_app.store.app_transaction(catalog_app.bundle_id, customer)))
    assert tx.appTransactionId == tx2.appTransactionId == apptx.appTransactionId
    assert tx.transactionId != tx2.transactionId


def test_transactions_entitlements_and_unfinished_lists_verify(catalog_app):
    app, store = catalog_app, catalog_app.store
    customer = new_customer()
    bought = {}
    for product_id in (CONSUMABLE, NON_CONSUMABLE, NON_RENEWING, SUB_WITH_TRIAL):
        _, tx, _ = buy_and_check(app, product_id, customer)
        bought[product_id] = tx.transactionId

    def listed(which):
        txs = [app.verifier.verify_and_decode_signed_transaction(j) for j in store.signed_list(app.bundle_id, customer, which)]
        for tx in txs:
            assert tx.bundleId == app.bundle_id and tx.environment == app.environment
        return {tx.productId: tx.transactionId for tx in txs}

    assert listed("transactions") == bought
    assert listed("unfinished") == bought
    entitled = {k: v for k, v in bought.items() if k != CONSUMABLE}
    assert listed("entitlements") == entitled

    for product_id in (CONSUMABLE, NON_CONSUMABLE):
        r = store.finish(app.bundle_id, customer, bought[product_id])
        assert ok_json(r) == {"transactionId": bought[product_id], "finished": True}
    assert listed("unfinished") == {k: v for k, v in bought.items() if k not in (CONSUMABLE, NON_CONSUMABLE)}
    # Transaction.all leaves out finished consumables only.
    assert listed("transactions") == entitled
    assert listed("entitlements") == entitled


# -- the verifier refuses what is not for it ---------------------------------------------------

def test_wrong_bundle_id_is_rejected(catalog_app):
    customer, _, _ = buy_and_check(catalog_app, SUB_WITH_TRIAL)
    body = ok_json(catalog_app.store.app_transaction(catalog_app.bundle_id, customer))
    jws = catalog_app.store.signed_list(catalog_app.bundle_id, customer, "transactions")[0]
    wrong = catalog_app.verifier_for(bundle_id="com.example.someone-else")
    with pytest.raises(VerificationException) as e:
        wrong.verify_and_decode_signed_transaction(jws)
    assert e.value.status == VerificationStatus.INVALID_APP_IDENTIFIER
    with pytest.raises(VerificationException) as e:
        wrong.verify_and_decode_app_transaction(body["signedAppTransaction"])
    assert e.value.status == VerificationStatus.INVALID_APP_IDENTIFIER


def test_wrong_environment_is_rejected(catalog_app):
    customer = new_customer()
    body = catalog_app.store.buy(catalog_app.bundle_id, SUB_WITH_TRIAL, customer)
    apptx = ok_json(catalog_app.store.app_transaction(catalog_app.bundle_id, customer))
    wrong = catalog_app.verifier_for(environment=catalog_app.other_environment, app_apple_id=catalog_app.app_apple_id)
    for verify, jws in ((wrong.verify_and_decode_signed_transaction, body["signedTransaction"]),
                        (wrong.verify_and_decode_renewal_info, body["signedRenewalInfo"]),
                        (wrong.verify_and_decode_app_transaction, apptx["signedAppTransaction"])):
        with pytest.raises(VerificationException) as e:
            verify(jws)
        expected = {VerificationStatus.INVALID_ENVIRONMENT}
        if verify == wrong.verify_and_decode_app_transaction and "appAppleId" not in jws_parts(jws)[1]:
            # A Production verifier checks appAppleId before the environment; a Sandbox app
            # transaction may leave appAppleId out.
            expected.add(VerificationStatus.INVALID_APP_IDENTIFIER)
        assert e.value.status in expected, verify.__name__


def test_wrong_app_apple_id_is_rejected_in_production(prod_app):
    customer = new_customer()
    prod_app.store.buy(prod_app.bundle_id, NON_CONSUMABLE, customer)
    body = ok_json(prod_app.store.app_transaction(prod_app.bundle_id, customer))
    wrong = prod_app.verifier_for(app_apple_id=prod_app.app_apple_id + 1)
    with pytest.raises(VerificationException) as e:
        wrong.verify_and_decode_app_transaction(body["signedAppTransaction"])
    assert e.value.status == VerificationStatus.INVALID_APP_IDENTIFIER


def test_tampered_payload_is_rejected(sandbox_app):
    body = sandbox_app.store.buy(sandbox_app.bundle_id, CONSUMABLE, new_customer())
    header, payload, signature = body["signedTransaction"].split(".")
    claims = body["transaction"] | {"quantity": 10}
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    with pytest.raises(VerificationException) as e:
        sandbox_app.verifier.verify_and_decode_signed_transaction(f"{header}.{forged}.{signature}")
    assert e.value.status == VerificationStatus.VERIFICATION_FAILURE


def test_foreign_root_is_rejected(sandbox_app):
    body = sandbox_app.store.buy(sandbox_app.bundle_id, CONSUMABLE, new_customer())
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Someone else's root")])
    now = dt.datetime.now(dt.timezone.utc)
    foreign = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
               .not_valid_after(now + dt.timedelta(days=365))
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .sign(key, hashes.SHA256()))
    verifier = make_verifier(foreign.public_bytes(Encoding.DER), sandbox_app.bundle_id, Environment.SANDBOX)
    with pytest.raises(VerificationException) as e:
        verifier.verify_and_decode_signed_transaction(body["signedTransaction"])
    assert e.value.status == VerificationStatus.VERIFICATION_FAILURE


def test_production_verifier_requires_app_apple_id(prod_app):
    with pytest.raises(ValueError):
        make_verifier(prod_app.root_der, prod_app.bundle_id, Environment.PRODUCTION, None)


# -- the app transaction: WWDC22 Food Truck's business-model change ---------------------------

def _version_tuple(v):
    return tuple(int(p) for p in v.split("."))


@pytest.mark.parametrize("paid", [True, False], ids=["bought-2.5", "downloaded-free-8.2"])
def test_app_transaction_original_version_round_trips(paid, food_truck, catalog_app):
    for app in (food_truck, catalog_app):
        customer = new_customer("foodtruck")
        ok_json(app.store.put_customer(customer))
        original = "2.5" if paid else "8.2"
        original_date = int(dt.datetime(2021, 3, 1, 12, tzinfo=dt.timezone.utc).timestamp() * 1000) if paid else None
        fields = {"originalApplicationVersion": original, "applicationVersion": "8.2"}
        if original_date is not None:
            fields["originalPurchaseDate"] = original_date
        for body in (ok_json(app.store.put_app_transaction(app.bundle_id, customer, **fields)),
                     ok_json(app.store.app_transaction(app.bundle_id, customer))):
            apptx = check_app_transaction(app, body)
            assert apptx.originalApplicationVersion == original
            assert apptx.applicationVersion == "8.2"
            if original_date is not None:
                assert apptx.originalPurchaseDate == original_date
            # What the Food Truck app does with it: versions before 8.0 were paid.
            assert (_version_tuple(apptx.originalApplicationVersion) < (8, 0)) == paid


# -- the demo apps (no --catalog) ---------------------------------------------------------------
# Product IDs and offers come from the store's own listing; test_device_api.test_demo_catalogs pins
# the listing itself to the embedded catalogs (Sources/StoreModel/Demo).

def listing(app):
    """The app's products as the device API lists them, by product ID."""
    return {p["id"]: p for p in ok_json(app.store.products(app.bundle_id))["products"]}


def pass_of_level(app, level):
    """The Backyard Birds Pass product at `level` (1 = Premium … 3 = Individual)."""
    found = [p for p in listing(app).values()
             if p["type"] == "Auto-Renewable" and p["subscription"]["groupLevel"] == level]
    assert len(found) == 1, found
    return found[0]


def consumables(app):
    return sorted((p for p in listing(app).values() if p["type"] == "Consumable"), key=lambda p: p["id"])


BB_GROUP = "BB0PASS1"
FT_GROUP = "F7E50C1A"


def test_backyard_birds_consumable(backyard_birds):
    for product in consumables(backyard_birds):
        buy_and_check(backyard_birds, product["id"], quantity=2, token=str(uuid.uuid4()))


@pytest.mark.parametrize("level,name,trial", [(1, "Premium", "P1M"), (2, "Family", "P1W"), (3, "Individual", "P1W")])
def test_backyard_birds_pass_free_trial(backyard_birds, level, name, trial):
    product = pass_of_level(backyard_birds, level)
    assert product["displayName"] == name
    intro = product["subscription"]["introductoryOffer"]
    assert intro["paymentMode"] == "freeTrial" and intro["price"] == "0"
    _, tx, info = buy_and_check(backyard_birds, product["id"], token=str(uuid.uuid4()))
    assert tx.offerPeriod == trial and tx.price == 0 and tx.subscriptionGroupIdentifier == BB_GROUP
    assert tx.expiresDate == add_period(tx.purchaseDate, trial)
    # After the trial, the pass renews at its full price.
    assert info.renewalPrice == milliunits(product["price"])


def test_backyard_birds_app_transaction(backyard_birds):
    nectar = "com.example.backyardbirds.nectar"
    assert nectar in listing(backyard_birds)
    customer, tx, _ = buy_and_check(backyard_birds, nectar)
    apptx = check_app_transaction(backyard_birds, ok_json(backyard_birds.store.app_transaction(backyard_birds.bundle_id, customer)))
    assert apptx.appTransactionId == tx.appTransactionId


def test_food_truck_annual_history(food_truck):
    history = "com.example.foodtruck.annualhistory"
    assert listing(food_truck)[history]["type"] == "Non-Consumable"
    customer, _, _ = buy_and_check(food_truck, history)
    r = food_truck.store.purchase(food_truck.bundle_id, history, customer)
    assert r.status_code == 409 and r.json()["error"] == "alreadyPurchased"
    entitled = [food_truck.verifier.verify_and_decode_signed_transaction(j).productId
                for j in food_truck.store.signed_list(food_truck.bundle_id, customer, "entitlements")]
    assert entitled == [history]


@pytest.mark.parametrize("plan,mode,price,period", [
    ("monthly", "freeTrial", 0, "P1W"),     # one week free
    ("yearly", "payUpFront", 9990, "P3M"),  # three months for $9.99, paid up front
])
def test_food_truck_social_feed_intro_offers(food_truck, plan, mode, price, period):
    product_id = f"com.example.foodtruck.socialfeedplus.{plan}"
    product = food_truck.store.product(food_truck.bundle_id, product_id)
    assert product["subscription"]["introductoryOffer"]["paymentMode"] == mode
    _, tx, info = buy_and_check(food_truck, product_id, token=str(uuid.uuid4()))
    assert (tx.price, tx.offerPeriod, tx.subscriptionGroupIdentifier) == (price, period, FT_GROUP)
    assert tx.expiresDate == add_period(tx.purchaseDate, period)
    assert info.renewalPrice == milliunits(product["price"]), "renews at the full price"


def test_backyard_birds_intro_offer_once_per_group(backyard_birds, food_truck):
    """The intro offer applies to a customer's first purchase in a group only. While that subscription
    is active, buying the same plan is refused with 409 alreadyPurchased; a higher level is an
    immediate upgrade in the same chain, at full price with no offer; a lower level waits for the
    renewal. Other customers, and other groups, are unaffected."""
    app = backyard_birds
    individual, family, premium = (pass_of_level(app, level) for level in (3, 2, 1))

    # (a) The first purchase in the group gets Individual's one-week free trial.
    customer, first, _ = buy_and_check(app, individual["id"])
    assert first.offerType is not None and first.price == 0 and first.offerPeriod == "P1W"

    # (b) The same plan again: 409, and nothing is recorded.
    assert_error(app.store.purchase(app.bundle_id, individual["id"], customer), 409, "alreadyPurchased")

    # Family is a higher level than Individual: an immediate upgrade, same chain, no intro offer.
    body = app.store.buy(app.bundle_id, family["id"], customer)
    upgraded = app.verifier.verify_and_decode_signed_transaction(body["signedTransaction"])
    assert upgraded.productId == family["id"] and upgraded.originalTransactionId == first.transactionId
    assert upgraded.offerType is None and upgraded.price == 7990
    listed = [app.verifier.verify_and_decode_signed_transaction(j)
              for j in app.store.signed_list(app.bundle_id, customer, "transactions")]
    assert [tx.productId for tx in listed] == [individual["id"], family["id"]]
    assert listed[0].isUpgraded is True
    entitled = [app.verifier.verify_and_decode_signed_transaction(j).productId
                for j in app.store.signed_list(app.bundle_id, customer, "entitlements")]
    assert entitled == [family["id"]]

    # Back down to Individual: nothing new now; the renewal will be for Individual.
    body = app.store.buy(app.bundle_id, individual["id"], customer)
    info = app.verifier.verify_and_decode_renewal_info(body["signedRenewalInfo"])
    assert info.autoRenewProductId == individual["id"] and info.productId == family["id"]
    assert len(app.store.signed_list(app.bundle_id, customer, "transactions")) == 2

    # (c) Another customer still gets the offer: Premium's one-month free trial.
    other, tx, info = buy_and_check(app, premium["id"])
    assert other != customer
    assert tx.offerType is not None and tx.price == 0 and tx.offerPeriod == "P1M"
    assert tx.subscriptionGroupIdentifier == BB_GROUP and int(tx.transactionId) > int(first.transactionId)
    assert info.autoRenewProductId == premium["id"]

    # Eligibility is per group: the same customer still gets Social Feed+'s trial in Food Truck.
    _, truck_tx, _ = buy_and_check(food_truck, "com.example.foodtruck.socialfeedplus.monthly", customer)
    assert truck_tx.offerType is not None and truck_tx.price == 0 and truck_tx.subscriptionGroupIdentifier == FT_GROUP
