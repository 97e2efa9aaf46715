"""The backend's sixteen charts (docs/backend.md, "Charts") against a small world computed by hand.

A live store sells compat/fixtures/compat.storekit in Sandbox; `openstore backend` gets its
notifications. The store's clock is paused and moved only by exact advances, so every purchase,
renewal, expiry and refund happens at an instant this file names, in one of three calendar months
M1, M2, M3 (the months after today's: the test runs whatever the date). Nine customers live
through those months; every expected number below is written out by hand from the docs'
definitions, with the customers and events that make it up, never recomputed by code.

Prices (the fixture): monthly 4.99 USD (P1M, a one-week free trial for a first subscriber in the
group), yearly 39.99 (P1Y, the group's higher level: buying it upgrades at once), weekly 1.99
(P1W, another group), lifetime 9.99 (non-consumable), coins 0.99 (consumable). Monthly
normalization: monthly 4.99; yearly 39.99 / 12 = 3.3325; weekly 1.99 × 52 / 12 = 8.623333….
Proceeds are 70 % (no year of paid service, no Small Business Program).

Day d of month Mk at hh:00 UTC is written Mk-dd hh:00. Renewals fire at the instant the period
ends. Every step happens on days 2–28, so month lengths only move two weekly expiries by a few
days and never across a month boundary (F's: M2-03…06 and M3-02…05).

| customer | events |
|---|---|
| A | M1-02 12:00 monthly, free trial; M1-09 12:00 converts (4.99); M2-09 12:00 renews (4.99); M2-16 12:00 upgrades to yearly (39.99), same subscription; active to the end |
| B | M1-03 12:00 monthly, free trial; M1-04 12:00 auto-renew off; M1-10 12:00 the trial expires unconverted (abandoned) |
| D | M1-05 12:00 weekly (1.99); M1-12 12:00 renews (1.99); M1-13 12:00 asks for a refund of that renewal (CONSUMPTION_REQUEST); M1-14 12:00 granted: refunded, the subscription ends |
| E | M1-08 12:00 monthly, free trial; M1-15 12:00 converts (4.99); M1-20 12:00 auto-renew off; M2-15 12:00 expires; M2-20 12:00 resubscribes, no trial (4.99, same originalTransactionId); M3-20 12:00 renews (4.99) |
| G | M1-10 18:00 lifetime (9.99); M1-11 12:00 refunded; M2-04 12:00 coins (0.99); M3-25 12:00 coins (0.99), the last event: asOf |
| F | M1-27 12:00 weekly (1.99); M1-28 12:00 auto-renew off; expires M2-03…06; M2-26 12:00 resubscribes (1.99, same originalTransactionId); M2-27 12:00 auto-renew off; expires M3-02…05 |
| H | M2-07 12:00 yearly (39.99); M3-22 12:00 asks for a refund (CONSUMPTION_REQUEST), left undecided |
| J | M2-07 12:00 (right after H's purchase) the app sets an attribute: a customer with no purchase, first seen then |
| C | M3-21 12:00 monthly, free trial (to M3-28 12:00), set to renew: pending at asOf |

asOf is M3-25 12:00 (G's last purchase, the latest signedDate; the store runs ahead of the wall
clock), so M3 is the incomplete period and its states are read there.
"""

from __future__ import annotations

import calendar
import csv
import io
import uuid
from datetime import datetime, timezone

import pytest
import requests

from test_backend_lifecycle import LIFETIME, MONTHLY, WEEKLY, YEARLY, Rig
from test_backend_support import wait_until

COINS = "compat.coins"
W = 1.99 * 52 / 12  # a weekly subscription's monthly amount, 8.623333…
Y = 39.99 / 12      # a yearly subscription's monthly amount, 3.3325
CHARTS = ["revenue", "mrr", "mrr_movement", "arr", "actives", "actives_movement", "trials", "customers_new",
          "trial_conversion_rate", "initial_conversion", "conversion_to_paying", "churn", "refund_rate",
          "subscription_retention", "ltv_per_customer", "non_subscription_purchases"]


def approx(values):
    """Money is given to a millionth of the currency unit (docs/backend.md, Charts)."""
    return [None if v is None else pytest.approx(v, rel=0, abs=2e-6) for v in values]


