"""The subscription backend's dashboard (issue 14 §6) in headless Chromium, against a live store
and a live `openstore backend` on loopback, as a developer runs them.

Buy on the store (a trial, a yearly plan, a weekly plan, a one-time purchase the app posts for a
customer with a hostile app user ID), let a simulated week and a day pass so the trial converts
and the weekly plan renews, then: the overview's figures equal `GET /v1/admin/overview`; the
keyboard alone finds the hostile customer and opens their page, where the hostile name and
entitlement are inert text; with JavaScript off the lookup form still works; no request leaves
the backend's origin; the paywalls page shows offerings and an experiment's report, reached by
keyboard, with hostile copy inert.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List, Optional
from urllib.parse import urlsplit

import pytest
import requests

from harness import REPO_ROOT, By, Keys, ServerProcess, network_requests, press, tab_until, wait_for
import run_log  # testsupport/, on the path via harness
from manage_support import unnamed_controls
from selenium.common.exceptions import NoAlertPresentException

CATALOG = REPO_ROOT / "compat" / "fixtures" / "compat.storekit"
MONTHLY, YEARLY, WEEKLY, LIFETIME = "compat.plus.monthly", "compat.plus.yearly", "compat.news.weekly", "compat.lifetime"
APPLE_ID = 1_700_014_016
# Markup with neither a space nor a slash: the app puts it in the request path as it is (the
# backend's API takes the path segment as sent; a slash would end it).
HOSTILE_USER = "<script>alert('user')<!--\"'&amp;<b>bold<img>"
HOSTILE_ENTITLEMENT = "<b onmouseover=alert(3)>lifetime</b>"
LISTENING = re.compile(r"listening on (http://[^\s/]+:\d+)")


class Backend:
    """`openstore backend` on a free loopback port (the port it printed is read back)."""

    def __init__(self, binary: Path, folder: Path, args: List[str]):
        folder.mkdir(parents=True, exist_ok=True)
        cmd = [str(binary), "backend", "--host", "127.0.0.1", "--port", "0", "--database", str(folder / "backend.sqlite"), *args]
        self.lines: List[str] = []
        self.base_url: Optional[str] = None
        ready = threading.Event()
        run_log.record_launch(cmd)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     cwd=str(REPO_ROOT), text=True, encoding="utf-8", errors="replace", bufsize=1)

        def pump():
            for line in self.proc.stdout:
                self.lines.append(line)
                run_log.record_output(line)
                m = LISTENING.search(line)
                if m and not ready.is_set():
                    self.base_url = m.group(1)
                    ready.set()

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + 60
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("openstore backend did not start:\n" + "".join(self.lines[-40:]))

    def get(self, path: str) -> requests.Response:
        return requests.get(self.base_url + path, timeout=30)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def cli(store: ServerProcess, *args: str) -> str:
    done = subprocess.run([str(store.binary), *args], cwd=str(REPO_ROOT), capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr.decode() + done.stdout.decode()
    return done.stdout.decode()


@pytest.fixture
def rig(openstore_binary, tmp_path):
    bundle = "com.example.dashboard"
    store = ServerProcess(openstore_binary, data_dir=tmp_path / "store", log_path=tmp_path / "store.log",
                          extra_args=["--catalog", str(CATALOG), "--bundle-id", bundle, "--app-apple-id", str(APPLE_ID),
                                      "--environment", "Sandbox"])
    store.start()
    backend = None
    try:
        key = json.loads(cli(store, "keys", "create", "--bundle-id", bundle, "--data", str(store.data_dir),
                             "--out", str(tmp_path / "AuthKey.p8"), "--json").strip().splitlines()[-1])
        backend = Backend(openstore_binary, tmp_path / "backend", [
            "--bundle-id", bundle, "--app-apple-id", str(APPLE_ID), "--environment", "Sandbox", "--no-apple-root",
            "--trust-store", store.base_url, "--api-key", key["privateKeyFile"], "--key-id", key["keyId"],
            "--issuer-id", key["issuerId"], "--api-base-url", store.base_url, "--reconcile-interval", "0",
            "--entitlement", f"{LIFETIME}={HOSTILE_ENTITLEMENT}"])
        yield store, backend, bundle
    finally:
        if backend:
            backend.stop()
        store.stop()


def overview(backend: Backend) -> Dict[str, Any]:
    r = backend.get("/v1/admin/overview")
    assert r.status_code == 200, r.text
    return r.json()


def expected_texts(figures: Dict[str, Any]) -> Dict[str, str]:
    """How the page writes each figure (docs/backend.md, Dashboard): counts as integers, money as
    `4.99 USD` per currency joined by commas (`none` when empty), rates as `33.3%` (`n/a`)."""
    def money(amounts):
        return ", ".join(f"{a['amount']:.2f} {a['currency']}" for a in amounts) or "none"

    def rate(ratio):
        return "n/a" if ratio["rate"] is None else f"{ratio['rate'] * 100:.1f}%"

    return {
        "activeSubscriptions": str(figures["activeSubscriptions"]), "activeTrials": str(figures["activeTrials"]),
        "mrr": money(figures["mrr"]), "revenueLast28Days": money(figures["revenueLast28Days"]),
        "newCustomers": str(figures["newCustomers"]), "trialConversion": rate(figures["trialConversion"]),
        "churn": rate(figures["churn"]), "refundRate": rate(figures["refundRate"]),
        "refundRequests": str(figures["refundRequests"]["requested"]),
    }


def page_figures(driver) -> Dict[str, str]:
    return {e.get_attribute("data-figure"): e.find_element(By.CSS_SELECTOR, ".bd-value").text
            for e in driver.find_elements(By.CSS_SELECTOR, "dd[data-figure]")}


def assert_no_alert(driver):
    try:
        text = driver.switch_to.alert.text
    except NoAlertPresentException:
        return
    raise AssertionError(f"hostile text ran as script: an alert said {text!r}")


def post_raw(base_url: str, path: str, body: Dict[str, Any]):
    """POST with the path exactly as given (requests would percent-encode it)."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, answer.read().decode()
    finally:
        conn.close()


