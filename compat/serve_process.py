"""`openstore serve` started with exactly the arguments and environment a test gives (no flags
added, no inherited OPENSTORE_* variables), its standard output and error kept apart: the
configuration and observability tests read the start line from one and the logs from the other."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from pathlib import Path
from typing import Dict, List, Optional

import run_log
from openstore_process import START_TIMEOUT, openstore_bin

LISTENING = re.compile(r"listening on (http://[^\s/]+:\d+)\s+\(data: ([^)]*)\)")


def clean_environment(env: Dict[str, str]) -> Dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OPENSTORE_")}
    clean.update(env)
    return clean


class Started:
    """A running `openstore serve`; `url` and `data` come from its start line."""

    def __init__(self, args: List[str], env: Dict[str, str], cwd: Path, binary: Optional[Path] = None):
        run_log.record_launch(args, env)
        self.proc = subprocess.Popen([str(binary or openstore_bin()), "serve", *args], cwd=str(cwd),
                                     env=clean_environment(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace", bufsize=1)
        self.stdout: List[str] = []
        self.stderr: List[str] = []
        self.url: Optional[str] = None
        self.data: Optional[str] = None
        ready = threading.Event()

        def pump_out():
            for line in self.proc.stdout:
                self.stdout.append(line)
                run_log.record_output(line)
                m = LISTENING.search(line)
                if m and not ready.is_set():
                    self.url, self.data = m.group(1), m.group(2)
                    ready.set()
            ready.set()

        def pump_err():
            for line in self.proc.stderr:
                self.stderr.append(line)
                run_log.record_output(line)

        self._threads = [threading.Thread(target=pump_out, daemon=True), threading.Thread(target=pump_err, daemon=True)]
        for t in self._threads:
            t.start()
        ready.wait(START_TIMEOUT)
        if not self.url:
            self.stop()
            raise AssertionError(f"serve {args} did not start:\n{''.join(self.stdout + self.stderr)}")

    def stop(self) -> None:
        """SIGTERM, then waits for the output to be read to its end."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for t in self._threads:
            t.join(timeout=5)


def refused(args: List[str], env: Dict[str, str], cwd: Path) -> str:
    """Runs `serve` expecting it to refuse to start; returns what it printed."""
    done = subprocess.run([str(openstore_bin()), "serve", *args], cwd=str(cwd), env=clean_environment(env),
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode != 0, f"serve {args} {env} started but should have refused:\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr
