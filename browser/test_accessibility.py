"""Issue 6 §7: the accessible names of plans and prices are right, as Chromium's accessibility
tree (what a screen reader reads) reports them.

The plan picker is a radio group; each radio is announced with its plan and a speakable price
("$49.99 per year", never "/yr"), the selected one as checked. Buy buttons say what they buy and
for how much ("Buy Sunflower Seeds for $1.99").
"""

import re
from typing import Any, Dict, List

import pytest

from harness import By, Keys, press, wait

PAGES = ["backyard-birds", "backyard-birds-pass", "food-truck", "gallery"]
ABBREVIATIONS = re.compile(r"/\s*(yr|year|mo|month|wk|week|day|d)\b|\b(yr|mo|wk)\b\.?", re.IGNORECASE)
SOCIAL_FEED = {
    "com.example.foodtruck.socialfeedplus.monthly": ("Social Feed+ Monthly", "$4.99 per month"),
    "com.example.foodtruck.socialfeedplus.yearly": ("Social Feed+ Yearly", "$49.99 per year"),
}
BUY_NAMES = {
    "com.example.backyardbirds.sunflowerseeds": "Buy Sunflower Seeds for $1.99",
    "com.example.backyardbirds.pellets": "Buy Nutrition Pellets for $0.99",
    "com.example.backyardbirds.feastbundle": "Buy Backyard Feast Bundle for $9.99",
}


def load(driver, server, page, customer):
    driver.get(server.page_url(page, customer=customer))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def ax_nodes(driver) -> List[Dict[str, Any]]:
    driver.execute_cdp_cmd("Accessibility.enable", {})
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    out = []
    for node in nodes:
        if node.get("ignored"):
            continue
        props = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}
        out.append({
            "role": (node.get("role") or {}).get("value"),
            "name": (node.get("name") or {}).get("value", ""),
            "props": props,
            "backend": node.get("backendDOMNodeId"),
        })
    return out


def ax_for(driver, element) -> Dict[str, Any]:
    """The accessibility node of one DOM element."""
    driver.execute_cdp_cmd("Accessibility.enable", {})
    remote = driver.execute_cdp_cmd("DOM.describeNode", {"objectId": _object_id(driver, element)})
    backend = remote["node"]["backendNodeId"]
    nodes = driver.execute_cdp_cmd("Accessibility.getPartialAXTree", {"backendNodeId": backend, "fetchRelatives": False})["nodes"]
    node = next(n for n in nodes if n.get("backendDOMNodeId") == backend)
    props = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}
    return {"role": (node.get("role") or {}).get("value"), "name": (node.get("name") or {}).get("value", ""),
            "props": props, "ignored": node.get("ignored", False)}


def _object_id(driver, element) -> str:
    marker = "sk-ax-probe"
    driver.execute_script("arguments[0].setAttribute('data-ax-probe', arguments[1]);", element, marker)
    doc = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})
    found = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": doc["root"]["nodeId"], "selector": f'[data-ax-probe="{marker}"]'})
    resolved = driver.execute_cdp_cmd("DOM.resolveNode", {"nodeId": found["nodeId"]})
    driver.execute_script("arguments[0].removeAttribute('data-ax-probe');", element)
    return resolved["object"]["objectId"]


def test_plan_radios_announce_plan_and_spoken_price(demo_pages, chromium, customer):
    driver = chromium()
    load(driver, demo_pages, "food-truck", customer)
    radios = driver.find_elements(By.CSS_SELECTOR, ".sk-subscription-store input[type=radio][name=product]")
    by_id = {r.get_attribute("value"): r for r in radios}
    assert set(SOCIAL_FEED) <= set(by_id), f"food-truck plan radios: {sorted(by_id)}"
    checked = []
    for product_id, (name, price) in SOCIAL_FEED.items():
        node = ax_for(driver, by_id[product_id])
        spoken = node["name"]
        assert node["role"] == "radio", node
        assert not node["ignored"], f"{product_id}: the radio is hidden from assistive technology"
        assert name in spoken, f"{product_id}: announced as {spoken!r}, without its plan name {name!r}"
        assert price in spoken, f"{product_id}: announced as {spoken!r}, without the speakable price {price!r}"
        assert not ABBREVIATIONS.search(spoken), f"{product_id}: announced with an abbreviation: {spoken!r}"
        assert spoken.index(name) < spoken.index(price), f"{product_id}: price before name in {spoken!r}"
        assert spoken == by_id[product_id].accessible_name, "WebDriver's computed name disagrees with the AX tree"
        if node["props"].get("checked") in ("true", True):
            checked.append(product_id)
        assert (node["props"].get("checked") in ("true", True)) == by_id[product_id].is_selected()
    assert len(checked) == 1, f"checked plans in the accessibility tree: {checked}"
    # The yearly plan's per-month equivalent, if announced, is in words too.
    yearly = ax_for(driver, by_id["com.example.foodtruck.socialfeedplus.yearly"])["name"]
    if "4.17" in yearly:
        assert "$4.17 per month" in yearly, yearly