# Expected values: chart → series → [M1, M2, M3]. Each number is written out by hand.
EXPECTED = {
    "revenue": {
        # Paid transactions bought in the month, refunded ones left out.
        # M1: D 1.99 (M1-05) + A 4.99 (M1-09) + E 4.99 (M1-15) + F 1.99 (M1-27) = 13.96;
        #     G's lifetime 9.99 and D's renewal 1.99 were refunded: out.
        # M2: G coins 0.99 + H yearly 39.99 + A renewal 4.99 + A yearly 39.99 + E 4.99 + F 1.99 = 92.94.
        # M3: E renewal 4.99 + G coins 0.99 = 5.98 (C's trial is free).
        "revenue.USD": [13.96, 92.94, 5.98],
        "proceeds.USD": [9.772, 65.058, 4.186],  # 70 % of the above
        "transactions": [4, 6, 2],
    },
    "mrr": {
        # M1 end: A monthly 4.99 (A's M1-09 period) + E monthly 4.99 (E's M1-15 period) + F weekly 8.623333
        #         (F's M1-27 week, running into M2) = 18.603333. B: trial only; D: refunded M1-14.
        # M2 end: A yearly 3.3325 + E monthly 4.99 (resubscribed M2-20) + F weekly 8.623333 (resubscribed
        #         M2-26, running into M3) + H yearly 3.3325 = 20.278333.
        # asOf:   A 3.3325 + E 4.99 (renewed M3-20) + H 3.3325 = 11.655; F expired M3-02…05; C in trial.
        "mrr.USD": [4.99 + 4.99 + W, Y + 4.99 + W + Y, Y + 4.99 + Y],
    },
    "mrr_movement": {
        # M1: new: D +8.623333 (M1-05), A +4.99 (M1-09, trial converting), E +4.99 (M1-15), F +8.623333 (M1-27)
        #     = 27.226667; churned: D's refund M1-14 −8.623333. D's and A's renewals change nothing.
        # M2: new: H +3.3325 (M2-07); resubscription: E +4.99 (M2-20), F +8.623333 (M2-26) = 13.613333;
        #     contraction: A monthly 4.99 → yearly 3.3325 on M2-16 = −1.6575 (an upgrade of level that
        #     lowers the monthly amount); churned: F expires (M2-03…06) −8.623333, E expires (M2-15) −4.99
        #     = −13.613333. net = 3.3325 + 13.613333 − 1.6575 − 13.613333 = 1.675.
        # M3: churned: F's second week expires (M3-02…05) −8.623333; E's renewal changes nothing.
        "new.USD": [4.99 + 4.99 + 2 * W, Y, 0],
        "resubscription.USD": [0, 4.99 + W, 0],
        "expansion.USD": [0, 0, 0],
        "contraction.USD": [0, Y - 4.99, 0],
        "churned.USD": [-W, -(W + 4.99), -W],
        "net.USD": [4.99 + 4.99 + W, 1.675, -W],
    },
    "arr": {
        "arr.USD": [12 * (4.99 + 4.99 + W), 12 * (Y + 4.99 + W + Y), 12 * (Y + 4.99 + Y)],  # MRR × 12: 223.24, 243.34, 139.86
    },
    "actives": {
        # M1 end: A, E, F. M2 end: A, E, F, H. asOf: A, E, H.
        "actives": [3, 4, 3],
    },
    "actives_movement": {
        # M1: new D, A, E, F; churned D (refund). M2: new H; resubscription E, F; churned F (expiry M2-03…06),
        # E (expiry M2-15). M3: churned F (expiry M3-02…05).
        "new": [4, 1, 0],
        "resubscription": [0, 2, 0],
        "churned": [-1, -2, -1],
        "net": [3, 1, -1],
    },
    "trials": {
        # Started: A, B, E in M1; C in M3. Running at the end: none at M1's (A's ended M1-09, B's M1-10,
        # E's M1-15), none at M2's, C's at asOf (to M3-28).
        "active": [0, 0, 1],
        "started": [3, 0, 1],
    },
    "customers_new": {
        # M1: A, B, D, E, G, F. M2: H, J. M3: C.
        "customers": [6, 2, 1],
    },
    "trial_conversion_rate": {
        # M1 cohort A, B, D, E, G, F: trials A, B, E; converted A, E; abandoned B (auto-renew off, ended).
        # M2 cohort H, J: no trial (rate of nothing: null). M3 cohort C: pending (running, set to renew).
        "customers": [6, 2, 1],
        "trials": [3, 0, 1],
        "converted": [2, 0, 0],
        "pending": [0, 0, 1],
        "abandoned": [1, 0, 0],
        "conversionRate": [2 / 3, None, 0.0],
    },
    "initial_conversion": {
        # Any purchase so far: all six of M1 (B's free trial counts); H but not J; C's trial.
        "customers": [6, 2, 1],
        "converted": [6, 1, 1],
        "rate": [1.0, 0.5, 1.0],
    },
    "conversion_to_paying": {
        # Paid so far, not refunded: A, D (first week), E, G (coins), F — not B. H, not J. Not C.
        "customers": [6, 2, 1],
        "paying": [5, 1, 0],
        "rate": [5 / 6, 0.5, 0.0],
    },
    "churn": {
        # M1 start: nothing. M2 start: A, E, F; at M2's end all three have paid access (E and F lapsed
        # and came back within M2: not churned). M3 start: A, E, F, H; at asOf F has none.
        "activesAtStart": [0, 3, 4],
        "churned": [0, 0, 1],
        "churnRate": [None, 0.0, 0.25],
    },
    "refund_rate": {
        # Paid transactions bought: M1 D, A, G's lifetime, D's renewal, E, F = 6, refunded G's and D's = 2;
        # M2 G, H, A, A's yearly, E, F = 6, none refunded; M3 E, G = 2. Requests: D's (M1-13), H's (M3-22).
        "transactions": [6, 6, 2],
        "refunded": [2, 0, 0],
        "refundRate": [2 / 6, 0.0, 0.0],
        "refundRequests": [1, 0, 1],
    },
    "subscription_retention": {
        # Cohorts by the first paid period: M1 A (M1-09), D (M1-05), E (M1-15), F (M1-27); M2 H; M3 none
        # (C has only a trial). M1 cohort with paid access at M1's end A, E, F (3/4); at M2's end A, E, F
        # (3/4); at asOf A, E (2/4). M2 cohort: H at M2's end and at asOf; M4 not reached: null.
        "subscriptions": [4, 1, 0],
        "retained.0": [0.75, 1.0, None],
        "retained.1": [0.75, 1.0, None],
        "retained.2": [0.5, None, None],
    },
    "ltv_per_customer": {
        # M1 cohort (6): paid by M1's end 13.96 (D 1.99, A 4.99, E 4.99, F 1.99; refunds out) → 2.326667;
        #   by M2's end + G 0.99 + A 4.99 + A 39.99 + E 4.99 + F 1.99 = 66.91 → 11.151667;
        #   by asOf + E 4.99 + G 0.99 = 72.89 → 12.148333.
        # M2 cohort (H, J): 39.99 → 19.995, the same at asOf (H's refund request is undecided); M4: null.
        # M3 cohort (C): 0 paid → 0.
        "customers": [6, 2, 1],
        "ltv.USD.0": [13.96 / 6, 39.99 / 2, 0.0],
        "ltv.USD.1": [66.91 / 6, 39.99 / 2, None],
        "ltv.USD.2": [72.89 / 6, None, None],
    },
    "non_subscription_purchases": {
        # M1 G's lifetime (refunded); M2 G's coins; M3 G's coins.
        "purchases": [1, 1, 1],
        "refunded": [1, 0, 0],
        "revenue.USD": [0, 0.99, 0.99],
    },
}


