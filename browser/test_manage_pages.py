"""Issue 13, tests: every /manage page in headless Chromium. Each control has an accessible name
(Chromium's accessibility tree, what a screen reader reads); dark mode follows the system; no
page requests anything from another origin; every page works with JavaScript off (a form posts,
asks for confirmation, and the outcome shows). A screenshot of each page, light and dark, is kept
in artifacts/browser/ (not compared by pixels)."""

import uuid

import pytest
import requests

from harness import BACKYARD_BIRDS, HTTP_TIMEOUT, By, Keys, luminance, network_requests, parse_css_color, press, resource_entries, screenshot_page, tab_until, wait_for
from manage_support import PAGES, activate, foreign, loaded, manage_url, unnamed_controls

PASS = "com.example.backyardbirds.pass.premium"
SEEDS = "com.example.backyardbirds.sunflowerseeds"


@pytest.fixture(scope="module")
def busy_world(demo_pages):
    """A world with a customer who subscribed, renewed, bought seeds and was refunded, a failing
    notification URL, and an API key: every section of every page has something to show."""
    base = demo_pages.base_url
    world = f"pages-{uuid.uuid4().hex[:8]}"
    customer = "Zoë Pages"

    def call(method, path, **kw):
        r = requests.request(method, base + path, timeout=HTTP_TIMEOUT, **kw)
        assert r.status_code < 300, f"{method} {path}: {r.status_code} {r.text[:300]}"
        return r

    call("POST", "/admin/v1/worlds", json={"id": world})
    call("PUT", f"/admin/v1/worlds/{world}/apps/{BACKYARD_BIRDS}/notification-url", json={"url": "http://127.0.0.1:9/closed", "environment": "Sandbox"})
    for product in (PASS, SEEDS):
        call("POST", f"/storekit/v1/worlds/{world}/apps/{BACKYARD_BIRDS}/purchases", json={"productId": product, "customer": customer})
    call("POST", f"/admin/v1/worlds/{world}/time/advance", json={"duration": "P1M"})
    seeds = [t for t in demo_pages.transactions(BACKYARD_BIRDS, customer, world=world) if t["productId"] == SEEDS]
    call("POST", f"/admin/v1/worlds/{world}/transactions/{seeds[0]['transactionId']}/refund", json={})
    requests.post(base + "/manage/actions", data={"action": "create-key", "app": BACKYARD_BIRDS, "world": world}, timeout=HTTP_TIMEOUT)
    return world, customer


def page_urls(server, world, customer):
    return [(page or "worlds", manage_url(server, page, world=world, **({"id": customer} if page == "customer" else {}))) for page in PAGES]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_has_an_accessible_name(demo_pages, busy_world, chromium, scheme):
    world, customer = busy_world
    driver = chromium(scheme=scheme)
    for name, url in page_urls(demo_pages, world, customer):
        driver.get(url)
        loaded(driver)
        assert driver.find_elements(By.CSS_SELECTOR, "main h1"), f"{name}: no heading"
        controls = driver.find_elements(By.CSS_SELECTOR, "main button, main input:not([type=hidden]), main select, main textarea, main a[href], main summary")
        assert controls, f"{name}: no controls found to check"
        missing = unnamed_controls(driver)
        assert not missing, f"{name} ({scheme}): controls without an accessible name: {missing}"
        screenshot_page(driver, f"manage-{name}-{scheme}")


def test_dark_mode_follows_the_system(demo_pages, busy_world, chromium):
    world, customer = busy_world
    for scheme in ("light", "dark"):
        driver = chromium(scheme=scheme)
        for name, url in page_urls(demo_pages, world, customer):
            driver.get(url)
            loaded(driver)
            body = driver.execute_script("var s=getComputedStyle(document.body);return [s.backgroundColor,s.color];")
            cell = driver.execute_script(
                "var e=document.querySelector('main .mg-card,main .mg-table td,main p');return e?getComputedStyle(e).color:null;")
            bg, fg = luminance(parse_css_color(body[0])), luminance(parse_css_color(body[1]))
            if scheme == "dark":
                assert bg < 0.05 and fg > 0.8, f"{name}: dark scheme shows background {body[0]} and text {body[1]}"
                assert cell is None or luminance(parse_css_color(cell)) > 0.3, f"{name}: dark text on a dark page ({cell})"
            else:
                assert bg > 0.9 and fg < 0.05, f"{name}: light scheme shows background {body[0]} and text {body[1]}"


