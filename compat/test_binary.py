"""One binary (issue 17): `openstore`, copied alone into an empty folder, runs with `--data` there and
sells, and what it signs passes Apple's verifier.

The binary is $OPENSTORE_RELEASE_BIN when set (scripts/release.sh's dist/openstore-linux-ARCH: then
`ldd` must list no Swift runtime library too), else the binary under test ($OPENSTORE_BIN). Its
environment is emptied (no OPENSTORE_*, a PATH without the Swift toolchain), so it cannot lean on
the build folder, a resource bundle or the toolchain's libraries by accident beyond what `ldd`
shows.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import requests
from appstoreserverlibrary.models.Environment import Environment

from openstore_harness import make_verifier, openstore_bin
from serve_process import Started

BUNDLE, PRODUCT = "com.example.backyardbirds", "com.example.backyardbirds.pellets"


def binary() -> Path:
    release = os.environ.get("OPENSTORE_RELEASE_BIN")
    return Path(release).resolve() if release else openstore_bin()


def test_the_binary_runs_from_an_empty_folder_and_sells_what_apples_verifier_accepts(tmp_path):
    source = binary()
    if not source.exists():
        pytest.skip(f"{source} is not built")
    folder = tmp_path / "empty"
    folder.mkdir()
    shutil.copy2(source, folder / "openstore")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder)}
    version = subprocess.run([str(folder / "openstore"), "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert re.fullmatch(r"\d+\.\d+\.\d+ \(commit [0-9a-z-]+\)\n", version.stdout), version
    if os.environ.get("OPENSTORE_RELEASE_BIN"):
        libraries = subprocess.run(["ldd", str(folder / "openstore")], capture_output=True, text=True).stdout
        assert not re.search(r"libswift|libFoundation|libdispatch|libBlocksRuntime", libraries), libraries

    store = Started(["--port", "0", "--data", "./data"], {"HOME": str(folder)}, cwd=folder, binary=folder / "openstore")
    try:
        assert requests.get(store.url + "/openapi.json", timeout=30).json()["openapi"].startswith("3.")
        products = requests.get(f"{store.url}/storekit/v1/apps/{BUNDLE}/products", timeout=30).json()["products"]
        assert PRODUCT in {p["id"] for p in products}, [p["id"] for p in products]
        bought = requests.post(f"{store.url}/storekit/v1/apps/{BUNDLE}/purchases",
                               json={"productId": PRODUCT, "customer": "from-an-empty-folder"}, timeout=30)
        assert bought.status_code == 200, bought.text
        root = requests.get(store.url + "/storekit/v1/root-certificate", timeout=30).content
        apps = {a["bundleId"]: a for a in requests.get(store.url + "/storekit/v1/apps", timeout=30).json()["apps"]}
        verifier = make_verifier(root, BUNDLE, Environment.SANDBOX, app_apple_id=apps[BUNDLE]["appAppleId"])
        transaction = verifier.verify_and_decode_signed_transaction(bought.json()["signedTransaction"])
        assert (transaction.productId, transaction.bundleId) == (PRODUCT, BUNDLE)
        assert (folder / "data" / "store.sqlite").exists()
    finally:
        store.stop()
    assert sorted(p.name for p in folder.iterdir()) == ["data", "openstore"]