class World:
    """The store's paused clock, moved to exact instants of three calendar months."""

    def __init__(self, r: Rig):
        self.r = r
        done = requests.post(r.store.base_url + "/manage/actions", data={"action": "pause", "world": "default"},
                             allow_redirects=False, timeout=60)
        assert done.status_code == 303 and done.headers.get("X-OpenStore-Result") == "done", (done.status_code, done.text)
        clock = self.clock()
        assert clock["clockSpeed"] == 0, clock
        today = datetime.fromtimestamp(clock["nowMs"] / 1000, tz=timezone.utc)
        y, m = today.year, today.month
        self.months = []
        for _ in range(4):
            m += 1
            if m == 13:
                y, m = y + 1, 1
            self.months.append((y, m))
        self.labels = [f"{y:04d}-{m:02d}" for y, m in self.months[:3]]

    def clock(self):
        r = requests.get(self.r.store.base_url + "/admin/v1/worlds/default/time", timeout=60)
        assert r.status_code == 200, r.text
        return r.json()

    def at(self, month: int, day: int, hour: int = 0) -> int:
        y, m = self.months[month - 1]
        return calendar.timegm((y, m, day, hour, 0, 0)) * 1000

    def go(self, month: int, day: int, hour: int):
        target = self.at(month, day, hour)
        now = self.clock()["nowMs"]
        assert target > now, (target, now)
        moved = self.r.admin("POST", "/time/advance", {"duration": str(target - now)})
        assert moved["nowMs"] == target, moved

    def last_day(self, month: int) -> str:
        y, m = self.months[month - 1]
        return f"{y:04d}-{m:02d}-{calendar.monthrange(y, m)[1]:02d}"


