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
    BUNDLE, COINS, LIFETIME, MONTHLY, WEEKLY, Size, Workspace, advance, expect, jws_payload, notifications,
    seeded_random, set_notification_url, transactions,
)
from notification_receiver import Receiver

CONNECTIONS = 32
RESIGNED = {"signedDate"}  # a listing signs the same transaction again, at its own time
# After each kill at full size: every customer of the cycle just killed plus this many others drawn
# at random are listed and checked (listing everyone after every kill grows with the cycles squared);
# everyone is checked after the last kill. At CI size everyone is checked after every kill.
SAMPLE = 300
VERIFY_THREADS = 6


class Received:
    """The notification UUIDs the receiver got, decoded once each (a full run receives tens of thousands)."""

    def __init__(self, receiver: Receiver) -> None:
        self.receiver, self.decoded, self.uuids = receiver, 0, set()

    def now(self) -> Set[str]:
        payloads = self.receiver.signed_payloads()
        self.uuids.update(jws_payload(p)["notificationUUID"] for p in payloads[self.decoded:])
        self.decoded = len(payloads)
        return self.uuids


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
            received = Received(receiver)
            cycle_customers: Set[str] = set()   # customers who bought in the cycle just killed
            checked_per_kill: List[int] = []
            for cycle in range(cycles):
                store.start()
                set_notification_url(store, "default", BUNDLE, receiver.url)
                if cycle:
                    if size.full:
                        others = sorted(set(customers) - cycle_customers)
                        chosen = cycle_customers | set(rng.sample(others, min(SAMPLE, len(others))))
                    else:
                        chosen = set(customers)
                    checked_per_kill.append(len(chosen))
                    verify(store, acked, customers, chosen, received, pre_crash_uuids, totals, seed, cycle)
                cycle_customers = set()
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
                            cycle_customers.add(customer)
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
                    # Read incrementally (after a sequence number 2,000 entries back, so one committed a
                    # little out of order is still seen) and paged: a full run lists more than 10,000.
                    seqs: List[int] = []
                    while not stop.is_set():
                        after = seqs[-2000] if len(seqs) > 2000 else 0
                        try:
                            listed = notifications(store, after=after)
                        except Exception:
                            return
                        with lock:
                            pre_crash_uuids.update(n["notificationUUID"] for n in listed)
                        seqs = sorted(set(seqs[-4000:]) | {n["seq"] for n in listed})
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
            verify(store, acked, customers, set(customers), received, pre_crash_uuids, totals, seed, cycles)
            store.stop()
            checked = (f"every customer checked after every kill" if not size.full else
                       f"after each kill its cycle's customers and {SAMPLE} others at random checked "
                       f"({min(checked_per_kill, default=0)}–{max(checked_per_kill, default=0)} customers), everyone after the last")
            yield (f"crash: {cycles} cycles of purchases from {CONNECTIONS} connections with the clock advancing "
                   f"({advances} one-day advances), kill -9 at a random moment (seed {seed}); {checked}; "
                   f"{len(customers)} customers, {len(acked)} acknowledged purchases, "
                   f"{in_flight} in flight at the kills, {totals['renewals']} renewals, {totals['notifications']} notifications; "
                   f"lost 0, changed 0, duplicated 0, renewal periods twice or missing 0, notifications undelivered 0 "
                   "— promise: what the store acknowledged survives a crash, once")
    finally:
        receiver.stop()


def verify(store, acked: Dict[str, Dict], customers: Dict[str, str], chosen: Set[str], received: Received,
           pre_crash: Set[str], totals: collections.Counter, seed: int, cycle: int) -> None:
    """Checks the `chosen` customers' transactions against the client's log, and every notification."""
    where = f"after kill {cycle} (seed {seed})"
    now = requests.get(f"{store.base_url}/admin/v1/worlds/default/time", timeout=30).json()["nowMs"]
    seen_ids: Dict[str, str] = {}
    renewals = 0
    by_customer: Dict[str, List[str]] = collections.defaultdict(list)
    for tid, entry in acked.items():
        by_customer[entry["customer"]].append(tid)
    order = sorted(chosen)
    with ThreadPoolExecutor(max_workers=VERIFY_THREADS) as pool:
        listings = pool.map(lambda c: (c, transactions(store, "default", BUNDLE, c)), order)
        for customer, listed in listings:
            product = customers[customer]
            ids = [t["transactionId"] for t in listed]
            expect(len(ids) == len(set(ids)), f"{customer}: a transaction is listed twice {where}")
            shared = [i for i in ids if i in seen_ids]
            expect(not shared, f"{customer}: transaction IDs shared with {seen_ids.get(shared[0]) if shared else ''} {where}")
            seen_ids.update((i, customer) for i in ids)
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
        emitted = {n["notificationUUID"]: n for n in notifications(store) if n["bundleId"] == BUNDLE}
        missing_now = set(emitted) - received.now()
        if not missing_now or time.monotonic() > deadline:
            break
        time.sleep(0.5)
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
