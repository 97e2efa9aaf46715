"""Differential test: the backend accepts exactly what Apple's SignedDataVerifier accepts.

A certificate authority made here with `cryptography` (the chain recipe of reference §5.4, so
Apple's verifier in strict mode accepts its genuine data) signs notifications of every kind and
transactions, plus variants: tampered, signed under a foreign root, for another bundle, from the
wrong environment, for another appAppleId (Production), with an expired or not-yet-valid leaf, a
two-certificate chain, no x5c, another algorithm, and a genuine notification carrying a nested
transaction from a foreign root. Each payload goes to Apple's verifier (notifications: the
notification and every nested JWS, as a developer's server must) and to the backend's endpoints;
the verdicts must be equal, and both the accepted and the refused sets must be non-empty.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
import requests
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

from openstore_harness import openstore_bin
from test_backend_support import BackendProcess

SANDBOX_BUNDLE, PROD_BUNDLE, OTHER_BUNDLE = "com.example.diff.sandbox", "com.example.diff.prod", "com.example.other"
APPLE_ID = 1_400_000_014
NOW = dt.datetime.now(dt.timezone.utc)
NOW_MS = int(NOW.timestamp() * 1000)
DER_NULL = b"\x05\x00"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Authority:
    """Root → intermediate → leaf with Apple's marker OIDs (reference §5.4)."""

    def __init__(self, name: str, leaf_from: dt.datetime = NOW - dt.timedelta(days=30),
                 leaf_until: dt.datetime = NOW + dt.timedelta(days=3650)):
        self.root_key = ec.generate_private_key(ec.SECP256R1())
        root_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{name} Root")])
        self.root = self._cert(root_name, root_name, self.root_key.public_key(), self.root_key, ca=True, path_len=None,
                               start=NOW - dt.timedelta(days=365), end=NOW + dt.timedelta(days=7300), issuer_key=None)
        self.intermediate_key = ec.generate_private_key(ec.SECP256R1())
        inter_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{name} Intermediate")])
        self.intermediate = self._cert(inter_name, root_name, self.intermediate_key.public_key(), self.root_key, ca=True,
                                       path_len=0, start=NOW - dt.timedelta(days=365), end=NOW + dt.timedelta(days=7300),
                                       issuer_key=self.root_key, marker="1.2.840.113635.100.6.2.1")
        self.inter_name = inter_name
        self.leaf_key = ec.generate_private_key(ec.SECP256R1())
        self.leaf = self.make_leaf(leaf_from, leaf_until)

    def make_leaf(self, start: dt.datetime, end: dt.datetime) -> x509.Certificate:
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Signing Leaf")])
        return self._cert(name, self.inter_name, self.leaf_key.public_key(), self.intermediate_key, ca=False, path_len=None,
                          start=start, end=end, issuer_key=self.intermediate_key, marker="1.2.840.113635.100.6.11.1")

    @staticmethod
    def _cert(subject, issuer, public_key, signing_key, ca, path_len, start, end, issuer_key, marker=None):
        b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
             .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
             .add_extension(x509.BasicConstraints(ca=ca, path_length=path_len), critical=True)
             .add_extension(x509.KeyUsage(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                                          data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                                          encipher_only=False, decipher_only=False), critical=True)
             .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False))
        if issuer_key is not None:
            b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
        if marker:
            b = b.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(marker), DER_NULL), critical=False)
        return b.sign(signing_key, hashes.SHA256())

    def root_der(self) -> bytes:
        return self.root.public_bytes(serialization.Encoding.DER)

    def sign(self, payload: Dict[str, Any], leaf: Optional[x509.Certificate] = None, header: Optional[Dict] = None,
             chain_length: int = 3) -> str:
        chain = [leaf or self.leaf, self.intermediate, self.root][:chain_length]
        head = header if header is not None else {
            "alg": "ES256", "x5c": [base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode() for c in chain]}
        signing_input = b64url(json.dumps(head).encode()) + "." + b64url(json.dumps(payload).encode())
        der = self.leaf_key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def tamper(jws: str) -> str:
    head, payload, sig = jws.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    body["signedDate"] = body.get("signedDate", NOW_MS) + 1
    return head + "." + b64url(json.dumps(body).encode()) + "." + sig


