"""`openstore purchase`, `receiver`, `resolve` and `app`: each command's exit code and what it prints,
on success and on its main errors, against a live store. (The `catalog` command has its own tests.)

ArgumentParser's conventions: 0 on success, 64 (EX_USAGE) for a usage error, 1 when the store
refuses or cannot be reached; errors go to stderr as "Error: …".
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
import time
import uuid
from typing import List

import pytest
import requests
from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import HTTP_TIMEOUT, StoreClient, jws_parts, make_verifier, ok_json
from openstore_process import free_port  # testsupport/, on the path via openstore_harness

SANDBOX = "com.example.sandbox"
COINS, WEEKLY = "compat.coins", "compat.news.weekly"
USAGE = 64


def run(server, *args):
    done = server.run_cli(*args)
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")


@pytest.fixture
def world(catalog_server):
    name = f"cmd-{uuid.uuid4().hex[:10]}"
    r = requests.post(f"{catalog_server.base_url}/admin/v1/worlds", json={"id": name}, timeout=HTTP_TIMEOUT)
    assert r.status_code == 201, r.text
    yield name
    requests.delete(f"{catalog_server.base_url}/admin/v1/worlds/{name}", timeout=HTTP_TIMEOUT)


# -- purchase ----------------------------------------------------------------------------------

def test_purchase_prints_a_verifiable_transaction(catalog_server):
    customer = f"cmd-{uuid.uuid4().hex[:8]}"
    code, out, err = run(catalog_server, "purchase", COINS, "--customer", customer, "--bundle-id", SANDBOX,
                         "--quantity", "2", "--server", catalog_server.base_url)
    assert (code, err) == (0, ""), err
    [line] = out.splitlines()
    verifier = make_verifier(StoreClient(catalog_server.base_url).root_der(), SANDBOX, Environment.SANDBOX)
    tx = verifier.verify_and_decode_signed_transaction(line)
    assert (tx.productId, tx.quantity) == (COINS, 2)
    # Without --bundle-id, the app whose catalog sells the product (the first hosted one).
    code, out, err = run(catalog_server, "purchase", COINS, "--customer", customer, "--server", catalog_server.base_url)
    assert code == 0, err
    assert jws_parts(out.strip())[1]["productId"] == COINS


def test_purchase_errors(catalog_server):
    base = catalog_server.base_url
    code, out, err = run(catalog_server, "purchase", "compat.nothing", "--customer", "x", "--server", base)
    assert code == USAGE and out == ""
    assert f"Error: no app on {base} sells compat.nothing; pass --bundle-id" in err, err
    code, _, err = run(catalog_server, "purchase", COINS, "--customer", "x", "--bundle-id", SANDBOX, "--quantity", "11", "--server", base)
    assert code == 1 and err.startswith("Error: the store refused: ") and err.rstrip().endswith("(invalidQuantity)"), err
    code, _, err = run(catalog_server, "purchase", COINS, "--customer", "x", "--bundle-id", "com.nope", "--server", base)
    assert code == 1 and err.rstrip().endswith("(appNotFound)"), err
    code, _, err = run(catalog_server, "purchase", COINS, "--server", base)
    assert code == USAGE and "Missing expected argument '--customer <customer>'" in err, err
    dead = f"http://127.0.0.1:{free_port()}"
    code, _, err = run(catalog_server, "purchase", COINS, "--customer", "x", "--bundle-id", SANDBOX, "--server", dead)
    assert code == 1 and f"Error: cannot reach the store at {dead}" in err, err


# -- app ---------------------------------------------------------------------------------------

def test_app_notification_url_set_show_and_errors(catalog_server, world):
    base = catalog_server.base_url
    url = "http://127.0.0.1:9/notifications"
    code, out, err = run(catalog_server, "app", "set-notification-url", "--bundle-id", SANDBOX, "--url", url,
                         "--world", world, "--server", base)
    assert (code, err) == (0, ""), err
    assert out.splitlines() == [f"{SANDBOX} (sends in Sandbox)", "  Production: -", f"  Sandbox:    {url}"]
    code, out, _ = run(catalog_server, "app", "notification-url", "--bundle-id", SANDBOX, "--world", world, "--server", base, "--json")
    assert code == 0 and json.loads(out)["sandboxURL"] == url
    code, out, _ = run(catalog_server, "app", "set-notification-url", "--bundle-id", SANDBOX, "--url", "", "--world", world, "--server", base)
    assert code == 0 and out.splitlines()[2] == "  Sandbox:    -", out

    code, _, err = run(catalog_server, "app", "set-notification-url", "--bundle-id", "com.nope", "--url", url, "--world", world, "--server", base)
    assert code == 1 and err.rstrip().endswith("(appNotFound)"), err
    code, _, err = run(catalog_server, "app", "set-notification-url", "--bundle-id", SANDBOX, "--url", "ftp://x", "--world", world, "--server", base)
    assert code == 1 and err.rstrip().endswith("(unprocessableRequest)"), err
    code, _, err = run(catalog_server, "app", "set-notification-url", "--bundle-id", SANDBOX, "--world", world, "--server", base)
    assert code == USAGE and "Missing expected argument '--url <url>'" in err, err
    code, _, err = run(catalog_server, "app", "notification-url", "--bundle-id", SANDBOX, "--world", "no-such-world", "--server", base)
    assert code == 1 and err.rstrip().endswith("(worldNotFound)"), err


# -- resolve -----------------------------------------------------------------------------------

def test_resolve_ends_a_billing_retry_and_refuses_what_has_no_issue(catalog_server, world):
    base = catalog_server.base_url
    r = requests.post(f"{base}/storekit/v1/worlds/{world}/apps/{SANDBOX}/purchases",
                      json={"productId": WEEKLY, "customer": "res"}, timeout=HTTP_TIMEOUT)
    tx = ok_json(r)["transaction"]["transactionId"]

    code, _, err = run(catalog_server, "resolve", tx, "--world", world, "--server", base)
    assert code == 1 and err.rstrip().endswith("(invalidAction)"), err

    ok_json(requests.patch(f"{base}/admin/v1/worlds/{world}/settings", json={"failRenewals": True}, timeout=HTTP_TIMEOUT))
    ok_json(requests.post(f"{base}/admin/v1/worlds/{world}/time/advance", json={"duration": "8d"}, timeout=HTTP_TIMEOUT))
    code, out, err = run(catalog_server, "resolve", tx, "--world", world, "--server", base, "--json")
    assert (code, err) == (0, ""), err
    answer = json.loads(out)
    assert answer["status"] == "purchased"
    assert answer["transaction"]["transactionReason"] == "RENEWAL" and answer["transaction"]["originalTransactionId"] == tx

    code, _, err = run(catalog_server, "resolve", "123456789", "--world", world, "--server", base)
    assert code == 1 and err.rstrip().endswith("(transactionNotFound)"), err
    code, _, err = run(catalog_server, "resolve", "--world", world, "--server", base)
    assert code == USAGE and "Missing expected argument '<id>'" in err, err


# -- receiver ----------------------------------------------------------------------------------

class Receiver:
    """`openstore receiver` as a background process; its stdout lines are collected."""

    def __init__(self, server, *args):
        self.port = free_port()
        self.lines: List[str] = []
        self.proc = subprocess.Popen([str(server.binary), "receiver", "--port", str(self.port), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.reader = threading.Thread(target=self._pump, daemon=True)
        self.reader.start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 60) -> List[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.lines):
                return list(self.lines)
            if self.proc.poll() is not None:
                self.reader.join(timeout=5)
                break
            time.sleep(0.05)
        raise AssertionError(f"receiver never printed {text!r} (exit {self.proc.poll()}); it printed:\n" + "\n".join(self.lines))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def test_receiver_verifies_and_prints_each_notification(catalog_server, world):
    base = catalog_server.base_url
    receiver = Receiver(catalog_server, "--server", base)
    try:
        receiver.wait_for(f"receiving notifications on http://127.0.0.1:{receiver.port}/")
        code, _, err = run(catalog_server, "app", "set-notification-url", "--bundle-id", SANDBOX,
                           "--url", f"http://127.0.0.1:{receiver.port}/", "--world", world, "--server", base)
        assert code == 0, err
        r = requests.post(f"{base}/storekit/v1/worlds/{world}/apps/{SANDBOX}/purchases",
                          json={"productId": COINS, "customer": "rcv"}, timeout=HTTP_TIMEOUT)
        tx = ok_json(r)["transaction"]["transactionId"]
        lines = receiver.wait_for(f"transaction {tx} ")
        [head] = [line for line in lines if line.startswith("━━ ")]
        assert head.startswith("━━ ONE_TIME_CHARGE  "), head
        assert any("✓ verified (payload and nested JWS) with the store's root" in line for line in lines), lines
        assert any(f"app {SANDBOX} " in line and "Sandbox" in line for line in lines), lines
    finally:
        receiver.stop()
    assert receiver.proc.returncode == 0


def test_receiver_without_a_root_certificate_fails_with_usage_code(catalog_server):
    dead = f"http://127.0.0.1:{free_port()}"
    receiver = Receiver(catalog_server, "--server", dead)
    receiver.proc.wait(timeout=60)
    receiver.reader.join(timeout=5)
    output = "\n".join(receiver.lines)
    assert receiver.proc.returncode == USAGE, output
    assert f"Error: cannot get the root certificate from {dead}" in output and "give --root FILE.der or --data DIR" in output


# -- keys create -------------------------------------------------------------------------------

def test_keys_create_refuses_a_missing_world_and_a_path_that_is_not_a_file(catalog_server, world, tmp_path):
    """A key of a world that does not exist would answer 401 on every call, so it is refused with
    the way out; an --out that is a device or a folder is refused before any key is made (an atomic
    write renames over the path, which as root replaced /dev/full itself)."""
    data = ["--data", str(catalog_server.data_dir), "--bundle-id", SANDBOX]
    code, out, err = run(catalog_server, "keys", "create", *data, "--world", "no-such-world", "--out", str(tmp_path / "k.p8"))
    assert (code, out) == (USAGE, ""), err
    assert "no world named no-such-world" in err and "openstore world create no-such-world" in err, err
    assert not (tmp_path / "k.p8").exists()
    fifo = tmp_path / "fifo"  # a special file of the test's own: never risk a real device node
    os.mkfifo(fifo)
    for path, kind in [(str(fifo), "not a regular file"), (str(tmp_path), "a folder")]:
        code, out, err = run(catalog_server, "keys", "create", *data, "--out", path)
        assert (code, out) == (USAGE, ""), err
        assert f"--out {path} is {kind}" in err, err
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still the FIFO, not replaced by a key file
    # A world that exists gets its key.
    code, out, err = run(catalog_server, "keys", "create", *data, "--world", world, "--out", str(tmp_path / "w.p8"), "--json")
    assert code == 0, err
    assert json.loads(out.strip().splitlines()[-1])["world"] == world
