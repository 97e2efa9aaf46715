"""The subscription backend's charts (`/charts`, `/charts/{name}`; docs/backend.md, Charts) in
headless Chromium, against a live store and a live `openstore backend` on loopback.

A little history is bought on the store first: a monthly plan whose free week converts and whose
first paid month renews (the store's clock runs forty days on), a yearly plan, a one-time purchase
that is refunded, and, after the forty days, a second monthly plan still in its free week. Then:

* every chart `GET /v1/charts` lists renders: an `svg[role=img]` with a spoken summary, and a
  table holding exactly the JSON's cells (a row per point, a column per series), written as the
  page writes them (money with two decimals, rates as `12.5%`, counts as integers, null as `—`);
  the revenue, MRR, active subscriptions, churn, trials and refund charts also add up to the
  purchases made;
* the keyboard alone opens a chart from `/charts`, changes its resolution to `month` and submits
  the form, and reaches the table's scroll region;
* with a dark colour scheme (and a light one) the page's background, its text and the chart's SVG
  text follow it, and every text reads at WCAG AA contrast;
* a chart page requests nothing but the document itself;
* hostile filter values (markup in the query, encoded or raw) come back as the inputs' text and
  in error messages as text, never as markup, and no alert fires;
* the CSV link downloads `text/csv` with the table's rows (and the API's CSV, byte for byte);
* with JavaScript off, the filter form still works.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import re
import time
import uuid
from typing import Any, Dict, List, Optional
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit

import pytest
import requests

from harness import (
    COLORS_JS, ServerProcess, By, Keys, contrast, luminance, network_requests, parse_css_color, press, resource_entries,
    screenshot_page, tab_until, wait, wait_for,
)
from manage_support import INTERACTIVE, ax_nodes, unnamed_controls
from test_backend_dashboard import (  # the dashboard test's live backend and its helpers (not its tests)
    APPLE_ID, CATALOG, LIFETIME, MONTHLY, YEARLY, Backend, assert_no_alert, cli,
)

BUNDLE = "com.example.charts"
HOSTILE_PRODUCT = "<script>alert(1)</script>"
HOSTILE_APP = '"><img src=x onerror=alert(2)>'
# Prices in compat.storekit.
MONTHLY_PRICE, YEARLY_PRICE = 4.99, 39.99
# A range that holds every purchase the rig makes, by month (the store's clock starts today).
SINCE = "2020-01-01"


# ---------------------------------------------------------------------------------------------
# The rig: one store, one backend, one short history, shared by the module's tests.


@pytest.fixture(scope="module")
def charts(openstore_binary, tmp_path_factory):
    root = tmp_path_factory.mktemp("charts")
    store = ServerProcess(openstore_binary, data_dir=root / "store", log_path=root / "store.log",
                          extra_args=["--catalog", str(CATALOG), "--bundle-id", BUNDLE, "--app-apple-id", str(APPLE_ID),
                                      "--environment", "Sandbox"])
    store.start()
    backend = None
    try:
        key = json.loads(cli(store, "keys", "create", "--bundle-id", BUNDLE, "--data", str(store.data_dir),
                             "--out", str(root / "AuthKey.p8"), "--json").strip().splitlines()[-1])
        backend = Backend(openstore_binary, root / "backend", [
            "--bundle-id", BUNDLE, "--app-apple-id", str(APPLE_ID), "--environment", "Sandbox", "--no-apple-root",
            "--trust-store", store.base_url, "--api-key", key["privateKeyFile"], "--key-id", key["keyId"],
            "--issuer-id", key["issuerId"], "--api-base-url", store.base_url, "--reconcile-interval", "0"])
        make_history(store, backend)
        yield backend
    finally:
        if backend:
            backend.stop()
        store.stop()


def make_history(store: ServerProcess, backend: Backend) -> None:
    cli(store, "app", "set-notification-url", "--bundle-id", BUNDLE, "--environment", "Sandbox", "--server", store.base_url,
        "--url", f"{backend.base_url}/apple/notifications/{BUNDLE}")

    def buy(product: str, customer: str) -> Dict[str, Any]:
        r = requests.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases", timeout=60,
                          json={"productId": product, "customer": customer, "appAccountToken": str(uuid.uuid4())})
        assert r.status_code == 200, r.text
        return r.json()["transaction"]

    buy(MONTHLY, "ana")  # a free week, then monthly
    buy(YEARLY, "ben")
    lifetime = buy(LIFETIME, "dee")
    r = requests.post(f"{store.base_url}/admin/v1/worlds/default/transactions/{lifetime['transactionId']}/refund", json={}, timeout=60)
    assert r.status_code < 300, r.text
    # Forty days: ana's trial converts (day 7) and her first paid month renews (about day 37).
    r = requests.post(f"{store.base_url}/admin/v1/worlds/default/time/advance", json={"duration": "40d"}, timeout=120)
    assert r.status_code == 200, r.text
    buy(MONTHLY, "eve")  # still in her free week
    # The notifications arrive in the background: wait (bounded) until the backend has them all.
    deadline = time.monotonic() + 60
    while True:
        totals = {name: totals_of(backend, name) for name in ("revenue", "trials", "refund_rate")}
        done = (totals["revenue"].get("transactions") == 3 and totals["refund_rate"].get("refunded") == 1
                and totals["trials"].get("started") == 2)
        if done or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert done, f"the backend never saw the whole history: {totals}"


# ---------------------------------------------------------------------------------------------
# Reading the API and the page


def api(backend: Backend, name: str, query: str = "") -> Dict[str, Any]:
    r = backend.get(f"/v1/charts/{name}" + (f"?{query}" if query else ""))
    assert r.status_code == 200, f"GET /v1/charts/{name}?{query}: {r.status_code} {r.text[:500]}"
    return r.json()


def totals_of(backend: Backend, name: str) -> Dict[str, float]:
    """Each series of a chart summed over the years since SINCE."""
    chart = api(backend, name, f"resolution=year&from={SINCE}")
    return {s["id"]: sum(p["values"][i] or 0 for p in chart["points"]) for i, s in enumerate(chart["series"])}


def number(value: float) -> str:
    """`Chart.number`: a whole number as an integer, else the shortest round-trip decimal."""
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)


def cell_text(value: Optional[float], unit: str) -> str:
    """How the page writes a value (docs/backend.md, Charts)."""
    if value is None:
        return "—"
    if unit == "rate":
        return f"{value * 100:.1f}%"
    if unit == "money":
        return f"{value:.2f}"
    return number(value)


def expected_table(chart: Dict[str, Any]) -> Dict[str, Any]:
    units = [s["unit"] for s in chart["series"]]
    return {
        "series": [s["id"] for s in chart["series"]],
        "rows": [{"period": p["period"], "head": p["period"] + (" (so far)" if p["incomplete"] else ""),
                  "cells": [cell_text(v, u) for v, u in zip(p["values"], units)]} for p in chart["points"]],
    }


TABLE_JS = r"""
var t = document.querySelector('table[data-chart="' + arguments[0] + '"]');
if (!t) return null;
var region = t.closest('[role=region]');
return {
  series: Array.prototype.map.call(t.querySelectorAll('thead th[data-series]'), function(e){ return e.getAttribute('data-series'); }),
  headers: t.querySelectorAll('thead th').length,
  rows: Array.prototype.map.call(t.querySelectorAll('tbody tr'), function(r){
    return {period: r.getAttribute('data-period'), head: (r.querySelector('th[scope=row]') || {}).textContent,
            cells: Array.prototype.map.call(r.querySelectorAll('td'), function(c){ return c.textContent; })};
  }),
  region: region ? {tabindex: region.getAttribute('tabindex'),
                    name: (document.getElementById(region.getAttribute('aria-labelledby') || '') || {}).textContent || region.getAttribute('aria-label')} : null
};
"""


def page_table(driver, name: str) -> Dict[str, Any]:
    found = driver.execute_script(TABLE_JS, name)
    assert found is not None, f"no table[data-chart={name}] on {driver.current_url}"
    return found


def assert_table_matches(driver, chart: Dict[str, Any]) -> None:
    """The page's table holds the JSON's cells: a row per point, a column per series, each value
    written as the docs say."""
    name = chart["name"]
    found = page_table(driver, name)
    want = expected_table(chart)
    assert found["series"] == want["series"], f"{name}: column headers {found['series']}, series {want['series']}"
    assert found["headers"] == len(chart["series"]) + 1, f"{name}: {found['headers']} header cells for {len(chart['series'])} series"
    assert len(found["rows"]) == len(chart["points"]), f"{name}: {len(found['rows'])} rows for {len(chart['points'])} points"
    for got, row in zip(found["rows"], want["rows"]):
        assert got["period"] == row["period"] and got["head"] == row["head"], f"{name}: row {got['period']!r} {got['head']!r}, point {row}"
        assert got["cells"] == row["cells"], f"{name} {row['period']}: the page shows {got['cells']}, the API says {row['cells']}"
    region = found["region"]
    assert region and region["tabindex"] == "0" and (region["name"] or "").strip(), f"{name}: the table's scroll region {region}"


def chart_image(driver) -> Dict[str, Any]:
    return driver.execute_script(
        "var s=document.querySelectorAll('main svg[role=img]');"
        "return {count:s.length,label:s.length?s[0].getAttribute('aria-label'):null};")


def loaded(driver) -> None:
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def open_chart(driver, backend: Backend, name: str, query: str = "") -> None:
    driver.get(backend.base_url + f"/charts/{name}" + (f"?{query}" if query else ""))
    loaded(driver)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'table[data-chart="{name}"]'), f"the {name} chart's table")


def query_of(driver) -> str:
    return urlsplit(driver.current_url).query


# ---------------------------------------------------------------------------------------------
# The tests


def test_every_chart_renders_with_the_apis_numbers(charts, chromium):
    backend = charts
    listed = backend.get("/v1/charts")
    assert listed.status_code == 200, listed.text
    names = [c["name"] for c in listed.json()["charts"]]
    titles = {c["name"]: c["title"] for c in listed.json()["charts"]}
    assert len(names) == 16 and len(set(names)) == 16, names

    driver = chromium()
    driver.get(backend.base_url + "/charts")
    loaded(driver)
    links = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('main a[href^=\"/charts/\"]'),"
        "function(a){return [a.getAttribute('href'), a.textContent];});")
    assert links == [[f"/charts/{n}", titles[n]] for n in names], links
    assert not unnamed_controls(driver), unnamed_controls(driver)

    # Each chart as the page shows it by default (days) and by month since SINCE, where the
    # history is (cohort charts are squares of periods, so they stay on the default range).
    for name in names:
        queries = [""] if listed.json()["charts"][names.index(name)]["cohort"] else ["", f"resolution=month&from={SINCE}"]
        for query in queries:
            open_chart(driver, backend, name, query)
            chart = api(backend, name, query)
            image = chart_image(driver)
            assert image["count"] == 1 and (image["label"] or "").strip(), f"{name}?{query}: the chart image {image}"
            if not chart["cohort"] and chart["points"]:
                assert f"({chart['points'][-1]['period']})" in image["label"], f"{name}: the summary names no latest period: {image['label']!r}"
            assert driver.find_element(By.TAG_NAME, "h1").text == chart["title"]
            assert_table_matches(driver, chart)
            nodes = ax_nodes(driver)
            assert {"role": "image", "name": image["label"]} in nodes, f"{name}: the accessibility tree has no image named by the summary"
            assert not [n for n in nodes if n["role"] in INTERACTIVE and not str(n["name"]).strip()], f"{name}: unnamed controls"
    screenshot_page(driver, "backend-chart-last")


def test_the_charts_add_up_to_the_purchases(charts, chromium):
    """The numbers themselves, by month since SINCE: ana's first paid month and its renewal, ben's
    year, dee's refunded one-time purchase, eve's free week; nobody churned."""
    backend = charts
    driver = chromium()
    month = f"resolution=month&from={SINCE}"
    for name in ("revenue", "mrr", "actives", "churn", "trials", "refund_rate", "non_subscription_purchases"):
        open_chart(driver, backend, name, month)
        assert_table_matches(driver, api(backend, name, month))

    revenue = totals_of(backend, "revenue")
    assert revenue["transactions"] == 3, revenue  # the refunded one-time purchase is left out
    assert revenue["revenue.USD"] == pytest.approx(2 * MONTHLY_PRICE + YEARLY_PRICE), revenue
    assert revenue["proceeds.USD"] == pytest.approx(0.7 * (2 * MONTHLY_PRICE + YEARLY_PRICE), abs=0.02), revenue

    latest = lambda name: api(backend, name, month)["points"][-1]["values"]  # noqa: E731
    assert latest("mrr") == [pytest.approx(MONTHLY_PRICE + YEARLY_PRICE / 12)], "MRR now: ana's month and ben's year"
    assert latest("actives") == [2], "ana and ben pay; eve is in her free week"
    trials = api(backend, "trials", month)
    assert trials["points"][-1]["values"][[s["id"] for s in trials["series"]].index("active")] == 1, trials
    churn = totals_of(backend, "churn")
    assert churn["churned"] == 0, churn
    refunds = totals_of(backend, "refund_rate")
    assert (refunds["transactions"], refunds["refunded"]) == (4, 1), refunds
    one_time = totals_of(backend, "non_subscription_purchases")
    assert (one_time["purchases"], one_time["refunded"], one_time.get("revenue.USD", 0)) == (1, 1, 0), one_time

    # A movement's net is the change of its state over the period (docs/backend.md, Charts).
    for movement, state in [("mrr_movement", "mrr"), ("actives_movement", "actives")]:
        moves, levels = api(backend, movement, month), api(backend, state, month)
        net = [s["measure"] for s in moves["series"]].index("net")
        before = 0.0
        for move, level in zip(moves["points"], levels["points"]):
            assert move["period"] == level["period"]
            assert move["values"][net] == pytest.approx(level["values"][0] - before), (movement, move, level)
            before = level["values"][0]
    assert sum(p["values"][0] for p in api(backend, "customers_new", month)["points"]) == 4, "ana, ben, dee and eve"

    # The table writes them so: the latest MRR with two decimals, the refund rate as a percentage.
    open_chart(driver, backend, "mrr", month)
    assert page_table(driver, "mrr")["rows"][-1]["cells"] == [f"{MONTHLY_PRICE + YEARLY_PRICE / 12:.2f}"]
    open_chart(driver, backend, "refund_rate", "resolution=year&from=" + SINCE)
    table = page_table(driver, "refund_rate")
    column = {s: i for i, s in enumerate(table["series"])}
    refunded = [r["cells"] for r in table["rows"] if r["cells"][column["refunded"]] != "0"]
    assert [[c[column["refunded"]], c[column["refundRate"]]] for c in refunded] == [
        ["1", f"{100 / int(refunded[0][column['transactions']]):.1f}%"]], refunded  # dee's one of that year's paid transactions


def test_keyboard_opens_a_chart_changes_resolution_and_reaches_the_table(charts, chromium):
    backend = charts
    driver = chromium()
    driver.get(backend.base_url + "/charts")
    loaded(driver)
    tab_until(driver, "e.tagName === 'A' && e.getAttribute('href') === '/charts/mrr'")
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "table[data-chart=mrr]"), "the MRR chart")
    assert urlsplit(driver.current_url).path == "/charts/mrr"

    tab_until(driver, "e.id === 'bd-resolution'")
    for _ in range(5):  # day → week → month, as arrow keys step a closed select
        if driver.execute_script("return document.activeElement.value") == "month":
            break
        press(driver, Keys.DOWN)
    assert driver.execute_script("return document.activeElement.value") == "month"
    walked = tab_until(driver, "e.tagName === 'BUTTON' && e.textContent === 'Show'")
    for field in ("bd-from", "bd-to", "bd-environment", "bd-app", "bd-product", "bd-country", "bd-store"):
        assert any(f"#{field}" in step for step in walked), f"Tab skipped #{field} on the way to Show:\n" + "\n".join(walked)
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: "resolution=month" in d.current_url and d.find_elements(By.CSS_SELECTOR, "table[data-chart=mrr]"),
             "the MRR chart by month")
    assert_no_alert(driver)
    assert driver.find_element(By.ID, "bd-resolution").get_attribute("value") == "month"
    chart = api(backend, "mrr", query_of(driver))
    assert chart["resolution"] == "month" and all(re.fullmatch(r"\d{4}-\d{2}", p["period"]) for p in chart["points"]), chart["points"]
    assert_table_matches(driver, chart)

    tab_until(driver, "e.getAttribute('role') === 'region' && !!e.querySelector('table[data-chart=mrr]')")
    # Focus shows (the page's :focus-visible outline) on the region a keyboard scrolls.
    outline = driver.execute_script("var s=getComputedStyle(document.activeElement);return [s.outlineStyle, s.outlineWidth];")
    assert outline[0] != "none" and outline[1] != "0px", f"the focused table region shows no outline: {outline}"


SVG_TEXT_JS = r"""
return Array.prototype.map.call(document.querySelectorAll('main svg[role=img] text'), function(t){
  var n = t, b = null;
  while (n && n.nodeType === 1) { var c = getComputedStyle(n).backgroundColor;
    if (c !== 'transparent' && !/,\s*0\)$/.test(c)) { b = c; break; } n = n.parentElement; }
  return {text: t.textContent, fill: getComputedStyle(t).fill, behind: b};
});
"""

# Every piece of text on a chart page a reader sees: its colour, the first opaque background
# behind it (its own for a button or a field), and whether it counts as large (WCAG).
TEXT_COLORS_JS = r"""
var out = [];
document.querySelectorAll('.bd-header a, .bd-brand, main h1, main h2, main h3, main p, main a, main label, main input, main select, main button, main th, main td, main li').forEach(function(el){
  var s = getComputedStyle(el), r = el.getBoundingClientRect();
  var text = (el.tagName === 'SELECT' ? (el.options[el.selectedIndex] || {}).text : el.tagName === 'INPUT' ? el.value : el.textContent) || '';
  if (r.width < 2 || r.height < 2 || s.visibility === 'hidden' || !String(text).trim()) return;
  var n = el, bg = null;
  while (n && n.nodeType === 1) { var c = getComputedStyle(n).backgroundColor;
    if (c !== 'transparent' && !/,\s*0\)$/.test(c) && !/\/\s*0\)$/.test(c)) { bg = c; break; } n = n.parentElement; }
  var size = parseFloat(s.fontSize), weight = parseInt(s.fontWeight, 10);
  out.push({what: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + JSON.stringify(String(text).trim().slice(0, 30)),
            color: s.color, background: bg, large: size >= 24 || (size >= 18.66 && weight >= 700)});
});
return out;
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_color_scheme_follows_the_system(charts, chromium, scheme):
    """With `prefers-color-scheme` emulated (CDP Emulation.setEmulatedMedia, as harness does): the
    page's background and text, and the chart's SVG text, drawn in the page's foreground."""
    backend = charts
    driver = chromium(scheme=scheme)
    open_chart(driver, backend, "revenue", f"resolution=month&from={SINCE}")
    body = driver.execute_script(COLORS_JS, driver.find_element(By.TAG_NAME, "body"))
    text, background = parse_css_color(body["color"])[:3], parse_css_color(body["background"])[:3]
    if scheme == "dark":
        assert luminance(background) < 0.2, f"the page background {body['background']} is not dark"
        assert luminance(text) > 0.5, f"the page text {body['color']} is not light"
    else:
        assert luminance(background) > 0.6, f"the page background {body['background']} is not light"
        assert luminance(text) < 0.3, f"the page text {body['color']} is not dark"
    labels = driver.execute_script(SVG_TEXT_JS)
    assert labels, "the chart has no SVG text"
    for label in labels:
        fill = parse_css_color(label["fill"])[:3]
        assert fill == text, f"SVG text {label['text']!r} is filled {label['fill']}, the page's text is {body['color']}"
        behind = parse_css_color(label["behind"])[:3] if label["behind"] else background
        assert contrast(fill, behind) >= 4.5, f"SVG text {label['text']!r}: {label['fill']} on {label['behind']}"
    screenshot_page(driver, f"backend-chart-revenue-{scheme}")