def test_no_page_requests_another_origin(demo_pages, busy_world, chromium):
    world, customer = busy_world
    driver = chromium(log_network=True)
    checked = 0
    for name, url in page_urls(demo_pages, world, customer):
        driver.get(url)
        loaded(driver)
        requested, seen = network_requests(driver), resource_entries(driver)
        assert any(u.startswith(demo_pages.origin + "/manage") for u in requested), f"{name}: the page itself is not among {requested}"
        assert not foreign(requested, demo_pages.origin), f"{name}: external requests {foreign(requested, demo_pages.origin)}"
        assert not foreign(seen, demo_pages.origin), f"{name}: external resources {foreign(seen, demo_pages.origin)}"
        refs = driver.execute_script(r"""
var out=[];document.querySelectorAll('link[href],script[src],img[src],iframe[src],object[data],form[action]').forEach(function(e){
 out.push(e.tagName==='FORM'?new URL(e.getAttribute('action'),location.href).href:(e.href||e.src||e.data));});return out;""")
        stream = driver.execute_script("var e=document.querySelector('[data-stream]');return e?new URL(e.getAttribute('data-stream'),location.href).href:null;")
        refs += [stream] if stream else []
        checked += len(refs)
        assert not foreign(refs, demo_pages.origin), f"{name}: references elsewhere {foreign(refs, demo_pages.origin)}"
    assert checked > len(PAGES), "the pages' forms and resources were found to check"


def test_every_page_works_without_javascript(demo_pages, busy_world, chromium):
    world, customer = busy_world
    driver = chromium(javascript=False)
    for name, url in page_urls(demo_pages, world, customer):
        driver.get(url)
        loaded(driver)
        assert driver.find_elements(By.CSS_SELECTOR, "main h1"), f"{name}: nothing rendered without JavaScript"
        assert not driver.find_elements(By.CSS_SELECTOR, "textarea[data-copy] + button"), f"{name}: script-only Copy buttons appear without script"
    # An action: pause the clock, with the keyboard, then resume it.
    driver.get(manage_url(demo_pages, "world", world=world))
    loaded(driver)
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Pause clock'")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "the pause notice")
    assert "paused" in driver.find_element(By.CSS_SELECTOR, ".sk-notice").text
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Resume clock'")
    wait_for(driver, lambda d: "runs again" in d.find_element(By.CSS_SELECTOR, ".sk-notice").text, "the resume notice")
    # A destructive one asks first, without script too: expire the Pass and cancel, then confirm.
    driver.get(manage_url(demo_pages, "customer", world=world, id=customer))
    loaded(driver)
    activate(driver, "(e.getAttribute('aria-label')||'').indexOf('Expire subscription')===0")
    wait_for(driver, lambda d: "Are you sure?" in d.page_source, "the confirmation page")
    activate(driver, "e.tagName==='A'&&e.textContent==='Cancel'", max_tabs=20)
    wait_for(driver, lambda d: "/manage/customer?" in d.current_url, "back on the customer page")
    assert driver.find_element(By.CSS_SELECTOR, "#mg-subscriptions + section .mg-badge").text == "Active"
    activate(driver, "(e.getAttribute('aria-label')||'').indexOf('Expire subscription')===0")
    wait_for(driver, lambda d: "Are you sure?" in d.page_source, "the confirmation page")
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Yes, expire'", max_tabs=20)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "the expiry notice")
    assert driver.find_element(By.CSS_SELECTOR, "#mg-subscriptions + section .mg-badge").text == "Expired"
    screenshot_page(driver, "manage-customer-nojs-expired")


def test_the_event_feed_is_live_with_a_refresh_fallback(demo_pages, busy_world, chromium, customer):
    world, _ = busy_world
    driver = chromium()
    driver.get(manage_url(demo_pages, "events", world=world))
    loaded(driver)
    wait_for(driver, lambda d: "Live" in d.find_element(By.ID, "mg-live").text, "the live feed to connect")
    rows = len(driver.find_elements(By.CSS_SELECTOR, "#mg-events tbody tr"))
    r = requests.post(f"{demo_pages.base_url}/storekit/v1/worlds/{world}/apps/{BACKYARD_BIRDS}/purchases",
                      json={"productId": SEEDS, "customer": customer}, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, r.text[:300]
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#mg-events tbody tr")) > rows, "the new event without a reload")
    first = driver.find_element(By.CSS_SELECTOR, "#mg-events tbody tr").text
    assert "ONE_TIME_CHARGE" in first and customer in first, first
    # Without script: the same page, and a link that reloads it.
    plain = chromium(javascript=False)
    plain.get(manage_url(demo_pages, "events", world=world))
    loaded(plain)
    assert "ONE_TIME_CHARGE" in plain.find_element(By.CSS_SELECTOR, "#mg-events tbody tr").text
    assert plain.find_element(By.LINK_TEXT, "Refresh").get_attribute("href").endswith(f"/manage/events?world={world}")
