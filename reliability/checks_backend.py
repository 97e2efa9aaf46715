"""The subscription backend under the store's suite: hostile input to every route it serves, and
`kill -9` while a live store delivers notifications to it ("answered 200 means applied").

The backend is the real `openstore backend` on its own SQLite file, trusting the live store's
root (as a developer points it at OpenStoreKit); the store delivers real Notifications V2. What
the store's delivery log says was answered 200 is compared with the backend's own table of
applied notifications, read from its database file once it has stopped."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Optional

import requests

from checks_hostile import MB, answer_before_whole, expect_clear
from harness import (
    BUNDLE, COINS, MONTHLY, Size, Workspace, advance, expect, http, notifications, run_async, seeded_random,
    set_notification_url,
)
from openstore_process import free_port, openstore_bin


def run(size: Size):
    with Workspace("backend") as ws:
        store = ws.server("store", apps=((Path(__file__).resolve().parent / "fixtures" / "reliability.storekit", BUNDLE),)).start()
        backend = Backend(ws, ["--bundle-id", BUNDLE, "--environment", "Sandbox", "--no-apple-root",
                               "--trust-store", store.base_url])
        try:
            yield hostile(backend, store)
            yield crash(backend, store, size)
        finally:
            backend.stop()


class Backend:
    """`openstore backend` with `app_args` (which app, what it trusts, a token), on a fixed port
    (a store's notification URL can name it) and one SQLite file that survives `kill -9` and the
    restart; reconciliation off. The schema check uses it too."""

    def __init__(self, ws: Workspace, app_args: List[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = ws.path("backend", "backend.sqlite")
        self.log = ws.path("backend", "backend.log")
        self.args = [str(openstore_bin()), "backend", *app_args, "--port", str(self.port), "--reconcile-interval", "0",
                     "--database", str(self.database)]
        self.proc: Optional[subprocess.Popen] = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=self.log.open("a"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            expect(self.proc.poll() is None and time.monotonic() < deadline,
                   f"the backend did not start:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.1)

    def healthy(self) -> bool:
        try:
            return requests.get(f"{self.url}/healthz", timeout=10).status_code == 200
        except requests.RequestException:
            return False

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def applied(self) -> set:
        """The notification UUIDs in the backend's ledger, read from its file (the backend stopped)."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            return {row[0] for row in db.execute("SELECT notificationUUID FROM bk_notifications")}


def hostile(backend: Backend, store) -> str:
    notify = f"/apple/notifications/{BUNDLE}"
    foreign = foreign_jws()
    bodies = [
        ("not JSON", b"{not json"),
        ("invalid UTF-8", b'{"signedPayload": "\xff\xfe"}'),
        ("NUL bytes", b'{"signedPayload": "a\x00b"}'),
        ("arrays nested 10,000 deep", b"[" * 10_000 + b"]" * 10_000),
        ("objects nested 10,000 deep", b'{"a":' * 10_000 + b"1" + b"}" * 10_000),
        ("signedPayload nested 10,000 deep", b'{"signedPayload":' + b"[" * 10_000 + b"]" * 10_000 + b"}"),
        ("no signedPayload", b'{"payload": "x"}'),
        ("a JWS of three empty parts", b'{"signedPayload": ".."}'),
        ("alg none", json.dumps({"signedPayload": unsigned_jws()}).encode()),
        ("a foreign chain", json.dumps({"signedPayload": foreign}).encode()),
        ("a forged signature", json.dumps({"signedPayload": foreign.rsplit(".", 1)[0] + ".AAAA"}).encode()),
        ("a 200 KB header", json.dumps({"signedPayload": "e" * 200_000 + ".e.e"}).encode()),
    ]
    tried = 0
    for name, body in bodies:
        expect_clear(run_async(http(backend.port, "POST", notify, body)), f"backend {notify}: {name}")
        tried += 1
    # The app posts transactions under its own user ID: the same hostile bodies, and hostile IDs.
    for name, body in bodies[:6] + [("a foreign transaction", json.dumps({"signedTransaction": foreign}).encode())]:
        expect_clear(run_async(http(backend.port, "POST", "/v1/customers/ann/transactions", body)), f"backend transactions: {name}")
        tried += 1
    for name, path in [("a 64 KB app user ID", "/v1/customers/" + "u" * 65_536),
                       ("a NUL in the app user ID", "/v1/customers/a%00b"),
                       ("invalid UTF-8 in the app user ID", "/v1/customers/%FF%FE"),
                       ("limit beyond Int64", "/v1/events?limit=99999999999999999999999")]:
        answer = run_async(http(backend.port, "GET", path))
        expect_clear(answer, f"backend: {name}")
        tried += 1
    # An app user ID is a name, never a file: one that reads like a path is just an unknown customer.
    upwards = run_async(http(backend.port, "GET", "/v1/customers/..%2F..%2Fetc%2Fpasswd"))
    expect(upwards.status == 404 and b"root:" not in upwards.body, f"backend: a path-like app user ID: {upwards.status} {upwards.body[:200]!r}")
    tried += 1
    for name, path in [("notifications", notify), ("transactions", "/v1/customers/ann/transactions")]:
        status, sent = answer_before_whole(backend.port, path, {}, declared=100 * MB, sent=2 * MB)
        expect(status in (400, 413), f"backend {name}: a body announced as 100 MB got {status or 'no answer'}, want 413")
        tried += 1
    expect(backend.healthy(), "the backend stopped answering after hostile input")
    expect(backend.proc.poll() is None, "the backend exited on hostile input")
    return (f"backend-hostile: {tried} requests (JSON nested 10,000 deep, invalid UTF-8, NUL, alg none, a foreign "
            "certificate chain, a forged signature, 64 KB app user IDs, 100 MB bodies) to the notification and app "
            "endpoints; every one a 4xx with a reason, the backend alive "
            "— promise: the backend refuses what it cannot trust, clearly, and keeps running")


def crash(backend: Backend, store, size: Size) -> str:
    cycles = size.pick(3, 20)
    rng, seed = seeded_random("backend-crash")
    set_notification_url(store, "default", BUNDLE, f"{backend.url}/apple/notifications/{BUNDLE}")
    bought = 0
    lock = threading.Lock()
    stop = threading.Event()

    def buyer(index: int) -> None:
        nonlocal bought
        local = requests.Session()
        n = 0
        while not stop.is_set():
            n += 1
            product = MONTHLY if n % 3 == 0 else COINS
            r = local.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases",
                           json={"productId": product, "customer": f"bk-{index}-{n}"}, timeout=60)
            if r.status_code == 200:
                with lock:
                    bought += 1

    kills = 0
    for cycle in range(cycles):
        stop.clear()
        with ThreadPoolExecutor(max_workers=8) as pool:
            for i in range(8):
                pool.submit(buyer, cycle * 100 + i)
            time.sleep(rng.uniform(0.5, 2.0))
            expect(advance(store, "default", "32d").status_code == 200, "advancing the clock failed")
            time.sleep(rng.uniform(0.0, 1.0))
            backend.kill()  # in the middle of deliveries
            kills += 1
            time.sleep(rng.uniform(0.0, 0.5))
            stop.set()
        backend.start()
    # Let the store deliver what it still owes: retries of deliveries the kills interrupted come
    # due in world time (Apple's schedule: 1 h, then 12 h, …), so the clock moves on meanwhile.
    deadline = time.monotonic() + size.pick(60, 180)
    listed: List[dict] = []
    while time.monotonic() < deadline:
        listed = notifications(store)
        if listed and all(n["delivered"] for n in listed if n["bundleId"] == BUNDLE):
            break
        advance(store, "default", "13h")
        time.sleep(1)
    backend.stop()
    acknowledged = {n["notificationUUID"] for n in listed if n["bundleId"] == BUNDLE and n["delivered"]}
    applied = backend.applied()
    lost = acknowledged - applied
    expect(len(acknowledged) > 0, "the store delivered no notification to the backend")
    expect(not lost, f"{len(lost)} notifications the backend answered 200 are not in its ledger (seed {seed}): {sorted(lost)[:5]}")
    backend.start()
    return (f"backend-crash: {kills} kill -9 of the backend during notification ingest ({bought} purchases, "
            f"{cycles} month jumps; seed {seed}); {len(acknowledged)} notifications answered 200, 0 lost, "
            f"{len(applied)} applied — promise: a notification the backend acknowledged survives kill -9")


def unsigned_jws() -> str:
    import base64

    def part(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    return part({"alg": "none"}) + "." + part({"notificationType": "TEST", "notificationUUID": str(uuid.uuid4())}) + "."


def foreign_jws() -> str:
    """A notification signed by a chain of our own making: well formed, ES256, `x5c` and all, but
    rooted in nothing the backend trusts."""
    import base64
    import datetime

    import jwt
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Not Apple")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    der = base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    payload = {"notificationType": "TEST", "notificationUUID": str(uuid.uuid4()), "signedDate": int(time.time() * 1000),
               "data": {"bundleId": BUNDLE, "environment": "Sandbox"}, "version": "2.0"}
    return jwt.encode(payload, pem, algorithm="ES256", headers={"x5c": [der, der, der]})
