"""Shared expectations: what a signed transaction, renewal info and app transaction must look like.

Each function verifies with Apple's `SignedDataVerifier` first (strict chain checks, offline), then
compares the decoded fields with what the purchase asked for and with the catalog.
"""

from __future__ import annotations

import base64
from typing import Any, Dict, Optional

from appstoreserverlibrary.models.AppTransaction import AppTransaction
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.JWSRenewalInfoDecodedPayload import JWSRenewalInfoDecodedPayload
from appstoreserverlibrary.models.JWSTransactionDecodedPayload import JWSTransactionDecodedPayload
from appstoreserverlibrary.models.OfferDiscountType import OfferDiscountType
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.TransactionReason import TransactionReason
from appstoreserverlibrary.models.Type import Type

from openstore_harness import add_period, jws_parts, milliunits, period_iso

# Device-API product type → Apple's JWS `type`.
JWS_TYPE = {
    "Consumable": Type.CONSUMABLE,
    "Non-Consumable": Type.NON_CONSUMABLE,
    "Non-Renewable": Type.NON_RENEWING_SUBSCRIPTION,
    "Auto-Renewable": Type.AUTO_RENEWABLE_SUBSCRIPTION,
}
DISCOUNT_TYPE = {
    "freeTrial": OfferDiscountType.FREE_TRIAL,
    "payAsYouGo": OfferDiscountType.PAY_AS_YOU_GO,
    "payUpFront": OfferDiscountType.PAY_UP_FRONT,
}
STOREFRONT_IDS = {"USA": "143441", "FRA": "143442", "GBR": "143444", "DEU": "143443", "JPN": "143462", "CAN": "143455"}
CLOCK_SLACK_MS = 5_000
# Registered JWT claims that make PyJWT reject a payload (reference §5.2 step 7).
FORBIDDEN_CLAIMS = {"aud", "exp", "nbf"}


def check_jws_header(jws: str, root_der: bytes) -> Dict[str, Any]:
    """ES256 with a three-certificate x5c chain in standard padded base64, root last (reference §5.4)."""
    header, payload = jws_parts(jws)
    assert header.get("alg") == "ES256", header
    x5c = header.get("x5c")
    assert isinstance(x5c, list) and len(x5c) == 3, header
    ders = [base64.b64decode(c, validate=True) for c in x5c]
    assert ders[2] == root_der, "x5c[2] is not the store's root certificate"
    assert not FORBIDDEN_CLAIMS & payload.keys(), f"payload carries {FORBIDDEN_CLAIMS & payload.keys()}"
    return payload


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_raw_transaction_types(raw: Dict[str, Any]) -> None:
    """JSON types Apple's clients rely on: IDs are decimal strings, dates/price/quantity integers (reference §4)."""
    for key in ("transactionId", "originalTransactionId", "appTransactionId"):
        assert isinstance(raw.get(key), str) and raw[key].isdigit(), f"{key}={raw.get(key)!r} must be a decimal string"
    for key in ("webOrderLineItemId", "storefrontId", "subscriptionGroupIdentifier", "offerIdentifier"):
        if key in raw:
            assert isinstance(raw[key], str), f"{key}={raw[key]!r} must be a string"
    for key in ("purchaseDate", "originalPurchaseDate", "signedDate", "expiresDate", "revocationDate", "quantity",
                "price", "offerType"):
        if key in raw:
            assert _is_int(raw[key]), f"{key}={raw[key]!r} must be an integer"
    for key, value in raw.items():
        assert value is not None, f"{key} is null; optional fields must be omitted"


def check_transaction(app, jws: str, *, product: Dict[str, Any], quantity: int = 1, token: Optional[str] = None,
                      storefront: str = "USA", t0: Optional[int] = None, t1: Optional[int] = None,
                      first_purchase: bool = True) -> JWSTransactionDecodedPayload:
    """Verify `jws` with Apple's verifier for `app` and check it records buying `product`."""
    tx = app.verifier.verify_and_decode_signed_transaction(jws)
    raw = check_jws_header(jws, app.root_der)
    check_raw_transaction_types(raw)

    assert tx.bundleId == app.bundle_id
    assert tx.environment == app.environment and tx.rawEnvironment == app.environment.value
    assert tx.productId == product["id"]
    assert tx.type == JWS_TYPE[product["type"]], (tx.rawType, product["type"])
    assert tx.quantity == quantity
    assert tx.inAppOwnershipType == InAppOwnershipType.PURCHASED
    assert tx.transactionReason == TransactionReason.PURCHASE
    assert tx.storefront == storefront
    assert tx.storefrontId == STOREFRONT_IDS[storefront]
    assert tx.currency == product["currency"]
    if token is None:
        assert "appAccountToken" not in raw
    else:
        assert tx.appAccountToken == token
    if first_purchase:
        assert tx.originalTransactionId == tx.transactionId
        assert tx.originalPurchaseDate == tx.purchaseDate
    if t0 is not None and t1 is not None:
        assert t0 - CLOCK_SLACK_MS <= tx.purchaseDate <= t1 + CLOCK_SLACK_MS, (t0, tx.purchaseDate, t1)
        assert tx.purchaseDate <= tx.signedDate <= t1 + CLOCK_SLACK_MS, (tx.purchaseDate, tx.signedDate, t1)
    assert tx.revocationDate is None and tx.revocationReason is None

    unit = milliunits(product["price"])
    subscription = product.get("subscription")
    if product["type"] == "Auto-Renewable":
        assert subscription, product
        assert tx.subscriptionGroupIdentifier == subscription["subscriptionGroupID"]
        assert tx.webOrderLineItemId and tx.webOrderLineItemId.isdigit()
        intro = subscription.get("introductoryOffer") if first_purchase else None
        if intro is None:
            assert tx.offerType is None and tx.offerDiscountType is None and tx.offerPeriod is None
            assert tx.price == unit
            assert tx.expiresDate == add_period(tx.purchaseDate, period_iso(subscription["subscriptionPeriod"]))
        else:
            check_intro_offer(tx, intro)
    else:
        # Neither one-time purchases nor non-renewing subscriptions carry expiresDate: the app decides
        # how long a non-renewing subscription lasts (reference §4.1: "expiresDate: auto-renewables").
        assert "expiresDate" not in raw and tx.expiresDate is None, raw
        assert tx.subscriptionGroupIdentifier is None and tx.offerType is None and tx.offerDiscountType is None
        # `price` for quantity > 1 is not pinned down by Apple's docs: accept the unit or the total price.
        assert tx.price in {unit, unit * quantity}, (tx.price, unit, quantity)
        if quantity == 1:
            assert tx.price == unit
    return tx