def test_every_chart_equals_the_hand_computed_world(tmp_path):
    r = Rig(tmp_path, "charts")
    try:
        run(r)
    finally:
        r.close()


def run(r: Rig):
    w = World(r)
    users = {name: str(uuid.uuid4()) for name in "ABDEGFHJC"}
    A, B, D, E, G, F, H, J, C = (users[n] for n in "ABDEGFHJC")

    def latest(user):
        return r.stored(user)["subscriptions"][0]["latestTransactionId"]

    def auto_renew_off(user):
        r.admin("POST", f"/transactions/{latest(user)}/auto-renew", {"enabled": False})
        wait_until(lambda: r.backend.customer(user)["subscriptions"][0]["willRenew"] is False, what="auto-renew off")

    def one_time(user, expected_revoked):
        wait_until(lambda: r.backend.get(f"/v1/customers/{user}").status_code == 200
                   and [n["revocationDate"] is not None for n in r.backend.customer(user)["nonSubscriptions"]]
                   == expected_revoked, what="the one-time purchases at the backend")

    # The backend's clock starts at the store's: a test notification signed at M1-02 00:00, before
    # any customer, so no customer can be first seen on the wall clock (earlier than the store's).
    w.go(1, 2, 0)
    r.api.request_test_notification()
    wait_until(lambda: r.backend.get("/v1/admin/overview").json()["asOf"] == w.at(1, 2, 0), what="the test notification")

    # ---- M1
    w.go(1, 2, 12)
    a1 = r.buy(MONTHLY, A)
    assert a1["offerDiscountType"] == "FREE_TRIAL" and a1["price"] == 0, a1
    r.stored(A)
    w.go(1, 3, 12)
    b1 = r.buy(MONTHLY, B)
    assert b1["offerDiscountType"] == "FREE_TRIAL", b1
    w.go(1, 4, 12)
    auto_renew_off(B)
    w.go(1, 5, 12)
    d1 = r.buy(WEEKLY, D)
    r.stored(D)
    w.go(1, 8, 12)
    r.buy(MONTHLY, E)
    r.stored(E)
    w.go(1, 10, 18)  # A converts at M1-09 12:00, B's trial ends at M1-10 12:00
    g1 = r.buy(LIFETIME, G)
    one_time(G, [False])
    w.go(1, 11, 12)
    r.admin("POST", f"/transactions/{g1['transactionId']}/refund", {"reason": 0})
    one_time(G, [True])
    w.go(1, 13, 12)  # D renewed at M1-12 12:00
    d2 = latest(D)
    assert d2 != d1["transactionId"]
    request = r.admin("POST", f"/transactions/{d2}/refund-request", {"reason": "OTHER"})
    w.go(1, 14, 12)
    decided = r.admin("POST", f"/refund-requests/{request['id']}/decide", {"grant": True})
    assert decided["state"] == "granted", decided
    wait_until(lambda: r.stored(D)["subscriptions"][0]["revocationDate"] == w.at(1, 14, 12), what="D's refund")
    w.go(1, 20, 12)  # E converted at M1-15 12:00
    auto_renew_off(E)
    w.go(1, 27, 12)
    f1 = r.buy(WEEKLY, F)
    r.stored(F)
    w.go(1, 28, 12)
    auto_renew_off(F)

    # ---- M2
    w.go(2, 4, 12)
    r.buy(COINS, G)
    one_time(G, [True, False])
    w.go(2, 7, 12)  # F's first week expired on M2-03…06
    r.buy(YEARLY, H)
    r.stored(H)
    put = requests.put(f"{r.backend.base_url}/v1/customers/{J}/attributes",
                       json={"attributes": {"plan": {"value": "just looking"}}}, timeout=30)
    assert put.status_code == 200, put.text
    # J is first heard of now: M2-07 12:00 on the store's clock as the backend knows it (the later of
    # its wall clock and the latest signedDate, H's purchase), so J is first seen in M2.
    j_seen = r.backend.customer(J)["firstSeen"]
    w.go(2, 16, 12)  # A renewed at M2-09 12:00, E expired at M2-15 12:00
    a4 = r.buy(YEARLY, A)
    assert a4["originalTransactionId"] == a1["transactionId"] and a4["price"] == 39990, a4
    assert r.stored(A)["subscriptions"][0]["productId"] == YEARLY
    w.go(2, 20, 12)
    assert r.stored(E)["subscriptions"][0]["status"] == 2
    e3 = r.buy(MONTHLY, E)
    assert e3.get("offerDiscountType") is None and e3["price"] == 4990, e3  # a resubscription: no trial
    assert [s["originalTransactionId"] for s in r.stored(E)["subscriptions"]] == [e3["originalTransactionId"]]
    w.go(2, 26, 12)
    assert r.stored(F)["subscriptions"][0]["status"] == 2
    f2 = r.buy(WEEKLY, F)
    assert f2["originalTransactionId"] == f1["transactionId"], f2
    r.stored(F)
    w.go(2, 27, 12)
    auto_renew_off(F)

    # ---- M3
    w.go(3, 21, 12)  # F expired on M3-02…05, E renewed on M3-20 12:00
    c1 = r.buy(MONTHLY, C)
    assert c1["offerDiscountType"] == "FREE_TRIAL", c1
    r.stored(C)
    w.go(3, 22, 12)
    h1 = r.backend.customer(H)["subscriptions"][0]["latestTransactionId"]
    r.admin("POST", f"/transactions/{h1}/refund-request", {"reason": "UNSATISFIED_WITH_PURCHASE"})
    wait_until(lambda: len(r.backend.get("/v1/admin/refund-requests").json()["requests"]) == 2, what="H's refund request")
    w.go(3, 25, 12)
    r.buy(COINS, G)
    one_time(G, [True, False, False])

    # Everything ingested: each subscriber's view equals the store's, and the clock is asOf.
    expected_status = {A: 1, B: 2, D: 5, E: 1, F: 2, H: 1, C: 1}
    for user, status in expected_status.items():
        assert r.stored(user)["subscriptions"][0]["status"] == status, user
    assert r.backend.customer(G)["requestDate"] == w.at(3, 25, 12)
    check_charts(r, w, note=f"J's firstSeen in customer info: {iso(j_seen)} (J was first heard of at {iso(w.at(2, 7, 12))})")


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat()


