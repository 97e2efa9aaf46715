"""The corpus of real `.storekit` files (Tests/StoreModelTests/Fixtures/corpus, INDEX.md there) sold
from a live store: every file is served through `openstore serve --catalog`, its products are listed
over the device API, and one product of each type it has is bought, with Apple's `SignedDataVerifier`
checking every signed transaction. Files in other formats are refused at start-up with a path.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

from checks import check_transaction
from conftest import _app, _start
from openstore_harness import REPO_ROOT, CatalogApp, StoreClient, new_customer, ok_json

CORPUS = REPO_ROOT / "Tests" / "StoreModelTests" / "Fixtures" / "corpus"
FILES = sorted(CORPUS.glob("*.storekit"))
NOT_XCODE = sorted((CORPUS / "not-xcode").iterdir())
USAGE = 64
# The file's `type` → the device API's product `type`.
DEVICE_TYPE = {"Consumable": "Consumable", "NonConsumable": "Non-Consumable",
               "NonRenewingSubscription": "Non-Renewable", "RecurringSubscription": "Auto-Renewable"}


def bundle_id(path: Path) -> str:
    return "com.corpus." + re.sub(r"[^A-Za-z0-9.-]", "-", path.stem)


def file_products(path: Path) -> Dict[str, str]:
    """productID → `type`, as the file spells them."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    products = doc.get("products", []) + doc.get("nonRenewingSubscriptions", [])
    products += [s for g in doc.get("subscriptionGroups", []) for s in g.get("subscriptions", [])]
    return {p["productID"]: p["type"] for p in products}


@pytest.fixture(scope="module")
def corpus_store(openstore_binary, tmp_path_factory) -> StoreClient:
    """One server hosting every corpus file as its own Sandbox app."""
    apps = [CatalogApp(path, bundle_id(path)) for path in FILES]
    server = _start(openstore_binary, tmp_path_factory, "corpus", apps)
    yield StoreClient(server.base_url, server)
    server.stop()


def test_the_corpus_is_there():
    assert len(FILES) >= 30
    index = (CORPUS / "INDEX.md").read_text(encoding="utf-8")
    assert all(f"`{path.name}`" in index for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_file_is_served_listed_and_sells(corpus_store, _roots, path):
    bundle = bundle_id(path)
    expected = file_products(path)
    settings = json.loads(path.read_text(encoding="utf-8")).get("settings") or {}

    # Listed over the device API, in the file's own storefront by default.
    listing = ok_json(corpus_store.products(bundle))
    assert listing["storefront"]["countryCode"] == settings.get("_storefront", "USA")
    assert {p["id"]: p["type"] for p in listing["products"]} == {k: DEVICE_TYPE[v] for k, v in expected.items()}

    # One product of each type, each bought by a new customer in the USA storefront, each signed
    # transaction verified by Apple's library.
    app = _app(corpus_store, _roots, bundle)
    products = ok_json(corpus_store.products(bundle, storefront="USA"))["products"]
    bought: List[str] = []
    for kind in DEVICE_TYPE.values():
        product = next((p for p in products if p["type"] == kind), None)
        if product is None:
            continue
        customer = new_customer("corpus")
        assert corpus_store.put_customer(customer, storefront="USA").status_code in (200, 201)
        body = corpus_store.buy(bundle, product["id"], customer)
        tx = check_transaction(app, body["signedTransaction"], product=product, storefront="USA")
        if kind == "Auto-Renewable":
            assert tx.subscriptionGroupIdentifier == product["subscription"]["subscriptionGroupID"]
        bought.append(kind)
    assert set(bought) == {DEVICE_TYPE[t] for t in expected.values()}


def test_repeated_group_ids_are_sold_as_distinct_groups(corpus_store, _roots):
    """The minified file whose three groups share one ID: a customer holds one subscription in
    each of them, as in three groups, and each transaction names its own group."""
    path = CORPUS / "revenuecat-kmp_app201bda4dab-minified.storekit"
    bundle = bundle_id(path)
    app = _app(corpus_store, _roots, bundle)
    products = {p["id"]: p for p in ok_json(corpus_store.products(bundle, storefront="USA"))["products"]}
    customer = new_customer("corpus-groups")
    assert corpus_store.put_customer(customer, storefront="USA").status_code in (200, 201)
    groups = []
    for product_id in ["paywall_subs_monthly", "photo_pro_yearly", "chatgpt_pro_monthly"]:
        body = corpus_store.buy(bundle, product_id, customer)
        tx = check_transaction(app, body["signedTransaction"], product=products[product_id], storefront="USA")
        groups.append(tx.subscriptionGroupIdentifier)
    assert groups == ["6306BD58", "6306BD58-2", "6306BD58-3"]
    entitlements = corpus_store.signed_list(bundle, customer, "entitlements")
    assert len(entitlements) == 3


@pytest.mark.parametrize("path", NOT_XCODE, ids=[p.name for p in NOT_XCODE])
def test_other_formats_are_refused_at_start_with_a_path(openstore_binary, tmp_path, path):
    done = subprocess.run(
        [str(openstore_binary), "serve", "--catalog", str(path), "--bundle-id", "com.corpus.refused",
         "--port", "0", "--data", str(tmp_path / "data")],
        capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    err = done.stderr.decode(errors="replace")
    assert done.returncode == USAGE, err
    assert f"{path} is not a valid .storekit catalog:" in err
    # The fault lines name where: a JSON path, or the whole document.
    expected = {
        "products-plist.storekit": "invalid JSON at line 1, column 1",
        "product-array.json": "expected a JSON object at the top level, found array",
        "app-store-connect-response.json": "not an Xcode StoreKit configuration",
        "products-by-id.json": "products: expected an array, found object",
        "play-billing-products.json": "products[0].productID: required key is missing",
    }[path.name]
    assert expected in err, err
