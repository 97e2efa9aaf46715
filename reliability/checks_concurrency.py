"""Races: the same purchase or code many times at once, the clock pushed from many callers at
once, and history walked while purchases land. Each outcome is counted from the answers and
checked again against what the store lists afterwards."""

from __future__ import annotations

import asyncio
import collections
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List

import requests

from harness import (
    BUNDLE, CODE_OFFER, COINS, LIFETIME, MONTHLY, WEEKLY, Answer, Size, Workspace, create_key, device_path, expect,
    gather_all, http, jws_payload, make_world, run_async, token, transactions,
)

DAY_MS = 86_400_000


def outcomes(results: List[object]) -> collections.Counter:
    counted: collections.Counter = collections.Counter()
    for r in results:
        if isinstance(r, Answer):
            code = ""
            if r.status != 200:
                try:
                    code = " " + str(r.json().get("error"))
                except Exception:
                    pass
            counted[f"{r.status}{code}"] += 1
        else:
            counted[type(r).__name__] += 1
    return counted


def run(size: Size):
    with Workspace("concurrency") as ws:
        store = ws.server().start()
        yield same_purchase(store, size)
        yield same_code(store, size)
        yield concurrent_advances(store, size)
        yield history_while_buying(store, ws, size)
        store.stop()


def same_purchase(store, size: Size) -> str:
    n = 1000
    customer = "racer"
    path = f"/storekit/v1/apps/{BUNDLE}/purchases"
    results = run_async(gather_all(http(store.port, "POST", path, {"productId": LIFETIME, "customer": customer}) for _ in range(n)))
    counted = outcomes(results)
    expect(counted["200"] == 1, f"{n} concurrent purchases of one non-consumable by one customer: answers {dict(counted)}, want exactly one 200")
    expect(counted["409 alreadyPurchased"] == n - 1, f"the other answers must be 409 alreadyPurchased: {dict(counted)}")
    listed = transactions(store, "default", BUNDLE, customer)
    expect(len(listed) == 1 and listed[0]["productId"] == LIFETIME, f"the store lists {len(listed)} transactions for {customer}, want 1")
    winner = next(r for r in results if isinstance(r, Answer) and r.status == 200).json()
    expect(winner["transaction"]["transactionId"] == listed[0]["transactionId"], "the listed transaction is not the acknowledged one")
    return (f"same-purchase: {n} concurrent purchases of one non-consumable by one customer; 1× 200, {n - 1}× 409 "
            f"alreadyPurchased, 1 transaction stored, 0 duplicates — promise: a customer owns a non-consumable once")


def same_code(store, size: Size) -> str:
    n = 1000
    made = store.post(f"/admin/v1/worlds/default/apps/{BUNDLE}/offer-codes", {"offer": CODE_OFFER, "count": 1})
    expect(made.status_code == 201, f"making a one-time code: {made.status_code} {made.text}")
    code = made.json()["codes"][0]["code"]
    customers = [f"redeemer-{i}" for i in range(n)]
    results = run_async(gather_all(
        http(store.port, "POST", f"/storekit/v1/apps/{BUNDLE}/customers/{c}/redeem-code", {"code": code}) for c in customers))
    counted = outcomes(results)
    expect(counted["200"] == 1, f"{n} concurrent redemptions of one one-time code: answers {dict(counted)}, want exactly one 200")
    expect(counted["422 offerCodeRedemptionLimitReached"] == n - 1, f"the other answers: {dict(counted)}")
    listed = store.get(f"/admin/v1/worlds/default/apps/{BUNDLE}/offer-codes").json()["codes"]
    ours = [c for c in listed if c["code"] == code]
    expect(len(ours) == 1 and ours[0].get("redemptions") == 1, f"the code's redemptions: {ours}")

    async def count_subscribed() -> int:
        answers = await gather_all(
            http(store.port, "GET", f"/storekit/v1/apps/{BUNDLE}/customers/{c}/transactions") for c in customers)
        total = 0
        for a in answers:
            expect(isinstance(a, Answer), f"listing a redeemer's transactions failed: {a!r}")
            if a.status == 200:
                total += len(a.json()["signedTransactions"])
        return total

    subscribed = run_async(count_subscribed())
    expect(subscribed == 1, f"{subscribed} transactions across the {n} redeemers, want 1")
    return (f"same-code: {n} customers redeeming one one-time offer code at once; 1× 200, {n - 1}× 422 "
            f"offerCodeRedemptionLimitReached, 1 transaction stored, redemptions = 1 — promise: a one-time code is redeemed once")