NOTIFICATION_KINDS = [
    ("SUBSCRIBED", "INITIAL_BUY"), ("SUBSCRIBED", "RESUBSCRIBE"), ("DID_CHANGE_RENEWAL_PREF", "UPGRADE"),
    ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
    ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"), ("OFFER_REDEEMED", "INITIAL_BUY"), ("DID_RENEW", None),
    ("DID_RENEW", "BILLING_RECOVERY"), ("EXPIRED", "VOLUNTARY"), ("EXPIRED", "BILLING_RETRY"),
    ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"), ("DID_FAIL_TO_RENEW", None), ("GRACE_PERIOD_EXPIRED", None),
    ("PRICE_INCREASE", "PENDING"), ("REFUND", None), ("REFUND_DECLINED", None), ("REFUND_REVERSED", None),
    ("CONSUMPTION_REQUEST", None), ("RENEWAL_EXTENDED", None), ("REVOKE", None), ("ONE_TIME_CHARGE", None),
    ("TEST", None), ("RENEWAL_EXTENSION", "SUMMARY"),
]


class Payloads:
    """Builds payloads for one app (bundle, environment) under an authority."""

    def __init__(self, ca: Authority, bundle: str, environment: str):
        self.ca, self.bundle, self.environment = ca, bundle, environment
        self.counter = 0

    def transaction(self, bundle=None, environment=None, one_time=False) -> Dict[str, Any]:
        self.counter += 1
        tid = str(2_000_000_000 + self.counter)
        t = {"transactionId": tid, "originalTransactionId": tid, "bundleId": bundle or self.bundle,
             "productId": "diff.lifetime" if one_time else "diff.monthly", "purchaseDate": NOW_MS - 1000,
             "originalPurchaseDate": NOW_MS - 1000, "quantity": 1, "inAppOwnershipType": "PURCHASED",
             "type": "Non-Consumable" if one_time else "Auto-Renewable Subscription", "signedDate": NOW_MS,
             "environment": environment or self.environment, "transactionReason": "PURCHASE", "storefront": "USA",
             "storefrontId": "143441", "currency": "USD", "price": 4990, "appAccountToken": str(uuid.uuid4())}
        if not one_time:
            t["subscriptionGroupIdentifier"] = "diff"
            t["expiresDate"] = NOW_MS + 30 * 86_400_000
        return t

    def renewal(self, original: str, environment=None) -> Dict[str, Any]:
        return {"originalTransactionId": original, "productId": "diff.monthly", "autoRenewProductId": "diff.monthly",
                "autoRenewStatus": 1, "signedDate": NOW_MS, "environment": environment or self.environment}

    def notification(self, kind: Tuple[str, Optional[str]], bundle=None, environment=None, app_apple_id=APPLE_ID,
                     signer: Optional[Authority] = None, nested_signer: Optional[Authority] = None, **sign_kw) -> str:
        signer = signer or self.ca
        nested = nested_signer or signer
        env = environment or self.environment
        app = {"bundleId": bundle or self.bundle, "environment": env, "appAppleId": app_apple_id}
        ntype, subtype = kind
        body: Dict[str, Any] = {"notificationType": ntype, "notificationUUID": str(uuid.uuid4()), "version": "2.0",
                                "signedDate": NOW_MS}
        if subtype:
            body["subtype"] = subtype
        if ntype == "RENEWAL_EXTENSION":
            body["summary"] = dict(app, requestIdentifier=str(uuid.uuid4()), productId="diff.monthly",
                                   storefrontCountryCodes=["USA"], succeededCount=1, failedCount=0)
        elif ntype == "TEST":
            body["data"] = app
        else:
            one_time = ntype in ("ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED")
            t = self.transaction(bundle=bundle, environment=env, one_time=one_time)
            data = dict(app, signedTransactionInfo=nested.sign(t, **sign_kw))
            if not one_time:
                data["signedRenewalInfo"] = nested.sign(self.renewal(t["originalTransactionId"], environment=env), **sign_kw)
            body["data"] = data
        return signer.sign(body, **sign_kw)


