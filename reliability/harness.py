"""What every reliability check shares: a live `openstore serve` in a temporary folder, a raw
asyncio HTTP/1.1 client for thousands of concurrent requests, Server API keys, and the one-line
report each check prints.

Plain Python on the compat venv (Apple's app-store-server-library, requests, cryptography):
the checks talk to the real binary over real loopback sockets, nothing is mocked.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import requests

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
sys.path.insert(0, str(REPO_ROOT / "testsupport"))
sys.path.insert(0, str(REPO_ROOT / "compat"))
from openstore_process import OpenStoreProcess, free_port, openstore_bin  # noqa: E402
import run_log  # noqa: E402

FIXTURES = HERE / "fixtures"
CATALOG = FIXTURES / "reliability.storekit"
BUNDLE = "com.example.reliability"
OTHER_BUNDLE = "com.example.reliability.other"
COINS = "rel.coins"
LIFETIME = "rel.lifetime"
MONTHLY = "rel.plus.monthly"
WEEKLY = "rel.news.weekly"
CODE_OFFER = "FREEMONTH"


class CheckFailed(AssertionError):
    """A promise was broken: the message says which and how."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


@dataclass
class Size:
    """CI size (the default) or full size (`--full`)."""

    full: bool = False

    def pick(self, ci, full):
        return full if self.full else ci


# -- temporary folders ---------------------------------------------------------------------------

class Workspace:
    """A temporary `openstore-reliability-*` folder, removed on exit (also on failure); every
    server started through it is stopped first."""

    def __init__(self, name: str):
        self.root = Path(tempfile.mkdtemp(prefix=f"openstore-reliability-{name}-"))
        self.servers: List[OpenStoreProcess] = []
        self.mounts: List[Path] = []

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc) -> None:
        for server in self.servers:
            try:
                server.kill() if server.running else None
            except Exception:
                pass
        for mount in reversed(self.mounts):
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)

    def path(self, *parts: str) -> Path:
        p = self.root.joinpath(*parts)
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def server(self, name: str = "store", apps: Sequence[Tuple[Path, str]] = ((CATALOG, BUNDLE), (CATALOG, OTHER_BUNDLE)),
               data_dir: Optional[Path] = None, extra: Sequence[str] = ()) -> "Store":
        args: List[str] = []
        for catalog, bundle in apps:
            args += ["--catalog", str(catalog), "--bundle-id", bundle]
        server = Store(openstore_bin(), data_dir or self.path(name, "data"), self.path(name, "server.log"), [*args, *extra])
        self.servers.append(server)
        return server


class Store(OpenStoreProcess):
    """`openstore serve` plus the CLI on the same data folder."""

    @property
    def port(self) -> int:
        assert self.base_url
        return int(self.base_url.rsplit(":", 1)[1])

    def cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), *args], cwd=str(REPO_ROOT), capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def pid(self) -> Optional[int]:
        return self.proc.pid if self.proc else None

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid()}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def open_fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid()}/fd"))

    def get(self, path: str, **kw) -> requests.Response:
        return requests.get(self.base_url + path, timeout=60, **kw)

    def post(self, path: str, body: Any = None, **kw) -> requests.Response:
        return requests.post(self.base_url + path, json=body, timeout=60, **kw)

    def healthy(self) -> bool:
        try:
            return self.get("/healthz").status_code == 200
        except requests.RequestException:
            return False


# -- Server API keys and tokens ------------------------------------------------------------------

@dataclass
class Key:
    key_id: str
    issuer_id: str
    bundle_id: str
    p8: bytes


def create_key(store: Store, folder: Path, bundle_id: str = BUNDLE, world: Optional[str] = None) -> Key:
    out = folder / f"AuthKey_{uuid.uuid4().hex[:8]}.p8"
    args = ["keys", "create", "--bundle-id", bundle_id, "--data", str(store.data_dir), "--out", str(out), "--json"]
    if world:
        args += ["--world", world]
    done = store.cli(*args)
    expect(done.returncode == 0, f"`openstore {' '.join(args)}` failed: {done.stderr.decode()}")
    info = json.loads(done.stdout.decode().strip().splitlines()[-1])
    run_log.record_secret(out.read_text())
    return Key(info["keyId"], info["issuerId"], info["bundleId"], out.read_bytes())


def token(key: Key, **overrides) -> str:
    """A Server API bearer token as Apple documents it (ES256, kid, iss, iat, exp, aud, bid);
    `overrides` replace or (with value None) drop claims; `_key` signs with other PEM bytes."""
    import jwt

    now = int(time.time())
    claims: Dict[str, Any] = {"iss": key.issuer_id, "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1",
                              "bid": key.bundle_id}
    pem = overrides.pop("_key", key.p8)
    kid = overrides.pop("_kid", key.key_id)
    for name, value in overrides.items():
        if value is None:
            claims.pop(name, None)
        else:
            claims[name] = value
    return jwt.encode(claims, pem, algorithm="ES256", headers={"kid": kid, "typ": "JWT"})


