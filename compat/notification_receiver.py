"""A real HTTP receiver for App Store Server Notifications, run by the compatibility tests on
loopback: it records each POST body and answers 200. `Blackhole` accepts connections and never
answers, to keep deliveries in flight (the crash test kills the store while they are)."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import List, Optional

from post_receiver import Post, PostReceiver  # testsupport/, on the path via openstore_harness


class Receiver(PostReceiver):
    def __init__(self, port: int = 0):
        self.bodies: List[dict] = []
        self.headers: List[dict] = []
        super().__init__("/notifications", port=port)

    def record(self, post: Post) -> None:
        self.bodies.append(json.loads(post.body))
        self.headers.append(post.headers)

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