def apple_accepts_notification(verifier: SignedDataVerifier, jws: str) -> bool:
    try:
        n = verifier.verify_and_decode_notification(jws)
        if n.data is not None and n.data.signedTransactionInfo:
            verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo)
        if n.data is not None and n.data.signedRenewalInfo:
            verifier.verify_and_decode_renewal_info(n.data.signedRenewalInfo)
        return True
    except VerificationException:
        return False


def apple_accepts_transaction(verifier: SignedDataVerifier, jws: str) -> bool:
    try:
        verifier.verify_and_decode_signed_transaction(jws)
        return True
    except VerificationException:
        return False


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    folder = tmp_path_factory.mktemp("differential")
    ca = Authority("Trusted")
    (folder / "root.der").write_bytes(ca.root_der())
    config = {"apps": [
        {"bundleId": SANDBOX_BUNDLE, "appAppleId": APPLE_ID, "environments": ["Sandbox"], "trustAppleRoot": False,
         "trustedRootFiles": [str(folder / "root.der")]},
        {"bundleId": PROD_BUNDLE, "appAppleId": APPLE_ID, "environments": ["Production"], "trustAppleRoot": True,
         "trustedRootFiles": [str(folder / "root.der")]},
    ], "reconcileIntervalSeconds": 0}
    (folder / "backend.json").write_text(json.dumps(config))
    backend = BackendProcess(openstore_bin(), folder / "backend", ["--config", str(folder / "backend.json")]).start()
    yield ca, backend
    backend.stop()


def variants(ca: Authority, app: Payloads, production: bool) -> List[Tuple[str, str]]:
    """(label, notification JWS): genuine of every kind, then each way of being wrong."""
    foreign = Authority("Foreign")
    expired_leaf = ca.make_leaf(NOW - dt.timedelta(days=60), NOW - dt.timedelta(days=1))
    future_leaf = ca.make_leaf(NOW + dt.timedelta(days=1), NOW + dt.timedelta(days=60))
    out = [(f"genuine {t}/{s}", app.notification((t, s))) for t, s in NOTIFICATION_KINDS]
    base = ("SUBSCRIBED", "INITIAL_BUY")
    out += [
        ("tampered", tamper(app.notification(base))),
        ("foreign root", app.notification(base, signer=foreign)),
        ("nested transaction from a foreign root", app.notification(base, nested_signer=foreign)),
        ("wrong bundle", app.notification(base, bundle=OTHER_BUNDLE)),
        ("wrong environment", app.notification(base, environment="Sandbox" if production else "Production")),
        ("expired chain", app.notification(base, leaf=expired_leaf)),
        ("leaf not yet valid", app.notification(base, leaf=future_leaf)),
        ("two-certificate chain", app.notification(base, chain_length=2)),
        ("no x5c", app.notification(base, header={"alg": "ES256"})),
        ("other algorithm", app.notification(base, header={"alg": "ES384", "x5c": []})),
        ("other appAppleId", app.notification(base, app_apple_id=APPLE_ID + 1)),
        ("TEST for another bundle", app.notification(("TEST", None), bundle=OTHER_BUNDLE)),
        ("summary from the wrong environment", app.notification(("RENEWAL_EXTENSION", "SUMMARY"),
                                                                 environment="Sandbox" if production else "Production")),
    ]
    return out


@pytest.mark.parametrize("production", [False, True], ids=["Sandbox", "Production"])
def test_backend_accepts_exactly_the_notifications_apples_verifier_accepts(world, production):
    ca, backend = world
    bundle = PROD_BUNDLE if production else SANDBOX_BUNDLE
    env = Environment.PRODUCTION if production else Environment.SANDBOX
    verifier = SignedDataVerifier([ca.root_der()], False, env, bundle, APPLE_ID)
    app = Payloads(ca, bundle, "Production" if production else "Sandbox")
    verdicts = []
    for label, jws in variants(ca, app, production):
        apple = apple_accepts_notification(verifier, jws)
        r = requests.post(f"{backend.base_url}/apple/notifications/{bundle}", json={"signedPayload": jws}, timeout=30)
        assert r.status_code == 200 or 400 <= r.status_code < 500, (label, r.status_code, r.text)
        verdicts.append((label, apple, r.status_code == 200))
    mismatches = [(label, apple, ours) for label, apple, ours in verdicts if apple != ours]
    assert mismatches == [], mismatches
    assert all(ok for label, ok, _ in verdicts if label.startswith("genuine")), verdicts
    refused = {label for label, ok, _ in verdicts if not ok}
    # Every variant is refused, except that Apple checks the appAppleId only in Production.
    expected = {label for label, _, _ in verdicts if not label.startswith("genuine")}
    assert refused == (expected if production else expected - {"other appAppleId"}), verdicts
    assert backend.proc.poll() is None  # still running after all of it


