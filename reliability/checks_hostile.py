"""Hostile input: huge and deep bodies, broken encodings, absurd numbers, path tricks, files that
are not files, and clients that send one byte a second. Every answer must be a clear 4xx (or a
clear CLI error), never a 5xx, a crash or a hang; the store keeps serving throughout."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import uuid
from typing import Dict, List, Tuple

import requests

from harness import (
    BUNDLE, COINS, LIFETIME, Answer, Size, Workspace, create_key, expect, gather_all, http, run_async, token,
)

MB = 1024 * 1024
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def run(size: Size):
    with Workspace("hostile") as ws:
        store = ws.server().start()
        key = create_key(store, ws.root)
        yield huge_bodies(store, key)
        yield deep_and_broken(store, key)
        yield absurd_values(store, key)
        yield path_tricks(store)
        yield cli_files(store, ws)
        yield slow_clients(store, size)
        expect(store.healthy(), "the store stopped answering /healthz after the hostile inputs")
        store.stop()


def answer_before_whole(port: int, path: str, headers: Dict[str, str], declared: int, sent: int, chunked: bool = False,
                        wait: float = 20) -> Tuple[int, int]:
    """Announce a body of `declared` bytes, send `sent` of them, then stop and wait for an answer.
    Returns (status, bytes sent). A server that waits for the whole body answers nothing."""
    sock = socket.create_connection(("127.0.0.1", port))
    try:
        head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {declared}")
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        chunk = b"[" + b"1," * (MB // 2 - 1) + b"1"
        done = 0
        sock.settimeout(wait)
        try:
            while done < sent:
                piece = chunk[: min(len(chunk), sent - done)]
                sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece)
                done += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed while we were still sending: fine
        received = b""
        try:
            while b"\r\n\r\n" not in received:
                more = sock.recv(65536)
                if not more:
                    break
                received += more
        except socket.timeout:
            return 0, done
        except ConnectionResetError:
            pass
        if not received.startswith(b"HTTP/1.1 "):
            return -1, done
        return int(received.split(b" ")[1]), done
    finally:
        sock.close()


def huge_bodies(store, key) -> str:
    auth = {"Authorization": f"Bearer {token(key)}"}
    targets = [
        ("device purchase", f"/storekit/v1/apps/{BUNDLE}/purchases", {}, (413,)),
        ("admin advance", "/admin/v1/worlds/default/time/advance", {}, (413,)),
        ("admin offer codes", f"/admin/v1/worlds/default/apps/{BUNDLE}/offer-codes", {}, (413,)),
        ("store page form", "/store/backyardbirds/actions", {}, (413, 404)),
        ("dashboard form", "/manage/actions", {}, (413,)),
        # Apple's Server API answers a body it will not read with its JSON error (400, GENERAL_BAD_REQUEST).
        ("Server API notification history", "/inApps/v1/notifications/history", auth, (400, 413)),
    ]
    rss_before = store.rss_kb()
    tried = 0
    for name, path, headers, allowed in targets:
        status, sent = answer_before_whole(store.port, path, headers, declared=100 * MB, sent=2 * MB)
        expect(status in allowed, f"{name}: a body announced as 100 MB (2 MB sent, then silence) got "
                                  f"{'no answer within 20 s' if status == 0 else status}, want {allowed[0]} at once")
        tried += 1
        status, sent = answer_before_whole(store.port, path, headers, declared=0, sent=100 * MB, chunked=True)
        expect(status in allowed, f"{name}: a chunked 100 MB body got {status or 'no answer'}, want {allowed[0]}")
        expect(sent < 100 * MB or status in allowed, f"{name}: the store read all 100 MB")
        tried += 1
    grown = (store.rss_kb() - rss_before) / 1024
    expect(grown < 200, f"the store's memory grew {grown:.0f} MB while refusing 100 MB bodies: it kept them")
    expect(store.healthy(), "the store stopped answering after the 100 MB bodies")
    return (f"huge-bodies: {tried} bodies of 100 MB (declared or chunked) to device, admin, form and Server API routes; "
            f"{tried}× refused with 413 (Server API: 400 as Apple) before the body was read whole, RSS grew {grown:.0f} MB, "
            "0× 5xx — promise: a client cannot make the store read or hold an unbounded body")


def expect_clear(answer, what: str, allowed=range(400, 500)) -> int:
    expect(isinstance(answer, Answer), f"{what}: the connection failed instead of answering: {answer!r}")
    expect(answer.status in allowed, f"{what}: {answer.status} {answer.body[:200]!r}, want 4xx")
    if answer.headers.get("content-type", "").startswith("application/json") and answer.body:
        try:
            json.loads(answer.body)
        except ValueError:
            raise AssertionError(f"{what}: the error body is not JSON: {answer.body[:200]!r}")
    return answer.status


def deep_and_broken(store, key) -> str:
    auth = {"Authorization": f"Bearer {token(key)}"}
    purchase = f"/storekit/v1/apps/{BUNDLE}/purchases"
    bodies: List[Tuple[str, bytes]] = [
        ("arrays nested 10,000 deep", b"[" * 10_000 + b"]" * 10_000),
        ("objects nested 10,000 deep", b'{"a":' * 10_000 + b"1" + b"}" * 10_000),
        ("nested 10,000 deep inside a field", b'{"productId":"rel.coins","customer":"x","extra":' + b"[" * 10_000 + b"]" * 10_000 + b"}"),
        ("invalid UTF-8 in a string", b'{"productId":"rel.coins","customer":"\xff\xfe\xc3"}'),
        ("an overlong UTF-8 NUL", b'{"productId":"rel.coins","customer":"a\xc0\x80b"}'),
        ("a lone surrogate escape", b'{"productId":"rel.coins","customer":"\\ud800"}'),
        ("a NUL byte in the customer", b'{"productId":"rel.coins","customer":"a\\u0000b"}'),
        ("a NUL byte in the product", b'{"productId":"rel.coins\\u0000","customer":"nul-product"}'),
        ("a raw NUL in the body", b'{"productId":"rel.coins","customer":"a\x00b"}'),
        ("truncated JSON", b'{"productId":"rel.coins","customer":'),
        ("not JSON", b"productId=rel.coins&customer=x"),
        ("a JSON string", b'"hello"'),
        ("duplicate keys", b'{"productId":"rel.coins","productId":"rel.lifetime","customer":"dupe"}'),
        ("a 64 KB customer ID", json.dumps({"productId": COINS, "customer": "c" * 60_000}).encode()),
    ]
    answers = run_async(gather_all(http(store.port, "POST", purchase, body) for _, body in bodies))
    tried = 0
    for (name, _), answer in zip(bodies, answers):
        if name == "duplicate keys" and isinstance(answer, Answer) and answer.status == 200:
            tried += 1  # JSON leaves duplicate keys to the reader; taking one of them is not a fault
            continue
        expect_clear(answer, f"purchase with {name}")
        tried += 1
    # The same shapes where the admin API and the Server API read JSON.
    for path, headers in [("/admin/v1/worlds/default/time/advance", {}), ("/admin/v1/worlds", {}),
                          ("/inApps/v1/notifications/history", auth)]:
        for name, body in bodies[:5]:
            answer = run_async(http(store.port, "POST", path, body, headers=headers))
            expect_clear(answer, f"{path} with {name}")
            tried += 1
    # IDs in paths: NUL, invalid UTF-8, 64 KB, traversal-looking names.
    weird = ["a%00b", "%FF%FE", "%C0%80", "c" * 65_536, "x%0D%0AInjected:%20yes", "..%2F..%2Fetc%2Fpasswd", "%2E%2E"]
    for segment in weird:
        # A name that merely looks like a path is still a name: 200 (an empty customer) or 4xx, never a file.
        names_ok = segment.startswith("..") or segment.startswith("%2E")
        for path in (f"/storekit/v1/customers/{segment}", f"/storekit/v1/apps/{BUNDLE}/customers/{segment}/transactions",
                     f"/storekit/v1/apps/{segment}/products", f"/inApps/v1/transactions/{segment}"):
            answer = run_async(http(store.port, "GET", path, headers=auth if path.startswith("/inApps") else None))
            allowed = list(range(400, 500)) + ([200] if names_ok else [])
            status = expect_clear(answer, f"GET {path[:80]}", allowed)
            expect("injected" not in {k.lower() for k in answer.headers}, f"GET {path[:80]}: a header was injected")
            expect(b"root:x:0:0" not in answer.body, f"GET {path[:80]} served a file")
            tried += 1
    # Raw invalid UTF-8 bytes in the request line.
    answer = run_async(http(store.port, "GET", "/storekit/v1/customers/\xff\xfe"))
    expect(isinstance(answer, Answer) and 400 <= answer.status < 500, f"raw invalid UTF-8 in the path: {answer!r}")
    tried += 1
    expect(store.healthy(), "the store stopped answering after deep and broken bodies")
    return (f"deep-and-broken: {tried} requests with JSON nested 10,000 deep, invalid UTF-8, NUL bytes, 64 KB IDs, "
            "truncated or non-JSON bodies and hostile path segments; each a clear 4xx with a JSON error, 0× 5xx, 0 crashes "
            "— promise: malformed input is refused with a reason, never a crash")


def absurd_values(store, key) -> str:
    auth = {"Authorization": f"Bearer {token(key)}"}
    bought = store.post(f"/storekit/v1/apps/{BUNDLE}/purchases", {"productId": COINS, "customer": "absurd"})
    expect(bought.status_code == 200, f"purchase: {bought.status_code}")
    tid = bought.json()["transaction"]["transactionId"]
    purchase = f"/storekit/v1/apps/{BUNDLE}/purchases"
    quantities = [-1, 0, 11, 2**31, INT64_MAX, INT64_MIN, 2**64, -(2**64), 1e308, 3.5, "3", True, [], {}]  # null means "absent" (1): not listed
    requests_: List[Tuple[str, str, str, object, Dict[str, str]]] = []
    for q in quantities:
        requests_.append((f"quantity {q!r}", "POST", purchase, {"productId": COINS, "customer": "absurd", "quantity": q}, {}))
    for value in (INT64_MAX, INT64_MIN, 2**64, -1, "1e400", 1e308):
        requests_.append((f"advance by {value!r}", "POST", "/admin/v1/worlds/default/time/advance", {"duration": value}, {}))
        requests_.append((f"offer codes expiring {value!r}", "POST", f"/admin/v1/worlds/default/apps/{BUNDLE}/offer-codes",
                          {"offer": "FREEMONTH", "count": 1, "expiresAt": value}, {}))
        requests_.append((f"notification history from {value!r}", "POST", "/inApps/v1/notifications/history",
                          {"startDate": value, "endDate": value}, auth))
    for value in (INT64_MAX, INT64_MIN, "99999999999999999999", "-1"):
        requests_.append((f"history startDate {value}", "GET", f"/inApps/v2/history/{tid}?startDate={value}&endDate={value}", None, auth))
    for count in (0, -5, 10_001, INT64_MAX):
        requests_.append((f"offer code count {count}", "POST", f"/admin/v1/worlds/default/apps/{BUNDLE}/offer-codes",
                          {"offer": "FREEMONTH", "count": count}, {}))
    answers = run_async(gather_all(http(store.port, m, p, b if b is not None else None, headers=h) for _, m, p, b, h in requests_))
    tried = 0
    for (name, method, path, body, _), answer in zip(requests_, answers):
        # A date inside Int64 is a date, however far: a code expiring in the year 292,277,026 or a
        # history range that matches nothing may be accepted. Beyond Int64 must be refused.
        in_range = any(repr(v) in name for v in (INT64_MAX, INT64_MIN, -1)) and "advance" not in name and "count" not in name
        if (name.startswith("notification history") or (in_range and "offer codes" in name)) \
                and isinstance(answer, Answer) and answer.status in (200, 201):
            tried += 1
            continue
        expect_clear(answer, f"{name} ({method} {path[:60]})")
        tried += 1
    expect(store.healthy(), "the store stopped answering after absurd values")
    return (f"absurd-values: {tried} requests with quantities and dates at ±Int64, beyond Int64, negative, fractional, "
            "of the wrong type; each a clear 4xx, 0× 5xx — promise: numbers out of range are refused, never wrapped")


def path_tricks(store) -> str:
    paths = ["/store/..%2F..%2Fetc%2Fpasswd", "/store/../../etc/passwd", "/%2E%2E/%2E%2E/etc/passwd", "/manage/..%2F..%2Fstore.sqlite",
             "/store/backyardbirds/..%2F..%2F..%2Fetc%2Fpasswd", "/storekit/v1/apps/..%2F..%2F/products", "/openapi.json/..%2F..%2FPackage.swift",
             "/.openstore/store.sqlite", "/store.sqlite", "/data/store.sqlite"]
    tried = 0
    for path in paths:
        answer = run_async(http(store.port, "GET", path))
        expect(isinstance(answer, Answer), f"GET {path}: {answer!r}")
        expect(answer.status in (400, 404, 301, 302, 303, 308), f"GET {path}: {answer.status}, want 404")
        expect(b"root:x:0:0" not in answer.body and b"SQLite format" not in answer.body, f"GET {path} served a file")
        tried += 1
    return (f"path-traversal-http: {tried} requests with ../ and %2F..%2F paths; {tried}× 4xx, 0 files served "
            "— promise: the server serves no file from disk by URL")


def cli_files(store, ws: Workspace) -> str:
    """Every command that takes a file, given paths that are not what it expects."""
    bad_reads = ["../../../../../../etc/passwd", "/etc", "/nonexistent/../../x.storekit", "/dev/zero", "/dev/null",
                 str(ws.root / "missing.storekit"), "-", ""]
    commands: List[List[str]] = []
    for path in bad_reads:
        commands.append(["catalog", "validate", path])
        commands.append(["catalog", "show", path])
        commands.append(["preview", path, "--out", str(ws.path("preview-out"))])
    # Writes go only inside this check's own folder (never a system path: as root, an atomic write
    # replaces whatever file is there, a device node included).
    out_dir = ws.path("outs", "x").parent
    plain_file = ws.path("plain-file")
    plain_file.write_text("not a folder")
    for path in [str(out_dir), str(ws.root / "missing" / "deeper" / "key.p8"), str(plain_file / "key.p8")]:
        commands.append(["keys", "create", "--bundle-id", BUNDLE, "--data", str(store.data_dir), "--out", path])
        commands.append(["keys", "root", "--data", str(store.data_dir), "--der", path])
    for path in [str(plain_file), str(plain_file / "sub")]:
        commands.append(["keys", "root", "--data", path, "--der", str(out_dir / "root.der")])
    tried = 0
    for args in commands:
        try:
            done = store.cli(*args, timeout=30)
        except Exception as e:  # subprocess.TimeoutExpired: a hang
            raise AssertionError(f"`openstore {' '.join(args)}` did not finish within 30 s: {e}")
        text = (done.stderr + done.stdout).decode(errors="replace")
        expect(done.returncode != 0, f"`openstore {' '.join(args)}` succeeded on a bad path:\n{text[-400:]}")
        expect(done.returncode > 0, f"`openstore {' '.join(args)}` died with signal {-done.returncode}:\n{text[-600:]}")
        expect("Fatal error" not in text and "Stack dump" not in text, f"`openstore {' '.join(args)}` crashed:\n{text[-600:]}")
        expect(text.strip() != "", f"`openstore {' '.join(args)}` failed without saying why")
        tried += 1
    return (f"cli-bad-files: {tried} runs of catalog validate/show, preview, keys create/root on traversal paths, folders, "
            "/dev/zero, folders for files, missing folders; each a non-zero exit with a message, 0 crashes, 0 hangs "
            "— promise: a file-taking command fails clearly on a path that is not its file")


def slow_clients(store, size: Size) -> str:
    n_slow = 200
    window = size.pick(8, 30)

    def purchases_per_second(seconds: float) -> Tuple[float, int]:
        session = requests.Session()
        end = time.monotonic() + seconds
        done = 0
        while time.monotonic() < end:
            r = session.post(f"{store.base_url}/storekit/v1/apps/{BUNDLE}/purchases",
                             json={"productId": COINS, "customer": f"speedy-{uuid.uuid4().hex[:6]}"}, timeout=30)
            expect(r.status_code == 200, f"purchase beside slow clients: {r.status_code}")
            done += 1
        return done / seconds, done

    baseline, _ = purchases_per_second(window / 2)
    stop = threading.Event()
    opened = []

    def slowloris() -> None:
        request = (f"POST /storekit/v1/apps/{BUNDLE}/purchases HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n"
                   '{"productId":"rel.coins","customer":"slow"}').encode()
        socks = []
        for _ in range(n_slow):
            s = socket.create_connection(("127.0.0.1", store.port))
            socks.append(s)
        opened.append(len(socks))
        i = 0
        while not stop.is_set() and i < len(request):
            for s in socks:
                try:
                    s.send(request[i:i + 1])
                except OSError:
                    pass
            i += 1
            stop.wait(1.0)
        for s in socks:
            s.close()

    thread = threading.Thread(target=slowloris, daemon=True)
    thread.start()
    while not opened and thread.is_alive():
        time.sleep(0.05)
    beside, count = purchases_per_second(window)
    stop.set()
    thread.join(timeout=10)
    expect(count > 0, "no purchase completed beside 200 slow clients")
    return (f"slow-clients: {n_slow} connections sending 1 byte/s for {window} s; {count} purchases completed beside them "
            f"at {beside:.0f}/s (alone: {baseline:.0f}/s, same run), 0 failed "
            "— promise: slow or stalled clients do not block others")