# -- raw concurrent HTTP -------------------------------------------------------------------------

@dataclass
class Answer:
    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


async def http(port: int, method: str, path: str, body: Any = None, headers: Optional[Dict[str, str]] = None,
               host: str = "127.0.0.1", timeout: float = 120) -> Answer:
    """One request on its own connection (`Connection: close`), read to the end."""
    if body is None:
        data = b""
    elif isinstance(body, (bytes, bytearray)):
        data = bytes(body)
    else:
        data = json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", f"Content-Length: {len(data)}", "Connection: close"]
    if data:
        head.append("Content-Type: application/json")
    for name, value in (headers or {}).items():
        head.append(f"{name}: {value}")
    raw = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data  # latin-1: a path may carry raw bytes

    async def go() -> Answer:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(raw)
            await writer.drain()
            received = await reader.read(-1)
        finally:
            writer.close()
        return parse_response(received)

    return await asyncio.wait_for(go(), timeout)


def parse_response(received: bytes) -> Answer:
    head, _, rest = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines or not lines[0].startswith("HTTP/1."):
        raise ConnectionError(f"no HTTP answer: {received[:200]!r}")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if size == 0:
                break
            body += rest[:size]
            rest = rest[size + 2:]
        return Answer(status, headers, bytes(body))
    if "content-length" in headers:
        rest = rest[: int(headers["content-length"])]
    return Answer(status, headers, rest)


def run_async(coro):
    return asyncio.run(coro)


async def gather_all(coros: Iterable) -> List[Any]:
    """Every result, exceptions included (a dropped connection is an outcome to count, not a crash)."""
    return await asyncio.gather(*coros, return_exceptions=True)


# -- admin API helpers ---------------------------------------------------------------------------

def make_world(store: Store, world: str, rate: Any = None) -> None:
    body: Dict[str, Any] = {"id": world}
    if rate is not None:
        body["rate"] = rate
    r = store.post("/admin/v1/worlds", body)
    expect(r.status_code == 201, f"creating world {world}: {r.status_code} {r.text}")


def advance(store: Store, world: str, duration: Any) -> requests.Response:
    return store.post(f"/admin/v1/worlds/{world}/time/advance", {"duration": duration})


def set_notification_url(store: Store, world: str, bundle: str, url: Optional[str]) -> None:
    r = requests.put(f"{store.base_url}/admin/v1/worlds/{world}/apps/{bundle}/notification-url", json={"url": url}, timeout=60)
    expect(r.status_code == 200, f"setting the notification URL: {r.status_code} {r.text}")


def jws_payload(jws: str) -> Dict[str, Any]:
    import base64
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def device_path(world: str, rest: str) -> str:
    return f"/storekit/v1/{rest}" if world == "default" else f"/storekit/v1/worlds/{world}/{rest}"


def transactions(store: Store, world: str, bundle: str, customer: str) -> List[Dict[str, Any]]:
    r = store.get(device_path(world, f"apps/{bundle}/customers/{customer}/transactions"))
    expect(r.status_code == 200, f"listing {customer}'s transactions: {r.status_code} {r.text[:300]}")
    return [jws_payload(j) for j in r.json()["signedTransactions"]]


def notifications(store: Store, world: str = "default", after: int = 0) -> List[Dict[str, Any]]:
    """Every notification the store lists for a world after the sequence number `after`, paged (the
    admin API answers at most 10,000 at a time, and a full-size run emits more)."""
    out: List[Dict[str, Any]] = []
    while True:
        r = requests.get(f"{store.base_url}/admin/v1/worlds/{world}/notifications?limit=10000&after={after}", timeout=60)
        expect(r.status_code == 200, f"listing notifications: {r.status_code} {r.text[:300]}")
        page = r.json()["notifications"]
        out.extend(page)
        if len(page) < 10000:
            return out
        after = page[-1]["seq"]


def percentile(values: List[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def seeded_random(name: str) -> Tuple[random.Random, int]:
    """A generator per check; OPENSTORE_FUZZ_SEED replays a run, and the seed is in every failure."""
    seed = int(os.environ.get("OPENSTORE_FUZZ_SEED") or random.SystemRandom().randrange(1 << 32))
    return random.Random(f"{name}:{seed}"), seed


def non_loopback_ipv4() -> Optional[str]:
    """An address of this machine that is not loopback (a connection to it has a non-loopback peer)."""
    done = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True)
    for match in re.finditer(r"inet (\d+\.\d+\.\d+\.\d+)/", done.stdout):
        if not match.group(1).startswith("127."):
            return match.group(1)
    return None