def test_plan_group_is_a_named_radio_group(demo_pages, chromium, customer):
    driver = chromium()
    load(driver, demo_pages, "backyard-birds-pass", customer)
    fieldsets = driver.find_elements(By.CSS_SELECTOR, ".sk-subscription-store fieldset.sk-plans")
    assert fieldsets, "backyard-birds-pass: no fieldset.sk-plans"
    node = ax_for(driver, fieldsets[0])
    assert node["role"] in ("group", "radiogroup"), node
    assert "Backyard Birds Pass" in node["name"], f"plan group announced as {node['name']!r}"
    # Arrow keys select, so every radio of the group shares a name attribute.
    names = {r.get_attribute("name") for r in fieldsets[0].find_elements(By.CSS_SELECTOR, "input[type=radio]")}
    assert names == {"product"}, names


def test_selected_plan_follows_the_selection(demo_pages, chromium, customer):
    """After selecting another plan, the tree reports it checked and the subscribe button's name
    follows it (the small script updates the label)."""
    driver = chromium()
    load(driver, demo_pages, "food-truck", customer)
    radios = driver.find_elements(By.CSS_SELECTOR, ".sk-subscription-store input[type=radio][name=product]")
    unchecked = [r for r in radios if not r.is_selected() and r.is_enabled()]
    assert unchecked, "no other plan to select"
    target = unchecked[0]
    target_id = target.get_attribute("value")
    driver.execute_script("arguments[0].focus();", target)
    press(driver, Keys.SPACE)
    assert target.is_selected()
    assert ax_for(driver, target)["props"].get("checked") in ("true", True)
    form = target.find_element(By.XPATH, "ancestor::form")
    button = form.find_element(By.CSS_SELECTOR, "button.sk-subscribe")
    name = ax_for(driver, button)["name"]
    spoken = target.get_attribute("data-button-spoken")
    _, price = SOCIAL_FEED.get(target_id, ("", ""))
    assert name == spoken, f"subscribe button announced {name!r} after selecting {target_id}, expected {spoken!r}"
    assert price in name, f"subscribe button announced {name!r}, without {price!r}"
    assert not ABBREVIATIONS.search(name), f"subscribe button announced with an abbreviation: {name!r}"


@pytest.mark.parametrize("page", ["backyard-birds", "food-truck", "gallery"])
def test_buy_buttons_say_what_and_how_much(demo_pages, chromium, customer, page):
    driver = chromium()
    load(driver, demo_pages, page, customer)
    buttons = driver.find_elements(By.CSS_SELECTOR, "article.sk-product button.sk-buy")
    assert buttons, f"{page}: no buy buttons"
    for button in buttons:
        article = button.find_element(By.XPATH, "ancestor::article[1]")
        product_id = article.get_attribute("data-product-id")
        product_name = article.find_element(By.CSS_SELECTOR, ".sk-product-name").text.strip()
        node = ax_for(driver, button)
        assert node["role"] == "button", node
        expected = BUY_NAMES.get(product_id)
        if expected:
            assert node["name"] == expected, f"{product_id}: buy button announced {node['name']!r}"
        assert re.fullmatch(r"Buy .+ for \$\d+\.\d\d( .*)?", node["name"]), f"{product_id}: {node['name']!r}"
        assert product_name in node["name"], f"{product_id}: {node['name']!r} does not name {product_name!r}"
        visible_price = button.text.strip()
        if visible_price.startswith("$"):
            assert visible_price in node["name"], f"{product_id}: shows {visible_price!r}, announces {node['name']!r}"
        assert not ABBREVIATIONS.search(node["name"]), node["name"]


@pytest.mark.parametrize("page", ["backyard-birds", "food-truck"])
def test_product_articles_are_named_by_their_heading(demo_pages, chromium, customer, page):
    driver = chromium()
    load(driver, demo_pages, page, customer)
    articles = driver.find_elements(By.CSS_SELECTOR, "article.sk-product[data-state=success]")
    assert articles, f"{page}: no loaded product article to check"
    for article in articles:
        heading = article.find_element(By.CSS_SELECTOR, ".sk-product-name").text.strip()
        node = ax_for(driver, article)
        assert node["name"] == heading, f"{article.get_attribute('data-product-id')}: article named {node['name']!r}"


