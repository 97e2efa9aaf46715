"""Disk full and read-only (SQLite's I/O-error testing, for real): the store runs on a small
size-limited tmpfs that is then filled. Writes must fail with a clear 503, reads keep working,
nothing acknowledged is lost, and writes work again by themselves once space returns. A
read-only data folder at start must give a clear error, not a crash.

When `mount` is not permitted (not root, or a container without CAP_SYS_ADMIN), the check uses
a file-size limit instead (RLIMIT_FSIZE with SIGXFSZ ignored, so writes past it fail with EFBIG)
and says so in its line."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Dict, List, Optional

import requests

from harness import BUNDLE, COINS, WEEKLY, Size, Workspace, create_key, expect, token, transactions

FS_MB = 24


def try_mount(ws: Workspace, folder: Path) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={FS_MB}m,mode=0755", "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        return False
    ws.mounts.append(folder)
    return True


def fill(folder: Path) -> Path:
    """Writes a file until the filesystem refuses more; returns it."""
    filler = folder / "filler.bin"
    block = b"\0" * (256 * 1024)
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(block)
        except OSError as e:
            expect(e.errno in (errno.ENOSPC, errno.EFBIG), f"filling the disk failed with {e}")
    # Byte-sized writes take the last blocks too.
    with open(filler, "ab", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


def buy(store, customer: str, product: str = COINS, request_id: Optional[str] = None) -> requests.Response:
    headers = {"X-Request-ID": request_id} if request_id else {}
    return store.post(f"/storekit/v1/apps/{BUNDLE}/purchases", {"productId": product, "customer": customer}, headers=headers)


def failure_lines(store, wanted: List[str], timeout: float = 20) -> Dict[str, List[dict]]:
    """The store's JSON log lines at `error` for a failed request (issue 17: every 5xx is logged
    once, with its context), by request ID. The store writes the line before it answers, but a
    thread of this harness copies the store's output into the log file, so on a busy machine the
    newest lines reach the file a moment later: wait until every `wanted` ID is there, or the
    timeout."""
    deadline = time.monotonic() + timeout
    while True:
        found = read_failure_lines(store)
        if all(request_id in found for request_id in wanted) or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def read_failure_lines(store) -> Dict[str, List[dict]]:
    found: Dict[str, List[dict]] = {}
    for raw in store.log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not raw.startswith("{"):
            continue
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if line.get("message") == "request failed" and "request_id" in line:
            found.setdefault(line["request_id"], []).append(line)
    return found


def run(size: Size):
    with Workspace("disk") as ws:
        mount_point = ws.root / "fs"
        mounted = try_mount(ws, mount_point)
        method = f"a {FS_MB} MB tmpfs" if mounted else "RLIMIT_FSIZE (mount not permitted here)"
        data = mount_point / "data"
        store = ws.server("disk", data_dir=data, extra=["--log-format", "json"])
        if not mounted:
            limit = FS_MB * 1024 * 1024

            def limited():
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            store_popen = subprocess.Popen
            # Start under the limit: the child inherits it.
            subprocess.Popen = lambda *a, **kw: store_popen(*a, preexec_fn=limited, **kw)  # type: ignore
            try:
                store.start()
            finally:
                subprocess.Popen = store_popen  # type: ignore
        else:
            store.start()
        key = create_key(store, ws.root)
        acked: Dict[str, List[str]] = {}
        for i in range(20):
            r = buy(store, f"before-{i}", WEEKLY if i % 2 else COINS)
            expect(r.status_code == 200, f"purchase before the disk filled: {r.status_code} {r.text[:200]}")
            acked.setdefault(f"before-{i}", []).append(r.json()["transaction"]["transactionId"])
        filler = None
        if mounted:
            filler = fill(mount_point)
        else:
            # Grow the database towards the size limit with real purchases until one is refused.
            pass
        refused = 0
        refused_ids: List[str] = []
        statuses: Dict[int, int] = {}
        attempts = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and attempts < 3000:
            attempts += 1
            customer = f"full-{uuid.uuid4().hex[:8]}"
            request_id = f"disk-{uuid.uuid4().hex}"
            r = buy(store, customer, request_id=request_id)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            if r.status_code == 200:
                acked.setdefault(customer, []).append(r.json()["transaction"]["transactionId"])
                continue
            expect(r.status_code == 503, f"a purchase on a full disk answered {r.status_code} {r.text[:300]}, want 503")
            body = r.json()
            expect(isinstance(body.get("error"), str) and body.get("message"), f"the 503 has no clear error: {r.text[:300]}")
            expect(r.headers.get("Retry-After"), "the 503 has no Retry-After")
            expect(r.headers.get("X-Request-ID") == request_id, f"the 503 does not carry its request ID: {r.headers}")
            refused_ids.append(request_id)
            refused += 1
            if refused >= 20:
                break
        expect(refused >= 20, f"the disk never filled up for purchases after {attempts} attempts: {statuses}")
        # Every 5xx is logged once, at error, with its context and its fault (issue 17).
        logged = failure_lines(store, refused_ids)
        for request_id in refused_ids:
            lines = logged.get(request_id, [])
            expect(len(lines) == 1, f"503 {request_id} was logged {len(lines)} times as a failed request: {lines}")
            line = lines[0]
            expect((line.get("level"), str(line.get("status")), line.get("app")) == ("error", "503", BUNDLE),
                   f"the failed request's log line lacks its level, status or app: {line}")
            expect(line.get("route", "").endswith("/purchases") and line.get("error"), f"the failed request's log line names no route or fault: {line}")
        # Reads keep working: the device API, the Server API, health.
        expect(store.healthy(), "/healthz failed on a full disk")
        for customer, ids in list(acked.items())[:40]:
            listed = {t["transactionId"] for t in transactions(store, "default", BUNDLE, customer)}
            expect(set(ids) <= listed, f"{customer}: acknowledged {ids}, listed {sorted(listed)} on a full disk")
        r = requests.get(f"{store.base_url}/inApps/v1/transactions/{acked['before-0'][0]}",
                         headers={"Authorization": f"Bearer {token(key)}"}, timeout=60)
        expect(r.status_code == 200, f"the Server API read on a full disk: {r.status_code} {r.text[:200]}")
        # Space returns: writes work again by themselves, no restart.
        if filler is not None:
            filler.unlink()
        recovered = None
        for _ in range(100):
            r = buy(store, f"after-{uuid.uuid4().hex[:8]}")
            if r.status_code == 200:
                recovered = r
                break
            time.sleep(0.1)
        expect(recovered is not None, "purchases did not work again after space returned")
        acked.setdefault(f"after", []).append(recovered.json()["transaction"]["transactionId"])
        after_customer = recovered.json()["transaction"].get("appAccountToken")
        store.stop()
        store.start()
        for customer, ids in acked.items():
            if customer == "after":
                continue
            listed = {t["transactionId"] for t in transactions(store, "default", BUNDLE, customer)}
            expect(set(ids) <= listed, f"{customer}: acknowledged {ids}, listed after restart {sorted(listed)}")
        store.stop()
        total = sum(len(v) for v in acked.values())
        yield (f"disk-full: store on {method}, filled; {refused} purchases refused with 503 + Retry-After, reads and the Server API "
               f"answered 200 meanwhile, each 503 logged once at error with app, route and fault; writes resumed by themselves "
               f"when space returned; {total} acknowledged purchases, "
               "lost 0 — promise: a full disk stops writes cleanly and loses nothing acknowledged")

        # A read-only data folder at start.
        if mounted:
            done = subprocess.run(["mount", "-o", "remount,ro", str(mount_point)], capture_output=True)
            expect(done.returncode == 0, f"remounting read-only: {done.stderr.decode()}")
            how = "a read-only remount of the tmpfs"
        else:
            os.chmod(data, 0o555)
            how = "chmod 555 (mount not permitted)"
        ro = ws.server("readonly", data_dir=data)
        try:
            ro.start(attempts=1)
            started = True
        except RuntimeError as e:
            started = False
            message = str(e)
        if started:
            # Serving reads from a read-only store is acceptable only if writes then fail clearly.
            r = buy(ro, "ro-customer")
            ro.stop()
            expect(r.status_code == 503, f"a store started on a read-only folder answered a purchase {r.status_code} {r.text[:200]}")
            outcome = "started read-only and refused writes with 503"
        else:
            expect("exited with" in message, f"the store on a read-only folder did not exit: {message[-400:]}")
            code = int(message.split("exited with ")[1].split(":")[0])
            expect(code > 0, f"the store on a read-only folder died by signal {-code}: {message[-600:]}")
            expect("read-only" in message.lower() or "readonly" in message.lower() or "permission" in message.lower()
                   or "not writable" in message.lower(), f"the store's error does not say the folder is read-only: {message[-600:]}")
            expect("Fatal error" not in message, f"the store crashed on a read-only folder: {message[-600:]}")
            outcome = f"exited {code} with a message naming the read-only folder"
        yield (f"read-only-start: data folder made read-only by {how}; the store {outcome}, 0 crashes "
               "— promise: a store that cannot write says so at start")
