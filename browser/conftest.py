"""Fixtures: live `openstore serve` processes and headless Chromium drivers.

* ``demo_server``: no --catalog, so it hosts the built-in demo apps and their web views
  (`/store`, `/store/backyard-birds`, `/store/backyard-birds-pass`, `/store/food-truck`,
  `/store/gallery`).
* ``hostile_server``: browser/fixtures/hostile.storekit, a catalog whose product, group and
  policy texts are HTML, quotes and right-to-left text, hosted as com.example.hostile and also
  under the Backyard Birds bundle ID, so the demo pages registered for that app (the style gallery
  above all, which shows every product of the app's catalog) render the hostile catalog live.
* ``chromium``: a factory, ``chromium(scheme="light"|"dark", javascript=True, log_network=False,
  width=…, height=…)``; every driver it made is closed after the test, and when the test failed
  a screenshot and the page's HTML are kept in artifacts/browser/failures/.
* ``customer``: a customer name no other test uses, so every test starts from a fresh customer.

Each server runs on a free loopback port with a fresh --data directory. The binary is
$OPENSTORE_BIN, else .build/debug/openstore in the repository.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from harness import (
    ARTIFACTS, BACKYARD_BIRDS, HOSTILE_BUNDLE, HOSTILE_CATALOG, ServerProcess, emulate_color_scheme, js_errors,
    start_chromium,
)
from selenium.webdriver.remote.webdriver import WebDriver
from pytest_servers import openstore_binary, report_server_logs, running, start_server  # noqa: F401  testsupport/, on the path via harness

_servers: List[ServerProcess] = []

DEMO_PAGES = ("backyard-birds", "backyard-birds-pass", "food-truck", "gallery", "food-truck-gallery")


def _start(binary: Path, tmp_path_factory, name: str, extra_args=()) -> ServerProcess:
    return start_server(lambda **paths: ServerProcess(binary, extra_args=extra_args, **paths), tmp_path_factory, name, _servers)


@pytest.fixture(scope="session")
def demo_server(openstore_binary, tmp_path_factory):
    yield from running(_start(openstore_binary, tmp_path_factory, "demo"))


@pytest.fixture(scope="session")
def hostile_server(openstore_binary, tmp_path_factory):
    yield from running(_start(openstore_binary, tmp_path_factory, "hostile",
                              ["--catalog", str(HOSTILE_CATALOG), "--bundle-id", HOSTILE_BUNDLE,
                               "--catalog", str(HOSTILE_CATALOG), "--bundle-id", BACKYARD_BIRDS]))


def _require_store_pages(server: ServerProcess, what: str) -> None:
    r = server.get("/store")
    if r.status_code != 200 or "text/html" not in r.headers.get("content-type", ""):
        pytest.fail(f"{what}: GET /store answered {r.status_code} {r.headers.get('content-type')}; "
                    "the web views are not served by this binary", pytrace=False)


@pytest.fixture(scope="session")
def demo_pages(demo_server) -> ServerProcess:
    """The demo server, after checking that it serves the web views at all."""
    _require_store_pages(demo_server, "demo server")
    return demo_server


@pytest.fixture(scope="session")
def hostile_pages(hostile_server) -> List[str]:
    """The page IDs the hostile server lists at /store (each renders the hostile catalog)."""
    _require_store_pages(hostile_server, "hostile server")
    html = hostile_server.get("/store").text
    ids = []
    for m in re.finditer(r'href="(?:[^"]*?)/store/([A-Za-z0-9._-]+)(?:[?"#])', html):
        if m.group(1) not in ids:
            ids.append(m.group(1))
    if not ids:
        pytest.fail(f"GET /store on the hostile server links no /store/{{page}}:\n{html[:2000]}", pytrace=False)
    return ids


@pytest.fixture
def customer(request) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", request.node.name.lower()).strip("-")[:40]
    return f"{base}-{uuid.uuid4().hex[:8]}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


# Starting Chromium costs about 1.6 s of CPU (measured: ten starts took 16 s of the machine's
# CPU), a third of what the suite spends. A driver whose test passed is therefore kept, reset, and
# handed to the next test asking for the same launch options; a failed test's driver is closed.
# The reset leaves nothing a test could notice: one window on about:blank, no cookies, no cache, no
# emulation or download override, the console log drained; the color scheme is set again on reuse.
# Drivers that log the network are never kept (their performance log is the test's evidence).
_idle_drivers: Dict[tuple, List[WebDriver]] = {}


def _reset_for_reuse(driver: WebDriver) -> None:
    handles = driver.window_handles
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})
    driver.get_log("browser")


def _take_driver(key: tuple, scheme: str) -> Optional[WebDriver]:
    pool = _idle_drivers.get(key, [])
    while pool:
        driver = pool.pop()
        try:
            emulate_color_scheme(driver, scheme)
            return driver
        except Exception:  # noqa: BLE001 - a browser that died while idle is replaced
            _quit(driver)
    return None


def _quit(driver: WebDriver) -> None:
    try:
        driver.quit()
    except Exception:  # noqa: BLE001
        pass


@pytest.fixture(scope="session", autouse=True)
def _close_idle_drivers():
    yield
    for pool in _idle_drivers.values():
        for driver in pool:
            _quit(driver)
    _idle_drivers.clear()


@pytest.fixture
def chromium(request):
    made = []

    def make(scheme: str = "light", javascript: bool = True, log_network: bool = False,
             width: int = 1280, height: int = 900):
        key = None if log_network else (javascript, width, height)
        driver = _take_driver(key, scheme) if key else None
        if driver is None:
            try:
                driver = start_chromium(scheme=scheme, javascript=javascript, log_network=log_network, width=width, height=height)
            except Exception as e:  # noqa: BLE001
                pytest.fail(f"could not start headless Chromium (/usr/bin/chromium, /usr/bin/chromedriver): {e}", pytrace=False)
        made.append((key, driver))
        return driver

    yield make
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for i, (key, driver) in enumerate(made):
        if failed:
            try:
                folder = ARTIFACTS / "failures"
                folder.mkdir(parents=True, exist_ok=True)
                stem = re.sub(r"[^A-Za-z0-9._-]+", "-", request.node.name) + (f"-{i}" if i else "")
                driver.save_screenshot(str(folder / f"{stem}.png"))
                (folder / f"{stem}.html").write_text(driver.page_source, encoding="utf-8")
                errors = js_errors(driver)
                if errors:
                    (folder / f"{stem}.console.txt").write_text("\n".join(errors), encoding="utf-8")
            except Exception:  # noqa: BLE001 - a dead browser must not hide the test's own failure
                pass
            _quit(driver)
            continue
        if key is not None:
            try:
                _reset_for_reuse(driver)
                _idle_drivers.setdefault(key, []).append(driver)
                continue
            except Exception:  # noqa: BLE001 - a browser that cannot be reset is closed instead
                pass
        _quit(driver)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Where the screenshots are; on failure, each server's log tail."""
    if ARTIFACTS.exists():
        terminalreporter.write_line(f"browser artifacts: {ARTIFACTS}")
    report_server_logs(terminalreporter, exitstatus, _servers)
