"""Issue 13 §7, tests: a Server API key made on /manage/keys with the keyboard. Its .p8 downloads
once from the new key's page (a data: link, under the page's `default-src 'none'` policy), the
downloaded key signs an App Store Server API token the store accepts (Request a Test
Notification), the key list never shows the private key again, and after "Revoke" (which asks
first) the same token is refused."""

import base64
import json
import subprocess
import time
import uuid

import requests

from harness import HTTP_TIMEOUT, By, screenshot_page, wait_for
from manage_support import activate, loaded, manage_url


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def der_to_raw(signature: bytes) -> bytes:
    """ECDSA-Sig-Value (SEQUENCE of two INTEGERs, as openssl writes it) to JWS's r || s."""
    assert signature[0] == 0x30
    at = 2 if signature[1] < 0x80 else 2 + (signature[1] & 0x7F)
    parts = []
    for _ in range(2):
        assert signature[at] == 0x02
        length = signature[at + 1]
        parts.append(signature[at + 2:at + 2 + length].lstrip(b"\x00").rjust(32, b"\x00"))
        at += 2 + length
    return parts[0] + parts[1]


def server_api_token(p8_path, key_id: str, issuer: str, bundle: str) -> str:
    """An ES256 JWT as Apple's documentation describes it (kid, iss, iat, exp, aud, bid), signed by openssl."""
    now = int(time.time())
    header = b64url(json.dumps({"alg": "ES256", "kid": key_id, "typ": "JWT"}).encode())
    payload = b64url(json.dumps({"iss": issuer, "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1", "bid": bundle}).encode())
    signing_input = f"{header}.{payload}".encode()
    der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", str(p8_path)], input=signing_input, capture_output=True, check=True).stdout
    return f"{header}.{payload}.{b64url(der_to_raw(der))}"


def test_a_key_downloads_once_works_and_is_revoked(demo_pages, chromium, tmp_path):
    world = f"keys-{uuid.uuid4().hex[:8]}"
    requests.post(demo_pages.base_url + "/admin/v1/worlds", json={"id": world}, timeout=HTTP_TIMEOUT).raise_for_status()
    driver = chromium()
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    driver.get(manage_url(demo_pages, "keys", world=world))
    loaded(driver)
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Create key'")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "a[download]"), "the new key's page")
    link = driver.find_element(By.CSS_SELECTOR, "a[download]")
    file_name = link.get_attribute("download")
    key_id = file_name.removeprefix("AuthKey_").removesuffix(".p8")
    shown = driver.find_element(By.ID, "mg-p8").get_attribute("value")
    screenshot_page(driver, "manage-keys-new")
    activate(driver, "e.tagName==='A'&&e.hasAttribute('download')")
    downloaded = tmp_path / file_name
    wait_for(driver, lambda d: downloaded.exists() and downloaded.stat().st_size > 0, f"{file_name} in the download folder")
    p8 = downloaded.read_text()
    assert p8 == shown and p8.startswith("-----BEGIN PRIVATE KEY-----"), p8[:80]
    assert "prime256v1" in subprocess.run(["openssl", "pkey", "-in", str(downloaded), "-noout", "-text"], capture_output=True, text=True).stdout

    # The key list: the key, its issuer, never its private half.
    activate(driver, "e.tagName==='A'&&e.textContent==='Back to the keys'")
    wait_for(driver, lambda d: d.find_elements(By.XPATH, f"//th[text()='{key_id}']"), "the key in the list")
    issuer = driver.find_element(By.XPATH, f"//th[text()='{key_id}']/following-sibling::td[1]").text
    bundle = driver.find_element(By.XPATH, f"//th[text()='{key_id}']/following-sibling::td[2]").text
    assert "PRIVATE KEY" not in driver.page_source and p8.splitlines()[1] not in driver.page_source

    # The downloaded key signs a token the Server API accepts (a TEST notification needs the app's URL).
    requests.put(f"{demo_pages.base_url}/admin/v1/worlds/{world}/apps/{bundle}/notification-url",
                 json={"url": "http://127.0.0.1:9/closed", "environment": "Sandbox"}, timeout=HTTP_TIMEOUT).raise_for_status()
    token = server_api_token(downloaded, key_id, issuer, bundle)
    answer = requests.post(demo_pages.base_url + "/inApps/v1/notifications/test", headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT)
    assert answer.status_code == 200 and "testNotificationToken" in answer.json(), answer.text[:300]

    # Revoke asks first; then the same token is refused.
    activate(driver, f"e.getAttribute('aria-label')==='Revoke key {key_id}'")
    wait_for(driver, lambda d: "Are you sure?" in d.page_source, "the confirmation page")
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Yes, revoke the key'", max_tabs=20)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "the revocation notice")
    assert driver.find_element(By.CSS_SELECTOR, ".sk-notice").text == f"Key {key_id} was revoked."
    assert not driver.find_elements(By.XPATH, f"//th[text()='{key_id}']")
    refused = requests.post(demo_pages.base_url + "/inApps/v1/notifications/test", headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT)
    assert refused.status_code == 401, refused.text[:300]
