"""Issue 6 §7: a keyboard-only purchase works end to end and the entitlement then shows.

Only keys are sent (Tab, Shift+Tab, arrows, Space, Enter) to whatever has focus; nothing is
clicked. After the page updates, the server's device API must hold the transaction too.
"""

import pytest

from harness import (
    BACKYARD_BIRDS, FOOD_TRUCK, By, Keys, active, assert_shows_purchased, describe_focus, js_errors, press, screenshot_page, tab_until, wait,
    wait_for,
)

PASS_PAGE = "backyard-birds-pass"
ANNUAL_HISTORY = "com.example.foodtruck.annualhistory"
SUNFLOWER = "com.example.backyardbirds.sunflowerseeds"


def loaded(driver):
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def focused_radio_state(driver):
    return driver.execute_script(
        "var e=document.activeElement;return e&&e.type==='radio'?{value:e.value,checked:e.checked}:null;")


PREMIUM = "com.example.backyardbirds.pass.premium"
FAMILY = "com.example.backyardbirds.pass.family"
INDIVIDUAL = "com.example.backyardbirds.pass.individual"


def checked_plans(driver):
    return driver.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll('.sk-subscription-store input[type=radio][name=product]'),"
        "function(r){return r.checked;}).map(function(r){return r.value;});")


def tab_into_plans(driver):
    radios = driver.find_elements(By.CSS_SELECTOR, ".sk-subscription-store fieldset.sk-plans input[type=radio][name=product]")
    assert len(radios) >= 2, f"{PASS_PAGE}: expected a plan picker with several plans, found {len(radios)} radios"
    # Tab into the radio group: focus lands on the checked plan (native radio group behaviour).
    tab_until(driver, "e.type==='radio'&&e.name==='product'")
    first = focused_radio_state(driver)
    assert first and first["checked"], f"Tab landed on an unchecked radio: {first} ({describe_focus(driver)})"
    return first


def tab_to_subscribe_and_check_label(driver):
    spoken = driver.execute_script("return document.activeElement.getAttribute('data-button-spoken');")
    # Tab on to the subscribe button; its label follows the selected plan.
    tab_until(driver, "e.matches('button.sk-subscribe')", max_tabs=10)
    button = active(driver)
    assert button.accessible_name == spoken, (
        f"subscribe button is named {button.accessible_name!r} after the selection, expected {spoken!r}")


def test_keyboard_subscribe_with_arrow_keys_and_enter(demo_pages, chromium, customer):
    """Tab to the plans, ArrowDown and ArrowUp (selection follows focus), Space, Tab to the
    subscribe button, Enter: the top plan becomes the Current Plan."""
    driver = chromium()
    driver.get(demo_pages.page_url(PASS_PAGE, customer=customer))
    loaded(driver)
    first = tab_into_plans(driver)
    assert first["value"] == PREMIUM, f"the pass picker starts on {first['value']}, expected the top level {PREMIUM}"

    press(driver, Keys.ARROW_DOWN)
    second = focused_radio_state(driver)
    assert second and second["value"] == FAMILY and second["checked"], f"ArrowDown from Premium: {second}"
    assert checked_plans(driver) == [FAMILY]
    press(driver, Keys.ARROW_UP)
    back = focused_radio_state(driver)
    assert back and back["value"] == PREMIUM and back["checked"], f"ArrowUp from Family: {back}"
    press(driver, Keys.SPACE)
    assert checked_plans(driver) == [PREMIUM]

    tab_to_subscribe_and_check_label(driver)
    screenshot_page(driver, "keyboard-subscribe-before")
    press(driver, Keys.ENTER)
    # The page updates in place: the chosen plan is now the current one.
    wait_for(driver, lambda d: d.find_elements(
        By.CSS_SELECTOR, f'.sk-subscription-store [data-product-id="{PREMIUM}"] .sk-current-badge'),
        "the Current Plan badge on Premium after subscribing")
    badge = driver.find_element(By.CSS_SELECTOR, f'[data-product-id="{PREMIUM}"] .sk-current-badge')
    assert badge.text.strip() == "Current Plan"
    notice = driver.find_elements(By.CSS_SELECTOR, ".sk-notice")
    assert notice and notice[0].text.strip(), "no notice after the purchase"
    assert "Premium" in notice[0].text, notice[0].text
    screenshot_page(driver, "keyboard-subscribe-after")

    entitled = [t["productId"] for t in demo_pages.entitlements(BACKYARD_BIRDS, customer)]
    assert entitled == [PREMIUM], f"server entitlements for {customer}: {entitled}, expected [{PREMIUM}]"
    assert not js_errors(driver), js_errors(driver)


