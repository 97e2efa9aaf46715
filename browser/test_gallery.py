"""Issue 6 §7: each product view style and each control style renders, checked in the DOM, with a
screenshot per style kept in artifacts/browser/.

The gallery page (`/store/gallery`) shows every product in `ProductView` with each standard
style (`<section data-gallery="product-compact|regular|large">`) and every subscription group in a
`SubscriptionStoreView` with each control style (`data-gallery="control-<style>"`, one section
per group, marked `data-group-id`).
"""

from typing import Dict, List

import pytest

from harness import By, WebElement, screenshot_element, screenshot_page, wait

PRODUCT_STYLES = ["compact", "regular", "large"]
CONTROL_STYLES = ["automatic", "picker", "prominentPicker", "buttons", "compactPicker", "pagedPicker"]
PICKER_STYLES = {"picker", "prominentPicker", "compactPicker", "pagedPicker"}


GALLERIES = ["gallery", "food-truck-gallery"]


def open_gallery(driver, server, customer, gallery="gallery", **kw):
    driver.get(server.page_url(gallery, customer=customer, **kw))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    return driver


def sections(driver, name: str) -> List[WebElement]:
    found = driver.find_elements(By.CSS_SELECTOR, f'section[data-gallery="{name}"]')
    assert found, (f'no <section data-gallery="{name}"> on the gallery; sections present: '
                   f'{[s.get_attribute("data-gallery") for s in driver.find_elements(By.CSS_SELECTOR, "[data-gallery]")]}')
    return found


def box(driver, element) -> Dict[str, float]:
    return driver.execute_script("var r=arguments[0].getBoundingClientRect();return {w:r.width,h:r.height};", element)


@pytest.mark.parametrize("gallery", GALLERIES)
@pytest.mark.parametrize("style", PRODUCT_STYLES)
def test_product_view_style_renders(demo_pages, chromium, customer, style, gallery):
    driver = open_gallery(chromium(), demo_pages, customer, gallery)
    section = sections(driver, f"product-{style}")[0]
    articles = section.find_elements(By.CSS_SELECTOR, "article.sk-product")
    assert articles, f"product-{style}: no <article class=sk-product>"
    for article in articles:
        classes = article.get_attribute("class").split()
        pid = article.get_attribute("data-product-id")
        assert f"sk-product-{style}" in classes, f"{pid}: classes {classes}, expected sk-product-{style}"
        assert article.get_attribute("data-state") == "success", f"{pid}: data-state={article.get_attribute('data-state')}"
        assert pid, "article without data-product-id"
        name = article.find_element(By.CSS_SELECTOR, ".sk-product-name")
        assert name.text.strip(), f"{pid}: empty product name"
        assert article.is_displayed()
        size = box(driver, article)
        assert size["w"] > 100 and size["h"] > 20, f"{pid}: collapsed article {size}"
        # A product the customer may buy has a buy button that shows its price; owned ones say so.
        buttons = article.find_elements(By.CSS_SELECTOR, "button.sk-buy")
        owned = article.find_elements(By.CSS_SELECTOR, ".sk-owned")
        assert buttons or owned, f"{pid}: neither a buy button nor an owned mark"
        if buttons:
            assert "$" in buttons[0].text, f"{pid}: buy button text {buttons[0].text!r} shows no price"
            assert buttons[0].is_displayed() and buttons[0].is_enabled()
        descriptions = article.find_elements(By.CSS_SELECTOR, ".sk-product-description")
        if style == "compact":
            assert not [d for d in descriptions if d.is_displayed()], f"{pid}: compact style shows its description"
        else:
            assert [d for d in descriptions if d.is_displayed() and d.text.strip()], f"{pid}: {style} style shows no description"
    screenshot_element(driver, section, f"{gallery}-product-{style}")


def test_product_view_styles_grow_from_compact_to_large(demo_pages, chromium, customer):
    """The same product is drawn no taller in .compact than in .regular, and no smaller in .large."""
    driver = open_gallery(chromium(), demo_pages, customer)
    heights = {}
    for style in PRODUCT_STYLES:
        article = sections(driver, f"product-{style}")[0].find_elements(By.CSS_SELECTOR, "article.sk-product")[0]
        heights[style] = (article.get_attribute("data-product-id"), box(driver, article)["h"])
    ids = {pid for pid, _ in heights.values()}
    assert len(ids) == 1, f"the sections start with different products: {heights}"
    assert heights["compact"][1] <= heights["regular"][1] <= heights["large"][1], heights