def chart(r: Rig, w: World, name: str, **params):
    query = {"from": f"{w.labels[0]}-01", "to": w.last_day(3), "resolution": "month", **params}
    got = requests.get(f"{r.backend.base_url}/v1/charts/{name}", params=query, timeout=60)
    assert got.status_code == 200, (name, got.status_code, got.text)
    return got.json()


def table(answer):
    """{series id: [value per period]} and the period labels."""
    ids = [s["id"] for s in answer["series"]]
    return {sid: [p["values"][i] for p in answer["points"]] for i, sid in enumerate(ids)}, [p["period"] for p in answer["points"]]


def check_charts(r: Rig, w: World, note: str):
    listed = r.backend.get("/v1/charts").json()["charts"]
    assert sorted(c["name"] for c in listed) == sorted(CHARTS)

    answers = {}
    mismatches = []  # collected, so that one run reports every chart that differs
    for name in CHARTS:
        answer = chart(r, w, name)
        answers[name] = answer
        assert answer["asOf"] == w.at(3, 25, 12), name
        assert [p["incomplete"] for p in answer["points"]] == [False, False, True], name
        values, periods = table(answer)
        assert periods == w.labels, (name, periods)
        assert set(values) == set(EXPECTED[name]), (name, sorted(values))
        for sid, expected in EXPECTED[name].items():
            if values[sid] != approx(expected):
                mismatches.append(f"{name} {sid}: expected {expected}, got {values[sid]}")

    # Money series name their currency, rates and counts none.
    for s in answers["revenue"]["series"]:
        assert (s["unit"] == "money") == (s["currency"] == "USD"), s

    # mrr_movement's net is MRR at the month's end less MRR at its start (0 before M1).
    mrr = table(answers["mrr"])[0]["mrr.USD"]
    net = table(answers["mrr_movement"])[0]["net.USD"]
    assert net == approx([mrr[0] - 0, mrr[1] - mrr[0], mrr[2] - mrr[1]])
    movement = table(answers["mrr_movement"])[0]
    for i in range(3):
        parts = sum(movement[k][i] for k in ("new.USD", "resubscription.USD", "expansion.USD", "contraction.USD", "churned.USD"))
        assert parts == pytest.approx(net[i], abs=1e-5)  # each part rounded to a millionth
    # actives_movement's net is the change of actives.
    actives = table(answers["actives"])[0]["actives"]
    assert table(answers["actives_movement"])[0]["net"] == [actives[0], actives[1] - actives[0], actives[2] - actives[1]]

    # A filter: the yearly plan only. Revenue: H's and A's yearly purchases in M2; MRR: A and H from M2.
    # New customers with the monthly plan: those with a monthly purchase (A, B, E first seen in M1 at
    # their monthly trial; C in M3); J, who bought nothing, is out.
    yearly = table(chart(r, w, "revenue", product=YEARLY))[0]
    assert yearly["revenue.USD"] == approx([0, 79.98, 0]) and yearly["transactions"] == [0, 2, 0], yearly
    assert yearly["proceeds.USD"] == approx([0, 55.986, 0])
    assert table(chart(r, w, "mrr", product=YEARLY))[0]["mrr.USD"] == approx([0, 2 * Y, 2 * Y])
    assert table(chart(r, w, "customers_new", product=MONTHLY))[0] == {"customers": [3, 0, 1]}
    # Production has nothing: every count and amount is zero.
    for name in ("revenue", "customers_new", "actives", "mrr"):
        values = table(chart(r, w, name, environment="Production"))[0]
        assert all(v == 0 for column in values.values() for v in column), (name, values)

    # The CSV has the JSON's cells.
    got = requests.get(f"{r.backend.base_url}/v1/charts/ltv_per_customer",
                       params={"from": f"{w.labels[0]}-01", "to": w.last_day(3), "resolution": "month", "format": "csv"},
                       timeout=60)
    assert got.status_code == 200 and got.headers["Content-Type"].startswith("text/csv"), got.text
    rows = list(csv.reader(io.StringIO(got.text)))
    answer = answers["ltv_per_customer"]
    assert rows[0] == ["period", "start", "incomplete"] + [s["id"] for s in answer["series"]]
    assert [row[0] for row in rows[1:]] == w.labels
    assert [row[1] for row in rows[1:]] == [f"{label}-01" for label in w.labels]
    assert [row[2] for row in rows[1:]] == ["false", "false", "true"]
    for row, point in zip(rows[1:], answer["points"]):
        assert [None if c == "" else float(c) for c in row[3:]] == approx(point["values"])

    # Errors: an unknown chart, a bad resolution.
    nope = r.backend.get("/v1/charts/nope")
    assert nope.status_code == 404 and nope.json()["error"] == "chartNotFound", nope.text
    bad = r.backend.get("/v1/charts/mrr?resolution=fortnight")
    assert bad.status_code == 400 and bad.json()["error"] == "invalidParameter", bad.text

    assert not mismatches, "\n".join(mismatches + [note])
