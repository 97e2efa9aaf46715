"""`openstore preview`: a catalog rendered to static HTML files with no server (docs/previews.md).

Runs the binary on the StoreModel test fixtures and on catalogs made hostile here: every product and
group gets its page, file names stay inside --out whatever the IDs contain, catalog texts are
escaped, and the pages fetch nothing from anywhere.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "Tests" / "StoreModelTests" / "Fixtures"
EVERYTHING = FIXTURES / "everything.storekit"
SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]+\.html$")


def preview(binary, catalog, out, *args):
    done = subprocess.run([str(binary), "preview", str(catalog), "--out", str(out), *args],
                          capture_output=True, timeout=120)
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")


def written(out: Path, stdout: str):
    """The files the command says it wrote, checked to exist directly in `out`."""
    paths = [Path(line) for line in stdout.splitlines() if line.strip()]
    for path in paths:
        assert path.parent.resolve() == out.resolve(), f"{path} is outside {out}"
        assert path.is_file(), f"{path} listed but not written"
    return paths


def catalog_ids(catalog: dict):
    products = [p["productID"] for p in catalog.get("products", []) + catalog.get("nonRenewingSubscriptions", [])]
    groups = []
    for group in catalog.get("subscriptionGroups", []):
        groups.append(group["id"])
        products += [s["productID"] for s in group["subscriptions"]]
    return products, groups


def assert_self_contained(html: str, name: str):
    """No request leaves the page: no src, stylesheet link, form action or CSS url() elsewhere."""
    assert html.startswith("<!DOCTYPE html>"), name
    assert 'http-equiv="Content-Security-Policy"' in html, name
    assert not re.search(r'\ssrc="(?!data:)', html), f"{name}: src= to a resource"
    assert "<link" not in html, name
    assert not re.search(r"url\(\s*['\"]?(?!data:)", html), f"{name}: CSS url()"
    actions = set(re.findall(r'<form[^>]*\saction="([^"]*)"', html))
    assert actions <= {"#"}, f"{name}: forms post to {actions}"


def test_every_product_and_group_gets_a_page(openstore_binary, tmp_path):
    out = tmp_path / "site"
    code, stdout, stderr = preview(openstore_binary, EVERYTHING, out)
    assert code == 0, stderr + stdout
    paths = written(out, stdout)
    names = {p.name for p in paths}
    products, groups = catalog_ids(json.loads(EVERYTHING.read_text()))
    assert {"index.html", "loading.html"} <= names
    assert {f"product-{i}.html" for i in products} <= names
    assert {f"group-{g}.html" for g in groups} <= names
    assert len(paths) == 2 + len(products) + len(groups)
    for path in paths:
        assert_self_contained(path.read_text(), path.name)

    # The fixture's storefront is FRA and its locale fr_FR: French texts, euro prices.
    index = (out / "index.html").read_text()
    assert 'lang="fr-FR"' in index and "Pièces" in index and "€" in index
    assert 'data-color-scheme=' not in index.split(">", 2)[1], "automatic scheme leaves the page to the browser"

    product = (out / "product-fixture.coins.html").read_text()
    for style in ("automatic", "compact", "regular", "large"):
        assert f'data-gallery="product-{style}"' in product
    assert product.count('data-product-id="fixture.coins"') == 4

    group = (out / f"group-{groups[0]}.html").read_text()
    for style in ("picker", "prominentPicker", "buttons", "compactPicker", "pagedPicker", "pagedProminentPicker"):
        assert f'data-control-style="{style}"' in group, style
    assert 'href="https://example.com/privacy"' not in group  # fr_FR prefers the French policy
    assert 'href="https://example.com/fr/privacy"' in group

    loading = (out / "loading.html").read_text()
    assert 'data-state="loading"' in loading and "sk-progress" in loading
    assert 'data-state="loading"' not in index


def test_a_broken_catalog_prints_its_faults_and_writes_nothing(openstore_binary, tmp_path):
    out = tmp_path / "site"
    code, stdout, _ = preview(openstore_binary, FIXTURES / "malformed-period.storekit", out)
    assert code != 0
    assert "recurringSubscriptionPeriod" in stdout and "subscriptionGroups[0]" in stdout
    assert not out.exists()


def test_a_missing_file_and_an_unknown_storefront_fail(openstore_binary, tmp_path):
    code, stdout, _ = preview(openstore_binary, tmp_path / "nope.storekit", tmp_path / "a")
    assert code != 0 and "cannot read" in stdout
    code, _, stderr = preview(openstore_binary, EVERYTHING, tmp_path / "b", "--storefront", "XYZ")
    assert code != 0 and "unknown storefront" in stderr


def test_storefront_locale_and_scheme(openstore_binary, tmp_path):
    out = tmp_path / "jp"
    code, stdout, stderr = preview(openstore_binary, EVERYTHING, out, "--storefront", "JPN", "--locale", "en_US",
                                   "--scheme", "dark")
    assert code == 0, stderr + stdout
    index = (out / "index.html").read_text()
    assert 'lang="en-US"' in index and 'data-color-scheme="dark"' in index
    assert '<meta name="color-scheme" content="dark">' in index
    assert "¥" in index and "€" not in index
    assert "Coins" in index and "Pièces" not in index


def test_version1_catalog(openstore_binary, tmp_path):
    out = tmp_path / "v1"
    code, stdout, stderr = preview(openstore_binary, FIXTURES / "version1.storekit", out)
    assert code == 0, stderr + stdout
    assert len(written(out, stdout)) >= 3


def test_hostile_ids_and_names_stay_inert(openstore_binary, tmp_path):
    catalog = json.loads(EVERYTHING.read_text())
    hostile = ["../../escape<script>", "a/b", "a_b", "A_B", "ü\"'`$(x)", "."]
    template = catalog["products"][0]
    catalog["products"] = []
    for index, product_id in enumerate(hostile):
        product = json.loads(json.dumps(template))
        product["productID"] = product_id
        product["internalID"] = f"{index:08d}"
        product["referenceName"] = f"hostile {index}"
        product["localizations"] = [{
            "locale": "fr_FR", "displayName": '<script>alert(1)</script>"><img src=x onerror=alert(2)>',
            "description": "javascript:alert(3) <b>bold</b> & \u202eRTL",
        }]
        catalog["products"].append(product)
    catalog["subscriptionGroups"][0]["id"] = "../group/<id>"
    path = tmp_path / "hostile.storekit"
    path.write_text(json.dumps(catalog))
    out = tmp_path / "site"
    code, stdout, stderr = preview(openstore_binary, path, out)
    assert code == 0, stderr + stdout
    paths = written(out, stdout)
    names = [p.name for p in paths]
    assert all(SAFE_NAME.match(n) for n in names), names
    assert len({n.lower() for n in names}) == len(names), "two IDs share a file"
    assert sum(n.startswith("product-") for n in names) == len(catalog_ids(catalog)[0])
    assert not (tmp_path / "escape<script>").exists() and not any(tmp_path.glob("group*"))
    for p in paths:
        html = p.read_text()
        assert_self_contained(html, p.name)
        assert "<script>alert" not in html and "<img" not in html and "<b>bold" not in html, p.name
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (out / "index.html").read_text()