def foreign(urls: List[str], origin: str) -> List[str]:
    return [u for u in urls if not (u.startswith(origin + "/") or u == origin or u.startswith("data:") or u == "about:blank")]


def test_dashboard_matches_the_api_works_by_keyboard_and_keeps_hostile_text_inert(rig, chromium):
    store, backend, bundle = rig
    buy = lambda product, customer, **extra: requests.post(  # noqa: E731
        f"{store.base_url}/storekit/v1/apps/{bundle}/purchases", json={"productId": product, "customer": customer, **extra}, timeout=60)
    # The app posts a one-time purchase for a customer whose app user ID is hostile text (before
    # the store notifies the backend, so the app's post is what links it).
    bought = buy(LIFETIME, "dee")
    assert bought.status_code == 200, bought.text
    posted = post_raw(backend.base_url, f"/v1/customers/{HOSTILE_USER}/transactions",
                      {"signedTransaction": bought.json()["signedTransaction"]})
    assert posted[0] == 200 and json.loads(posted[1])["appUserId"] == HOSTILE_USER, posted
    cli(store, "app", "set-notification-url", "--bundle-id", bundle, "--environment", "Sandbox", "--server", store.base_url,
        "--url", f"{backend.base_url}/apple/notifications/{bundle}")
    transaction_ids = {}
    for product, customer in [(MONTHLY, "ana"), (YEARLY, "ben"), (WEEKLY, "cy")]:
        r = buy(product, customer, appAccountToken=str(uuid.uuid4()))
        assert r.status_code == 200, r.text
        transaction_ids[customer] = r.json()["transaction"]["transactionId"]
    # Eight days pass on the store's clock: ana's one-week trial converts, cy's week renews.
    r = requests.post(f"{store.base_url}/admin/v1/worlds/default/time/advance", json={"duration": "8d"}, timeout=120)
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 30
    while True:
        figures = overview(backend)
        if (figures["activeSubscriptions"], figures["activeTrials"]) == (3, 0) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert (figures["activeSubscriptions"], figures["activeTrials"], figures["trialConversion"]["rate"]) == (3, 0, 1.0), figures
    # MRR: 4.99 monthly + 39.99 yearly ÷ 12 + 1.99 weekly × 52 ÷ 12 (RevenueCat's normalization).
    assert figures["mrr"] == [{"currency": "USD", "amount": round(4.99 + 39.99 / 12 + 1.99 * 52 / 12, 2),
                               "milliunits": round(4990 + 39990 / 12 + 1990 * 52 / 12), "count": 3}], figures["mrr"]

    driver = chromium(log_network=True)
    driver.get(backend.base_url + "/")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "dd[data-figure]"), "the overview's figures")
    assert page_figures(driver) == expected_texts(overview(backend))
    assert driver.find_elements(By.CSS_SELECTOR, "svg.mg-chart[role=img]"), "the charts are inline SVG images"
    assert not driver.find_elements(By.CSS_SELECTOR, "script")
    assert not unnamed_controls(driver), unnamed_controls(driver)

    # Keyboard only: Tab to the lookup, type part of the hostile ID, Enter; Tab to the customer, Enter.
    tab_until(driver, "e.id === 'bd-search'")
    press(driver, "<script>", Keys.ENTER)
    wait_for(driver, lambda d: "/customers?" in d.current_url, "the lookup's results")
    assert_no_alert(driver)
    tab_until(driver, "e.tagName === 'A' && e.getAttribute('href').indexOf('/customers/%3Cscript') === 0")
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "h1 .bd-user"), "the customer page")
    assert_no_alert(driver)
    assert driver.find_element(By.CSS_SELECTOR, "h1 .bd-user").text == HOSTILE_USER
    assert HOSTILE_ENTITLEMENT in driver.find_element(By.CSS_SELECTOR, "table[aria-label=Entitlements]").text
    assert driver.execute_script(
        "return document.querySelectorAll('script, img, b, [onerror], [onmouseover]').length") == 0
    assert [e.get_attribute("data-event") for e in driver.find_elements(By.CSS_SELECTOR, "li[data-event]")] == ["NON_RENEWING_PURCHASE"]
    requested = network_requests(driver)
    assert requested and not foreign(requested, backend.base_url), foreign(requested, backend.base_url)

    # The paywalls page (#34 §6): offerings and an experiment's report as accessible tables,
    # reached by keyboard from the navigation; the offering's copy is inert text.
    hostile_title = "<img src=x onerror=alert(4)>Sale"
    for offering, products in [("default", [MONTHLY, YEARLY]), ("sale", [YEARLY])]:
        r = requests.put(f"{backend.base_url}/v1/admin/apps/{bundle}/offerings/{offering}", timeout=30,
                         json={"packages": [{"id": p.split(".")[-1], "productId": p} for p in products], "metadata": {"title": hostile_title}})
        assert r.status_code == 200, r.text
    r = requests.put(f"{backend.base_url}/v1/admin/experiments/sale-test", json={"bundleId": bundle, "control": "default", "treatment": "sale"}, timeout=30)
    assert r.status_code == 200, r.text
    driver.get(backend.base_url + "/")
    tab_until(driver, "e.tagName === 'A' && e.getAttribute('href') === '/paywalls'")
    press(driver, Keys.ENTER)
    report_table = "table[aria-label='Experiment sale-test by variant']"
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, report_table), "the paywalls page")
    assert_no_alert(driver)
    assert hostile_title in driver.find_element(By.CSS_SELECTOR, f"table[aria-label='Offerings of {bundle}']").text
    assert driver.execute_script("return document.querySelectorAll('script, img, [onerror]').length") == 0
    rows = driver.find_elements(By.CSS_SELECTOR, report_table + " tbody tr")
    assert [row.find_element(By.CSS_SELECTOR, "th").text for row in rows] == ["control", "treatment"]
    assert not unnamed_controls(driver), unnamed_controls(driver)

    # JavaScript off: the environment filter and the lookup are plain forms.
    plain = chromium(javascript=False)
    plain.get(backend.base_url + "/")
    tab_until(plain, "e.id === 'bd-environment'")
    press(plain, Keys.DOWN, Keys.DOWN)  # Production, then Sandbox
    tab_until(plain, "e.tagName === 'BUTTON' && e.textContent === 'Show'")
    press(plain, Keys.ENTER)
    wait_for(plain, lambda d: "environment=Sandbox" in d.current_url, "the Sandbox overview")
    r = backend.get("/v1/admin/overview?environment=Sandbox")
    assert page_figures(plain) == expected_texts(r.json())
    plain.get(backend.base_url + "/")
    tab_until(plain, "e.id === 'bd-search'")
    press(plain, transaction_ids["ben"], Keys.ENTER)
    wait_for(plain, lambda d: d.find_elements(By.CSS_SELECTOR, "table[aria-label=Customers]"), "the lookup by transaction ID")
    assert "transaction ID" in plain.find_element(By.CSS_SELECTOR, "table[aria-label=Customers]").text
