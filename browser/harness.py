"""The browser suite's plumbing: a live `openstore serve`, headless Chromium from Debian, and the
small helpers the tests share (device API look-ups, keyboard input, screenshots, colours).

Nothing is downloaded at run time: Chromium and chromedriver are Debian's packages
(`apt-get install chromium chromium-driver`), and Selenium Manager is kept offline.
"""

from __future__ import annotations

import base64
import json
import os
import re
import struct
import sys
import zlib
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple
from urllib.parse import urlencode, urlsplit

import requests

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must never try to download a driver

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "testsupport"))
from openstore_process import OpenStoreProcess, openstore_bin  # noqa: E402,F401  (shared with compat/; re-exported)
BROWSER_DIR = Path(__file__).resolve().parent
FIXTURES = BROWSER_DIR / "fixtures"
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", REPO_ROOT / "artifacts" / "browser"))
HTTP_TIMEOUT = 30
# How long a page may take to update after an action. Generous: the suite shares 2 cores with a
# debug build of the server; nothing asserts on time, this only bounds a hang.
WAIT = float(os.environ.get("BROWSER_WAIT", "30"))
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

BACKYARD_BIRDS = "com.example.backyardbirds"
FOOD_TRUCK = "com.example.foodtruck"
HOSTILE_BUNDLE = "com.example.hostile"
HOSTILE_CATALOG = FIXTURES / "hostile.storekit"


class ServerProcess(OpenStoreProcess):
    """`openstore serve` (see testsupport/openstore_process.py) and the URLs and reads the
    browser tests ask of it."""

    # -- what the tests ask of it ----------------------------------------------------------------
    @property
    def origin(self) -> str:
        parts = urlsplit(self.base_url or "")
        return f"{parts.scheme}://{parts.netloc}"

    def url(self, path: str, **query: Any) -> str:
        q = {k: v for k, v in query.items() if v is not None}
        return (self.base_url or "") + path + (("?" + urlencode(q)) if q else "")

    def page_url(self, page_id: str, customer: Optional[str] = None, world: Optional[str] = None,
                 scheme: Optional[str] = None, **query: Any) -> str:
        return self.url(f"/store/{page_id}", customer=customer, world=world, scheme=scheme, **query)

    def get(self, path: str, **kw) -> requests.Response:
        return requests.get(self.base_url + path, timeout=HTTP_TIMEOUT, **kw)

    def entitlements(self, bundle_id: str, customer: str, world: Optional[str] = None) -> List[Dict[str, Any]]:
        """Transaction.currentEntitlements as the device API signs them, payloads decoded (the
        compat suite verifies signatures; here only the content matters)."""
        prefix = f"/storekit/v1/worlds/{world}" if world else "/storekit/v1"
        r = self.get(f"{prefix}/apps/{bundle_id}/customers/{customer}/entitlements")
        assert r.status_code == 200, f"GET entitlements: {r.status_code} {r.text[:500]}"
        return [jws_payload(s) for s in r.json()["signedTransactions"]]

    def transactions(self, bundle_id: str, customer: str, world: Optional[str] = None) -> List[Dict[str, Any]]:
        prefix = f"/storekit/v1/worlds/{world}" if world else "/storekit/v1"
        r = self.get(f"{prefix}/apps/{bundle_id}/customers/{customer}/transactions")
        assert r.status_code == 200, f"GET transactions: {r.status_code} {r.text[:500]}"
        return [jws_payload(s) for s in r.json()["signedTransactions"]]


def jws_payload(jws: str) -> Dict[str, Any]:
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


# ---------------------------------------------------------------------------------------------
# The browser


