"""Helpers for the Transaction Manager (`/manage`, issue 13) browser tests: page URLs, keyboard
input, a notification receiver on loopback, and Chromium's accessibility tree. The server and
browser plumbing is harness.py / conftest.py."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List

from harness import ActionChains, Keys, active, describe_focus, press, tab_until, wait, wait_for  # noqa: F401

# Every page of a world, by path (the world rides along in the query).
PAGES = ["", "world", "customers", "customer", "settings", "notifications", "events", "keys", "charts"]
INTERACTIVE = {"button", "link", "textbox", "searchbox", "combobox", "checkbox", "spinbutton", "radio", "ListBox", "listbox",
               "DisclosureTriangle", "disclosureTriangle"}


def manage_url(server, page: str, **query: Any) -> str:
    return server.url("/manage" + (f"/{page}" if page else ""), **query)


def loaded(driver) -> None:
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def type_text(driver, text: str) -> None:
    """Types into whatever has focus, as a keyboard does."""
    ActionChains(driver).send_keys(text).perform()


def activate(driver, predicate_js: str, max_tabs: int = 200) -> None:
    """Tab to the element where `predicate_js` holds, then Enter."""
    tab_until(driver, predicate_js, max_tabs=max_tabs)
    press(driver, Keys.ENTER)


def foreign(urls: List[str], origin: str) -> List[str]:
    return [u for u in urls if not (u.startswith(origin + "/") or u == origin or u.startswith("data:") or u == "about:blank")]


def ax_nodes(driver) -> List[Dict[str, Any]]:
    driver.execute_cdp_cmd("Accessibility.enable", {})
    out = []
    for node in driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]:
        if node.get("ignored"):
            continue
        out.append({"role": (node.get("role") or {}).get("value"), "name": (node.get("name") or {}).get("value", "")})
    return out


def unnamed_controls(driver) -> List[Dict[str, Any]]:
    """Interactive nodes of the accessibility tree without an accessible name."""
    return [n for n in ax_nodes(driver) if n["role"] in INTERACTIVE and not str(n["name"]).strip()]


class Receiver:
    """An app's notification endpoint on loopback: answers 200 and keeps each body."""

    def __init__(self) -> None:
        bodies: List[Dict[str, Any]] = []
        self.bodies = bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    bodies.append(json.loads(raw))
                except ValueError:
                    bodies.append({"raw": raw.decode("utf-8", "replace")})
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notifications"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
