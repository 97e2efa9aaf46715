"""Issue 16 item 11 in Chromium: win-back offers in `SubscriptionStoreView` and iOS 26's
`SubscriptionOfferView`, on pages a live `openstore serve` renders, bought by clicking.

* Win-back (https://developer.apple.com/documentation/storekit/merchandising-win-back-offers-in-your-app):
  "StoreKit views automatically support displaying pricing details in the SubscriptionStoreView
  for all subscription offers"; the renewal info's `eligibleWinBackOfferIDs` decide which, "sorted
  with the best offers first". A lapsed Backyard Birds Pass subscriber sees the Welcome Back offer
  on `/store/backyard-birds-pass` and the page's purchase redeems it (`offerType` 4).
* `SubscriptionOfferView` (https://developer.apple.com/documentation/storekit/subscriptionofferview,
  .../subscriptionofferviewstyle, .../subscriptionofferviewstyleconfiguration): `/store/subscription-offer`
  shows it in `.automatic` (with `useAppIcon: true`), `.compact` (with an icon) and a custom style
  whose own button calls `configuration.subscribe()`. A new customer is offered the intro offer, a
  lapsed one the win-back offer; each is bought through the page.

Screenshots are kept in artifacts/browser/.
"""

import requests

from harness import BACKYARD_BIRDS, HTTP_TIMEOUT, By, js_errors, screenshot_element, screenshot_page, wait, wait_for

PREMIUM = "com.example.backyardbirds.pass.premium"
FAMILY = "com.example.backyardbirds.pass.family"
WELCOME_BACK = "com.example.backyardbirds.pass.premium.welcomeback"
WIN_BACK_TERMS = "$5.99 per month for 2 months"     # the catalog's Welcome Back Birder offer
INTRO, WIN_BACK = 1, 4                               # Apple's offerType values


def loaded(driver):
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def lapsed_subscriber(server, customer):
    """A customer whose Premium Pass ran out: bought (with its intro offer), then expired."""
    r = requests.post(server.url(f"/storekit/v1/apps/{BACKYARD_BIRDS}/purchases"),
                      json={"productId": PREMIUM, "customer": customer}, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, r.text[:300]
    bought = [t for t in server.transactions(BACKYARD_BIRDS, customer) if t["productId"] == PREMIUM]
    r = requests.post(server.url(f"/admin/v1/worlds/default/transactions/{bought[0]['transactionId']}/expire"), timeout=HTTP_TIMEOUT)
    assert r.status_code < 300, r.text[:300]
    assert not server.entitlements(BACKYARD_BIRDS, customer), "the Pass should have run out"


def newest(server, customer, product):
    found = [t for t in server.transactions(BACKYARD_BIRDS, customer) if t["productId"] == product]
    return max(found, key=lambda t: t["purchaseDate"]) if found else None


def wait_for_purchase(driver, server, customer, product, count):
    """The device API holds `count` transactions of `product` (the page's purchase reached the store)."""
    return wait_for(driver, lambda d: len([t for t in server.transactions(BACKYARD_BIRDS, customer)
                                           if t["productId"] == product]) >= count,
                    f"{count} transaction(s) of {product} for {customer}")


def test_a_lapsed_subscriber_sees_the_win_back_offer_in_subscription_store_view_and_redeems_it(demo_pages, chromium, customer):
    lapsed_subscriber(demo_pages, customer)
    driver = chromium()
    driver.get(demo_pages.page_url("backyard-birds-pass", customer=customer))
    loaded(driver)
    plan = driver.find_element(By.CSS_SELECTOR, f'.sk-subscription-store label.sk-plan[data-product-id="{PREMIUM}"]')
    offer = plan.find_element(By.CSS_SELECTOR, ".sk-plan-offer")
    assert offer.get_attribute("data-offer-type") == "winBack" and offer.text == WIN_BACK_TERMS
    assert offer.is_displayed()
    # Only Premium has a win-back offer in the catalog; Family's intro offer is used up by the Pass.
    family = driver.find_elements(By.CSS_SELECTOR, f'label.sk-plan[data-product-id="{FAMILY}"] .sk-plan-offer')
    assert not family, f"Family shows an offer: {[e.text for e in family]}"
    screenshot_page(driver, "win-back-subscription-store")

    plan.click()
    subscribe = driver.find_element(By.CSS_SELECTOR, ".sk-subscription-store button.sk-subscribe")
    wait_for(driver, lambda d: "Start Offer" in subscribe.text, "the subscribe button naming the offer")
    subscribe.click()
    wait_for_purchase(driver, demo_pages, customer, PREMIUM, 2)
    back = newest(demo_pages, customer, PREMIUM)
    assert back["offerType"] == WIN_BACK and back["offerIdentifier"] == WELCOME_BACK
    assert back["price"] == 5990, "the offer's price, not the plan's"
    wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-offer-type="winBack"]'),
             "the page without a win-back offer once subscribed again")
    assert js_errors(driver) == []


