"""A real HTTP receiver for App Store Server Notifications, run by the compatibility tests on
loopback: it records each POST body and answers 200. `Blackhole` accepts connections and never
answers, to keep deliveries in flight (the crash test kills the store while they are)."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List, Optional


class _Server(ThreadingHTTPServer):
    # The store opens many connections at once; the default listen backlog of 5 drops the rest,
    # which a delivery then reports as a timeout that the store did not cause.
    request_queue_size = 128


class Receiver:
    def __init__(self, port: int = 0):
        self.bodies: List[dict] = []
        self.headers: List[dict] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with outer._lock:
                    outer.bodies.append(json.loads(body))
                    outer.headers.append(dict(self.headers))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = _Server(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/notifications"

    def signed_payloads(self) -> List[str]:
        with self._lock:
            return [b["signedPayload"] for b in self.bodies]

    def wait_for(self, count: int, timeout: float = 20) -> List[str]:
        """The signed payloads once `count` have arrived; a test failure if they don't within
        `timeout` seconds (a bound on a hang, not a speed assertion)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.signed_payloads()
            if len(got) >= count:
                return got
            time.sleep(0.05)
        got = self.signed_payloads()
        if len(got) >= count:
            return got
        raise AssertionError(f"expected {count} notification(s) within {timeout} s, received {len(got)}")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Blackhole:
    """Accepts connections on a port and never answers."""

    def __init__(self, port: int = 0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._conns: List[socket.socket] = []
        self._stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        self.sock.settimeout(0.1)
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
                self._conns.append(conn)
                self.accepted += 1
            except OSError:
                continue

    def stop(self) -> None:
        self._stop = True
        self.thread.join()
        for conn in self._conns:
            conn.close()
        self.sock.close()
