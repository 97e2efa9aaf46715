"""Configuration the twelve-factor way (issue 17): every `serve` option is also an `OPENSTORE_*`
environment variable, apps can come from a `--config openstore.json` file, a flag beats its
variable which beats the file, and an unknown key in the file is an error naming its JSON path.

The same store is started three ways (flags, environment, config file) and must answer the same:
its apps (bundle ID, app Apple ID, environment, products), its admin token, its data folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict

import requests

from openstore_harness import FIXTURES
from openstore_process import free_port
from serve_process import Started, refused

CATALOG = FIXTURES / "compat.storekit"
BUNDLE = "com.example.config"
APPLE_ID = 1_700_000_917
def what_it_serves(store: Started, token: str) -> Dict:
    """What a user of the store sees: its apps and products, and that the admin API wants the token."""
    apps = requests.get(store.url + "/storekit/v1/apps", timeout=30).json()["apps"]
    products = requests.get(f"{store.url}/storekit/v1/apps/{BUNDLE}/products", timeout=30).json()["products"]
    bare = requests.get(store.url + "/admin/v1/worlds", timeout=30).status_code
    with_token = requests.get(store.url + "/admin/v1/worlds", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    urls = requests.get(f"{store.url}/admin/v1/worlds/default/apps/{BUNDLE}/notification-url",
                        headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return {
        "apps": sorted((a["bundleId"], a.get("appAppleId"), a.get("environment")) for a in apps),
        "products": sorted(p["id"] for p in products),
        "admin without token": bare, "admin with token": with_token.status_code,
        "notification URLs": {k: v for k, v in urls.json().items() if k.endswith("URL")} if urls.status_code == 200 else urls.status_code,
        "port": int(store.url.rsplit(":", 1)[1]),
    }


def test_flags_environment_and_config_file_give_the_same_store(tmp_path):
    token = "config-token-5b1e"
    port_flags, port_env, port_file = free_port(), free_port(), free_port()
    flags = ["--host", "127.0.0.1", "--port", str(port_flags), "--data", str(tmp_path / "flags"), "--catalog", str(CATALOG),
             "--bundle-id", BUNDLE, "--app-apple-id", str(APPLE_ID), "--environment", "Production", "--admin-token", token]
    env = {"OPENSTORE_HOST": "127.0.0.1", "OPENSTORE_PORT": str(port_env), "OPENSTORE_DATA": str(tmp_path / "env"),
           "OPENSTORE_CATALOGS": str(CATALOG), "OPENSTORE_BUNDLE_IDS": BUNDLE, "OPENSTORE_APP_APPLE_IDS": str(APPLE_ID),
           "OPENSTORE_ENVIRONMENTS": "Production", "OPENSTORE_ADMIN_TOKEN": token}
    (tmp_path / "cfg").mkdir()
    # Catalog paths in the file are relative to the file's folder.
    (tmp_path / "cfg" / "compat.storekit").write_bytes(CATALOG.read_bytes())
    config = tmp_path / "cfg" / "openstore.json"
    config.write_text(json.dumps({
        "host": "127.0.0.1", "port": port_file, "data": str(tmp_path / "file"), "adminToken": token,
        "apps": [{"catalog": "compat.storekit", "bundleId": BUNDLE, "appAppleId": APPLE_ID, "environment": "Production"}],
    }))
    seen = {}
    for how, args, environment in [("flags", flags, {}), ("environment", [], env), ("config file", ["--config", str(config)], {}),
                                   ("OPENSTORE_CONFIG", [], {"OPENSTORE_CONFIG": str(config)})]:
        if how == "OPENSTORE_CONFIG":
            config.write_text(config.read_text().replace(str(port_file), str(free_port())))
        store = Started(args, environment, cwd=tmp_path)
        try:
            seen[how] = what_it_serves(store, token)
            seen[how]["data folder has the database"] = (Path(store.data) / "store.sqlite").exists()
        finally:
            store.stop()
    assert seen["flags"]["port"] == port_flags and seen["environment"]["port"] == port_env and seen["config file"]["port"] == port_file
    expected = {k: v for k, v in seen["flags"].items() if k != "port"}
    assert expected["apps"] == [(BUNDLE, APPLE_ID, "Production")], expected
    assert expected["admin without token"] == 401 and expected["admin with token"] == 200, expected
    assert expected["data folder has the database"], expected
    for how in ("environment", "config file", "OPENSTORE_CONFIG"):
        assert {k: v for k, v in seen[how].items() if k != "port"} == expected, how
    for folder in ("flags", "env", "file"):
        assert (tmp_path / folder / "store.sqlite").exists(), folder


def test_a_flag_beats_its_variable_which_beats_the_file(tmp_path):
    config = tmp_path / "openstore.json"
    config.write_text(json.dumps({"port": 0, "data": str(tmp_path / "from-file")}))
    cases = [
        (["--config", str(config)], {}, "from-file"),
        (["--config", str(config)], {"OPENSTORE_DATA": str(tmp_path / "from-env")}, "from-env"),
        (["--config", str(config), "--data", str(tmp_path / "from-flag")], {"OPENSTORE_DATA": str(tmp_path / "from-env")}, "from-flag"),
    ]
    for args, env, want in cases:
        store = Started(args, env, cwd=tmp_path)
        try:
            assert Path(store.data).name == want, (args, env, store.data)
        finally:
            store.stop()


def test_the_config_file_sets_notification_urls(tmp_path):
    (tmp_path / "compat.storekit").write_bytes(CATALOG.read_bytes())
    config = tmp_path / "openstore.json"
    config.write_text(json.dumps({"port": 0, "data": str(tmp_path / "data"), "apps": [{
        "catalog": "compat.storekit", "bundleId": BUNDLE,
        "notificationURLs": {"production": "https://example.com/prod", "sandbox": "http://127.0.0.1:9/sandbox"}}]}))
    store = Started(["--config", str(config)], {}, cwd=tmp_path)
    try:
        urls = requests.get(f"{store.url}/admin/v1/worlds/default/apps/{BUNDLE}/notification-url", timeout=30).json()
        assert (urls["productionURL"], urls["sandboxURL"]) == ("https://example.com/prod", "http://127.0.0.1:9/sandbox"), urls
    finally:
        store.stop()


def test_unknown_keys_and_bad_values_are_errors_that_say_where(tmp_path):
    config = tmp_path / "openstore.json"
    config.write_text(json.dumps({"port": 0, "apps": [{"catalog": "x.storekit", "bundleID": "com.example.typo"}]}))
    assert 'unknown key "apps[0].bundleID"' in refused(["--config", str(config)], {}, tmp_path)
    config.write_text(json.dumps({"prot": 8080}))
    assert 'unknown key "prot"' in refused(["--config", str(config)], {}, tmp_path)
    config.write_text(json.dumps({"apps": [{"catalog": "x.storekit", "bundleId": "b", "notificationURLs": {"prod": "https://x"}}]}))
    assert 'unknown key "apps[0].notificationURLs.prod"' in refused(["--config", str(config)], {}, tmp_path)
    config.write_text(json.dumps({"port": "8080"}))
    assert "port: expected a number" in refused(["--config", str(config)], {}, tmp_path)
    config.write_text("{ not json")
    assert "is not valid JSON" in refused(["--config", str(config)], {}, tmp_path)
    assert "OPENSTORE_PORT=\"eighty\" is not a whole number" in refused([], {"OPENSTORE_PORT": "eighty"}, tmp_path)
    assert "unknown log format" in refused([], {"OPENSTORE_LOG_FORMAT": "xml"}, tmp_path)
    assert "cannot read config file" in refused(["--config", str(tmp_path / "missing.json")], {}, tmp_path)