def chromium_options(scheme: str = "light", javascript: bool = True, width: int = 1280, height: int = 900,
                     log_network: bool = False) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--lang=en-US", "--no-first-run", "--no-default-browser-check",
                # Keep Chromium itself quiet on the network: no component updates, no safe-browsing
                # or translate pings. The tests judge the page's requests, not the browser's.
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
                "--metrics-recording-only", "--mute-audio"):
        options.add_argument(arg)
    prefs: Dict[str, Any] = {"intl.accept_languages": "en-US,en"}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
        options.add_argument("--blink-settings=scriptEnabled=false")
    options.add_experimental_option("prefs", prefs)
    if log_network:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    else:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def start_chromium(scheme: str = "light", javascript: bool = True, log_network: bool = False,
                   width: int = 1280, height: int = 900) -> WebDriver:
    options = chromium_options(scheme=scheme, javascript=javascript, width=width, height=height, log_network=log_network)
    service = Service(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT * 2)
    driver.set_script_timeout(WAIT)
    emulate_color_scheme(driver, scheme)
    if log_network:
        driver.execute_cdp_cmd("Network.enable", {})
    return driver


def emulate_color_scheme(driver: WebDriver, scheme: str) -> None:
    """`prefers-color-scheme` for every page this driver loads afterwards (and the current one)."""
    value = "dark" if scheme == "dark" else "light"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]})


def wait(driver: WebDriver, timeout: float = WAIT) -> WebDriverWait:
    """A wait that polls again when the page replaced an element the condition was reading: a
    page update can land between finding an element and reading it (a stale reference is "not yet")."""
    from selenium.common.exceptions import StaleElementReferenceException
    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException])


def wait_for(driver: WebDriver, condition, what: str, timeout: float = WAIT):
    """Wait for a page update; on timeout, fail saying what never appeared and what the page shows."""
    from selenium.common.exceptions import TimeoutException
    try:
        return wait(driver, timeout).until(condition)
    except TimeoutException:
        try:
            notice = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".sk-notice")]
            url = driver.current_url
        except Exception:  # noqa: BLE001
            notice, url = [], "?"
        raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; the page is {url}, notices {notice}, "
                             f"console errors {js_errors(driver)}") from None


def active(driver: WebDriver) -> WebElement:
    return driver.switch_to.active_element


