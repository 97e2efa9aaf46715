"""`openstore catalog validate` and `openstore catalog show`: the exact exit code and output on
success, with warnings, with --strict, and on their main errors (docs/catalog-format.md).

ArgumentParser's conventions: 0 on success, 64 (EX_USAGE) for a usage error, 1 for a broken file.
Faults and warnings go to stdout for `validate` (the report is its output); `show` keeps stdout for
the catalog and writes warnings to stderr.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from openstore_harness import REPO_ROOT

CORPUS = REPO_ROOT / "Tests" / "StoreModelTests" / "Fixtures" / "corpus"
FILES = sorted(CORPUS.glob("*.storekit"))
TIDY = CORPUS / "revenuecat-ios_simple-app.storekit"
REPEATED = CORPUS / "revenuecat-kmp_app201bda4dab-minified.storekit"
BROKEN = CORPUS / "not-xcode" / "products-by-id.json"
USAGE = 64
REPEATED_WARNINGS = [
    'subscriptionGroups[1].id: subscription group ID "6306BD58" is repeated (first at subscriptionGroups[0].id); '
    'this group is kept apart as "6306BD58-2"',
    'subscriptionGroups[2].id: subscription group ID "6306BD58" is repeated (first at subscriptionGroups[0].id); '
    'this group is kept apart as "6306BD58-3"',
]


def cli(binary, *args, cwd: Path = REPO_ROOT):
    done = subprocess.run([str(binary), "catalog", *[str(a) for a in args]], cwd=str(cwd), capture_output=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


# -- validate ----------------------------------------------------------------------------------

def test_validate_a_tidy_file(openstore_binary):
    assert cli(openstore_binary, "validate", TIDY) == (
        0, f"{TIDY}: OK (3 products, 1 subscription groups)\n", "")


def test_validate_prints_warnings_and_exits_0(openstore_binary):
    code, out, err = cli(openstore_binary, "validate", REPEATED)
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"{REPEATED}: OK (12 products, 3 subscription groups), 2 warning(s)"] + [
        f"  warning: {w}" for w in REPEATED_WARNINGS]


def test_validate_strict_turns_warnings_into_faults(openstore_binary):
    code, out, err = cli(openstore_binary, "validate", "--strict", REPEATED)
    assert (code, err) == (1, "")
    assert out.splitlines() == [f"{REPEATED}: 2 fault(s)"] + [f"  {w}" for w in REPEATED_WARNINGS]
    # A tidy file passes strictly too.
    assert cli(openstore_binary, "validate", "--strict", TIDY)[0] == 0


def test_validate_an_empty_price_is_a_warning(openstore_binary, tmp_path):
    path = tmp_path / "unset-price.storekit"
    path.write_text(TIDY.read_text(encoding="utf-8").replace('"displayPrice" : "7.99"', '"displayPrice" : ""'),
                    encoding="utf-8")
    warning = ("subscriptionGroups[0].subscriptions[1].displayPrice: the price is empty (never filled in); "
               "read as 0, as Xcode shows an unset price")
    assert cli(openstore_binary, "validate", path) == (
        0, f"{path}: OK (3 products, 1 subscription groups), 1 warning(s)\n  warning: {warning}\n", "")
    assert cli(openstore_binary, "validate", "--strict", path) == (1, f"{path}: 1 fault(s)\n  {warning}\n", "")
    # The table shows the unset price as a price of zero in the storefront's currency.
    code, out, _ = cli(openstore_binary, "show", path, "--storefront", "USA")
    assert code == 0 and "com.revenuecat.simpleapp.yearly" in out and "$0.00 / P1Y" in out


def test_validate_a_broken_file(openstore_binary):
    assert cli(openstore_binary, "validate", BROKEN) == (
        1, f"{BROKEN}: 1 fault(s)\n  products: expected an array, found object\n", "")


def test_validate_several_files_reports_each_and_fails_if_one_is_broken(openstore_binary):
    code, out, err = cli(openstore_binary, "validate", TIDY, BROKEN, REPEATED)
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == f"{TIDY}: OK (3 products, 1 subscription groups)"
    assert out.splitlines()[1:3] == [f"{BROKEN}: 1 fault(s)", "  products: expected an array, found object"]
    assert out.splitlines()[3].startswith(f"{REPEATED}: OK (12 products")


def test_validate_a_missing_file(openstore_binary, tmp_path):
    missing = tmp_path / "missing.storekit"
    code, out, err = cli(openstore_binary, "validate", missing)
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == f"{missing}: 1 fault(s)"
    assert out.splitlines()[1].startswith(f"  cannot read {missing}")


def test_validate_without_files_is_a_usage_error(openstore_binary):
    code, out, err = cli(openstore_binary, "validate")
    assert (code, out) == (USAGE, "")
    assert "Error: Missing expected argument '<files> ...'" in err


# -- show --------------------------------------------------------------------------------------

def test_show_prints_the_table(openstore_binary):
    code, out, err = cli(openstore_binary, "show", TIDY)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Catalog 882C6E98, format 2.0, storefront ESP (143454, EUR, es_ES)"
    assert "Subscription groups (1)" in out


def test_show_json_of_a_file_with_oddities_writes_them_tidily(openstore_binary, tmp_path):
    code, out, err = cli(openstore_binary, "show", "--json", REPEATED)
    assert code == 0
    assert err.splitlines() == [f"{REPEATED}: warning: {w}" for w in REPEATED_WARNINGS]
    doc = json.loads(out)
    assert [g["id"] for g in doc["subscriptionGroups"]] == ["6306BD58", "6306BD58-2", "6306BD58-3"]
    tidy = tmp_path / "tidy.storekit"
    tidy.write_text(out, encoding="utf-8")
    assert cli(openstore_binary, "validate", "--strict", tidy)[0] == 0


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_show_json_reads_back_as_the_same_catalog(openstore_binary, tmp_path, path):
    """Round trip over the corpus: what `show --json` prints, read back and shown again, is the
    same document, and every product, group and price of the file is in it."""
    code, first, _ = cli(openstore_binary, "show", "--json", path)
    assert code == 0
    again = tmp_path / "again.storekit"
    again.write_text(first, encoding="utf-8")
    assert cli(openstore_binary, "show", "--json", again) == (0, first, "")

    original, written = json.loads(path.read_text(encoding="utf-8")), json.loads(first)

    def products(doc):
        found = {p["productID"]: p for p in doc.get("products", []) + doc.get("nonRenewingSubscriptions", [])}
        for group in doc.get("subscriptionGroups", []):
            found.update({s["productID"]: s for s in group.get("subscriptions", [])})
        return found

    before, after = products(original), products(written)
    assert before.keys() == after.keys()
    for product_id, product in before.items():
        assert product["type"] == after[product_id]["type"]
        assert float(product["displayPrice"] or 0) == float(after[product_id]["displayPrice"])
    assert [g["name"] for g in original.get("subscriptionGroups", [])] == [g["name"] for g in written["subscriptionGroups"]]


def test_show_an_unknown_storefront_is_a_usage_error(openstore_binary):
    code, out, err = cli(openstore_binary, "show", TIDY, "--storefront", "XYZ")
    assert (code, out) == (USAGE, "")
    assert "Error: unknown storefront XYZ: use ISO 3166-1 alpha-3, e.g. USA" in err


def test_show_a_broken_file(openstore_binary):
    assert cli(openstore_binary, "show", "--json", BROKEN) == (
        1, f"{BROKEN}: 1 fault(s)\n  products: expected an array, found object\n", "")
