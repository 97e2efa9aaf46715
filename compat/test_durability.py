"""Durability: what the store acknowledged survives `kill -9`, and clients keep trusting its root.

A store on its own fresh --data directory sells consumables, a non-consumable and subscriptions
(one customer in sequence, then a burst of concurrent customers), is killed with SIGKILL right after
the last 200, and is started again on the same --data. Every acknowledged transaction must still be
listed, unchanged; ownership still blocks a second purchase; new transaction IDs continue above the
old ones; and the root certificate, served or exported with `openstore keys root`, is byte-identical.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List

import pytest
from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import StoreClient, assert_error, jws_parts, make_verifier, new_customer, ok_json

BB, FT = "com.example.backyardbirds", "com.example.foodtruck"
PELLETS = "com.example.backyardbirds.pellets"
PASS_INDIVIDUAL = "com.example.backyardbirds.pass.individual"
PASS_PREMIUM = "com.example.backyardbirds.pass.premium"
HISTORY = "com.example.foodtruck.annualhistory"
SOCIAL_MONTHLY = "com.example.foodtruck.socialfeedplus.monthly"
BURST = 24  # concurrent purchases answered just before the kill

# Fields that legitimately differ between the purchase answer and a later listing of the same transaction.
RESIGNED = {"signedDate"}


def keys_root(server, out) -> bytes:
    done = server.run_cli("keys", "root", "--der", str(out), "--data", str(server.data_dir))
    assert done.returncode == 0, (
        f"`openstore keys root --der {out} --data {server.data_dir}` "
        f"({'server running' if server.running else 'server stopped'}) exited {done.returncode}:\n"
        + done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace"))
    return out.read_bytes()


def listed(store: StoreClient, verifiers, bundle_id: str, customer: str, which: str) -> Dict[str, dict]:
    """transactionId → raw payload of the list, each JWS verified by Apple's verifier."""
    out = {}
    for jws in store.signed_list(bundle_id, customer, which):
        tx = verifiers[bundle_id].verify_and_decode_signed_transaction(jws)
        out[tx.transactionId] = jws_parts(jws)[1]
    return out


def without_resigned(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k not in RESIGNED}


def test_acknowledged_purchases_survive_sigkill(fresh_server, tmp_path):
    server = fresh_server("durability").start()
    store = StoreClient(server.base_url, server)
    root = store.root_der()
    # SQLite in WAL mode: another process may read the store while the server runs.
    assert keys_root(server, tmp_path / "root-running-1.der") == root

    def verifiers_for(root_der):
        return {a["bundleId"]: make_verifier(root_der, a["bundleId"], Environment(a["environment"]))
                for a in store.apps() if a["bundleId"] in (BB, FT)}

    verifiers = verifiers_for(root)

    # -- before: one customer buys every kind of product, then a burst of concurrent customers --
    customer = new_customer("durable")
    acked: Dict[str, Dict[str, dict]] = {}  # "bundle customer" → transactionId → payload

    def record(bundle_id: str, who: str, body: dict) -> dict:
        assert body["status"] == "purchased"
        tx = verifiers[bundle_id].verify_and_decode_signed_transaction(body["signedTransaction"])
        acked.setdefault(f"{bundle_id} {who}", {})[tx.transactionId] = body["transaction"]
        return body["transaction"]

    pellets_3 = record(BB, customer, store.buy(BB, PELLETS, customer, quantity=3))
    pellets_1 = record(BB, customer, store.buy(BB, PELLETS, customer))
    individual = record(BB, customer, store.buy(BB, PASS_INDIVIDUAL, customer))
    history = record(FT, customer, store.buy(FT, HISTORY, customer))
    social = record(FT, customer, store.buy(FT, SOCIAL_MONTHLY, customer))
    # A finished consumable is acknowledged too: it must stay finished (gone from Transaction.all).
    assert ok_json(store.finish(BB, customer, pellets_1["transactionId"]))["finished"] is True
    finished = {pellets_1["transactionId"]}

    burst_customers = [f"{customer}-{i}" for i in range(BURST)]

    def buy_burst(i: int):
        who = burst_customers[i]
        product, bundle_id = [(PELLETS, BB), (HISTORY, FT), (PASS_INDIVIDUAL, BB)][i % 3]
        # Each thread has its own HTTP session (requests.Session is not thread-safe).
        return bundle_id, who, StoreClient(server.base_url).buy(bundle_id, product, who)

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(buy_burst, range(BURST)))
    last = store.buy(FT, HISTORY, customer + "-last")
    server.kill()  # SIGKILL right after the last 200: no shutdown, no checkpoint
    for bundle_id, who, body in answers:
        record(bundle_id, who, body)
    record(FT, customer + "-last", last)
    old_ids = [int(t) for txs in acked.values() for t in txs]
    assert len(old_ids) == len(set(old_ids)) == 5 + BURST + 1

    # -- while stopped (after a crash: the WAL has not been checkpointed) ----------------------
    assert keys_root(server, tmp_path / "root-stopped.der") == root

    # -- after: the same --data, a new process -------------------------------------------------
    server.start()
    store = StoreClient(server.base_url, server)
    assert store.root_der() == root, "the root certificate changed across a restart: clients would stop trusting the store"
    assert keys_root(server, tmp_path / "root-running-2.der") == root

    for key, txs in acked.items():
        bundle_id, who = key.split(" ")
        everything = listed(store, verifiers, bundle_id, who, "transactions")
        expected = {t: p for t, p in txs.items() if t not in finished}
        assert set(everything) == set(expected), f"{key}: acknowledged {sorted(expected)}, listed {sorted(everything)}"
        for t, payload in expected.items():
            assert without_resigned(everything[t]) == without_resigned(payload), f"{key}: transaction {t} changed"
        assert set(listed(store, verifiers, bundle_id, who, "unfinished")) == set(expected)
        entitled = {t for t, p in txs.items() if p["type"] != "Consumable"}
        assert set(listed(store, verifiers, bundle_id, who, "entitlements")) == entitled

    # Ownership survived: the non-consumable and the active subscription still block a second purchase.
    assert_error(store.purchase(FT, HISTORY, customer), 409, "alreadyPurchased")
    assert_error(store.purchase(FT, HISTORY, customer + "-last"), 409, "alreadyPurchased")
    assert_error(store.purchase(BB, PASS_INDIVIDUAL, customer), 409, "alreadyPurchased")

    # New transactions continue above every acknowledged one, for the old customer and a new one,
    # signed under the same root (verified with the verifiers built before the restart).
    again = store.buy(BB, PELLETS, customer)
    fresh = store.buy(BB, PASS_PREMIUM, new_customer("after"))
    new_ids: List[int] = []
    for body in (again, fresh):
        tx = verifiers[BB].verify_and_decode_signed_transaction(body["signedTransaction"])
        new_ids.append(int(tx.transactionId))
    assert min(new_ids) > max(old_ids), (new_ids, max(old_ids))
    assert new_ids[0] < new_ids[1]
    # The customer keeps the app transaction they had before the crash.
    assert again["transaction"]["appTransactionId"] == pellets_3["appTransactionId"] == individual["appTransactionId"]
    # A new customer still gets the intro offer; nothing of the others leaked into their history.
    assert fresh["transaction"].get("offerType") == 1 and fresh["transaction"]["price"] == 0
    assert history["transactionId"] != social["transactionId"]
