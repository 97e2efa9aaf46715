"""Starting and stopping a live `openstore serve` for the Python suites (compat/ and browser/).

Plain subprocess + requests, so both suites' venvs can import it: each adds this folder to
sys.path. The suites subclass `OpenStoreProcess` with what they ask of the server.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import List, Optional, Sequence

import requests

import run_log

REPO_ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = float(os.environ.get("OPENSTORE_START_TIMEOUT", "60"))
LISTENING = re.compile(r"listening on (http://[^\s/]+:\d+)")


def openstore_bin() -> Path:
    """The binary under test: $OPENSTORE_BIN, else .build/debug/openstore in the repository."""
    raw = os.environ.get("OPENSTORE_BIN")
    path = Path(raw) if raw else REPO_ROOT / ".build" / "debug" / "openstore"
    if not path.is_absolute():
        path = (REPO_ROOT / path).resolve()
    return path


def end_process(proc: Optional[subprocess.Popen], kill: bool = False) -> bool:
    """Ends `proc` if it still runs: SIGTERM, then SIGKILL after 10 s; with `kill`, SIGKILL at once
    (as a crash or power cut would). Returns whether it was running."""
    if proc is None or proc.poll() is not None:
        return False
    if kill:
        proc.kill()
    else:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait(timeout=10)
    return True


def store_environment(data_dir: Path) -> dict:
    """The environment for `openstore` commands on the store in `data_dir`.

    With OPENSTORE_TEST_POSTGRES_URL set (scripts/test.sh's PostgreSQL stage), each store (one
    --data folder) gets a database of its own on that server, created on first use and found
    again on restart, passed as OPENSTORE_DATABASE_URL to the server and to the CLI beside it.
    """
    env = dict(os.environ)
    base = os.environ.get("OPENSTORE_TEST_POSTGRES_URL")
    if not base:
        return env
    import hashlib
    name = "store_" + hashlib.sha1(str(data_dir.resolve()).encode()).hexdigest()[:20]
    psql = os.path.join(os.environ.get("OPENSTORE_PG_BIN", ""), "psql") if os.environ.get("OPENSTORE_PG_BIN") else "psql"
    exists = subprocess.run([psql, base, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
                            capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    if exists != "1":
        subprocess.run([psql, base, "-qc", f"CREATE DATABASE {name}"], capture_output=True, text=True, timeout=60, check=True)
    env["OPENSTORE_DATABASE_URL"] = base.rsplit("/", 1)[0] + "/" + name
    return env


def store_rows(data_dir: Path, sql: str) -> List[tuple]:
    """The rows of a read-only query on the store in `data_dir`, on whichever database holds it
    (its SQLite file, or its PostgreSQL database; integers come back as int from both)."""
    url = store_environment(data_dir).get("OPENSTORE_DATABASE_URL", "")
    if url.startswith("postgres"):
        psql = os.path.join(os.environ["OPENSTORE_PG_BIN"], "psql") if os.environ.get("OPENSTORE_PG_BIN") else "psql"
        out = subprocess.run([psql, url, "-tAX", "-F", "\x1f", "-c", sql], capture_output=True, text=True, timeout=60,
                             check=True).stdout
        return [tuple(int(v) if v.lstrip("-").isdigit() else v for v in line.split("\x1f")) for line in out.splitlines() if line]
    import sqlite3
    db = sqlite3.connect(f"file:{data_dir / 'store.sqlite'}?mode=ro", uri=True)
    try:
        return list(db.execute(sql))
    finally:
        db.close()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OpenStoreProcess:
    """A running `openstore serve` on a free loopback port with its own fresh --data directory."""

    def __init__(self, binary: Path, data_dir: Path, log_path: Path, extra_args: Sequence[str] = ()):
        self.binary = binary
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_args = list(extra_args)
        self.proc: Optional[subprocess.Popen] = None
        self.base_url: Optional[str] = None
        self._lines: List[str] = []
        self._listening = threading.Event()
        self._reader: Optional[threading.Thread] = None
        # Wall time (time.monotonic) just before the process was spawned, and seconds from then
        # until its `listening on` line arrived: the start-up time a user waits for.
        self.spawned_at: Optional[float] = None
        self.listening_after: Optional[float] = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self, attempts: int = 3) -> "OpenStoreProcess":
        last_error = ""
        for _ in range(attempts):
            port = free_port()
            try:
                self._start_once(port)
                return self
            except _PortInUse as e:  # someone took the port between probe and bind: try another
                last_error = str(e)
                self.stop()
        raise RuntimeError(f"openstore serve did not start: {last_error}")

    def _start_once(self, port: int) -> None:
        if not self.binary.exists():
            raise FileNotFoundError(
                f"openstore binary not found at {self.binary}; run `swift build` or set OPENSTORE_BIN")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cmd = [str(self.binary), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(self.data_dir)]
        cmd += self.extra_args
        # `serve` starts the subscription backend beside the demo apps on the next port; the
        # suites test the store alone unless a test asks for the backend (compat/test_backend_serve.py).
        if "--backend" not in self.extra_args and "--no-backend" not in self.extra_args:
            cmd.append("--no-backend")
        self._lines = []
        self._listening.clear()
        self.base_url = None
        self.listening_after = None
        log = open(self.log_path, "a", encoding="utf-8")
        log.write(f"$ {' '.join(cmd)}\n")
        log.flush()
        self.spawned_at = time.monotonic()
        env = store_environment(self.data_dir)
        run_log.record_launch(cmd, env)
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            cwd=str(REPO_ROOT), text=True, encoding="utf-8", errors="replace", bufsize=1,
            env=env,
        )
        self._reader = threading.Thread(target=self._pump, args=(self.proc, log), daemon=True)
        self._reader.start()

        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._reader.join(timeout=2)
                tail = self.log_tail()
                if "address already in use" in tail.lower() or "eaddrinuse" in tail.lower():
                    raise _PortInUse(tail)
                raise RuntimeError(f"openstore serve exited with {self.proc.returncode}:\n{tail}")
            if self._listening.wait(timeout=0.1):
                break
        else:
            raise RuntimeError(f"openstore serve printed no 'listening on' within {START_TIMEOUT}s:\n{self.log_tail()}")

        # The printed URL is authoritative; fall back to the port we asked for.
        if self.base_url is None:
            self.base_url = f"http://127.0.0.1:{port}"
        while time.monotonic() < deadline:
            try:
                r = requests.get(self.base_url + "/healthz", timeout=2)
                if r.status_code == 200:
                    return
            except requests.RequestException:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"openstore serve exited with {self.proc.returncode}:\n{self.log_tail()}")
            time.sleep(0.1)
        raise RuntimeError(f"/healthz never answered 200 within {START_TIMEOUT}s:\n{self.log_tail()}")

    def _pump(self, proc: subprocess.Popen, log) -> None:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                arrived = time.monotonic()
                self._lines.append(line)
                run_log.record_output(line)
                log.write(line)
                log.flush()
                m = LISTENING.search(line)
                if m and not self._listening.is_set():
                    if self.spawned_at is not None:
                        self.listening_after = arrived - self.spawned_at
                    self.base_url = m.group(1).replace("0.0.0.0", "127.0.0.1")
                    self._listening.set()
        finally:
            log.close()

    def stop(self) -> None:
        self._end(kill=False)

    def kill(self) -> None:
        """SIGKILL, as a crash or power cut would: no shutdown code runs."""
        self._end(kill=True)

    def _end(self, kill: bool) -> None:
        proc, self.proc = self.proc, None
        if end_process(proc, kill=kill) and self._reader is not None:
            self._reader.join(timeout=5)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        return "".join(self._lines[-lines:])


class _PortInUse(RuntimeError):
    pass
