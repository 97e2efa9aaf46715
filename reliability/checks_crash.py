"""Crash consistency (Jepsen's "acknowledged means durable"): purchase and renewal load from 32
connections while the clock advances, `kill -9` at a random moment, restart on the same data,
and check the store against the client's own log of what was acknowledged."""

from __future__ import annotations

import collections
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Set, Tuple

import requests

from harness import (
    BUNDLE, COINS, LIFETIME, MONTHLY, WEEKLY, Size, Workspace, advance, expect, jws_payload, seeded_random,
    set_notification_url, transactions,
)
from notification_receiver import Receiver

CONNECTIONS = 32
RESIGNED = {"signedDate"}  # a listing signs the same transaction again, at its own time


def without_resigned(payload: Dict) -> Dict:
    return {k: v for k, v in payload.items() if k not in RESIGNED}


def run(size: Size):
    cycles = size.pick(3, 20)
    rng, seed = seeded_random("crash")
    receiver = Receiver()
    try:
        with Workspace("crash") as ws:
            store = ws.server()
            acked: Dict[str, Dict] = {}          # transactionId → {customer, product, payload}
            customers: Dict[str, str] = {}       # customer → product bought
            in_flight = 0
            advances = 0
            pre_crash_uuids: Set[str] = set()
            totals = collections.Counter()
            for cycle in range(cycles):
                store.start()
                set_notification_url(store, "default", BUNDLE, receiver.url)
                if cycle:
                    verify(store, acked, customers, receiver, pre_crash_uuids, totals, seed, cycle)
                stop = threading.Event()
                lock = threading.Lock()
                counts = collections.Counter()

                def buyer(worker: int) -> None:
                    session = requests.Session()
                    local = rng.random  # shared generator, read under the lock
                    while not stop.is_set():
                        with lock:
                            pick = local()
                        product = COINS if pick < 0.4 else LIFETIME if pick < 0.55 else WEEKLY if pick < 0.8 else MONTHLY
                        customer = f"c{cycle}-{worker}-{uuid.uuid4().hex[:8]}"
                        try:
                            r = session.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases",
                                             json={"productId": product, "customer": customer}, timeout=30)
                        except requests.RequestException:
                            with lock:
                                counts["in flight at the kill"] += 1
                            return
                        expect(r.status_code == 200, f"purchase: {r.status_code} {r.text[:200]} (seed {seed})")
                        body = r.json()
                        with lock:
                            customers[customer] = product
                            acked[body["transaction"]["transactionId"]] = {
                                "customer": customer, "product": product, "payload": jws_payload(body["signedTransaction"])}
                            counts["acknowledged"] += 1

                def clock() -> None:
                    nonlocal advances
                    session = requests.Session()
                    while not stop.is_set():
                        try:
                            r = session.post(f"{store.base_url}/admin/v1/worlds/default/time/advance", json={"duration": "1d"}, timeout=30)
                        except requests.RequestException:
                            return
                        expect(r.status_code == 200, f"advance: {r.status_code} {r.text[:200]}")
                        with lock:
                            advances += 1
                        stop.wait(0.05)

                def watcher() -> None:
                    # What the store says it emitted, read while it runs: each must be delivered eventually.
                    while not stop.is_set():
                        try:
                            listed = requests.get(f"{store.base_url}/admin/v1/worlds/default/notifications?limit=10000", timeout=30).json()
                        except Exception:
                            return
                        with lock:
                            pre_crash_uuids.update(n["notificationUUID"] for n in listed["notifications"])
                        stop.wait(0.3)

                pool = ThreadPoolExecutor(max_workers=CONNECTIONS + 2)
                futures = [pool.submit(buyer, i) for i in range(CONNECTIONS)] + [pool.submit(clock), pool.submit(watcher)]
                time.sleep(rng.uniform(*size.pick((1.5, 4.0), (2.0, 8.0))))
                store.kill()  # SIGKILL: no shutdown code runs
                stop.set()
                for f in futures:
                    f.result()
                pool.shutdown()
                in_flight += counts["in flight at the kill"]
                totals["acknowledged"] += counts["acknowledged"]
            store.start()
            verify(store, acked, customers, receiver, pre_crash_uuids, totals, seed, cycles)
            store.stop()
            yield (f"crash: {cycles} cycles of purchases from {CONNECTIONS} connections with the clock advancing "
                   f"({advances} one-day advances), kill -9 at a random moment (seed {seed}); {len(acked)} acknowledged purchases, "
                   f"{in_flight} in flight at the kills, {totals['renewals']} renewals, {totals['notifications']} notifications; "
                   f"lost 0, changed 0, duplicated 0, renewal periods twice or missing 0, notifications undelivered 0 "
                   "— promise: what the store acknowledged survives a crash, once")
    finally:
        receiver.stop()


