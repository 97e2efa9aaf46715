"""Who gets in: the Server API's token matrix, the admin API and dashboard off loopback, and
store-page and dashboard forms posted from another site."""

from __future__ import annotations

import base64
import json
import time
import uuid
from typing import Callable, Dict, List, Tuple

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from harness import (
    BUNDLE, LIFETIME, OTHER_BUNDLE, Size, Workspace, create_key, expect, jws_payload, make_world,
    non_loopback_ipv4, token,
)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hand_made(header: Dict, claims: Dict, signature: bytes = b"") -> str:
    return f"{b64(json.dumps(header).encode())}.{b64(json.dumps(claims).encode())}.{b64(signature)}"


def run(size: Size):
    with Workspace("auth") as ws:
        store = ws.server().start()
        key = create_key(store, ws.root)
        other_app_key = create_key(store, ws.root, bundle_id=OTHER_BUNDLE)
        make_world(store, "elsewhere")
        other_world_key = create_key(store, ws.root, world="elsewhere")
        make_world(store, "doomed")
        doomed_key = create_key(store, ws.root, world="doomed")
        revoked_key = create_key(store, ws.root)

        bought = store.post(f"/storekit/v1/apps/{BUNDLE}/purchases", {"productId": LIFETIME, "customer": "auth-a"})
        expect(bought.status_code == 200, f"purchase: {bought.status_code} {bought.text}")
        tid = bought.json()["transaction"]["transactionId"]
        other = store.post(f"/storekit/v1/apps/{OTHER_BUNDLE}/purchases", {"productId": LIFETIME, "customer": "auth-b"})
        expect(other.status_code == 200, f"purchase: {other.status_code} {other.text}")
        other_tid = other.json()["transaction"]["transactionId"]

        # The tokens of the keys revoked / deleted below are made while the keys are still good.
        revoked_token = token(revoked_key)
        doomed_token = token(doomed_key)
        expect(store.get(f"/inApps/v1/transactions/{tid}", headers={"Authorization": f"Bearer {revoked_token}"}).status_code == 200,
               "the key to be revoked must work before it is revoked")
        r = store.post("/manage/actions", data={"action": "revoke-key", "keyId": revoked_key.key_id, "world": "default",
                                                "confirmed": "yes"})
        expect(r.status_code in (200, 303), f"revoking a key on /manage: {r.status_code} {r.text[:300]}")
        r = requests.delete(f"{store.base_url}/admin/v1/worlds/doomed", timeout=60)
        expect(r.status_code in (200, 204), f"deleting world doomed: {r.status_code} {r.text[:300]}")

        stranger = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        public_pem = serialization.load_pem_private_key(key.p8, None).public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        now = int(time.time())
        good = token(key)
        h, c, s = good.split(".")
        claims = jws_payload(good)
        import hmac
        import hashlib
        hs_head = b64(json.dumps({"alg": "HS256", "kid": key.key_id, "typ": "JWT"}).encode())
        hs_sig = b64(hmac.new(public_pem, f"{hs_head}.{c}".encode(), hashlib.sha256).digest())
        tampered = dict(claims, bid=OTHER_BUNDLE)

        # name → Authorization header value (None: no header at all).
        cases: List[Tuple[str, object]] = [
            ("no token", None),
            ("empty bearer", "Bearer "),
            ("Basic scheme", "Basic " + base64.b64encode(b"user:pass").decode()),
            ("malformed x.y.z", "Bearer x.y.z"),
            ("one segment", "Bearer " + h),
            ("alg none", "Bearer " + hand_made({"alg": "none", "kid": key.key_id, "typ": "JWT"}, claims)),
            ("HS256 with the public key as secret", f"Bearer {hs_head}.{c}.{hs_sig}"),
            ("unknown key ID", "Bearer " + token(key, _kid="ZZZZZZZZZZ")),
            ("key ID of 200 chars", "Bearer " + token(key, _kid="K" * 200)),
            ("wrong issuer", "Bearer " + token(key, iss=str(uuid.uuid4()))),
            ("wrong audience", "Bearer " + token(key, aud="appstoreconnect-v2")),
            ("wrong bundle ID", "Bearer " + token(key, bid=OTHER_BUNDLE)),
            ("no exp", "Bearer " + token(key, exp=None)),
            ("expired", "Bearer " + token(key, iat=now - 7200, exp=now - 3600)),
            ("iat in the future", "Bearer " + token(key, iat=now + 3600, exp=now + 3900)),
            ("lifetime over 60 minutes", "Bearer " + token(key, iat=now, exp=now + 2 * 3600)),
            ("signed by another key", "Bearer " + token(key, _key=stranger)),
            ("payload changed after signing", "Bearer " + ".".join([h, b64(json.dumps(tampered).encode()), s])),
            ("signature truncated", "Bearer " + ".".join([h, c, s[:-8]])),
            ("key revoked after issue", "Bearer " + revoked_token),
            ("key of a deleted world", "Bearer " + doomed_token),  # regression: answered 404 before the gateway checked the world
            ("app B's key claiming app A", "Bearer " + token(other_app_key, bid=BUNDLE)),
        ]
        endpoints = [
            ("GET", f"/inApps/v1/transactions/{tid}", None),
            ("GET", f"/inApps/v2/history/{tid}", None),
            ("GET", f"/inApps/v1/subscriptions/{tid}", None),
            ("POST", "/inApps/v1/notifications/test", None),
            ("PUT", f"/inApps/v1/transactions/{tid}/appAccountToken", {"appAccountToken": str(uuid.uuid4())}),
        ]
        refused = 0
        for name, header in cases:
            for method, path, body in endpoints:
                headers = {} if header is None else {"Authorization": header}
                r = requests.request(method, store.base_url + path, json=body, headers=headers, timeout=60)
                expect(r.status_code == 401, f"{name}: {method} {path} answered {r.status_code} {r.text[:200]!r}, want 401")
                expect(r.headers.get("Content-Type", "").startswith("text/plain") and r.text.startswith("Unauthenticated"),
                       f"{name}: {method} {path}: the 401 body is not Apple's plain-text 'Unauthenticated…': {r.text[:100]!r}")
                refused += 1
        # The same requests with the good token succeed, so the 401s above were the tokens' doing.
        for method, path, body in endpoints[:3]:
            r = requests.request(method, store.base_url + path, json=body, headers={"Authorization": f"Bearer {good}"}, timeout=60)
            expect(r.status_code == 200, f"valid token: {method} {path} answered {r.status_code} {r.text[:200]}")
        yield (f"auth-matrix: {len(cases)} kinds of bad token × {len(endpoints)} Server API endpoints = {refused} requests; "
               f"{refused}× 401 with Apple's plain 'Unauthenticated' body, 0× 2xx, 0× 5xx; the valid token gets 200 "
               "— promise: only an unexpired, correctly signed ES256 token of a live key of the app opens the Server API")

        # Valid keys that look at what is not theirs: Apple's answer is 404 TransactionIdNotFound, never the data.
        scoped = 0
        for name, k, transaction in [("app B's key on app A's transaction", other_app_key, tid),
                                     ("app A's key on app B's transaction", key, other_tid),
                                     ("another world's key", other_world_key, tid)]:
            r = requests.get(f"{store.base_url}/inApps/v1/transactions/{transaction}",
                             headers={"Authorization": f"Bearer {token(k)}"}, timeout=60)
            expect(r.status_code == 404 and r.json().get("errorCode") == 4040010,
                   f"{name}: {r.status_code} {r.text[:200]}, want 404 errorCode 4040010")
            scoped += 1
        yield (f"auth-scope: {scoped} valid keys asking for another app's or world's transaction; {scoped}× 404 4040010, "
               "0 payloads leaked — promise: a key sees its own app in its own world only")
        store.stop()

        yield from off_loopback(ws)
        yield from cross_site(ws)


