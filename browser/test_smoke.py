"""Chromium from Debian's packages starts headless, offline, and loads a live server's pages."""

import subprocess

from harness import CHROMEDRIVER, CHROMIUM, By, wait


def test_chromium_starts_and_loads_healthz(demo_server, chromium):
    driver = chromium()
    driver.get(demo_server.url("/healthz"))
    body = driver.find_element(By.TAG_NAME, "body").text
    assert '"status":"ok"' in body.replace(" ", ""), body


def test_driver_matches_browser(chromium):
    """chromedriver and chromium come from the same Debian source package: same major version.
    (A mismatch would mean Selenium Manager fetched something, which it must never do.)"""
    driver = chromium()
    browser_major = driver.capabilities["browserVersion"].split(".")[0]
    driver_version = driver.capabilities["chrome"]["chromedriverVersion"].split(" ")[0]
    assert driver_version.split(".")[0] == browser_major, (driver_version, driver.capabilities["browserVersion"])
    assert driver.capabilities["browserName"] == "chrome"
    out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=60).stdout
    assert browser_major in out, out
    out = subprocess.run([CHROMEDRIVER, "--version"], capture_output=True, text=True, timeout=60).stdout
    assert browser_major in out.split(" ")[1], out


def test_store_index_links_every_demo_page(demo_pages, chromium):
    from conftest import DEMO_PAGES
    driver = chromium()
    driver.get(demo_pages.url("/store"))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    hrefs = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a[href]")]
    for page in DEMO_PAGES:
        assert any(f"/store/{page}" in (h or "") for h in hrefs), f"/store does not link {page}: {hrefs}"
    # The server's start page links the store too (issue 6 §5: "linked from its start page").
    driver.get(demo_pages.url("/"))
    start_links = [a.get_attribute("href") or "" for a in driver.find_elements(By.CSS_SELECTOR, "a[href]")]
    assert any("/store" in h for h in start_links), f"the start page (GET /) links no /store page: {start_links[:20]}"
