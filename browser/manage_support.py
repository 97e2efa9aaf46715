"""Helpers for the Transaction Manager (`/manage`, issue 13) browser tests: page URLs, keyboard
input, a notification receiver on loopback, and Chromium's accessibility tree. The server and
browser plumbing is harness.py / conftest.py."""

from __future__ import annotations

import json
from typing import Any, Dict, List

from harness import ActionChains, Keys, active, describe_focus, press, tab_until, wait, wait_for  # noqa: F401
from post_receiver import Post, PostReceiver  # testsupport/, on the path via harness

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


class Receiver(PostReceiver):
    """An app's notification endpoint on loopback: answers 200 and keeps each body."""

    def __init__(self) -> None:
        self.bodies: List[Dict[str, Any]] = []
        super().__init__("/notifications")

    def record(self, post: Post) -> None:
        try:
            self.bodies.append(json.loads(post.body))
        except ValueError:
            self.bodies.append({"raw": post.body.decode("utf-8", "replace")})

    def close(self) -> None:
        self.stop()