@pytest.mark.parametrize("page", PAGES)
def test_every_control_has_a_name(demo_pages, chromium, customer, page):
    driver = chromium()
    load(driver, demo_pages, page, customer)
    interactive = {"button", "link", "radio", "checkbox", "textbox", "combobox", "listbox", "menuitem", "tab",
                   "switch", "searchbox", "spinbutton", "slider", "option"}
    nameless = [n for n in ax_nodes(driver) if n["role"] in interactive and not (n["name"] or "").strip()]
    assert not nameless, f"{page}: controls without an accessible name: {nameless}"


@pytest.mark.parametrize("page", PAGES + ["food-truck-gallery"])
def test_document_structure(demo_pages, chromium, customer, page):
    driver = chromium()
    load(driver, demo_pages, page, customer)
    facts = driver.execute_script(r"""
var ids = {}, dups = [];
document.querySelectorAll('[id]').forEach(function(e){ if (ids[e.id]) dups.push(e.id); ids[e.id] = 1; });
var broken = [];
document.querySelectorAll('[aria-labelledby],[aria-describedby],label[for]').forEach(function(e){
  (e.getAttribute('aria-labelledby') || e.getAttribute('aria-describedby') || e.getAttribute('for') || '').split(/\s+/)
    .filter(Boolean).forEach(function(id){ if (!document.getElementById(id)) broken.push(e.tagName + ' -> ' + id); });
});
return {lang: document.documentElement.lang, title: document.title, h1: document.querySelectorAll('h1').length,
        main: document.querySelectorAll('main').length, dups: dups, broken: broken,
        imgsWithoutAlt: Array.prototype.filter.call(document.images, function(i){ return !i.hasAttribute('alt'); }).length,
        viewport: !!document.querySelector('meta[name=viewport]'),
        headings: Array.prototype.map.call(document.querySelectorAll('h1,h2,h3,h4,h5,h6'),
                    function(h){ return h.tagName.toLowerCase() + ' ' + h.textContent.trim().slice(0, 30); }).slice(0, 8)};
""")
    problems = []
    if not facts["lang"]:
        problems.append("<html> has no lang")
    if not facts["title"].strip():
        problems.append("empty <title>")
    if facts["h1"] != 1:
        problems.append(f"{facts['h1']} <h1> elements (a page has one, naming it; headings: {facts['headings']})")
    if facts["main"] != 1:
        problems.append(f"{facts['main']} <main> elements")
    if facts["dups"]:
        problems.append(f"duplicate ids {sorted(set(facts['dups']))[:20]}")
    if facts["broken"]:
        problems.append(f"references to missing ids {facts['broken'][:20]}")
    if facts["imgsWithoutAlt"]:
        problems.append(f"{facts['imgsWithoutAlt']} <img> without alt")
    if not facts["viewport"]:
        problems.append("no <meta name=viewport>")
    assert not problems, f"{page}: " + "; ".join(problems)


def test_per_period_equivalent_is_secondary(demo_pages, chromium, customer):
    """"$4.17/mo" from a yearly price is never more prominent than the billed "$49.99/yr"."""
    driver = chromium()
    load(driver, demo_pages, "food-truck", customer)
    pairs = driver.execute_script(r"""
return Array.prototype.map.call(document.querySelectorAll('.sk-plan'), function(label){
  var price = label.querySelector('.sk-plan-price'), eq = label.querySelector('.sk-plan-equivalent');
  if (!price || !eq) return null;
  var p = getComputedStyle(price), e = getComputedStyle(eq);
  return {plan: label.getAttribute('data-product-id'), priceSize: parseFloat(p.fontSize), eqSize: parseFloat(e.fontSize),
          priceWeight: parseInt(p.fontWeight, 10), eqWeight: parseInt(e.fontWeight, 10),
          priceText: price.textContent.trim(), eqText: eq.textContent.trim(),
          order: price.compareDocumentPosition(eq) & Node.DOCUMENT_POSITION_FOLLOWING ? 'after' : 'before'};
}).filter(Boolean);
""")
    assert pairs, "food-truck: no plan shows a per-period equivalent (expected on Social Feed+ Yearly)"
    for p in pairs:
        assert p["eqSize"] <= p["priceSize"], p
        assert p["eqSize"] < p["priceSize"] or p["eqWeight"] <= p["priceWeight"], p
        assert p["order"] == "after", p
