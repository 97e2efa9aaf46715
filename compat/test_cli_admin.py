"""The CLI's world, time and Transaction Manager commands against a live store (admin API over HTTP).

Each test makes its own world, so it shares the session's server with the other suites and never
sees their customers. Apple's verifier checks the renewal the clock jump produces.
"""

from __future__ import annotations

import json
import uuid

import pytest
import requests

from openstore_harness import (
    HTTP_TIMEOUT, assert_error, describe, jws_parts, make_verifier, new_customer, ok_json,
)
from appstoreserverlibrary.models.Environment import Environment

SANDBOX = "com.example.sandbox"
YEARLY, COINS = "compat.plus.yearly", "compat.coins"


def cli(server, *args, ok=True):
    done = server.run_cli(*args, "--server", server.base_url)
    out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    if ok:
        assert done.returncode == 0, f"openstore {' '.join(args)} exited {done.returncode}:\n{err}{out}"
    return done.returncode, out, err


def cli_json(server, *args):
    _, out, _ = cli(server, *args, "--json")
    return json.loads(out)


@pytest.fixture
def world(catalog_server):
    name = f"cli-{uuid.uuid4().hex[:10]}"
    _, out, _ = cli(catalog_server, "world", "create", name, "--rate", "realTime")
    assert name in out
    yield name
    requests.delete(f"{catalog_server.base_url}/admin/v1/worlds/{name}", timeout=HTTP_TIMEOUT)


def buy(server, world, product, customer):
    return requests.post(f"{server.base_url}/storekit/v1/worlds/{world}/apps/{SANDBOX}/purchases",
                         json={"productId": product, "customer": customer}, timeout=HTTP_TIMEOUT)


def signed_transactions(server, world, customer, which="transactions"):
    r = requests.get(f"{server.base_url}/storekit/v1/worlds/{world}/apps/{SANDBOX}/customers/{customer}/{which}",
                     timeout=HTTP_TIMEOUT)
    return ok_json(r)["signedTransactions"]


def test_world_create_list_delete(catalog_server):
    name = f"cli-{uuid.uuid4().hex[:10]}"
    cli(catalog_server, "world", "create", name, "--rate", "oneSecondIsOneDay")
    _, out, _ = cli(catalog_server, "world", "list")
    assert any(line.startswith(name + " ") and "oneSecondIsOneDay" in line for line in out.splitlines()), out
    cli(catalog_server, "world", "delete", name)
    r = requests.get(f"{catalog_server.base_url}/admin/v1/worlds/{name}", timeout=HTTP_TIMEOUT)
    assert_error(r, 404, "worldNotFound")
    code, _, err = cli(catalog_server, "world", "delete", "default", ok=False)
    assert code != 0 and "invalidAction" in err


def test_the_cli_reads_more_spellings_than_the_api_and_sends_the_apis_own(catalog_server, world):
    """The admin API takes one spelling of a duration and a rate (openapi.json); the CLI takes
    what people type ("36 hours", "1.5d", any case) and sends the API's form."""
    before = cli_json(catalog_server, "time", "show", "--world", world)["nowMs"]
    cli(catalog_server, "time", "advance", "36 hours", "--world", world)
    cli(catalog_server, "time", "advance", "1.5d", "--world", world)
    after = cli_json(catalog_server, "time", "show", "--world", world)["nowMs"]
    assert after - before >= 72 * 3_600_000
    _, out, _ = cli(catalog_server, "time", "set-rate", "ONESECONDISONEDAY", "--world", world)
    assert "oneSecondIsOneDay" in out, out
    r = requests.post(f"{catalog_server.base_url}/admin/v1/worlds/{world}/time/advance", json={"duration": "36 hours"},
                      timeout=HTTP_TIMEOUT)
    assert_error(r, 400, "malformedRequest")


def test_time_advance_renews_and_apple_verifies_the_renewal(catalog_server, world):
    customer = new_customer("cli")
    first = ok_json(buy(catalog_server, world, YEARLY, customer))
    _, first_payload = jws_parts(first["signedTransaction"])
    before = cli_json(catalog_server, "time", "show", "--world", world)["nowMs"]

    after = cli_json(catalog_server, "time", "advance", "P1Y", "--world", world)
    assert after["nowMs"] - before >= 365 * 86_400_000
    cli(catalog_server, "time", "advance", "1d", "--world", world)

    signed = signed_transactions(catalog_server, world, customer)
    assert len(signed) == 2
    root = requests.get(f"{catalog_server.base_url}/storekit/v1/root-certificate", timeout=HTTP_TIMEOUT).content
    verifier = make_verifier(root, SANDBOX, Environment.SANDBOX)
    decoded = [verifier.verify_and_decode_signed_transaction(jws) for jws in signed]
    renewal = next(t for t in decoded if t.rawTransactionReason == "RENEWAL")
    assert renewal.originalTransactionId == first_payload["transactionId"]
    assert renewal.purchaseDate == first_payload["expiresDate"]

    events = cli_json(catalog_server, "events", "--world", world)["events"]
    assert [e["type"] for e in events if e["customer"] == customer] == ["SUBSCRIBED", "DID_RENEW"]
    subs = cli_json(catalog_server, "subscriptions", "--bundle-id", SANDBOX, "--customer", customer, "--world", world)
    assert [s["status"] for s in subs["subscriptions"]] == [1]

    _, out, _ = cli(catalog_server, "time", "set-rate", "720x", "--world", world)
    assert "720" in out


