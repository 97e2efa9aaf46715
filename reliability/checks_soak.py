"""Load held: first the peak purchase rate this client reaches in this run, then a soak at 70 %
of it mixed with history reads and notification deliveries. Reported: p99 per window, RSS and
open file descriptors at the start and end, errors.

At full size the soak's load first runs as a warm-up until the store's memory has reached the
two bounds it grows into by design (docs/reliability.md, "Bounded memory"): SQLite's page caches
(56 MiB: the database must be larger) and the customers a world keeps in memory (10,000, idle for
a minute before they are forgotten). RSS "at the start" is taken after it, so the 10 % bound
measures growth beyond those bounds, which is what a leak is. The line says how long it took."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Dict, List

import requests

from harness import BUNDLE, COINS, WEEKLY, Size, Workspace, expect, jws_payload, notifications, percentile, set_notification_url
from notification_receiver import Receiver

THREADS = 8
# The warm-up's end (full size): the database past SQLite's caches (batch writer 32 MiB, two
# readers and the jobs' connection 8 MiB each, SQLiteEngine.swift) with room to spare, more customers than a world keeps in memory (10,000 plus
# its 10 % slack), and at least the minute a customer must be idle before it is forgotten.
WARM_DB_BYTES = 80 * 1024 * 1024
WARM_CUSTOMERS = 12_000
WARM_MIN_S = 60
WARM_MAX_S = 420


def run(size: Size):
    duration = size.pick(30, 600)
    window = size.pick(10, 60)
    receiver = Receiver()
    try:
        with Workspace("soak") as ws:
            store = ws.server("soak").start()
            set_notification_url(store, "default", BUNDLE, receiver.url)
            peak_seconds = size.pick(6, 20)
            peak = peak_rate(store, seconds=peak_seconds)
            target = 0.7 * peak
            database = ws.path("soak", "data", "store.sqlite")
            lock = threading.Lock()
            samples: List[tuple] = []   # (seconds since start, latency ms, kind)
            errors: List[str] = []
            interval = THREADS / target  # each thread paces itself
            customers: List[List[str]] = [[] for _ in range(THREADS)]  # each worker's, warm-up included
            purchases_made = [0]

            def worker(i: int, started: float, done: Callable[[], bool], record: bool) -> None:
                session = requests.Session()
                mine = customers[i]
                next_at = time.monotonic() + i * interval / THREADS
                n = 0
                while not done():
                    now = time.monotonic()
                    if now < next_at:
                        time.sleep(next_at - now)
                    next_at += interval
                    n += 1
                    customer = f"soak-{i}-{uuid.uuid4().hex[:8]}"
                    product = WEEKLY if n % 5 == 0 else COINS
                    t0 = time.monotonic()
                    try:
                        r = session.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases",
                                         json={"productId": product, "customer": customer}, timeout=30)
                        ok = r.status_code == 200
                    except requests.RequestException as e:
                        ok, r = False, e
                    t1 = time.monotonic()
                    with lock:
                        purchases_made[0] += 1
                        if record:
                            samples.append((t0 - started, (t1 - t0) * 1000, "purchase"))
                        if not ok:
                            errors.append(f"purchase: {getattr(r, 'status_code', r)}")
                    mine.append(customer)
                    if n % 3 == 0:  # a history read beside every third purchase (forgotten customers too)
                        who = mine[n % len(mine)]
                        t0 = time.monotonic()
                        try:
                            r = session.get(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/customers/{who}/transactions", timeout=30)
                            ok = r.status_code == 200
                        except requests.RequestException as e:
                            ok, r = False, e
                        with lock:
                            if record:
                                samples.append((t0 - started, (time.monotonic() - t0) * 1000, "history"))
                            if not ok:
                                errors.append(f"history: {getattr(r, 'status_code', r)}")

            # Warm-up (full size only, see the module's note), under the soak's own load; its errors count.
            warm_note = "no warm-up at CI size, "
            if size.full:
                warm_started = time.monotonic()
                peak_customers = round(peak * peak_seconds)

                def warmed() -> bool:
                    spent = time.monotonic() - warm_started
                    if spent >= WARM_MAX_S:
                        return True
                    return (spent >= WARM_MIN_S and purchases_made[0] + peak_customers >= WARM_CUSTOMERS
                            and database.stat().st_size >= WARM_DB_BYTES)

                with ThreadPoolExecutor(max_workers=THREADS) as pool:
                    list(pool.map(lambda i: worker(i, warm_started, warmed, False), range(THREADS)))
                warm_s = time.monotonic() - warm_started
                capped = "; cut short at its cap" if warm_s >= WARM_MAX_S else ""
                warm_note = (f"after a {warm_s:.0f} s warm-up ({purchases_made[0]} purchases, database "
                             f"{database.stat().st_size // 1048576} MB{capped}: SQLite's caches and the customer memory full) ")

            # RSS over time, one sample per window, to tell warm-up (growth that flattens) from a leak
            # (growth that goes on): the curve is printed, and growth after the first window beside it.
            rss_curve: List[int] = []
            soak_done = threading.Event()

            def sample_rss() -> None:
                while not soak_done.wait(window):
                    try:
                        rss_curve.append(store.rss_kb())
                    except OSError:
                        return

            rss0, fds0 = store.rss_kb(), store.open_fds()
            started = time.monotonic()
            end = started + duration
            sampler = threading.Thread(target=sample_rss, daemon=True)
            sampler.start()
            with ThreadPoolExecutor(max_workers=THREADS) as pool:
                list(pool.map(lambda i: worker(i, started, lambda: time.monotonic() >= end, True), range(THREADS)))
            soak_done.set()
            sampler.join()
            elapsed = time.monotonic() - started
            # RSS at the end of the load, before this check lists every notification (tens of
            # thousands at full size: building those answers is the check's doing, not the soak's).
            rss1, fds1 = store.rss_kb(), store.open_fds()
            # Deliveries: every notification emitted during the soak reaches the receiver.
            # (every page of the list: a 10-minute soak emits more than one page of 10,000), by UUID.
            listed = {n["notificationUUID"] for n in notifications(store) if n["bundleId"] == BUNDLE}
            deadline = time.monotonic() + 60
            seen: set = set()
            decoded = 0
            while True:
                payloads = receiver.signed_payloads()
                seen.update(jws_payload(p)["notificationUUID"] for p in payloads[decoded:])
                decoded = len(payloads)
                if listed <= seen or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            delivered = len(listed & seen)
            store.stop()
            purchases = [s for s in samples if s[2] == "purchase"]
            windows = []
            for w in range(0, int(elapsed), window):
                lat = [s[1] for s in samples if w <= s[0] < w + window]
                if lat:
                    windows.append(f"{percentile(lat, 99):.0f}")
            expect(not errors, f"{len(errors)} errors during the soak, e.g. {errors[:5]}")
            expect(delivered == len(listed), f"{len(listed) - delivered} of {len(listed)} notifications undelivered after the soak")
            expect(fds1 <= fds0 + 16, f"open file descriptors grew from {fds0} to {fds1}")
            growth = (rss1 - rss0) / rss0 * 100
            warm = rss_curve[0] if rss_curve else rss0
            after_warmup = (rss1 - warm) / warm * 100
            curve = " ".join(str(kb // 1024) for kb in rss_curve)
            line = (f"soak: {elapsed:.0f} s at 70 % of the peak purchase rate ({target:.0f}/s of {peak:.0f}/s with {THREADS} "
                    f"client threads), {len(purchases)} purchases, {len(samples) - len(purchases)} history reads, {delivered} "
                    f"notifications delivered; p99 ms per {window} s: {' '.join(windows)}; RSS {warm_note}{rss0 // 1024} → {rss1 // 1024} MB "
                    f"({growth:+.0f} %; per {window} s: {curve}; after the first {window} s {after_warmup:+.0f} %), fds {fds0} → {fds1}; "
                    "0 errors — promise: the store holds a steady load without slowing, leaking or failing")
            if size.full:  # the other promises held (checked above); the figures go with the failure
                expect(growth <= 10, f"RSS grew {growth:.0f} % (more than 10 %): {line}")
            yield line
    finally:
        receiver.stop()


def peak_rate(store, seconds: float) -> float:
    end = time.monotonic() + seconds
    counts: Dict[int, int] = {}

    def hammer(i: int) -> None:
        session = requests.Session()
        n = 0
        while time.monotonic() < end:
            r = session.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases",
                             json={"productId": COINS, "customer": f"peak-{uuid.uuid4().hex[:8]}"}, timeout=30)
            expect(r.status_code == 200, f"purchase at peak: {r.status_code}")
            n += 1
        counts[i] = n

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(hammer, range(THREADS)))
    return sum(counts.values()) / (time.monotonic() - started)
