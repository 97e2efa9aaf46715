"""Start a live `openstore serve` and talk to its device API.

Used by conftest.py and the tests. Nothing here knows Apple's rules; the tests state them, and
Apple's `SignedDataVerifier` (app-store-server-library) judges every JWS the store emits.
"""

from __future__ import annotations

import base64
import calendar
import datetime as dt
import json
import re
import subprocess
import time
import uuid
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

import sys

import requests
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

REPO_ROOT = Path(__file__).resolve().parent.parent
COMPAT_DIR = Path(__file__).resolve().parent
FIXTURES = COMPAT_DIR / "fixtures"
HTTP_TIMEOUT = 30  # seconds, as Apple's clients use

sys.path.insert(0, str(REPO_ROOT / "testsupport"))
from openstore_process import OpenStoreProcess, openstore_bin, store_environment  # noqa: E402,F401  (shared with browser/; re-exported)


@dataclass
class CatalogApp:
    """One `--catalog FILE --bundle-id ID [--app-apple-id N] [--environment E]` group."""

    catalog: Path
    bundle_id: str
    app_apple_id: Optional[int] = None
    environment: Optional[str] = None

    def args(self) -> List[str]:
        out = ["--catalog", str(self.catalog), "--bundle-id", self.bundle_id]
        if self.app_apple_id is not None:
            out += ["--app-apple-id", str(self.app_apple_id)]
        if self.environment is not None:
            out += ["--environment", self.environment]
        return out


class ServerProcess(OpenStoreProcess):
    """`openstore serve` with the catalogs the compat suite sells from, and the CLI next to it."""

    def __init__(self, binary: Path, data_dir: Path, log_path: Path, apps: Iterable[CatalogApp] = ()):
        self.apps = list(apps)
        super().__init__(binary, data_dir, log_path, extra_args=[arg for app in self.apps for arg in app.args()])

    # -- the CLI next to the server ------------------------------------------------------------
    def run_cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), *args], cwd=str(REPO_ROOT), capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, env=store_environment(self.data_dir))


class StoreClient:
    """The device API (`/storekit/v1`), thinly wrapped. Methods return `requests.Response`."""

    def __init__(self, base_url: str, server: Optional[ServerProcess] = None):
        self.base_url = base_url.rstrip("/")
        self.server = server
        self.http = requests.Session()

    def url(self, path: str) -> str:
        return self.base_url + path

    def get(self, path: str, **kw) -> requests.Response:
        return self.http.get(self.url(path), timeout=HTTP_TIMEOUT, **kw)

    def post(self, path: str, body: Any = None, raw: Optional[bytes] = None, **kw) -> requests.Response:
        if raw is not None:
            return self.http.post(self.url(path), data=raw, headers={"Content-Type": "application/json"},
                                  timeout=HTTP_TIMEOUT, **kw)
        return self.http.post(self.url(path), json=body, timeout=HTTP_TIMEOUT, **kw)

    def put(self, path: str, body: Any = None, raw: Optional[bytes] = None, **kw) -> requests.Response:
        if raw is not None:
            return self.http.put(self.url(path), data=raw, headers={"Content-Type": "application/json"},
                                 timeout=HTTP_TIMEOUT, **kw)
        return self.http.put(self.url(path), json=body, timeout=HTTP_TIMEOUT, **kw)

    # -- routes --------------------------------------------------------------------------------
    def apps(self) -> List[Dict[str, Any]]:
        return ok_json(self.get("/storekit/v1/apps"))["apps"]

    def app(self, bundle_id: str) -> Dict[str, Any]:
        for app in self.apps():
            if app["bundleId"] == bundle_id:
                return app
        raise AssertionError(f"{bundle_id} is not hosted; apps: {[a['bundleId'] for a in self.apps()]}")

    def root_certificate(self) -> requests.Response:
        return self.get("/storekit/v1/root-certificate")

    def root_der(self) -> bytes:
        r = self.root_certificate()
        assert r.status_code == 200, describe(r)
        return r.content

    def products(self, bundle_id: str, ids: Iterable[str] = (), storefront: Optional[str] = None,
                 locale: Optional[str] = None) -> requests.Response:
        params: List[tuple] = [("id", i) for i in ids]
        if storefront:
            params.append(("storefront", storefront))
        if locale:
            params.append(("locale", locale))
        return self.get(f"/storekit/v1/apps/{bundle_id}/products", params=params)

    def product(self, bundle_id: str, product_id: str, storefront: Optional[str] = None) -> Dict[str, Any]:
        products = ok_json(self.products(bundle_id, [product_id], storefront=storefront))["products"]
        assert [p["id"] for p in products] == [product_id], products
        return products[0]

    def purchase(self, bundle_id: str, product_id: Optional[str], customer: Optional[str], **extra) -> requests.Response:
        body: Dict[str, Any] = {}
        if product_id is not None:
            body["productId"] = product_id
        if customer is not None:
            body["customer"] = customer
        body.update(extra)
        return self.post(f"/storekit/v1/apps/{bundle_id}/purchases", body)

    def buy(self, bundle_id: str, product_id: str, customer: str, **extra) -> Dict[str, Any]:
        """A purchase that must succeed; returns the JSON body."""
        return ok_json(self.purchase(bundle_id, product_id, customer, **extra))

    def customer(self, name: str) -> requests.Response:
        return self.get(f"/storekit/v1/customers/{name}")

    def put_customer(self, name: str, **fields) -> requests.Response:
        return self.put(f"/storekit/v1/customers/{name}", fields)

    def signed_list(self, bundle_id: str, customer: str, which: str) -> List[str]:
        """which: 'transactions' | 'entitlements' | 'unfinished'."""
        return ok_json(self.get(f"/storekit/v1/apps/{bundle_id}/customers/{customer}/{which}"))["signedTransactions"]

    def finish(self, bundle_id: str, customer: str, transaction_id: str) -> requests.Response:
        return self.post(f"/storekit/v1/apps/{bundle_id}/customers/{customer}/transactions/{transaction_id}/finish")

    def app_transaction(self, bundle_id: str, customer: str) -> requests.Response:
        return self.get(f"/storekit/v1/apps/{bundle_id}/customers/{customer}/app-transaction")

    def put_app_transaction(self, bundle_id: str, customer: str, **fields) -> requests.Response:
        return self.put(f"/storekit/v1/apps/{bundle_id}/customers/{customer}/app-transaction", fields)