def press(driver: WebDriver, *keys: str) -> None:
    """Keys to whatever has focus, as a keyboard would send them (no element is clicked)."""
    chain = ActionChains(driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def describe_focus(driver: WebDriver) -> str:
    return driver.execute_script(
        "var e=document.activeElement;if(!e)return'(none)';"
        "return e.tagName.toLowerCase()+(e.id?'#'+e.id:'')+(e.className?'.'+String(e.className).replace(/ +/g,'.'):'')"
        "+(e.name?'[name='+e.name+']':'')+(e.value?'[value='+e.value+']':'')+' '+JSON.stringify((e.getAttribute('aria-label')||e.textContent||'').trim().slice(0,80));")


def tab_until(driver: WebDriver, predicate_js: str, max_tabs: int = 80, shift: bool = False) -> List[str]:
    """Press Tab until `predicate_js` (a JS expression over `e`, the focused element) holds.
    Returns the focus path walked, for error messages; raises AssertionError when never reached."""
    walked: List[str] = []
    for _ in range(max_tabs):
        press(driver, Keys.SHIFT + Keys.TAB if shift else Keys.TAB)
        walked.append(describe_focus(driver))
        if driver.execute_script(f"var e=document.activeElement;return !!(e&&({predicate_js}));"):
            return walked
    raise AssertionError(f"Tab never reached an element where {predicate_js}; focus went:\n  " + "\n  ".join(walked))


def js_errors(driver: WebDriver) -> List[str]:
    try:
        return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    except Exception:  # noqa: BLE001 - some sessions have no browser log
        return []


def network_requests(driver: WebDriver) -> List[str]:
    """Every URL Chromium asked for since the last call (CDP Network.requestWillBeSent, via the
    performance log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def resource_entries(driver: WebDriver) -> List[str]:
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(function(e){return e.name;})"
        ".concat(performance.getEntriesByType('navigation').map(function(e){return e.name;}));")


def assert_shows_purchased(driver: WebDriver, article: str) -> None:
    """The bought non-consumable is shown as owned ("✓ Purchased") and no longer for sale."""
    owned = driver.find_elements(By.CSS_SELECTOR, f"{article} .sk-owned")
    shown = driver.execute_script("var m=document.getElementById('sk-main');return m?m.innerText.slice(0,600):'';")
    assert owned and "Purchased" in owned[0].text, (
        f"after the purchase the page shows no '✓ Purchased' in {article}; the page reads:\n{shown}")
    assert not driver.find_elements(By.CSS_SELECTOR, f"{article} button.sk-buy"), "still offers to buy what is owned"


# ---------------------------------------------------------------------------------------------
# The hostile catalog (fixtures/hostile.storekit)

RLO = "\u202e"
HOSTILE_NAMES = [
    "<script>window.__pwned=1</script>",
    "\"><img src=x onerror=window.__pwned=1>",
    "<svg/onload=window.__pwned='season'>Season",
    "Tom's \"quoted\" pass",
    "اشتراك شهري " + RLO + "evil",
]
NAMES_BY_ID = {
    "com.example.hostile.script": HOSTILE_NAMES[0],
    "com.example.hostile.img": HOSTILE_NAMES[1],
    "com.example.hostile.season": HOSTILE_NAMES[2],
    "com.example.hostile.quoted": HOSTILE_NAMES[3],
    "com.example.hostile.rtl": HOSTILE_NAMES[4],
}
HOSTILE_GROUP = "</legend><script>window.__pwned='group'</script>"

INERT_JS = r"""
var own = document.querySelectorAll('script');
var bad = [];
own.forEach(function(s){ if (/__pwned/.test(s.textContent) || s.src) bad.push('script: ' + s.outerHTML.slice(0, 120)); });
document.querySelectorAll('*').forEach(function(e){
  for (var i = 0; i < e.attributes.length; i++) {
    var a = e.attributes[i];
    if (/^on/i.test(a.name)) bad.push('handler attribute ' + a.name + ' on <' + e.tagName.toLowerCase() + '>');
    if (/^\s*javascript:/i.test(a.value) && /^(href|src|action|formaction|xlink:href)$/i.test(a.name))
      bad.push('javascript: URL in ' + a.name + ' of <' + e.tagName.toLowerCase() + '>');
  }
});
document.querySelectorAll('img[src=x], svg, iframe, object, embed, b, i, u').forEach(function(e){
  // The page's own symbols are inline SVG (svg.sk-symbol with its data-symbol name); names are escaped text.
  if (!e.closest('.sk-product-icon, .sk-plan-icon, [data-icon]') && !e.matches('svg.sk-symbol[data-symbol]'))
    bad.push('element from a name: ' + e.outerHTML.slice(0, 120));
});
return {pwned: typeof window.__pwned === 'undefined' ? null : String(window.__pwned), scripts: own.length, bad: bad,
        text: document.documentElement.textContent};
"""



# ---------------------------------------------------------------------------------------------
# Artifacts


def artifact_path(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")
    return ARTIFACTS / f"{safe}.png"


def screenshot_element(driver: WebDriver, element: WebElement, name: str) -> Path:
    """One element, whole even where it is taller or wider than the window (CDP
    captureBeyondViewport with a clip in page coordinates)."""
    path = artifact_path(name)
    rect = driver.execute_script(
        "var r=arguments[0].getBoundingClientRect();"
        "return {x:r.left+window.scrollX,y:r.top+window.scrollY,w:Math.max(arguments[0].scrollWidth,r.width),h:r.height};",
        element)
    assert rect["w"] >= 1 and rect["h"] >= 1, f"{name}: element has no size ({rect})"
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": max(0, rect["x"]), "y": max(0, rect["y"]), "width": rect["w"], "height": min(rect["h"], 16000),
                 "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.stat().st_size > 0, f"screenshot {path} was not written"
    return path


def screenshot_page(driver: WebDriver, name: str) -> Path:
    """The whole page, not just the viewport (CDP captureBeyondViewport)."""
    path = artifact_path(name)
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    width = max(1, int(size["width"]))
    height = max(1, min(int(size["height"]), 16000))
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


# ---------------------------------------------------------------------------------------------
# Colours


def parse_css_color(value: str) -> Tuple[float, float, float, float]:
    """rgb()/rgba()/color(srgb …) as getComputedStyle reports them, to (r, g, b, alpha) in 0…255."""
    value = value.strip()
    m = re.match(r"rgba?\(([^)]*)\)", value)
    if m:
        parts = [p for p in re.split(r"[\s,/]+", m.group(1)) if p]
        r, g, b = (float(p) for p in parts[:3])
        a = float(parts[3]) if len(parts) > 3 else 1.0
        return r, g, b, a
    m = re.match(r"color\(srgb\s+([^)]*)\)", value)
    if m:
        parts = [p for p in re.split(r"[\s/]+", m.group(1)) if p]
        r, g, b = (float(p) * 255 for p in parts[:3])
        a = float(parts[3]) if len(parts) > 3 else 1.0
        return r, g, b, a
    raise ValueError(f"unparsed CSS colour {value!r}")


def luminance(rgb: Sequence[float]) -> float:
    """WCAG relative luminance of an sRGB colour in 0…255."""
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


# The colour of an element's text and of the first opaque background behind it (walking up the
# tree; the canvas colour, which getComputedStyle cannot see, is sampled from a screenshot).
COLORS_JS = r"""
var el = arguments[0];
var cs = getComputedStyle(el);
var bg = null, node = el;
while (node && node.nodeType === 1) {
  var b = getComputedStyle(node).backgroundColor;
  var m = b.match(/rgba?\(([^)]*)\)/);
  var alpha = 1;
  if (m) { var p = m[1].split(/[\s,\/]+/).filter(Boolean); if (p.length > 3) alpha = parseFloat(p[3]); }
  if (b !== 'transparent' && alpha > 0.5) { bg = b; break; }
  node = node.parentElement;
}
return {color: cs.color, background: bg, colorScheme: getComputedStyle(document.documentElement).colorScheme};
"""


def png_pixel(png: bytes, x: int, y: int) -> Tuple[int, int, int]:
    """One pixel of an 8-bit, non-interlaced RGB/RGBA PNG (what Chromium writes), without PIL."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    height = bit_depth = color_type = 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, bit_depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", data)
            assert bit_depth == 8 and color_type in (2, 6) and interlace == 0, (bit_depth, color_type, interlace)
        elif kind == b"IDAT":
            idat += data
        elif kind == b"IEND":
            break
    bpp = 4 if color_type == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    row = bytearray(stride)
    for r in range(y + 1):
        start = r * (stride + 1)
        ftype = raw[start]
        line = raw[start + 1:start + 1 + stride]
        row = bytearray(stride)
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            v = line[i]
            if ftype == 0:
                row[i] = v
            elif ftype == 1:
                row[i] = (v + a) & 0xFF
            elif ftype == 2:
                row[i] = (v + b) & 0xFF
            elif ftype == 3:
                row[i] = (v + ((a + b) >> 1)) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[i] = (v + pred) & 0xFF
            else:
                raise ValueError(f"PNG filter {ftype}")
        prev = row
    i = x * bpp
    return row[i], row[i + 1], row[i + 2]


def all_text_nodes_containing(driver: WebDriver, needle: str) -> List[Dict[str, Any]]:
    """Every text node whose data contains `needle`, with its parent's tag and classes."""
    return driver.execute_script(r"""
var needle = arguments[0], out = [];
var walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  var n = walker.currentNode;
  if (n.data.indexOf(needle) >= 0) {
    var p = n.parentElement;
    out.push({text: n.data, tag: p ? p.tagName.toLowerCase() : '', cls: p ? String(p.className) : '',
              ariaHidden: !!(p && p.closest('[aria-hidden=true]'))});
  }
}
return out;
""", needle)