def sections(driver):
    return {name: driver.find_element(By.CSS_SELECTOR, f'section[data-gallery="offer-{name}"]')
            for name in ("automatic", "compact", "custom")}


def test_subscription_offer_view_styles_show_the_intro_offer_and_subscribe_applies_it(demo_pages, chromium, customer):
    driver = chromium()
    driver.get(demo_pages.page_url("subscription-offer", customer=customer))
    loaded(driver)
    found = sections(driver)

    automatic = found["automatic"].find_element(By.CSS_SELECTOR, "article.sk-offer-view-automatic")
    assert automatic.get_attribute("data-product-id") == PREMIUM, "a new customer is shown the group's top plan"
    assert automatic.find_element(By.CSS_SELECTOR, ".sk-offer-group").text == "Backyard Birds Pass"
    app_icon = automatic.find_element(By.CSS_SELECTOR, ".sk-product-icon .sk-app-icon")   # useAppIcon: true
    assert app_icon.text == "B" and app_icon.size["width"] > 0
    assert automatic.find_element(By.CSS_SELECTOR, ".sk-plan-offer").text == "1 month free"
    assert automatic.find_element(By.CSS_SELECTOR, "button.sk-subscribe").text == "Try It Free"

    compact = found["compact"].find_element(By.CSS_SELECTOR, "article.sk-offer-view-compact")
    assert not compact.find_elements(By.CSS_SELECTOR, ".sk-offer-group"), "compact leaves the group name out"
    icon = compact.find_element(By.CSS_SELECTOR, '.sk-product-icon svg.sk-symbol[data-symbol="crown.fill"]')
    assert icon.size["width"] > 0 and icon.size["height"] > 0
    compact_height = compact.size["height"]
    assert compact_height < automatic.size["height"], "compact is one row, shorter than automatic"

    custom = found["custom"]
    assert not custom.find_elements(By.CSS_SELECTOR, "article.sk-offer-view"), "a custom style draws its own look"
    assert "1 month free" in custom.text and custom.find_element(By.CSS_SELECTOR, 'svg[data-symbol="bird.fill"]')
    for name, element in found.items():
        screenshot_element(driver, element, f"subscription-offer-view-{name}")

    # The compact view's button applies the intro offer.
    compact.find_element(By.CSS_SELECTOR, "button.sk-subscribe").click()
    wait_for_purchase(driver, demo_pages, customer, PREMIUM, 1)
    bought = newest(demo_pages, customer, PREMIUM)
    assert bought["offerType"] == INTRO and bought.get("offerDiscountType") == "FREE_TRIAL"
    # Subscribed at the top level: with `.all`, the view now shows the nearest plan down, without an offer.
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'section[data-gallery="offer-automatic"] article')
             .get_attribute("data-product-id") == FAMILY, "the offer view showing the next plan down")
    assert not driver.find_elements(By.CSS_SELECTOR, 'section[data-gallery="offer-automatic"] .sk-plan-offer')
    screenshot_page(driver, "subscription-offer-view-subscribed")
    assert js_errors(driver) == []


