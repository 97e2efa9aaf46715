"""Idle means idle (issue 27): a store and a subscription backend that nobody calls use at most 1 %
of a CPU core, whatever happened before.

Every process's CPU time is read from /proc/PID/stat (user + system ticks of all its threads) over
the same window, so the processes are measured side by side. The situations:

- `openstore serve` with no arguments (the demo apps and the backend beside them), right after it
  started (once its first 5 s of start-up work are done), and again after purchases and a time
  advance across renewals;
- `openstore serve` with a world at the fastest clock (`oneSecondIsOneDay`) and one at the fastest
  renewal rate (`oneRenewalEveryTwoSeconds`), with no subscription due;
- `openstore backend` alone, sending webhooks to a receiver, right after start and after
  deliveries (its store beside it, measured too);
- on PostgreSQL (when the run has a cluster: OPENSTORE_TEST_POSTGRES_URL), two instances sharing
  one database, each holding the lease of a world.

The fault this guards against (a webhook loop that never slept again after its first early wake-up)
used a whole core; a handful of ticks is what an idle process costs here.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Callable, Dict, List

import requests

from harness import Size, Workspace, expect
from openstore_process import free_port, openstore_bin, store_environment

import sys
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "compat"))
from openstore_harness import CatalogApp, ServerProcess, StoreClient, create_key  # noqa: E402
from serve_process import Started  # noqa: E402
from test_backend_support import BackendProcess, WebhookReceiver, backend_args, set_notification_url, wait_until  # noqa: E402

LIMIT = 0.01  # of one core
START_UP_SECONDS = 5
TICKS = os.sysconf("SC_CLK_TCK")
COMPAT_CATALOG = Path(__file__).resolve().parent.parent / "compat" / "fixtures" / "compat.storekit"
BIRDS = "com.example.backyardbirds"
BIRDS_PASS = "com.example.backyardbirds.pass.individual"
BIRDS_SEEDS = "com.example.backyardbirds.sunflowerseeds"
APPLE_ID = 1_700_027_027
MONTHLY = "compat.plus.monthly"


def cpu_seconds(pid: int) -> float:
    """User + system CPU of every thread of `pid`, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15)


def measure(pids: Dict[str, int], seconds: float) -> Dict[str, float]:
    """The share of one core each process used over the same `seconds`."""
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    return {name: (cpu_seconds(pid) - before[name]) / elapsed for name, pid in pids.items()}


def verdict(situation: str, shares: Dict[str, float], seconds: float) -> str:
    over = {name: share for name, share in shares.items() if share > LIMIT}
    figures = ", ".join(f"{name} {share * 100:.2f} %" for name, share in shares.items())
    expect(not over, f"idle {situation}: over {LIMIT * 100:.0f} % of a core over {seconds:.0f} s: {figures}")
    return f"idle {situation}: {figures} of a core over {seconds:.0f} s (limit {LIMIT * 100:.0f} %)"