def off_loopback(ws: Workspace):
    address = non_loopback_ipv4()
    expect(address is not None, "this machine has no non-loopback IPv4 address to reach the store from")
    routes = [("GET", "/admin/v1/worlds"), ("POST", "/admin/v1/worlds/default/time/advance"), ("GET", "/manage"),
              ("GET", "/manage/keys"), ("POST", "/manage/actions")]
    tried = 0
    # Without a token: bound to every address on purpose, yet the admin surfaces answer loopback only.
    open_store = ws.server("open", extra=["--host", "0.0.0.0"]).start()
    outside = f"http://{address}:{open_store.port}"
    for method, path in routes:
        r = requests.request(method, outside + path, json={"duration": "1d"}, data=None, timeout=60, allow_redirects=False)
        expect(r.status_code == 403, f"{method} {path} from {address} without --admin-token: {r.status_code}, want 403")
        tried += 1
    r = requests.get(outside + "/storekit/v1/apps", timeout=60)
    expect(r.status_code == 200, f"the device API from {address}: {r.status_code}")
    r = requests.get(f"{open_store.base_url}/admin/v1/worlds", timeout=60)
    expect(r.status_code == 200, f"the admin API from loopback: {r.status_code}")
    open_store.stop()

    secret = "s3cret-" + uuid.uuid4().hex
    guarded = ws.server("guarded", extra=["--host", "0.0.0.0", "--admin-token", secret]).start()
    outside = f"http://{address}:{guarded.port}"
    for base in (outside, guarded.base_url):
        for method, path in routes:
            for header in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": secret}):
                r = requests.request(method, base + path, json={"duration": "1d"}, headers=header, timeout=60, allow_redirects=False)
                if path.startswith("/admin"):
                    expect(r.status_code == 401, f"{method} {base}{path} with {header or 'no header'}: {r.status_code}, want 401")
                elif method == "GET":
                    expect(r.status_code == 303 and "/manage/login" in r.headers.get("Location", ""),
                           f"{method} {base}{path} with {header or 'no header'}: {r.status_code}, want 303 to /manage/login")
                else:
                    expect(r.status_code == 401, f"{method} {base}{path}: {r.status_code}, want 401")
                tried += 1
    r = requests.get(outside + "/admin/v1/worlds", headers={"Authorization": f"Bearer {secret}"}, timeout=60)
    expect(r.status_code == 200, f"the admin API with the token from {address}: {r.status_code}")
    guarded.stop()
    yield (f"admin-off-loopback: {tried} admin and /manage requests from {address} (no token: 403; with --admin-token, "
           "no/wrong/unprefixed token from anywhere: 401 or sign-in) — 0 let in — promise: the Transaction Manager "
           "answers loopback only unless started with a token, and then only to the token")