def concurrent_advances(store, size: Size) -> str:
    world = "advance-race"
    make_world(store, world)
    subscribers = [f"sub-{i}" for i in range(size.pick(12, 40))]
    for who in subscribers:
        r = store.post(device_path(world, f"apps/{BUNDLE}/purchases"), {"productId": WEEKLY, "customer": who})
        expect(r.status_code == 200, f"subscribing {who}: {r.status_code} {r.text}")
    before = store.get(f"/admin/v1/worlds/{world}/time").json()["nowMs"]
    n = 100
    results = run_async(gather_all(
        http(store.port, "POST", f"/admin/v1/worlds/{world}/time/advance", {"duration": "1d"}) for _ in range(n)))
    counted = outcomes(results)
    expect(counted["200"] == n, f"{n} concurrent advances of one day: answers {dict(counted)}, want {n}× 200")
    after = store.get(f"/admin/v1/worlds/{world}/time").json()["nowMs"]
    moved = after - before
    expect(n * DAY_MS <= moved < n * DAY_MS + 600_000,
           f"the clock moved {moved} ms for {n} advances of a day ({n * DAY_MS} ms): some advance was lost or doubled")
    # Each subscription's transactions cover [first purchase, now] with periods end to end: a
    # period renewed twice would overlap, one missing would leave a gap.
    renewals = 0
    for who in subscribers:
        txs = sorted(transactions(store, world, BUNDLE, who), key=lambda t: t["purchaseDate"])
        starts = [t["purchaseDate"] for t in txs]
        expect(len(set(starts)) == len(starts), f"{who}: a renewal period appears twice: {starts}")
        for earlier, later in zip(txs, txs[1:]):
            expect(later["purchaseDate"] == earlier["expiresDate"],
                   f"{who}: period {earlier['transactionId']} ends {earlier['expiresDate']}, the next starts {later['purchaseDate']}")
        expect(txs[-1]["expiresDate"] > after, f"{who}: the last period ends {txs[-1]['expiresDate']}, before the world's now {after}")
        expect(len(txs) >= 14, f"{who}: {len(txs)} periods over 100 days of weekly renewals")
        renewals += len(txs) - 1
    return (f"concurrent-advance: {n} concurrent one-day advances of one world with {len(subscribers)} weekly subscribers; "
            f"clock moved exactly {n} days, {renewals} renewals, periods end to end, 0 twice, 0 missing "
            "— promise: each renewal happens once however the clock is pushed")


def history_while_buying(store, ws: Workspace, size: Size) -> str:
    key = create_key(store, ws.root)
    customer = "historian"
    first = store.post(f"/storekit/v1/apps/{BUNDLE}/purchases", {"productId": COINS, "customer": customer})
    expect(first.status_code == 200, f"first purchase: {first.status_code} {first.text}")
    anchor = first.json()["transaction"]["transactionId"]
    acknowledged: List[tuple] = []  # (monotonic time of the answer, transactionId)
    lock = threading.Lock()
    with lock:
        acknowledged.append((time.monotonic(), anchor))
    preload, during = size.pick((150, 250), (400, 1000))
    stop = threading.Event()

    def buy(count: int) -> None:
        session = requests.Session()
        for _ in range(count):
            if stop.is_set():
                return
            r = session.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases", json={"productId": COINS, "customer": customer}, timeout=60)
            expect(r.status_code == 200, f"purchase during the walks: {r.status_code} {r.text[:200]}")
            with lock:
                acknowledged.append((time.monotonic(), r.json()["transaction"]["transactionId"]))

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(buy, [preload // 4] * 4))

    walks: List[Dict] = []

    def walk(_: int) -> None:
        session = requests.Session()
        started = time.monotonic()
        seen: List[str] = []
        revision = None
        pages = 0
        while True:
            params = {"revision": revision} if revision else {}
            r = session.get(f"{store.base_url}/inApps/v2/history/{anchor}", params=params,
                            headers={"Authorization": f"Bearer {token(key)}"}, timeout=60)
            expect(r.status_code == 200, f"history page {pages}: {r.status_code} {r.text[:200]}")
            body = r.json()
            seen += [jws_payload(j)["transactionId"] for j in body["signedTransactions"]]
            pages += 1
            revision = body["revision"]
            if not body["hasMore"]:
                break
        with lock:
            walks.append({"started": started, "seen": seen, "pages": pages})

    walkers = size.pick(8, 24)
    with ThreadPoolExecutor(max_workers=4 + walkers) as pool:
        writes = [pool.submit(buy, during // 4) for _ in range(4)]
        reads = [pool.submit(walk, i) for i in range(walkers)]
        for f in reads + writes:
            f.result()
    pages = 0
    for w in walks:
        seen = w["seen"]
        dupes = [t for t, c in collections.Counter(seen).items() if c > 1]
        expect(not dupes, f"a revision walk listed {len(dupes)} transaction(s) twice, e.g. {dupes[:3]}")
        must = {t for at, t in acknowledged if at < w["started"]}
        missing = must - set(seen)
        expect(not missing, f"a revision walk skipped {len(missing)} transaction(s) acknowledged before it began, e.g. {sorted(missing)[:3]}")
        pages += w["pages"]
    total = len(acknowledged)
    return (f"history-while-buying: {len(walks)} full revision walks ({pages} pages) of one customer's history while "
            f"{during} purchases landed ({total} transactions in all); 0 repeated, 0 skipped "
            "— promise: a revision walk lists each transaction once and misses none that existed when it began")
