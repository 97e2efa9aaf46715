"""Issue 6 §6: `openstore preview FILE.storekit --out DIR` renders a catalog to static HTML with no
server running. Opened from file:// in Chromium, the files show every product, run none of the
hostile catalog's texts, and fetch nothing.
"""

import subprocess
from pathlib import Path
from typing import List

import pytest

from harness import (
    HOSTILE_CATALOG, HOSTILE_NAMES, INERT_JS, REPO_ROOT, By, network_requests, screenshot_page, wait,
)

# Apple's sample catalog, in the shared folder next to the repository (../shared), as the Swift
# SampleCatalogTests read it.
SAMPLE = (REPO_ROOT.parent / "shared" / "reference" / "storekit-samples" / "apple-sample-backyard-birds_Store.storekit").resolve()


@pytest.fixture(scope="module")
def preview_command(openstore_binary):
    probe = subprocess.run([str(openstore_binary), "preview", "--help"], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, "`openstore preview --help` failed: " + (probe.stderr or probe.stdout).strip()[:500]
    return openstore_binary


def render(binary, catalog: Path, out: Path) -> List[Path]:
    r = subprocess.run([str(binary), "preview", str(catalog), "--out", str(out)], capture_output=True, text=True,
                       timeout=120, cwd=str(REPO_ROOT))
    assert r.returncode == 0, f"openstore preview {catalog.name} exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    pages = sorted(out.rglob("*.html"))
    assert pages, f"openstore preview wrote no .html into {out}: {sorted(out.rglob('*'))}"
    return pages


def test_preview_of_hostile_catalog_is_inert_and_offline(preview_command, chromium, tmp_path):
    pages = render(preview_command, HOSTILE_CATALOG, tmp_path / "hostile")
    driver = chromium(log_network=True)
    text = ""
    for page in pages:
        driver.get(page.as_uri())
        wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
        facts = driver.execute_script(INERT_JS)
        assert facts["pwned"] is None, f"{page.name}: a hostile text ran: {facts['pwned']!r}"
        assert not facts["bad"], f"{page.name}: " + "\n".join(facts["bad"][:20])
        text += facts["text"]
        screenshot_page(driver, f"preview-hostile-{page.stem}")
    missing = [n for n in HOSTILE_NAMES if n not in text]
    assert not missing, f"preview shows these names not literally: {missing}"
    requested = network_requests(driver)
    external = [u for u in requested if not (u.startswith("file://") or u.startswith("data:") or u == "about:blank")]
    assert not external, f"preview pages fetched {external}"


def test_preview_of_backyard_birds_sample_renders_every_product(preview_command, chromium, tmp_path):
    assert SAMPLE.is_file(), f"{SAMPLE} is missing: the shared reference folder must sit next to the repository (../shared)"
    pages = render(preview_command, SAMPLE, tmp_path / "birds")
    driver = chromium()
    ids = set()
    for page in pages:
        driver.get(page.as_uri())
        wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
        ids |= {a.get_attribute("data-product-id") for a in driver.find_elements(By.CSS_SELECTOR, "[data-product-id]")}
        screenshot_page(driver, f"preview-backyard-birds-{page.stem}")
    expected = {"pellet.single", "pellet.box", "acorns.individual", "acorns.collection", "nectar.cup", "nectar.bottle",
                "pass.individual", "pass.family", "pass.premium"}
    assert expected <= ids, f"preview misses {sorted(expected - ids)}"