def verify(store, acked: Dict[str, Dict], customers: Dict[str, str], receiver: Receiver, pre_crash: Set[str],
           totals: collections.Counter, seed: int, cycle: int) -> None:
    where = f"after kill {cycle} (seed {seed})"
    now = requests.get(f"{store.base_url}/admin/v1/worlds/default/time", timeout=30).json()["nowMs"]
    seen_ids: Set[str] = set()
    renewals = 0
    by_customer: Dict[str, List[str]] = collections.defaultdict(list)
    for tid, entry in acked.items():
        by_customer[entry["customer"]].append(tid)
    for customer, product in customers.items():
        listed = transactions(store, "default", BUNDLE, customer)
        ids = [t["transactionId"] for t in listed]
        expect(len(ids) == len(set(ids)), f"{customer}: a transaction is listed twice {where}")
        expect(not (set(ids) & seen_ids), f"{customer}: transaction IDs shared with another customer {where}")
        seen_ids.update(ids)
        originals = [t for t in listed if t["transactionId"] == t["originalTransactionId"]]
        expect(len(originals) == 1, f"{customer} bought {product} once, the store lists {len(originals)} original purchases {where}")
        by_id = {t["transactionId"]: t for t in listed}
        for tid in by_customer[customer]:
            expect(tid in by_id, f"acknowledged transaction {tid} of {customer} is gone {where}")
            expect(without_resigned(by_id[tid]) == without_resigned(acked[tid]["payload"]),
                   f"acknowledged transaction {tid} of {customer} changed {where}:\n{acked[tid]['payload']}\n{by_id[tid]}")
        if product in (WEEKLY, MONTHLY):
            periods = sorted(listed, key=lambda t: t["purchaseDate"])
            for earlier, later in zip(periods, periods[1:]):
                expect(later["purchaseDate"] == earlier["expiresDate"],
                       f"{customer}: period ending {earlier['expiresDate']} followed by one starting {later['purchaseDate']} {where}")
            expect(periods[-1]["expiresDate"] > now, f"{customer}: last period ends {periods[-1]['expiresDate']} < now {now} {where}")
            renewals += len(periods) - 1
    totals["renewals"] = renewals
    # Notifications: every one listed (before or after the crash) is delivered, once per UUID event.
    deadline = time.monotonic() + 60
    while True:
        listed = requests.get(f"{store.base_url}/admin/v1/worlds/default/notifications?limit=10000", timeout=30).json()["notifications"]
        emitted = {n["notificationUUID"]: n for n in listed if n["bundleId"] == BUNDLE}
        received = {jws_payload(p)["notificationUUID"] for p in receiver.signed_payloads()}
        missing_now = (set(emitted) | (pre_crash & set(emitted))) - received
        if not missing_now or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    lost = pre_crash - set(emitted)
    expect(not lost, f"{len(lost)} notification(s) the store listed before a crash are gone from its list {where}, e.g. {sorted(lost)[:3]}")
    expect(not missing_now, f"{len(missing_now)} emitted notification(s) never delivered {where} (world now {now}), e.g. {[emitted[u] for u in sorted(missing_now)[:2]]}")
    by_transaction: Dict[Tuple[str, str], Set[str]] = collections.defaultdict(set)
    for n in emitted.values():
        by_transaction[(n["notificationType"], n.get("transactionId") or "")].add(n["notificationUUID"])
    twice = {k: v for k, v in by_transaction.items() if len(v) > 1 and k[1]}
    expect(not twice, f"an event was notified under several UUIDs {where}: {list(twice.items())[:2]}")
    purchase_types = {COINS: "ONE_TIME_CHARGE", LIFETIME: "ONE_TIME_CHARGE", WEEKLY: "SUBSCRIBED", MONTHLY: "SUBSCRIBED"}
    for tid, entry in acked.items():
        expect((purchase_types[entry["product"]], tid) in by_transaction,
               f"acknowledged purchase {tid} ({entry['product']}) has no {purchase_types[entry['product']]} notification {where}")
    totals["notifications"] = len(emitted)