def test_a_chart_page_requests_only_itself(charts, chromium):
    backend = charts
    driver = chromium(log_network=True)
    url = backend.base_url + f"/charts/revenue?resolution=month&from={SINCE}"
    driver.get(url)
    loaded(driver)
    assert driver.find_elements(By.CSS_SELECTOR, "table[data-chart=revenue]")
    # data: URLs are no requests: Chromium draws its own date inputs' calendar icon from one.
    requested = [u for u in network_requests(driver) if not u.startswith("data:")]
    assert requested == [url], f"the page made requests besides its document: {requested}"
    seen = resource_entries(driver)
    assert seen == [url], f"the page's Resource Timing lists more than the document: {seen}"
    assert driver.execute_script("return document.querySelectorAll('script, img, link[href], iframe, object, embed').length") == 0


INJECTED_JS = r"""
var bad = [];
document.querySelectorAll('*').forEach(function(e){
  for (var i = 0; i < e.attributes.length; i++) if (/^on/i.test(e.attributes[i].name)) bad.push(e.outerHTML.slice(0, 120));
});
document.querySelectorAll('script, img, iframe, object, embed').forEach(function(e){ bad.push(e.outerHTML.slice(0, 120)); });
return bad;
"""


def test_hostile_filter_values_stay_inert_text(charts, chromium):
    backend = charts
    query = urlencode({"product": HOSTILE_PRODUCT, "app": HOSTILE_APP}, quote_via=quote)
    driver = chromium()
    open_chart(driver, backend, "revenue", query)
    assert_no_alert(driver)
    assert driver.find_element(By.ID, "bd-product").get_attribute("value") == HOSTILE_PRODUCT
    assert driver.find_element(By.ID, "bd-app").get_attribute("value") == HOSTILE_APP
    assert driver.execute_script(INJECTED_JS) == []
    chart = api(backend, "revenue", query)
    assert (chart["filters"]["product"], chart["filters"]["app"]) == ([HOSTILE_PRODUCT], [HOSTILE_APP]), chart["filters"]
    assert_table_matches(driver, chart)
    # The CSV link keeps the filters as they were sent.
    href = driver.find_element(By.CSS_SELECTOR, "a[download]").get_attribute("href")
    assert dict(parse_qsl(urlsplit(href).query)) == {"product": HOSTILE_PRODUCT, "app": HOSTILE_APP}, href

    # The query exactly as a hand-made request sends it, unencoded: the page writes it back as text
    # (the form's values and the CSV link's href), never as markup.
    raw = '"><svg/onload=alert(5)><b>x</b>'
    parts = urlsplit(backend.base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("GET", f"/charts/revenue?app={raw}&product={raw}")
        answer = conn.getresponse()
        status, html = answer.status, answer.read().decode()
    finally:
        conn.close()
    assert status == 200, html[:500]
    assert "<svg/onload" not in html and "<b>x</b>" not in html, re.findall(r".{60}svg/onload.{20}", html)


def test_hostile_values_in_an_error_message_stay_inert_text(charts, chromium):
    """A bad value or an unknown parameter is named in the page's error (400): as text."""
    backend = charts
    driver = chromium()
    for query, said in [(urlencode({"environment": HOSTILE_APP}, quote_via=quote), f"not {HOSTILE_APP}"),
                        (quote("<img src=x onerror=alert(6)>") + "=1", "unknown parameter <img src=x onerror=alert(6)>")]:
        driver.get(backend.base_url + "/charts/revenue?" + query)
        loaded(driver)
        assert_no_alert(driver)
        assert driver.find_element(By.TAG_NAME, "h1").text == "Cannot draw this chart"
        assert said in driver.find_element(By.TAG_NAME, "main").text, driver.find_element(By.TAG_NAME, "main").text
        assert driver.execute_script(INJECTED_JS) == []
        assert backend.get("/charts/revenue?" + query).status_code == 400


def test_csv_download_has_the_tables_rows(charts, chromium):
    backend = charts
    driver = chromium()
    for name, query in [("revenue", f"resolution=month&from={SINCE}"), ("churn", f"resolution=month&from={SINCE}"),
                        ("subscription_retention", "")]:
        open_chart(driver, backend, name, query)
        link = driver.find_element(By.XPATH, "//a[normalize-space()='Download as CSV']")
        href = urljoin(driver.current_url, link.get_dom_attribute("href"))
        assert urlsplit(href).path == f"/charts/{name}/csv" and urlsplit(href).query == query, href
        r = requests.get(href, timeout=30)
        assert r.status_code == 200, r.text[:500]
        assert r.headers["content-type"].split(";")[0].strip() == "text/csv", r.headers
        api_csv = backend.get(f"/v1/charts/{name}?" + "&".join(filter(None, [query, "format=csv"])))
        assert r.text == api_csv.text, "the dashboard's CSV and the API's differ"
        rows = list(csv.reader(io.StringIO(r.text)))
        chart = api(backend, name, query)
        assert rows[0] == ["period", "start", "incomplete"] + [s["id"] for s in chart["series"]], rows[0]
        table = page_table(driver, name)
        assert [row[0] for row in rows[1:]] == [row["period"] for row in table["rows"]]
        units = [s["unit"] for s in chart["series"]]
        for line, shown in zip(rows[1:], table["rows"]):
            as_shown = [cell_text(None if v == "" else float(v), u) for v, u in zip(line[3:], units)]
            assert as_shown == shown["cells"], f"{name} {line[0]}: CSV {line[3:]}, table {shown['cells']}"
            assert (line[2] == "true") == shown["head"].endswith(" (so far)"), (line, shown["head"])


def test_filter_form_works_without_javascript(charts, chromium):
    backend = charts
    driver = chromium(javascript=False)
    open_chart(driver, backend, "actives")
    tab_until(driver, "e.id === 'bd-resolution'")
    press(driver, Keys.DOWN)  # day → week
    tab_until(driver, "e.id === 'bd-environment'")
    press(driver, Keys.DOWN, Keys.DOWN)  # Production, then Sandbox
    tab_until(driver, "e.tagName === 'BUTTON' && e.textContent === 'Show'")
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: "resolution=week" in d.current_url and "environment=Sandbox" in d.current_url,
             "the weekly Sandbox chart")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "table[data-chart=actives]"), "the chart's table")
    sent = dict(parse_qsl(query_of(driver), keep_blank_values=True))
    assert set(sent) == {"resolution", "from", "to", "environment", "app", "product", "country", "store"}, sent
    assert driver.find_element(By.ID, "bd-environment").get_attribute("value") == "Sandbox"
    chart = api(backend, "actives", query_of(driver))
    assert chart["resolution"] == "week" and chart["filters"]["environment"] == ["Sandbox"], chart
    assert_table_matches(driver, chart)
    assert chart["points"][-1]["values"] == [2], chart["points"][-1]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast(charts, chromium, scheme):
    """Every visible text of a chart page, the filter form's fields and its button included, reads
    at 4.5:1 against what is behind it (3:1 for large text; WCAG 2 AA)."""
    backend = charts
    driver = chromium(scheme=scheme)
    failures = []
    for path in ("/charts", f"/charts/revenue?resolution=month&from={SINCE}"):
        driver.get(backend.base_url + path)
        loaded(driver)
        failures += [f"{path} {f}" for f in low_contrast(driver)]
    assert not failures, f"low contrast ({scheme}):\n" + "\n".join(sorted(set(failures)))


def low_contrast(driver) -> List[str]:
    texts = driver.execute_script(TEXT_COLORS_JS)
    assert len(texts) > 20, texts
    page = parse_css_color(driver.execute_script(COLORS_JS, driver.find_element(By.TAG_NAME, "body"))["background"])[:3]
    failures = []
    for t in texts:
        fg = parse_css_color(t["color"])
        bg = parse_css_color(t["background"])[:3] if t["background"] else page
        if fg[3] < 1:
            fg = tuple(fg[i] * fg[3] + bg[i] * (1 - fg[3]) for i in range(3)) + (1,)
        ratio = contrast(fg[:3], bg)
        if ratio < (3.0 if t["large"] else 4.5):
            failures.append(f"{t['what']}: {t['color']} on {t['background']} = {ratio:.2f}:1")
    return failures
