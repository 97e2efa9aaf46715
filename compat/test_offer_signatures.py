"""Offers signed by the developer's server with Apple's own library (app-store-server-library
3.1.2), redeemed through the device API as StoreKit's purchase options send them (issue #28):

* `PromotionalOfferV2SignatureCreator` → `promotionalOffer(_:compactJWS:)` (`promotionalOfferJWS`);
* `IntroductoryOfferEligibilitySignatureCreator` → `introductoryOfferEligibility(compactJWS:)`
  (`introductoryOfferEligibilityJWS`): the store verifies it with the app's key and applies its
  verdict, overriding the never-subscribed rule; a replayed, foreign or mismatched one is refused
  with StoreKit's `invalidOfferSignature`.
"""
from pathlib import Path

import pytest
import requests
from appstoreserverlibrary.jws_signature_creator import (
    IntroductoryOfferEligibilitySignatureCreator,
    PromotionalOfferV2SignatureCreator,
)
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import BACKYARD_BIRDS
from openstore_harness import assert_error, create_key, jws_parts, new_customer, ok_json

pytestmark = pytest.mark.demo

PREMIUM = "com.example.backyardbirds.pass.premium"
LOYALTY = "com.example.backyardbirds.pass.premium.loyalty"


@pytest.fixture(scope="module")
def key(demo_server, tmp_path_factory):
    return create_key(demo_server, tmp_path_factory.mktemp("offer-keys"), BACKYARD_BIRDS)


def _p8(key) -> bytes:
    return Path(key["privateKeyFile"]).read_bytes()


def _buy(store, customer, **extra) -> requests.Response:
    return store.purchase(BACKYARD_BIRDS, PREMIUM, customer, **extra)


def _transaction(response: requests.Response) -> dict:
    body = ok_json(response)
    return jws_parts(body["signedTransaction"])[1]


def _lapsed_subscriber(store, demo_server) -> tuple:
    """A customer whose first Premium subscription (with its free trial) has expired."""
    customer = new_customer("offers")
    first = _transaction(_buy(store, customer))
    assert first.get("offerType") == 1, first
    r = requests.post(f"{demo_server.base_url}/admin/v1/worlds/default/transactions/{first['transactionId']}/expire", timeout=60)
    assert r.status_code == 200, r.text
    return customer, first


def test_a_promotional_offer_signed_by_apples_v2_creator_is_redeemed(demo_store, demo_server, key):
    customer, first = _lapsed_subscriber(demo_store, demo_server)
    creator = PromotionalOfferV2SignatureCreator(_p8(key), key["keyId"], key["issuerId"], BACKYARD_BIRDS)
    jws = creator.create_signature(PREMIUM, LOYALTY, first["originalTransactionId"])
    promoted = _transaction(_buy(demo_store, customer, promotionalOfferJWS=jws))
    assert promoted["offerType"] == 2 and promoted["offerIdentifier"] == LOYALTY, promoted
    assert promoted["originalTransactionId"] == first["originalTransactionId"]


def test_apples_intro_eligibility_verdict_grants_a_lapsed_subscriber_another_trial(demo_store, demo_server, key):
    customer, first = _lapsed_subscriber(demo_store, demo_server)
    # Without a verdict, Apple's rule: no second trial.
    plain = _transaction(_buy(demo_store, new_customer("control")))
    assert plain.get("offerType") == 1  # a new customer's first subscription has it
    creator = IntroductoryOfferEligibilitySignatureCreator(_p8(key), key["keyId"], key["issuerId"], BACKYARD_BIRDS)
    jws = creator.create_signature(PREMIUM, True, first["transactionId"])
    granted = _transaction(_buy(demo_store, customer, introductoryOfferEligibilityJWS=jws))
    assert granted["offerType"] == 1 and granted["offerDiscountType"] == "FREE_TRIAL", granted
    # The same JWS again: its nonce was used.
    requests.post(f"{demo_server.base_url}/admin/v1/worlds/default/transactions/{granted['transactionId']}/expire", timeout=60)
    assert_error(_buy(demo_store, customer, introductoryOfferEligibilityJWS=jws), 422, "invalidOfferSignature")


def test_apples_intro_eligibility_verdict_can_refuse_a_new_customer_the_trial(demo_store, key):
    customer = new_customer("refused")
    ok_json(demo_store.put_customer(customer))
    app_transaction = ok_json(demo_store.app_transaction(BACKYARD_BIRDS, customer))
    app_transaction_id = jws_parts(app_transaction["signedAppTransaction"])[1]["appTransactionId"]
    creator = IntroductoryOfferEligibilitySignatureCreator(_p8(key), key["keyId"], key["issuerId"], BACKYARD_BIRDS)
    bought = _transaction(_buy(demo_store, customer, introductoryOfferEligibilityJWS=creator.create_signature(PREMIUM, False, app_transaction_id)))
    assert "offerType" not in bought, bought


def test_a_bad_intro_eligibility_verdict_is_refused(demo_store, key):
    customer = new_customer("bad")
    ok_json(demo_store.put_customer(customer))
    app_transaction = ok_json(demo_store.app_transaction(BACKYARD_BIRDS, customer))
    app_transaction_id = jws_parts(app_transaction["signedAppTransaction"])[1]["appTransactionId"]
    stranger_pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    stranger = IntroductoryOfferEligibilitySignatureCreator(stranger_pem, "ZZZZZZZZZZ", key["issuerId"], BACKYARD_BIRDS)
    ours = IntroductoryOfferEligibilitySignatureCreator(_p8(key), key["keyId"], key["issuerId"], BACKYARD_BIRDS)
    for jws in (
        stranger.create_signature(PREMIUM, True, app_transaction_id),            # a key the store does not know
        ours.create_signature("com.example.backyardbirds.pass.family", True, app_transaction_id),  # another product
        ours.create_signature(PREMIUM, True, "1999999999"),                       # not this customer's
    ):
        assert_error(_buy(demo_store, customer, introductoryOfferEligibilityJWS=jws), 422, "invalidOfferSignature")