def test_keyboard_subscribe_below_top_level_then_upgrade_offer(demo_pages, chromium, customer):
    """ArrowUp from the first plan wraps to the last (Individual). Subscribed below the top level,
    the customer is offered the upgrade, on the Pass page and in the bird-food shop."""
    driver = chromium()
    driver.get(demo_pages.page_url(PASS_PAGE, customer=customer))
    loaded(driver)
    tab_into_plans(driver)
    press(driver, Keys.ARROW_UP)
    wrapped = focused_radio_state(driver)
    assert wrapped and wrapped["value"] == INDIVIDUAL and wrapped["checked"], f"ArrowUp from the first plan: {wrapped}"
    tab_to_subscribe_and_check_label(driver)
    press(driver, Keys.SPACE)
    wait_for(driver, lambda d: "Individual" in "".join(n.text for n in d.find_elements(By.CSS_SELECTOR, ".sk-notice")),
             "a notice naming Individual after subscribing")
    entitled = [t["productId"] for t in demo_pages.entitlements(BACKYARD_BIRDS, customer)]
    assert entitled == [INDIVIDUAL], entitled
    # visibleRelationships: .upgrade — only plans above Individual are offered now.
    offered = {e.get_attribute("data-product-id") for e in driver.find_elements(
        By.CSS_SELECTOR, ".sk-subscription-store [data-product-id]")}
    assert INDIVIDUAL not in offered and offered <= {PREMIUM, FAMILY} and offered, f"offered after Individual: {offered}"
    screenshot_page(driver, "keyboard-subscribe-individual-upgrade")

    driver.get(demo_pages.page_url("backyard-birds", customer=customer))
    loaded(driver)
    assert driver.find_elements(By.CSS_SELECTOR, ".bb-upgrade-offer .sk-subscription-store"), \
        "the bird-food shop shows no upgrade offer to an Individual subscriber"


def test_no_upgrade_offer_without_a_pass(demo_pages, chromium, customer):
    driver = chromium()
    driver.get(demo_pages.page_url("backyard-birds", customer=customer))
    loaded(driver)
    assert not driver.find_elements(By.CSS_SELECTOR, ".bb-upgrade-offer"), "a customer without a Pass is offered an upgrade"


@pytest.mark.parametrize("page", ["food-truck", "food-truck-gallery"])
def test_keyboard_buy_non_consumable_with_enter(demo_pages, chromium, customer, page):
    driver = chromium()
    driver.get(demo_pages.page_url(page, customer=customer))
    loaded(driver)
    article = f'article.sk-product[data-product-id="{ANNUAL_HISTORY}"]'
    assert driver.find_elements(By.CSS_SELECTOR, article), f"{page} shows no {article}"
    tab_until(driver, f"e.matches('button.sk-buy')&&!!e.closest('{article}')")
    name = active(driver).accessible_name
    assert "Annual Sales History" in name, f"focused buy button is named {name!r}"
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: "Annual Sales History" in "".join(n.text for n in d.find_elements(By.CSS_SELECTOR, ".sk-notice")),
             "a notice naming Annual Sales History after buying it")
    assert_shows_purchased(driver, article)
    screenshot_page(driver, f"keyboard-buy-annual-history-{page}")
    entitled = [t["productId"] for t in demo_pages.entitlements(FOOD_TRUCK, customer)]
    assert ANNUAL_HISTORY in entitled, entitled


def test_keyboard_buy_consumable_with_space(demo_pages, chromium, customer):
    driver = chromium()
    driver.get(demo_pages.page_url("backyard-birds", customer=customer))
    loaded(driver)
    article = f'article.sk-product[data-product-id="{SUNFLOWER}"]'
    tab_until(driver, f"e.matches('button.sk-buy')&&!!e.closest('{article}')")
    press(driver, Keys.SPACE)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "a .sk-notice after buying Sunflower Seeds")
    notice = driver.find_element(By.CSS_SELECTOR, ".sk-notice").text
    assert "Sunflower Seeds" in notice, f"notice after buying Sunflower Seeds: {notice!r}"
    # Focus goes somewhere sensible (the notice), not lost to <body>.
    assert describe_focus(driver).split(" ")[0] != "body", "focus was lost after the page updated"
    # A consumable can be bought again: the button is still there.
    assert driver.find_elements(By.CSS_SELECTOR, f"{article} button.sk-buy")
    bought = [t["productId"] for t in demo_pages.transactions(BACKYARD_BIRDS, customer)]
    assert bought == [SUNFLOWER], bought


def test_focus_is_visible_on_keyboard_navigation(demo_pages, chromium, customer):
    """Every control Tab reaches on the pass page draws a focus indicator."""
    driver = chromium()
    driver.get(demo_pages.page_url(PASS_PAGE, customer=customer))
    loaded(driver)
    invisible = []
    seen = set()
    for _ in range(40):
        press(driver, Keys.TAB)
        info = driver.execute_script(r"""
var e = document.activeElement; if (!e || e === document.body) return null;
var target = e;
if (e.type === 'radio' && e.labels && e.labels[0]) target = e.labels[0];
function ring(x){ var s = getComputedStyle(x); return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'; }
var visible = ring(e) || ring(target) || (target !== e && getComputedStyle(target, null).outlineStyle !== 'none');
return {key: e.outerHTML.slice(0, 120), visible: visible};
""")
        if info is None or info["key"] in seen:
            if info is not None:
                break
            continue
        seen.add(info["key"])
        if not info["visible"]:
            invisible.append(info["key"])
    assert seen, "Tab reached nothing on the pass page"
    assert not invisible, "focused without a visible focus indicator:\n" + "\n".join(invisible)