@pytest.mark.parametrize("gallery", GALLERIES)
@pytest.mark.parametrize("style", CONTROL_STYLES)
def test_subscription_control_style_renders(demo_pages, chromium, customer, style, gallery):
    driver = open_gallery(chromium(), demo_pages, customer, gallery)
    for index, section in enumerate(sections(driver, f"control-{style}")):
        group = section.get_attribute("data-group-id") or str(index)
        store = section.find_elements(By.CSS_SELECTOR, ".sk-subscription-store")
        assert store, f"control-{style} ({group}): no .sk-subscription-store"
        controls = section.find_elements(By.CSS_SELECTOR, ".sk-controls[data-control-style]")
        assert len(controls) == 1, f"control-{style} ({group}): {len(controls)} .sk-controls[data-control-style]"
        rendered = controls[0].get_attribute("data-control-style")
        if style == "automatic":
            assert rendered in ("picker", "buttons"), f"automatic resolved to {rendered!r}"
        else:
            assert rendered == style, f"control-{style} ({group}) rendered data-control-style={rendered!r}"
        if rendered in PICKER_STYLES:
            assert controls[0].tag_name == "form" and controls[0].get_attribute("method").lower() == "post"
            radios = controls[0].find_elements(By.CSS_SELECTOR, "fieldset.sk-plans input[type=radio][name=product]")
            assert radios, f"control-{style} ({group}): no plan radios"
            enabled = [r for r in radios if r.is_enabled()]
            checked = [r for r in radios if r.is_selected()]
            assert len(checked) == (1 if enabled else 0), f"control-{style} ({group}): {len(checked)} radios checked"
            for radio in radios:
                label = controls[0].find_element(By.CSS_SELECTOR, f'label[for="{radio.get_attribute("id")}"]')
                assert label.text.strip(), f"{radio.get_attribute('value')}: empty plan label"
                assert "$" in label.text, f"{radio.get_attribute('value')}: plan label {label.text!r} shows no price"
            buttons = controls[0].find_elements(By.CSS_SELECTOR, "button.sk-subscribe[type=submit]")
            assert len(buttons) == 1, f"control-{style} ({group}): {len(buttons)} subscribe buttons"
            assert buttons[0].is_displayed() and buttons[0].text.strip()
        else:
            plans = controls[0].find_elements(By.CSS_SELECTOR, "[data-product-id]")
            buttons = controls[0].find_elements(By.CSS_SELECTOR, "button.sk-subscribe")
            assert plans and len(buttons) >= len(plans) - 1, (
                f"control-{style} ({group}): {len(plans)} plans but {len(buttons)} subscribe buttons")
            for button in buttons:
                assert button.is_displayed() and button.text.strip(), f"empty or hidden button in control-{style}"
        assert box(driver, section)["h"] > 40
        screenshot_element(driver, section, f"{gallery}-control-{style}-{group}")


@pytest.mark.parametrize("gallery", GALLERIES)
def test_gallery_page_screenshot(demo_pages, chromium, customer, gallery):
    driver = open_gallery(chromium(), demo_pages, customer, gallery)
    path = screenshot_page(driver, f"{gallery}-full")
    assert path.stat().st_size > 1000


@pytest.mark.parametrize("page", ["gallery", "food-truck-gallery", "backyard-birds", "backyard-birds-pass", "food-truck"])
def test_pages_fit_a_phone_screen(demo_pages, chromium, customer, page):
    """Responsive from phone to desktop: at 375 px nothing makes the page scroll sideways."""
    driver = chromium()
    # Headless Chromium keeps windows at least 500 px wide; emulate the phone's viewport instead.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True})
    driver.get(demo_pages.page_url(page, customer=customer))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    overflow = driver.execute_script(r"""
var vw = document.documentElement.clientWidth, out = [];
document.querySelectorAll('body *').forEach(function(e){
  var r = e.getBoundingClientRect();
  if (r.width > 0 && r.right > vw + 1 && getComputedStyle(e).position !== 'fixed') {
    var scroller = e.parentElement && e.parentElement.closest('[data-control-style=pagedPicker], .sk-scroll, [style*=overflow]');
    var clipped = false, p = e.parentElement;
    while (p && p !== document.body) { var o = getComputedStyle(p).overflowX; if (o !== 'visible') { clipped = true; break; } p = p.parentElement; }
    if (!clipped) out.push(e.tagName.toLowerCase() + '.' + String(e.className).replace(/ +/g, '.') + ' right=' + Math.round(r.right));
  }
});
return {scrollWidth: document.documentElement.scrollWidth, viewport: vw, offenders: out.slice(0, 10)};
""")
    screenshot_page(driver, f"phone-{page}")
    assert overflow["scrollWidth"] <= overflow["viewport"] + 1 and not overflow["offenders"], overflow
