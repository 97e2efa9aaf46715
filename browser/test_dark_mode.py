"""Issue 6 §7: dark mode works, both ways a page gets it: the visitor's `prefers-color-scheme:
dark` (emulated through the DevTools protocol) and the app forcing it with `?scheme=dark`. An
explicit `?scheme=light` wins over a dark preference. Text keeps WCAG AA contrast in both.
"""

import pytest

from harness import (
    COLORS_JS, By, contrast, luminance, parse_css_color, png_pixel, screenshot_page, wait,
)

PAGES = ["backyard-birds", "backyard-birds-pass", "food-truck", "gallery"]
# (how the scheme is chosen, emulated preference, ?scheme=, expected)
MODES = {
    "media-dark": ("dark", None, "dark"),
    "query-dark": ("light", "dark", "dark"),
    "media-light": ("light", None, "light"),
    "query-light-over-media-dark": ("dark", "light", "light"),
}
TEXT_SELECTORS = [".sk-product-name", ".sk-product-description", ".sk-plan-name", ".sk-plan-price", ".sk-button",
                  ".sk-plans-legend", ".sk-owned", ".sk-notice", "h1", "h2", "p", "a"]


def page_colors(driver):
    body = driver.find_element(By.TAG_NAME, "body")
    colors = driver.execute_script(COLORS_JS, body)
    png = driver.get_screenshot_as_png()
    canvas = png_pixel(png, 2, 2)  # top-left corner: page background, whatever paints it
    background = parse_css_color(colors["background"])[:3] if colors["background"] else canvas
    return parse_css_color(colors["color"])[:3], background, canvas, colors


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("mode", list(MODES))
def test_color_scheme(demo_pages, chromium, customer, page, mode):
    emulated, query, expected = MODES[mode]
    driver = chromium(scheme=emulated)
    driver.get(demo_pages.page_url(page, customer=customer, scheme=query))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    text, background, canvas, raw = page_colors(driver)
    screenshot_page(driver, f"scheme-{page}-{mode}")
    if expected == "dark":
        assert luminance(background) < 0.2, f"{page} {mode}: body background {raw['background']} is not dark"
        assert luminance(canvas) < 0.2, f"{page} {mode}: the page's corner pixel {canvas} is not dark"
        assert luminance(text) > 0.5, f"{page} {mode}: body text {raw['color']} is not light"
    else:
        assert luminance(background) > 0.6, f"{page} {mode}: body background {raw['background']} is not light"
        assert luminance(canvas) > 0.6, f"{page} {mode}: the page's corner pixel {canvas} is not light"
        assert luminance(text) < 0.3, f"{page} {mode}: body text {raw['color']} is not dark"
    if query:
        assert driver.execute_script("return document.documentElement.getAttribute('data-color-scheme')") == query


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast(demo_pages, chromium, customer, page, scheme):
    """Every visible piece of text the store draws reads at 4.5:1 against what is behind it
    (3:1 for large text), in light and in dark."""
    driver = chromium(scheme=scheme)
    driver.get(demo_pages.page_url(page, customer=customer))
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    canvas = png_pixel(driver.get_screenshot_as_png(), 2, 2)
    failures = []
    checked = 0
    for selector in TEXT_SELECTORS:
        for element in driver.find_elements(By.CSS_SELECTOR, f"main {selector}, header {selector}")[:40]:
            info = driver.execute_script(r"""
var el = arguments[0], s = getComputedStyle(el), r = el.getBoundingClientRect();
var hidden = r.width < 2 || r.height < 2 || s.visibility === 'hidden' || parseFloat(s.opacity) === 0 ||
             !el.textContent.trim() || el.closest('[aria-hidden=true]') && !el.offsetParent;
return {color: s.color, background: (function(){var n=el;while(n&&n.nodeType===1){var b=getComputedStyle(n).backgroundColor;
  if(b!=='transparent'&&!/rgba\([^)]*,\s*0\)$/.test(b)&&!/\/\s*0\)$/.test(b))return b;n=n.parentElement;}return null;})(),
  size: parseFloat(s.fontSize), weight: parseInt(s.fontWeight, 10), hidden: hidden,
  text: el.textContent.trim().slice(0, 40), clip: s.clip, cls: String(el.className)};
""", element)
            if info["hidden"] or "sk-visually-hidden" in info["cls"]:
                continue
            fg = parse_css_color(info["color"])
            bg = parse_css_color(info["background"])[:3] if info["background"] else canvas
            if fg[3] < 1:  # translucent text: blend over its background
                fg = tuple(fg[i] * fg[3] + bg[i] * (1 - fg[3]) for i in range(3)) + (1,)
            ratio = contrast(fg[:3], bg)
            large = info["size"] >= 24 or (info["size"] >= 18.66 and info["weight"] >= 700)
            checked += 1
            if ratio < (3.0 if large else 4.5):
                failures.append(f"{selector} {info['text']!r}: {info['color']} on {info['background'] or canvas} = {ratio:.2f}:1")
    assert checked, f"{page}: no text found to check"
    assert not failures, f"{page} ({scheme}): low contrast:\n" + "\n".join(sorted(set(failures)))
