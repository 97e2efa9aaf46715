"""Issue 13, tests: the QA routine with the keyboard only. Create a world on /manage, point the
app's notifications at a receiver, buy a subscription on /store, advance the clock a month on
/manage, see the renewal on the customer page, refund it (with its confirmation), and see the
REFUND notification in the delivery log with its attempt.

Only keys go to whatever has focus (Tab, typing, Enter); nothing is clicked. A page is opened by
its address only where a tester would type one (the start, the store page)."""

import uuid

import pytest

from harness import BACKYARD_BIRDS, By, Keys, jws_payload, press, screenshot_page, tab_until, wait_for
from manage_support import Receiver, activate, loaded, manage_url, type_text

PASS_PAGE = "backyard-birds-pass"


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def test_qa_routine_with_the_keyboard_only(demo_pages, chromium, customer, receiver):
    driver = chromium()
    world = f"qa-{uuid.uuid4().hex[:8]}"

    # 1. Create a world.
    driver.get(manage_url(demo_pages, ""))
    loaded(driver)
    tab_until(driver, "e.id==='mg-new-world'")
    type_text(driver, world)
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Create world'")
    wait_for(driver, lambda d: f"/manage/world?world={world}" in d.current_url, "the new world's page")
    assert driver.find_element(By.CSS_SELECTOR, ".sk-notice").text == f"World {world} created."
    screenshot_page(driver, "manage-qa-1-world")

    # 2. The app's notifications go to the receiver (Sandbox: the demo apps' environment).
    activate(driver, "e.tagName==='A'&&e.textContent==='Notifications'")
    wait_for(driver, lambda d: "/manage/notifications" in d.current_url, "the notifications page")
    tab_until(driver, "e.id==='mg-url-Sandbox'")
    type_text(driver, receiver.url)
    activate(driver, "e.getAttribute('aria-label')==='Save the Sandbox notification URL'")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "the saved URL's notice")
    assert receiver.url in driver.find_element(By.CSS_SELECTOR, ".sk-notice").text

    # 3. Buy the Pass on the store page, in that world.
    driver.get(demo_pages.page_url(PASS_PAGE, customer=customer, world=world))
    loaded(driver)
    tab_until(driver, "e.type==='radio'&&e.name==='product'")
    activate(driver, "e.matches('button.sk-subscribe')", max_tabs=12)
    wait_for(driver, lambda d: demo_pages.entitlements(BACKYARD_BIRDS, customer, world=world), "the Pass entitlement in the world")
    bought = demo_pages.transactions(BACKYARD_BIRDS, customer, world=world)
    assert len(bought) == 1, bought
    screenshot_page(driver, "manage-qa-2-bought")

    # 4. A month passes on /manage.
    driver.get(manage_url(demo_pages, "world", world=world))
    loaded(driver)
    activate(driver, "e.getAttribute('aria-label')==='Advance the clock 1 month'")
    wait_for(driver, lambda d: "/manage/world?" in d.current_url and "notice=" in d.current_url, "the world page after the advance",
             timeout=120)
    assert "The clock advanced" in driver.find_element(By.CSS_SELECTOR, ".sk-notice").text

    # 5. The renewal is on the customer page.
    activate(driver, "e.tagName==='A'&&e.textContent==='Customers'")
    wait_for(driver, lambda d: "/manage/customers" in d.current_url, "the customers page")
    activate(driver, f"e.tagName==='A'&&e.textContent==={customer!r}")
    wait_for(driver, lambda d: "/manage/customer?" in d.current_url, "the customer page")
    all_now = demo_pages.transactions(BACKYARD_BIRDS, customer, world=world)
    assert len(all_now) >= 2, f"a month later the Pass has renewed: {all_now}"
    renewal = max(all_now, key=lambda t: t["purchaseDate"])
    assert renewal["originalTransactionId"] == bought[0]["transactionId"] and renewal["transactionId"] != bought[0]["transactionId"]
    heading = driver.find_element(By.ID, f"mg-t-{renewal['transactionId']}").text
    assert f"renewal of {bought[0]['transactionId']}" in heading, heading
    assert f"Transactions ({len(all_now)})" in driver.find_element(By.ID, "mg-transactions").text
    assert driver.find_elements(By.CSS_SELECTOR, "svg.mg-timeline"), "the subscription's timeline"
    screenshot_page(driver, "manage-qa-3-renewed")

    # 6. Refund the renewal: the form asks first.
    activate(driver, f"e.getAttribute('aria-label')==='Refund transaction {renewal['transactionId']}'")
    wait_for(driver, lambda d: "Are you sure?" in d.page_source, "the confirmation page")
    screenshot_page(driver, "manage-qa-4-confirm")
    activate(driver, "e.tagName==='BUTTON'&&e.textContent==='Yes, refund'", max_tabs=20)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".sk-notice"), "the refund's notice")
    assert f"Transaction {renewal['transactionId']} was refunded." == driver.find_element(By.CSS_SELECTOR, ".sk-notice").text
    refunded = [t for t in demo_pages.transactions(BACKYARD_BIRDS, customer, world=world) if t["transactionId"] == renewal["transactionId"]]
    assert refunded and refunded[0].get("revocationDate"), refunded

    # 7. The REFUND notification is in the log with its attempt.
    activate(driver, "e.tagName==='A'&&e.textContent==='Notifications'")
    wait_for(driver, lambda d: "/manage/notifications" in d.current_url, "the notifications page")
    tab_until(driver, "e.id==='mg-f-type'")
    type_text(driver, "REFUND")
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: "type=REFUND" in d.current_url, "the filtered log")

    def delivered(d):
        rows = d.find_elements(By.CSS_SELECTOR, "article.mg-notification[data-type=REFUND] table.mg-attempts td.mg-ok")
        if not rows:
            press(d, Keys.F5)
        return rows

    wait_for(driver, delivered, "the REFUND notification's successful attempt", timeout=120)
    article = driver.find_element(By.CSS_SELECTOR, "article.mg-notification[data-type=REFUND]")
    assert "SUCCESS" in article.text and renewal["transactionId"] in article.text, article.text
    assert not driver.find_elements(By.CSS_SELECTOR, "article.mg-notification:not([data-type=REFUND])"), "the type filter"
    screenshot_page(driver, "manage-qa-5-refund-notification")
    payloads = [jws_payload(b["signedPayload"]) for b in receiver.bodies if "signedPayload" in b]
    assert any(p["notificationType"] == "REFUND" for p in payloads), [p["notificationType"] for p in payloads]