def run(size: Size) -> List[str]:
    window = size.pick(20, 60)
    lines: List[str] = []
    stoppers: List[Callable[[], None]] = []
    receiver = WebhookReceiver()
    stoppers.append(receiver.stop)
    try:
        with Workspace("idle") as ws:
            # 1. `openstore serve`, as the README starts it: no arguments, in an empty folder.
            demo_folder = ws.path("demo", "home")
            demo_folder.mkdir(parents=True, exist_ok=True)
            demo = Started([], {"OPENSTORE_PORT": str(free_port()), "HOME": str(demo_folder)}, cwd=demo_folder)
            stoppers.append(demo.stop)
            wait_until(lambda: any("Subscription backend listening" in line for line in demo.stdout), timeout=60,
                       what="the demo backend to listen")

            # 2. A store with the fastest worlds and nothing due.
            fast = Started(["--port", "0", "--backend-port", "0"], {"HOME": str(demo_folder)}, cwd=ws.path("fast", "x").parent)
            stoppers.append(fast.stop)
            for world, rate in (("fastclock", "oneSecondIsOneDay"), ("fastrenewals", "oneRenewalEveryTwoSeconds")):
                r = requests.post(f"{fast.url}/admin/v1/worlds", json={"id": world, "rate": rate}, timeout=60)
                expect(r.status_code in (200, 201), f"world {world}: {r.status_code} {r.text}")

            # 3. `openstore backend` alone, its store, and a webhook receiver.
            bundle = "com.example.idle"
            rig_store = ServerProcess(openstore_bin(), data_dir=ws.path("rig", "store"), log_path=ws.path("rig", "store.log"),
                                      apps=[CatalogApp(COMPAT_CATALOG, bundle, app_apple_id=APPLE_ID, environment="Sandbox")])
            rig_store.start()
            stoppers.append(rig_store.stop)
            key = create_key(rig_store, ws.path("rig", "keys", "x").parent, bundle)
            backend = BackendProcess(openstore_bin(), ws.path("rig", "backend", "x").parent,
                                     backend_args(rig_store, bundle, key, receiver.url, APPLE_ID))
            backend.start()
            stoppers.append(backend.stop)
            set_notification_url(rig_store, bundle, f"{backend.base_url}/apple/notifications/{bundle}")

            pids = {"serve": demo.proc.pid, "serve (fast worlds)": fast.proc.pid,
                    "backend": backend.proc.pid, "backend's store": rig_store.proc.pid}

            # 4. Two instances on PostgreSQL, each holding a world's lease.
            instances = postgres_pair(ws, stoppers)
            pids.update(instances)
            note = "" if instances else " (PostgreSQL pair not measured: no cluster, OPENSTORE_IDLE_POSTGRES_URL unset)"
            # The first seconds are start-up work, not idling: each backend's first reconcile through
            # the store's Server API, the instances' first lease claims.
            time.sleep(START_UP_SECONDS)

            lines.append(verdict("right after start", measure(pids, window), window) + note)

            # Work, then idle again: purchases, renewals across a time advance, webhooks delivered.
            for i in range(3):
                cli(demo_folder, "purchase", BIRDS_PASS, "--customer", f"idle-{i}", "--server", demo.url)
                cli(demo_folder, "purchase", BIRDS_SEEDS, "--customer", f"idle-{i}", "--server", demo.url)
            cli(demo_folder, "time", "advance", "2M", "--server", demo.url)
            client = StoreClient(rig_store.base_url, rig_store)
            for i in range(3):
                client.buy(bundle, MONTHLY, f"idle-{i}", appAccountToken=f"00000000-0000-4000-8000-00000000000{i}")
            rig_store.run_cli("time", "advance", "2M", "--server", rig_store.base_url)
            wait_until(lambda: len(receiver.accepted()) >= 9, timeout=60, what="webhooks for 3 purchases and their renewals")
            wait_until(lambda: backend.get("/v1/admin/deliveries").json()["outbox"].get("pending", 0) == 0, timeout=60,
                       what="every webhook delivered")
            time.sleep(1)  # the last answers written
            lines.append(verdict(f"after purchases, 2 months of renewals and {len(receiver.accepted())} webhooks",
                                 measure(pids, window), window))
    finally:
        for stop in reversed(stoppers):
            try:
                stop()
            except Exception:
                pass
    return lines


def cli(cwd: Path, *args: str) -> None:
    done = subprocess.run([str(openstore_bin()), *args], cwd=str(cwd), capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    expect(done.returncode == 0, f"openstore {' '.join(args)}: {done.stderr}{done.stdout}")


def postgres_pair(ws: Workspace, stoppers: List[Callable[[], None]]) -> Dict[str, int]:
    """Two `serve` instances on one PostgreSQL database (OPENSTORE_IDLE_POSTGRES_URL, set by the test
    command), each owning a world; none without a cluster."""
    url = os.environ.get("OPENSTORE_IDLE_POSTGRES_URL")
    if not url:
        return {}
    saved = os.environ.get("OPENSTORE_TEST_POSTGRES_URL")
    os.environ["OPENSTORE_TEST_POSTGRES_URL"] = url  # store_environment makes the database from it
    try:
        env = store_environment(ws.path("pg", "shared", "x").parent)
    finally:
        if saved is None:
            del os.environ["OPENSTORE_TEST_POSTGRES_URL"]
        else:
            os.environ["OPENSTORE_TEST_POSTGRES_URL"] = saved
    pids: Dict[str, int] = {}
    for name in ("a", "b"):
        port = free_port()
        folder = ws.path("pg", name, "x").parent
        proc = subprocess.Popen(
            [str(openstore_bin()), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(folder),
             "--backend-port", "0"],  # the default lease (10 s): a heartbeat every 3.3 s
            env=env, stdin=subprocess.DEVNULL, stdout=open(folder / "serve.log", "a"), stderr=subprocess.STDOUT)
        stoppers.append(lambda proc=proc: (proc.terminate(), proc.wait(timeout=20)))
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: ready(url), timeout=60, what=f"instance {name} to be ready")
        r = requests.post(f"{url}/admin/v1/worlds", json={"id": f"idle-{name}"}, timeout=60)
        expect(r.status_code in (200, 201), f"world on instance {name}: {r.status_code} {r.text}")
        pids[f"postgres instance {name}"] = proc.pid
    return pids


def ready(url: str) -> bool:
    try:
        return requests.get(url + "/readyz", timeout=2).status_code == 200
    except requests.RequestException:
        return False
