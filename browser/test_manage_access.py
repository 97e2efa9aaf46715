"""Issue 13, tests: the dashboard obeys the admin API's access rule when the store is bound off
loopback. Chromium reaches the store through this machine's own non-loopback address, so the
server sees an outside peer: without --admin-token the dashboard is closed to it; with one, a
sign-in form sets an HttpOnly, SameSite=Strict cookie and only then the pages and forms work."""

import socket
import subprocess

import pytest

from harness import By, ServerProcess, screenshot_page, tab_until, wait_for
from manage_support import activate, loaded, type_text
from pytest_servers import start_server

TOKEN = "qa-token-7f3"


def outside_address() -> str:
    """An address of this machine that is not loopback (the server sees it as an outside peer)."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        out = []
    for address in out:
        if ":" not in address and not address.startswith("127."):
            return address
    pytest.skip("this machine has no IPv4 address besides loopback to reach the store from")


@pytest.fixture
def open_server(openstore_binary, tmp_path_factory):
    server = start_server(lambda **paths: ServerProcess(openstore_binary, extra_args=["--host", "0.0.0.0"], **paths),
                          tmp_path_factory, "manage-open", [])
    yield server
    server.stop()


@pytest.fixture
def token_server(openstore_binary, tmp_path_factory):
    server = start_server(lambda **paths: ServerProcess(openstore_binary, extra_args=["--host", "0.0.0.0", "--admin-token", TOKEN], **paths),
                          tmp_path_factory, "manage-token", [])
    yield server
    server.stop()


def outside_url(server, path: str) -> str:
    port = server.base_url.rsplit(":", 1)[1]
    return f"http://{outside_address()}:{port}{path}"


def test_without_a_token_outside_peers_are_refused(open_server, chromium):
    driver = chromium()
    driver.get(outside_url(open_server, "/manage"))
    loaded(driver)
    assert "Forbidden" in driver.find_element(By.TAG_NAME, "h1").text
    assert "loopback only" in driver.find_element(By.TAG_NAME, "main").text
    assert not driver.find_elements(By.CSS_SELECTOR, "form[action='/manage/actions']")
    screenshot_page(driver, "manage-access-forbidden")
    # Loopback still gets in.
    driver.get(open_server.url("/manage"))
    loaded(driver)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Worlds"


def test_with_a_token_outside_peers_sign_in_first(token_server, chromium):
    driver = chromium()
    driver.get(outside_url(token_server, "/manage/settings?world=default"))
    wait_for(driver, lambda d: "/manage/login" in d.current_url, "the sign-in form")
    screenshot_page(driver, "manage-access-login")
    tab_until(driver, "e.id==='mg-token'")
    type_text(driver, "not-the-token")
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Sign in'", max_tabs=5)
    wait_for(driver, lambda d: "That is not the admin token." in d.page_source, "the refusal")
    assert driver.execute_script("return document.cookie") == ""
    activate(driver, "e.tagName==='A'&&e.textContent==='Try again'", max_tabs=10)
    wait_for(driver, lambda d: d.find_elements(By.ID, "mg-token"), "the sign-in form again")
    tab_until(driver, "e.id==='mg-token'")
    type_text(driver, TOKEN)
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Sign in'", max_tabs=5)
    wait_for(driver, lambda d: "/manage/settings" in d.current_url, "the page asked for, after signing in")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Switches"
    cookies = {c["name"]: c for c in driver.get_cookies()}
    session = cookies.get("openstore_admin")
    assert session and session["httpOnly"] and session.get("sameSite") == "Strict" and session["path"] == "/manage", cookies
    assert driver.execute_script("return document.cookie") == "", "the session cookie is not readable by script"
    # A form works once signed in: Ask to Buy on.
    driver.find_element(By.CSS_SELECTOR, "select[name=askToBuy]")
    tab_until(driver, "e.name==='askToBuy'")
    type_text(driver, "on")
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Save switches'", max_tabs=20)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "the switches' notice")
    assert driver.find_element(By.CSS_SELECTOR, "td[data-switch=askToBuy]").text == "on"
    # Signing out ends it.
    driver.get(outside_url(token_server, "/manage"))
    loaded(driver)
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Sign out'")
    wait_for(driver, lambda d: "/manage/login" in d.current_url, "the sign-in form after signing out")
    driver.get(outside_url(token_server, "/manage/keys"))
    wait_for(driver, lambda d: "/manage/login" in d.current_url, "keys need signing in again")