def cross_site(ws: Workspace):
    demo = ws.server("demo", apps=()).start()
    pages = demo.get("/store")
    expect(pages.status_code == 200, f"/store: {pages.status_code}")
    import re
    page_ids = sorted(set(re.findall(r'href="/store/([A-Za-z0-9._-]+)', pages.text)))
    expect(page_ids, "/store lists no page")
    # Compared as JSON: the same document may list its keys in another order.
    before = demo.get("/admin/v1/worlds/default/events").json()
    tried = 0
    for page in page_ids[:4]:
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{demo.port + 1}"):
            r = requests.post(f"{demo.base_url}/store/{page}/actions?customer=victim", data={"action": "buy", "product": "x"},
                              headers={"Origin": origin}, timeout=60, allow_redirects=False)
            expect(r.status_code == 403, f"/store/{page}/actions from Origin {origin}: {r.status_code}, want 403")
            tried += 1
    for origin in ("http://evil.example", "null"):
        r = requests.post(f"{demo.base_url}/manage/actions", data={"action": "reset-world", "world": "default", "confirmed": "yes"},
                          headers={"Origin": origin}, timeout=60, allow_redirects=False)
        expect(r.status_code == 403, f"/manage/actions from Origin {origin}: {r.status_code}, want 403")
        tried += 1
    r = demo.get("/storekit/v1/customers/victim")
    expect(r.status_code == 404, f"the cross-site posts created customer 'victim': {r.status_code} {r.text[:200]}")
    expect(demo.get("/admin/v1/worlds/default/events").json() == before, "a cross-site post changed the world's events")
    demo.stop()
    yield (f"cross-site-forms: {tried} form posts to /store and /manage from foreign or null Origins; {tried}× 403, "
           "0 purchases or changes — promise: another site cannot buy or act for a customer through the store pages")
