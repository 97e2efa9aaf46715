"""Issue 6 §7: hostile product names render inert.

browser/fixtures/hostile.storekit names its products, group and policies with markup
(`<script>`, `"><img onerror>`, `<svg onload>`), quotes, and right-to-left text with a RIGHT-TO-LEFT
OVERRIDE (U+202E). Every page the hostile server lists must show those texts literally, run none
of them, and keep the override from reordering anything around the name.
"""

from typing import List

import pytest

from harness import (
    BACKYARD_BIRDS, HOSTILE_GROUP, HOSTILE_NAMES, INERT_JS, NAMES_BY_ID, RLO, By, Keys, all_text_nodes_containing,
    press, screenshot_page, wait, wait_for,
)

def load(driver, url):
    driver.get(url)
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def assert_inert(driver, where: str, names: List[str] = HOSTILE_NAMES):
    facts = driver.execute_script(INERT_JS)
    assert facts["pwned"] is None, f"{where}: a hostile text ran: window.__pwned = {facts['pwned']!r}"
    assert facts["scripts"] <= 1, f"{where}: {facts['scripts']} <script> elements (the page has one of its own)"
    assert not facts["bad"], f"{where}: " + "\n".join(facts["bad"][:20])
    missing = [n for n in names if n not in facts["text"]]
    assert not missing, f"{where}: hostile names not shown literally: {missing}"


@pytest.fixture
def hostile_driver(chromium):
    return chromium()


def test_hostile_pages_render_inert(hostile_server, hostile_pages, hostile_driver, customer):
    for page in hostile_pages:
        load(hostile_driver, hostile_server.page_url(page, customer=customer))
        screenshot_page(hostile_driver, f"hostile-{page}")
        assert_inert(hostile_driver, page, [])


def _catalog_names_on(driver) -> str:
    return driver.execute_script("return document.documentElement.textContent;")


def test_every_hostile_name_appears_somewhere(hostile_server, hostile_pages, hostile_driver, customer):
    """Across the pages the hostile server lists, each hostile product name is shown literally
    (a page that drops a product silently would pass the inertness check above)."""
    seen = ""
    for page in hostile_pages:
        load(hostile_driver, hostile_server.page_url(page, customer=customer))
        seen += _catalog_names_on(hostile_driver)
    missing = [n for n in HOSTILE_NAMES if n not in seen]
    assert not missing, f"never shown literally on {hostile_pages}: {missing}"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("product", ["com.example.hostile.img", "com.example.hostile.rtl"])
def test_hostile_names_survive_a_purchase(hostile_server, hostile_pages, chromium, customer, javascript, product):
    """The notice and the updated page after buying a hostile product are inert too, whether the
    script swaps the page in or the form posts and the browser follows the 303."""
    driver = chromium(javascript=javascript)
    for page in hostile_pages:
        load(driver, hostile_server.page_url(page, customer=customer))
        buttons = driver.find_elements(By.CSS_SELECTOR, f'article.sk-product[data-product-id="{product}"] button.sk-buy')
        if buttons:
            break
    else:
        pytest.fail(f"no page of {hostile_pages} offers {product} for sale")
    driver.execute_script("arguments[0].focus();", buttons[0])
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), f"a .sk-notice after buying {product}")
    name = NAMES_BY_ID[product]
    assert name in driver.find_element(By.CSS_SELECTOR, ".sk-notice").get_attribute("textContent"), \
        f"the notice does not name {name!r} literally"
    assert_inert(driver, f"{page} after buying {product}", [name])
    leaks = rtl_leaks(driver, HOSTILE_NAMES[-1])
    assert not leaks, "RTL override not isolated from the surrounding text:\n" + "\n".join(leaks)
    screenshot_page(driver, f"hostile-after-purchase-{product}-{'js' if javascript else 'nojs'}")
    entitled = [t["productId"] for t in hostile_server.entitlements(BACKYARD_BIRDS, customer)]
    assert product in entitled, entitled


def test_hostile_group_name_and_policies_are_inert(hostile_server, hostile_pages, hostile_driver, customer):
    driver = hostile_driver
    found_group = False
    for page in hostile_pages:
        load(driver, hostile_server.page_url(page, customer=customer))
        text = _catalog_names_on(driver)
        found_group = found_group or HOSTILE_GROUP in text
        assert_inert(driver, page, [])
        links = driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('a[href]'),function(a){return a.getAttribute('href');});")
        assert not [h for h in links if h.strip().lower().startswith("javascript:")], f"{page}: javascript: link {links}"
    assert found_group, f"the hostile group's display name is not shown literally on any of {hostile_pages}"