# -- assertions and helpers --------------------------------------------------------------------

def describe(r: requests.Response) -> str:
    body = r.text if len(r.text) < 2000 else r.text[:2000] + "…"
    return f"{r.request.method} {r.url} → {r.status_code} {r.headers.get('Content-Type')}: {body}"


def ok_json(r: requests.Response) -> Dict[str, Any]:
    assert r.status_code == 200, describe(r)
    assert r.headers.get("Content-Type", "").split(";")[0].strip() == "application/json", describe(r)
    return r.json()


def assert_error(r: requests.Response, status: int, code: str) -> Dict[str, Any]:
    """A device-API error: the status, `{"error": code, "message": text}` as JSON."""
    assert r.status_code == status, describe(r)
    assert r.headers.get("Content-Type", "").split(";")[0].strip() == "application/json", describe(r)
    body = r.json()
    assert body.get("error") == code, describe(r)
    assert isinstance(body.get("message"), str) and body["message"], describe(r)
    return body


def new_customer(prefix: str = "compat") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def now_ms() -> int:
    return int(time.time() * 1000)


def milliunits(decimal_string: str) -> int:
    value = Decimal(decimal_string) * 1000
    assert value == value.to_integral_value(), decimal_string
    return int(value)


_PERIOD = re.compile(r"^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$")


def add_period(ms: int, iso: str, times: int = 1) -> int:
    """ms + an ISO 8601 duration (P1W, P1M, P1Y…), calendar-aware in UTC (Jan 31 + P1M = Feb 28/29)."""
    m = _PERIOD.match(iso)
    assert m, iso
    years, months, weeks, days = (int(g or 0) * times for g in m.groups())
    start = dt.datetime.fromtimestamp(ms / 1000, tz=dt.timezone.utc)
    total_months = start.month - 1 + months + 12 * years
    year, month = start.year + total_months // 12, total_months % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    moved = start.replace(year=year, month=month, day=day) + dt.timedelta(days=days + 7 * weeks)
    return int(round(moved.timestamp() * 1000))


def period_iso(period: Dict[str, Any], count: int = 1) -> str:
    """Device-API period {"unit": "month", "value": 1} → "P1M"."""
    letter = {"day": "D", "week": "W", "month": "M", "year": "Y"}[period["unit"]]
    return f"P{period['value'] * count}{letter}"


def b64url_json(segment: str) -> Dict[str, Any]:
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def jws_parts(jws: str) -> tuple:
    """(header, payload) of a compact JWS, unverified: to check raw JSON types the verifier hides."""
    parts = jws.split(".")
    assert len(parts) == 3, f"not a compact JWS: {jws[:80]}"
    return b64url_json(parts[0]), b64url_json(parts[1])


def env_of(name: str) -> Environment:
    return Environment(name)


def make_verifier(root_der: bytes, bundle_id: str, environment: Environment,
                  app_apple_id: Optional[int] = None) -> SignedDataVerifier:
    """Apple's verifier exactly as a developer would build it: offline, strict chain checks on (the default)."""
    return SignedDataVerifier([root_der], enable_online_checks=False, environment=environment,
                              bundle_id=bundle_id, app_apple_id=app_apple_id)


def create_key(server: ServerProcess, folder: Path, bundle: str) -> Dict[str, str]:
    """A Server API key for `bundle`, made by `openstore keys create --json` on the server's data:
    its `keyId`, `issuerId`, `bundleId` and the `privateKeyFile` written into `folder`."""
    out = folder / f"AuthKey_{uuid.uuid4().hex[:8]}.p8"
    done = server.run_cli("keys", "create", "--bundle-id", bundle, "--data", str(server.data_dir), "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def api_client(server, key: Dict[str, str], environment: Environment = Environment.SANDBOX) -> AppStoreServerAPIClient:
    """Apple's `AppStoreServerAPIClient` with `key`, pointed at `server` (anything with a `base_url`)."""
    client = AppStoreServerAPIClient(Path(key["privateKeyFile"]).read_bytes(), key["keyId"], key["issuerId"],
                                     key["bundleId"], environment)
    client._base_url = server.base_url
    return client


def until(what: str, check, timeout: float = 30):
    """Polls `check` until it returns something truthy and returns that; a bound on a hang, not a
    speed assertion."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not seen within {timeout} s")
        time.sleep(0.05)
