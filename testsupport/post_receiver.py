"""A real HTTP endpoint on loopback for what the store and the backend send out (notifications,
webhooks), shared by the compat and browser suites: it records each POST and answers it.

Subclasses keep what they need of each POST by overriding `record` (called under the
receiver's lock, in the order the POSTs arrived), and may answer by the request (`answer`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Dict, List


class _Server(ThreadingHTTPServer):
    # The store opens many connections at once; the default listen backlog of 5 drops the rest,
    # which a delivery then reports as a timeout that the store did not cause.
    request_queue_size = 128
    daemon_threads = True


@dataclass
class Post:
    body: bytes
    headers: Dict[str, str]
    answered: int


class PostReceiver:
    """Listens on `port` (0: a free one) of 127.0.0.1; answers every POST with `status()`, which a
    test may replace; `url` is the endpoint at `path`."""

    def __init__(self, path: str = "/notifications", port: int = 0, status: int = 200):
        self.posts: List[Post] = []
        self.status: Callable[[], int] = lambda: status
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                code = outer.answer(self.path, body, dict(self.headers))
                with outer._lock:
                    outer.record(Post(body, dict(self.headers), code))
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = _Server(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}{path}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, path: str, body: bytes, headers: Dict[str, str]) -> int:
        """The status for one POST (outside the lock): `status()` unless a subclass decides by
        the request, as a forwarding balancer does."""
        return self.status()

    def record(self, post: Post) -> None:
        self.posts.append(post)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