def test_a_custom_offer_style_redeems_the_win_back_offer_for_a_lapsed_subscriber(demo_pages, chromium, customer):
    lapsed_subscriber(demo_pages, customer)
    driver = chromium()
    driver.get(demo_pages.page_url("subscription-offer", customer=customer))
    loaded(driver)
    found = sections(driver)
    automatic = found["automatic"].find_element(By.CSS_SELECTOR, "article.sk-offer-view-automatic")
    assert automatic.get_attribute("data-offer-type") == "winBack"
    assert automatic.find_element(By.CSS_SELECTOR, ".sk-plan-offer").text == WIN_BACK_TERMS
    assert automatic.find_element(By.CSS_SELECTOR, "button.sk-subscribe").text == "Start Offer"
    assert WIN_BACK_TERMS in found["custom"].text
    screenshot_element(driver, found["custom"], "subscription-offer-view-custom-win-back")

    # The custom style's own button calls `configuration.subscribe()`.
    claim = [b for b in found["custom"].find_elements(By.CSS_SELECTOR, "button") if b.text == "Claim the offer"]
    assert claim, f"no 'Claim the offer' button: {found['custom'].text!r}"
    claim[0].click()
    wait_for_purchase(driver, demo_pages, customer, PREMIUM, 2)
    back = newest(demo_pages, customer, PREMIUM)
    assert back["offerType"] == WIN_BACK and back["offerIdentifier"] == WELCOME_BACK and back["price"] == 5990
    assert js_errors(driver) == []


def test_the_gallery_shows_the_paged_prominent_picker_with_a_single_subscribe_button(demo_pages, chromium, customer):
    """`.pagedProminentPicker` (iOS 18): "a paged prominent picker control, with a single button to
    subscribe" (https://developer.apple.com/documentation/storekit/pagedprominentpickersubscriptionstorecontrolstyle)."""
    driver = chromium()
    driver.get(demo_pages.page_url("gallery", customer=customer))
    loaded(driver)
    found = driver.find_elements(By.CSS_SELECTOR, 'section[data-gallery="control-pagedProminentPicker"]')
    assert found, "no control-pagedProminentPicker section in the gallery"
    for section in found:
        controls = section.find_element(By.CSS_SELECTOR, ".sk-controls[data-control-style]")
        assert controls.get_attribute("data-control-style") == "pagedProminentPicker"
        radios = controls.find_elements(By.CSS_SELECTOR, "fieldset.sk-plans input[type=radio][name=product]")
        assert radios and sum(r.is_selected() for r in radios) == 1
        buttons = controls.find_elements(By.CSS_SELECTOR, "button.sk-subscribe")
        assert len(buttons) == 1 and buttons[0].is_displayed() and buttons[0].text.strip()
        screenshot_element(driver, section, f"gallery-control-pagedProminentPicker-{section.get_attribute('data-group-id')}")


def test_the_offer_page_is_accessible(demo_pages, chromium, customer):
    """Every control is named, each offer is an article named by its plan (`aria-labelledby`), and
    the page has one `h1`, as every store page (test_accessibility.py's rules)."""
    from test_accessibility import ax_for, ax_nodes
    driver = chromium()
    driver.get(demo_pages.page_url("subscription-offer", customer=customer))
    loaded(driver)
    interactive = {"button", "link", "radio", "checkbox", "textbox", "combobox"}
    nameless = [n for n in ax_nodes(driver) if n["role"] in interactive and not (n["name"] or "").strip()]
    assert not nameless, f"controls without an accessible name: {nameless}"
    articles = driver.find_elements(By.CSS_SELECTOR, "article.sk-offer-view")
    assert len(articles) == 2
    for article in articles:
        assert ax_for(driver, article)["name"] == article.find_element(By.CSS_SELECTOR, ".sk-product-name").text.strip()
    buttons = [n["name"] for n in ax_nodes(driver) if n["role"] == "button"]
    assert "Try It Free, Premium" in buttons, buttons
    assert len(driver.find_elements(By.TAG_NAME, "h1")) == 1
