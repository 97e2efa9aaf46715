"""Issue 6 §3: the pages make no external requests. Every request Chromium makes while loading a
page, and while the page's script purchases in the background, goes to the server's own origin
(or is a data: URL).
"""

import pytest

from harness import By, Keys, network_requests, press, resource_entries, wait, wait_for

PAGES = ["backyard-birds", "backyard-birds-pass", "food-truck", "gallery"]


def foreign(urls, origin):
    return [u for u in urls if not (u.startswith(origin + "/") or u == origin or u.startswith("data:") or u == "about:blank")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page", PAGES)
def test_page_requests_only_its_own_origin(demo_pages, chromium, customer, page, scheme):
    driver = chromium(scheme=scheme, log_network=True)
    driver.get(demo_pages.page_url(page, customer=customer))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    requested = network_requests(driver)
    seen = resource_entries(driver)
    assert requested, "the performance log recorded no request at all (is Network logging on?)"
    assert any(u.startswith(demo_pages.origin + "/store/") for u in requested), f"{page}: the page itself is not among {requested}"
    assert seen, f"{page}: the page's Resource Timing lists nothing, not even the page's own navigation"
    assert not foreign(requested, demo_pages.origin), f"{page}: external requests {foreign(requested, demo_pages.origin)}"
    assert not foreign(seen, demo_pages.origin), f"{page}: external resources {foreign(seen, demo_pages.origin)}"
    # Nothing on the page points at another origin for the browser to fetch later.
    fetchable = driver.execute_script(r"""
var out = [];
document.querySelectorAll('link[href], script[src], img[src], source[src], iframe[src], video[src], audio[src], object[data], form')
  .forEach(function(e){ out.push(e.tagName === 'FORM' ? e.getAttribute('action') && new URL(e.getAttribute('action'), location.href).href : (e.href || e.src || e.data)); });
return out.filter(Boolean);""")
    # The pages inline their style and script, so their forms (which the buy buttons post) are
    # what there is to check: an empty list would mean the check saw nothing.
    assert fetchable, f"{page}: no form, link, script or image element found to check"
    assert not foreign(fetchable, demo_pages.origin), f"{page}: references to external resources {fetchable}"


def test_background_purchase_requests_only_its_own_origin(demo_pages, chromium, customer):
    driver = chromium(log_network=True)
    driver.get(demo_pages.page_url("backyard-birds", customer=customer))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    network_requests(driver)  # drain the page load
    button = driver.find_element(By.CSS_SELECTOR, "article.sk-product button.sk-buy")
    driver.execute_script("arguments[0].focus();", button)
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "a .sk-notice after the background purchase")
    requested = network_requests(driver)
    assert requested, "the purchase made no request"
    assert not foreign(requested, demo_pages.origin), f"external requests during a purchase: {foreign(requested, demo_pages.origin)}"


def test_hostile_pages_request_only_their_own_origin(hostile_server, hostile_pages, chromium, customer):
    driver = chromium(log_network=True)
    for page in hostile_pages:
        driver.get(hostile_server.page_url(page, customer=customer))
        wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    requested = network_requests(driver)
    assert hostile_pages and len(requested) >= len(hostile_pages), f"{len(hostile_pages)} pages loaded, requests seen: {requested}"
    assert not foreign(requested, hostile_server.origin), f"external requests: {foreign(requested, hostile_server.origin)}"