@pytest.mark.parametrize("production", [False, True], ids=["Sandbox", "Production"])
def test_backend_accepts_exactly_the_transactions_apples_verifier_accepts(world, production):
    ca, backend = world
    bundle = PROD_BUNDLE if production else SANDBOX_BUNDLE
    env_name = "Production" if production else "Sandbox"
    env = Environment.PRODUCTION if production else Environment.SANDBOX
    verifier = SignedDataVerifier([ca.root_der()], False, env, bundle, APPLE_ID)
    app = Payloads(ca, bundle, env_name)
    foreign = Authority("Foreign")
    expired_leaf = ca.make_leaf(NOW - dt.timedelta(days=60), NOW - dt.timedelta(days=1))
    cases = [
        ("genuine subscription", ca.sign(app.transaction())),
        ("genuine one-time purchase", ca.sign(app.transaction(one_time=True))),
        ("tampered", tamper(ca.sign(app.transaction()))),
        ("foreign root", foreign.sign(app.transaction())),
        ("wrong bundle", ca.sign(app.transaction(bundle=OTHER_BUNDLE))),
        ("wrong environment", ca.sign(app.transaction(environment="Sandbox" if production else "Production"))),
        ("expired chain", ca.sign(app.transaction(), leaf=expired_leaf)),
        ("two-certificate chain", ca.sign(app.transaction(), chain_length=2)),
    ]
    verdicts = []
    for label, jws in cases:
        apple = apple_accepts_transaction(verifier, jws)
        r = requests.post(f"{backend.base_url}/v1/customers/user-{uuid.uuid4().hex[:6]}/transactions",
                          json={"signedTransaction": jws}, timeout=30)
        assert r.status_code == 200 or 400 <= r.status_code < 500, (label, r.status_code, r.text)
        verdicts.append((label, apple, r.status_code == 200))
    assert [v for v in verdicts if v[1] != v[2]] == []
    assert [label for label, ok, _ in verdicts if ok] == ["genuine subscription", "genuine one-time purchase"]


def test_refused_data_is_stored_nowhere_and_logged(world):
    ca, backend = world
    foreign = Authority("Foreign")
    app = Payloads(foreign, SANDBOX_BUNDLE, "Sandbox")
    token = str(uuid.uuid4())
    t = app.transaction()
    t["appAccountToken"] = token
    jws = foreign.sign({"notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": str(uuid.uuid4()),
                        "signedDate": NOW_MS, "data": {"bundleId": SANDBOX_BUNDLE, "environment": "Sandbox",
                                                        "signedTransactionInfo": foreign.sign(t)}})
    before = len(backend.get("/v1/admin/rejections").json()["rejections"])
    r = requests.post(f"{backend.base_url}/apple/notifications/{SANDBOX_BUNDLE}", json={"signedPayload": jws}, timeout=30)
    assert r.status_code == 403 and r.json()["error"] == "verificationFailed"
    assert backend.get(f"/v1/customers/{token}").status_code == 404
    assert all(e["appUserId"] != token for e in backend.get("/v1/events?limit=1000").json()["events"])
    rejections = backend.get("/v1/admin/rejections").json()["rejections"]
    assert len(rejections) == before + 1 and rejections[-1]["reason"] == "verificationFailed"
    assert jws not in json.dumps(rejections)
    # Unknown bundle in the path, and a body that is not a notification: 4xx, the backend keeps running.
    assert requests.post(f"{backend.base_url}/apple/notifications/com.unknown", json={"signedPayload": jws}, timeout=30).status_code == 403
    assert requests.post(f"{backend.base_url}/apple/notifications/{SANDBOX_BUNDLE}", data=b"\xff{", timeout=30).status_code == 400
    assert backend.get("/healthz").status_code == 200