def test_transaction_manager_commands(catalog_server, world):
    customer = new_customer("cli")
    bought = ok_json(buy(catalog_server, world, YEARLY, customer))
    tx = jws_parts(bought["signedTransaction"])[1]["transactionId"]

    off = cli_json(catalog_server, "auto-renew", tx, "off", "--world", world)
    assert off["renewalInfo"]["autoRenewStatus"] == 0
    renewed = cli_json(catalog_server, "renew", tx, "--world", world)
    assert renewed["transaction"]["transactionReason"] == "RENEWAL"
    expired = cli_json(catalog_server, "expire", tx, "--world", world)
    assert expired["renewalInfo"]["expirationIntent"] == 1

    coins = ok_json(buy(catalog_server, world, COINS, customer))
    coin_tx = jws_parts(coins["signedTransaction"])[1]["transactionId"]
    refunded = cli_json(catalog_server, "refund", coin_tx, "--reason", "1", "--world", world)
    assert refunded["transaction"]["revocationReason"] == 1 and refunded["transaction"]["revocationDate"] > 0

    code, _, err = cli(catalog_server, "refund", "1", "--world", world, ok=False)
    assert code != 0 and "transactionNotFound" in err

    cli(catalog_server, "clear", "--bundle-id", SANDBOX, "--customer", customer, "--world", world)
    assert signed_transactions(catalog_server, world, customer) == []


def test_switches_ask_to_buy_and_simulated_errors(catalog_server, world):
    customer = new_customer("cli")
    cli(catalog_server, "simulate-error", "purchase", "userCancelled", "--world", world)
    assert_error(buy(catalog_server, world, COINS, customer), 409, "userCancelled")
    _, out, _ = cli(catalog_server, "simulate-error", "--world", world)
    assert "purchase  userCancelled" in out
    cli(catalog_server, "simulate-error", "purchase", "--clear", "--world", world)
    ok_json(buy(catalog_server, world, COINS, customer))

    _, out, _ = cli(catalog_server, "ask-to-buy", "on", "--world", world)
    assert "askToBuy=on" in out
    pending = ok_json(buy(catalog_server, world, YEARLY, customer))
    assert pending["status"] == "pending" and "signedTransaction" not in pending, pending
    _, out, _ = cli(catalog_server, "ask-to-buy", "list", "--world", world)
    assert pending["pendingId"] in out
    approved = cli_json(catalog_server, "ask-to-buy", "approve", pending["pendingId"], "--world", world)
    assert approved["status"] == "purchased"
    unfinished = [jws_parts(j)[1]["productId"] for j in signed_transactions(catalog_server, world, customer, "unfinished")]
    assert YEARLY in unfinished

    for command in ("fail-renewals", "grace-period", "interrupted-purchases"):
        cli(catalog_server, command, "on", "--world", world)
    info = ok_json(requests.get(f"{catalog_server.base_url}/admin/v1/worlds/{world}", timeout=HTTP_TIMEOUT))
    assert {k: info["settings"].get(k) for k in ("failRenewals", "billingGracePeriod", "interruptedPurchases")} == \
        {"failRenewals": True, "billingGracePeriod": True, "interruptedPurchases": True}

    # The default world never saw any of it.
    default = ok_json(requests.get(f"{catalog_server.base_url}/admin/v1/worlds/default", timeout=HTTP_TIMEOUT))
    assert default["settings"].get("askToBuy") is None and default["settings"]["simulatedErrors"] == {}


def test_admin_token(fresh_server, monkeypatch):
    monkeypatch.setenv("OPENSTORE_ADMIN_TOKEN", "compat-token")
    server = fresh_server("token").start()
    monkeypatch.delenv("OPENSTORE_ADMIN_TOKEN")
    r = requests.get(f"{server.base_url}/admin/v1/worlds", timeout=HTTP_TIMEOUT)
    assert_error(r, 401, "unauthorized")
    r = requests.get(f"{server.base_url}/admin/v1/worlds", headers={"Authorization": "Bearer nope"}, timeout=HTTP_TIMEOUT)
    assert_error(r, 401, "unauthorized")
    r = requests.get(f"{server.base_url}/admin/v1/worlds", headers={"Authorization": "Bearer compat-token"}, timeout=HTTP_TIMEOUT)
    assert ok_json(r)["worlds"], describe(r)
    code, _, err = cli(server, "world", "list", ok=False)
    assert code != 0 and "unauthorized" in err
    cli(server, "world", "list", "--admin-token", "compat-token")
    monkeypatch.setenv("OPENSTORE_ADMIN_TOKEN", "compat-token")
    cli(server, "world", "list")