def check_intro_offer(tx: JWSTransactionDecodedPayload, intro: Dict[str, Any]) -> None:
    """Introductory offer applied on the first purchase of a group (offerType 1)."""
    mode = intro["paymentMode"]
    assert tx.offerType == OfferType.INTRODUCTORY_OFFER, tx.rawOfferType
    assert tx.offerDiscountType == DISCOUNT_TYPE[mode], tx.rawOfferDiscountType
    whole = period_iso(intro["period"], intro["periodCount"])
    one = period_iso(intro["period"])
    assert tx.price == milliunits(intro["price"])
    if mode == "freeTrial":
        assert tx.price == 0
    if mode == "payAsYouGo":
        # Each discounted period is billed (and renews) on its own: the first period ends after one period.
        # Apple's docs do not say whether offerPeriod names one period or all of them.
        assert tx.offerPeriod in {whole, one}, tx.offerPeriod
        assert tx.expiresDate == add_period(tx.purchaseDate, intro_period_for(intro, count=1))
    else:
        assert tx.offerPeriod == whole, tx.offerPeriod
        assert tx.expiresDate == add_period(tx.purchaseDate, whole)


def intro_period_for(intro: Dict[str, Any], count: int) -> str:
    return period_iso(intro["period"], count)


def check_renewal_info(app, jws: str, tx: JWSTransactionDecodedPayload, product: Dict[str, Any],
                       token: Optional[str] = None) -> JWSRenewalInfoDecodedPayload:
    info = app.verifier.verify_and_decode_renewal_info(jws)
    raw = check_jws_header(jws, app.root_der)
    for key in ("signedDate", "renewalDate", "recentSubscriptionStartDate", "renewalPrice", "autoRenewStatus"):
        if key in raw:
            assert _is_int(raw[key]), f"{key}={raw[key]!r} must be an integer"
    assert info.environment == app.environment
    assert info.originalTransactionId == tx.originalTransactionId
    assert info.productId == product["id"]
    assert info.autoRenewProductId == product["id"]
    assert info.autoRenewStatus == AutoRenewStatus.ON
    assert _is_int(raw.get("signedDate"))
    # Apple sends these for every auto-renewing subscription (reference §4.2): required, not "checked if present".
    for key in ("renewalDate", "recentSubscriptionStartDate", "currency", "renewalPrice", "appTransactionId"):
        assert key in raw, f"renewal info lacks {key}: {sorted(raw)}"
    assert info.renewalDate == tx.expiresDate
    assert info.recentSubscriptionStartDate == tx.purchaseDate
    assert info.currency == product["currency"]
    intro = (product.get("subscription") or {}).get("introductoryOffer")
    if intro is not None and intro["paymentMode"] == "payAsYouGo":
        assert info.renewalPrice == milliunits(intro["price"]), "pay as you go: the next period is billed at the offer price"
    else:
        assert info.renewalPrice == milliunits(product["price"]), "the next renewal is billed at the full price"
    if token is None:
        assert "appAccountToken" not in raw, raw
    else:
        assert info.appAccountToken == token
    assert info.appTransactionId == tx.appTransactionId
    return info


def check_app_transaction(app, body: Dict[str, Any]) -> AppTransaction:
    jws = body["signedAppTransaction"]
    apptx = app.verifier.verify_and_decode_app_transaction(jws)
    header, raw = jws_parts(jws)
    check_jws_header(jws, app.root_der)
    assert body["appTransaction"] == raw, "the decoded copy must equal the signed payload"
    assert apptx.bundleId == app.bundle_id
    assert apptx.receiptType == app.environment
    if "appAppleId" in raw or apptx.receiptType.value == "Production":
        assert apptx.appAppleId == app.app_apple_id
    assert isinstance(raw.get("appTransactionId"), str) and raw["appTransactionId"].isdigit(), raw
    for key in ("receiptCreationDate", "originalPurchaseDate", "requestDate", "signedDate", "preorderDate"):
        if key in raw:
            assert _is_int(raw[key]), f"{key}={raw[key]!r} must be an integer"
    assert isinstance(apptx.applicationVersion, str) and apptx.applicationVersion
    assert isinstance(apptx.originalApplicationVersion, str) and apptx.originalApplicationVersion
    return apptx