def test_policy_links_lead_to_inert_literal_texts(hostile_server, hostile_pages, hostile_driver, customer):
    """The policies links of a subscription store lead somewhere (never "#" or javascript:), and
    the store's own pages for the catalog's EULA and privacy text show them literally, inert."""
    driver = hostile_driver
    links = {}
    for page in hostile_pages:
        load(driver, hostile_server.page_url(page, customer=customer))
        for a in driver.find_elements(By.CSS_SELECTOR, ".sk-policies a"):
            links.setdefault(a.text.strip(), set()).add(a.get_dom_attribute("href"))
    assert links, f"no .sk-policies links on {hostile_pages}"
    expected = {"Terms of Service": "<script>window.__pwned='eula'</script>Terms & <b>conditions</b>",
                "Privacy Policy": "<img src=x onerror=\"window.__pwned='policy'\">Privacy"}
    # The store's own pages of the catalog's texts, whether or not a link leads there.
    for path, name in ((f"/store/{hostile_pages[0]}/terms", "Terms of Service"),
                       (f"/store/{hostile_pages[0]}/privacy", "Privacy Policy")):
        load(driver, hostile_server.url(path, customer=customer))
        assert_inert(driver, path, [expected[name]])
    for name, hrefs in links.items():
        for href in hrefs:
            if href.startswith("/"):
                load(driver, hostile_server.url(href))
                assert_inert(driver, f"{name} page {href}", [expected[name]] if name in expected else [])
    dead = {name: hrefs for name, hrefs in links.items()
            if any(h in ("", "#") or h.lower().startswith("javascript:") for h in hrefs)}
    assert not dead, f"policy links that lead nowhere (the catalog has policy texts to show): {dead}"


@pytest.mark.parametrize("param,value", [
    ("customer", "<img src=x onerror=window.__pwned=1>"),
    ("customer", "\"><script>window.__pwned=1</script>"),
    ("scheme", "\"><script>window.__pwned=1</script>"),
    ("world", "<script>window.__pwned=1</script>"),
    ("notice", "<img src=x onerror=window.__pwned=1>"),
    ("notice", "</p><script>window.__pwned=1</script>"),
])
def test_hostile_query_parameters_are_inert(demo_pages, chromium, param, value):
    """What a visitor puts in the URL is never markup either (a reflected-XSS check)."""
    driver = chromium()
    args = {"customer": "hostile-query", param: value}
    load(driver, demo_pages.page_url("backyard-birds", **args))
    facts = driver.execute_script(INERT_JS)
    assert facts["pwned"] is None, f"?{param}={value!r} ran: window.__pwned = {facts['pwned']!r}"
    assert facts["scripts"] <= 1 and not facts["bad"], (facts["scripts"], facts["bad"][:10])


RTL_LEAKS_JS = r"""
var name = arguments[0], out = [];
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
function isolated(el, block) {
  for (var e = el; e; e = e.parentElement) {
    var s = getComputedStyle(e);
    if (e.tagName === 'BDI' || e.hasAttribute('dir') || /isolate|plaintext/.test(s.unicodeBidi)) return true;
    if (e === block) return false;
  }
  return false;
}
function describe(e) { return e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).replace(/ +/g, '.') : ''); }
while (walker.nextNode()) {
  var n = walker.currentNode, p = n.parentElement;
  if (n.data.indexOf('\u202e') < 0 || !p || p.closest('[aria-hidden=true], script, style, title, .sk-visually-hidden')) continue;
  var block = p;
  while (/^inline/.test(getComputedStyle(block).display) && block.parentElement) block = block.parentElement;
  // U+202E reorders what follows it up to the end of the paragraph: the text after the name.
  var after = n.data.slice(n.data.indexOf(name) >= 0 ? n.data.indexOf(name) + name.length : n.data.length);
  var range = document.createRange();
  range.setStartAfter(n); range.setEnd(block, block.childNodes.length);
  after += range.toString();
  if (!after.trim()) continue;
  // Unicode isolates around the name (FSI/LRI/RLI … PDI) close the override at the PDI, as <bdi> does.
  var at = n.data.indexOf(name);
  var isolates = at > 0 && '\u2066\u2067\u2068'.indexOf(n.data.charAt(at - 1)) >= 0 && n.data.charAt(at + name.length) === '\u2069';
  if (isolates) continue;
  if (n.data.trim() !== name || !isolated(p, block)) {
    out.push(describe(p) + ' in ' + describe(block) + ': ' + JSON.stringify(block.textContent.replace(/\s+/g, ' ').trim().slice(0, 80)) +
             ' (reversed after the name: ' + JSON.stringify(after.trim().slice(0, 40)) + ')');
  }
}
return out;
"""


def rtl_leaks(driver, name: str) -> List[str]:
    """Places where `name` (which holds U+202E) is rendered in a line with other text without a
    bidi isolate around it: there the override reverses whatever follows it on that line."""
    return sorted(set(driver.execute_script(RTL_LEAKS_JS, name)))


def test_rtl_name_is_isolated(hostile_server, hostile_pages, hostile_driver, customer):
    """The RTL name with U+202E is shown literally, and wherever it sits inside a line with other
    text (a button label, a legend, a notice) it is bidi-isolated (<bdi>, dir=auto or
    unicode-bidi: isolate/plaintext), so the override cannot reverse the price or words around it."""
    driver = hostile_driver
    rtl = HOSTILE_NAMES[-1]
    leaks = []
    shown = False
    for page in hostile_pages:
        load(driver, hostile_server.page_url(page, customer=customer))
        shown = shown or any(rtl in node["text"] for node in all_text_nodes_containing(driver, RLO))
        leaks += [f"{page}: {leak}" for leak in rtl_leaks(driver, rtl)]
    assert shown, f"the RTL name {rtl!r} is not shown literally on any of {hostile_pages}"
    assert not leaks, "RTL override not isolated from the surrounding text:\n" + "\n".join(leaks)
