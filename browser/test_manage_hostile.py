"""Issue 13, tests: hostile catalog and customer text is inert on /manage. The hostile server's
catalog names its products with markup, quotes and a RIGHT-TO-LEFT OVERRIDE; a customer, a family
group and a filter are named with markup too. Every dashboard page shows them literally and runs
none of them."""

import uuid
from urllib.parse import quote

import requests

from harness import HOSTILE_BUNDLE, HOSTILE_NAMES, HTTP_TIMEOUT, NAMES_BY_ID, screenshot_page
from manage_support import loaded, manage_url

CUSTOMER = "<img src=x onerror=window.__pwned='customer'>\"'&"
GROUP = "<svg onload=window.__pwned='family'>"

# The dashboard's own SVGs (charts, timelines, symbols) and its two scripts are expected; nothing
# else may become markup.
INERT_JS = r"""
var bad = [];
document.querySelectorAll('script').forEach(function(s){ if (/__pwned/.test(s.textContent) || s.src) bad.push('script: ' + s.outerHTML.slice(0, 120)); });
document.querySelectorAll('*').forEach(function(e){
  for (var i = 0; i < e.attributes.length; i++) {
    var a = e.attributes[i];
    if (/^on/i.test(a.name)) bad.push('handler attribute ' + a.name + ' on <' + e.tagName.toLowerCase() + '>');
    if (/^\s*javascript:/i.test(a.value)) bad.push('javascript: URL in ' + a.name);
  }
});
document.querySelectorAll('img, iframe, object, embed, b, i, u, svg').forEach(function(e){
  if (!(e.tagName.toLowerCase() === 'svg' && /\b(mg-chart|mg-timeline|mg-swatch|sk-symbol)\b/.test(e.getAttribute('class') || '')))
    bad.push('element from a text: ' + e.outerHTML.slice(0, 120));
});
return {pwned: typeof window.__pwned === 'undefined' ? null : String(window.__pwned), scripts: document.querySelectorAll('script').length,
        bad: bad, text: document.documentElement.textContent};
"""


def test_hostile_catalog_and_customer_text_is_inert(hostile_server, chromium):
    base = hostile_server.base_url
    world = f"hostile-{uuid.uuid4().hex[:8]}"
    requests.post(base + "/admin/v1/worlds", json={"id": world}, timeout=HTTP_TIMEOUT).raise_for_status()
    for product in NAMES_BY_ID:
        r = requests.post(f"{base}/storekit/v1/worlds/{world}/apps/{HOSTILE_BUNDLE}/purchases",
                          json={"productId": product, "customer": CUSTOMER}, timeout=HTTP_TIMEOUT)
        assert r.status_code in (200, 409), f"{product}: {r.status_code} {r.text[:200]}"
    requests.put(f"{base}/admin/v1/worlds/{world}/customers/{quote(CUSTOMER, safe='')}/family", json={"group": GROUP},
                 timeout=HTTP_TIMEOUT).raise_for_status()
    bought = {t["productId"] for t in hostile_server.transactions(HOSTILE_BUNDLE, quote(CUSTOMER, safe=''), world=world)}
    assert len(bought) >= 4, bought

    driver = chromium()
    pages = {
        "customers": manage_url(hostile_server, "customers", world=world, q="onerror"),
        "customer": manage_url(hostile_server, "customer", world=world, id=CUSTOMER, app=HOSTILE_BUNDLE),
        "notifications": manage_url(hostile_server, "notifications", world=world, app=HOSTILE_BUNDLE, customer=CUSTOMER, type="<b>x</b>"),
        "events": manage_url(hostile_server, "events", world=world),
        "keys": manage_url(hostile_server, "keys", world=world),
        "notice": manage_url(hostile_server, "world", world=world, error="<script>window.__pwned='notice'</script>"),
    }
    for name, url in pages.items():
        driver.get(url)
        loaded(driver)
        facts = driver.execute_script(INERT_JS)
        assert facts["pwned"] is None, f"{name}: a hostile text ran: {facts['pwned']!r}"
        assert facts["scripts"] == 2, f"{name}: {facts['scripts']} <script> elements (the page has two of its own)"
        assert not facts["bad"], f"{name}: " + "\n".join(facts["bad"][:20])
        screenshot_page(driver, f"manage-hostile-{name}")
        if name in ("customers", "customer"):
            assert CUSTOMER in facts["text"], f"{name}: the customer's name is not shown literally"
        if name == "customer":
            shown = [n for n in HOSTILE_NAMES if n in facts["text"]]
            assert len(shown) >= 4, f"the hostile product names are not shown literally: {shown}"
            assert GROUP in facts["text"], "the family group is not shown literally"
        if name == "notice":
            assert "<script>window.__pwned='notice'</script>" in facts["text"]
