"""Fixtures: live `openstore serve` processes and Apple's verifier configured for their apps.

Two servers per session, each on a free loopback port with a fresh --data directory
(and ``fresh_server``, a factory for servers a single test starts, kills and restarts itself):

* ``demo_server``: no --catalog, so it hosts the built-in demo apps
  (com.example.backyardbirds, com.example.foodtruck).
* ``catalog_server``: compat/fixtures/compat.storekit hosted twice, as
  com.example.prod (Production, app Apple ID 1234567890) and com.example.sandbox (Sandbox).

The binary is $OPENSTORE_BIN, else .build/debug/openstore in the repository.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

import pytest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from openstore_harness import (
    FIXTURES, CatalogApp, ServerProcess, StoreClient, make_verifier,
)
from pytest_servers import openstore_binary, report_server_logs, running, start_server  # noqa: F401  testsupport/, on the path via openstore_harness

COMPAT_CATALOG = FIXTURES / "compat.storekit"
PROD_BUNDLE = "com.example.prod"
PROD_APP_APPLE_ID = 1234567890
SANDBOX_BUNDLE = "com.example.sandbox"
BACKYARD_BIRDS = "com.example.backyardbirds"
FOOD_TRUCK = "com.example.foodtruck"

_servers: List[ServerProcess] = []


def _start(binary, tmp_path_factory, name: str, apps=()) -> ServerProcess:
    return start_server(lambda **paths: ServerProcess(binary, apps=apps, **paths), tmp_path_factory, name, _servers)


@pytest.fixture(scope="session")
def demo_server(openstore_binary, tmp_path_factory):
    yield from running(_start(openstore_binary, tmp_path_factory, "demo"))


@pytest.fixture(scope="session")
def catalog_server(openstore_binary, tmp_path_factory):
    apps = [
        CatalogApp(COMPAT_CATALOG, PROD_BUNDLE, app_apple_id=PROD_APP_APPLE_ID, environment="Production"),
        CatalogApp(COMPAT_CATALOG, SANDBOX_BUNDLE, environment="Sandbox"),
    ]
    yield from running(_start(openstore_binary, tmp_path_factory, "catalog", apps))


@pytest.fixture
def fresh_server(openstore_binary, tmp_path):
    """A factory for servers of one test: `fresh_server(name, apps=())` gives an unstarted
    ServerProcess with its own fresh --data directory; call .start() (on a new free port each
    time) as often as the test needs, on the same data. Every one is stopped at teardown."""
    made: List[ServerProcess] = []

    def make(name: str = "fresh", apps=()) -> ServerProcess:
        root = tmp_path / name
        root.mkdir()
        server = ServerProcess(openstore_binary, data_dir=root / "data", log_path=root / "server.log", apps=apps)
        made.append(server)
        _servers.append(server)
        return server

    yield make
    for server in made:
        server.stop()


@pytest.fixture(scope="session")
def demo_store(demo_server) -> StoreClient:
    return StoreClient(demo_server.base_url, demo_server)


@pytest.fixture(scope="session")
def catalog_store(catalog_server) -> StoreClient:
    return StoreClient(catalog_server.base_url, catalog_server)


@dataclass
class AppUnderTest:
    """One hosted app, its store, its root certificate and Apple's verifier set up for it."""

    store: StoreClient
    bundle_id: str
    environment: Environment
    app_apple_id: int
    root_der: bytes
    _verifier: Optional[SignedDataVerifier] = field(default=None, repr=False)

    @property
    def verifier(self) -> SignedDataVerifier:
        if self._verifier is None:
            self._verifier = self.verifier_for()
        return self._verifier

    def verifier_for(self, bundle_id: Optional[str] = None, environment: Optional[Environment] = None,
                     app_apple_id: Optional[int] = None, root_der: Optional[bytes] = None) -> SignedDataVerifier:
        env = environment or self.environment
        apple_id = app_apple_id if app_apple_id is not None else self.app_apple_id
        return make_verifier(root_der or self.root_der, bundle_id or self.bundle_id, env,
                             apple_id if env == Environment.PRODUCTION or app_apple_id is not None else None)

    @property
    def other_environment(self) -> Environment:
        return Environment.SANDBOX if self.environment == Environment.PRODUCTION else Environment.PRODUCTION


def _app(store: StoreClient, root_cache: Dict[str, bytes], bundle_id: str) -> AppUnderTest:
    info = store.app(bundle_id)
    if store.base_url not in root_cache:
        root_cache[store.base_url] = store.root_der()
    return AppUnderTest(store, bundle_id, Environment(info["environment"]), int(info["appAppleId"]),
                        root_cache[store.base_url])


@pytest.fixture(scope="session")
def _roots() -> Dict[str, bytes]:
    return {}


@pytest.fixture(scope="session")
def prod_app(catalog_store, _roots) -> AppUnderTest:
    return _app(catalog_store, _roots, PROD_BUNDLE)


@pytest.fixture(scope="session")
def sandbox_app(catalog_store, _roots) -> AppUnderTest:
    return _app(catalog_store, _roots, SANDBOX_BUNDLE)


@pytest.fixture(scope="session", params=["sandbox", "production"])
def catalog_app(request, catalog_store, _roots) -> AppUnderTest:
    """The compat catalog in both environments: every signed-data test runs in SANDBOX and PRODUCTION."""
    return _app(catalog_store, _roots, SANDBOX_BUNDLE if request.param == "sandbox" else PROD_BUNDLE)


@pytest.fixture(scope="session")
def backyard_birds(demo_store, _roots) -> AppUnderTest:
    return _app(demo_store, _roots, BACKYARD_BIRDS)


@pytest.fixture(scope="session")
def food_truck(demo_store, _roots) -> AppUnderTest:
    return _app(demo_store, _roots, FOOD_TRUCK)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """On failure, point at each server's log and show its last lines."""
    report_server_logs(terminalreporter, exitstatus, _servers)
