"""Browser test harness, shared part: build.py loaded as a module, Chromium's
settings, the console log, and reading the table off the page.

A module of its own rather than conftest.py, so that importing it cannot
clash with another test folder's conftest; the fixtures are in conftest.py.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "test-results" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps dialling Google's hosts, which
# this machine's closed network refuses; the mDNS feature is off so WebRTC
# does not probe the local network either.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]
SUB_PATH = "/some/sub/path/"
# Booting Python in the browser takes several seconds here; allow for a busy
# two-core CI machine.
BOOT_TIMEOUT_MS = 90_000


def _load_build() -> Any:
    spec = importlib.util.spec_from_file_location("thousand_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _load_build()


@dataclass
class Console:
    """Every console message and uncaught error of a browser context: page and workers alike."""

    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def on_console(self, message: ConsoleMessage) -> None:
        where = message.location.get("url", "") if message.location else ""
        line = f"{message.type}: {message.text} ({where})"
        self.messages.append(line)
        if message.type == "error":
            self.errors.append(line)

    def on_error(self, error: Any) -> None:
        self.errors.append(f"uncaught: {error}")


def wait_dealt(page: Page) -> None:
    """Wait until the engine is ready and a hand is on the table, or fail with the page's reason."""
    page.wait_for_function(
        "document.body.dataset.engine !== 'loading'", timeout=BOOT_TIMEOUT_MS, polling=100
    )
    state = page.evaluate("document.body.dataset.engine")
    assert state == "ready", page.locator("#loading-text").text_content()
    expect(page.locator("#hand [data-card]").first).to_be_visible()


def hand_on_page(page: Page) -> list[str]:
    """The card texts of the hand shown, in order."""
    return page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")


def actions_on_page(page: Page) -> list[str]:
    """The action texts offered as buttons, in order."""
    return page.locator("#actions [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)"
    )


def make_returning_profile(
    launch: Callable[[Path], BrowserContext], folder: Path, site_url: str
) -> Path:
    """A Chromium profile in `folder` that has visited the site once, as a returning
    player's: the service worker installed and its files cached, the engine's
    snapshot saved and shown to restore; then the game, settings and statistics
    in localStorage cleared, so the next visit starts like a first one except
    for how the engine boots. `launch(folder)` opens a persistent context there."""
    ctx = launch(folder)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(site_url + "?seed=0&delay=0")
        wait_dealt(page)
        page.wait_for_function(
            "performance.getEntriesByName('thousand:snapshot-saved').length > 0",
            timeout=BOOT_TIMEOUT_MS,
        )
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.reload()
        wait_dealt(page)
        booted = page.evaluate("thousand.engine.info.booted")
        assert booted == "snapshot", f"the visited profile's engine booted by {booted}"
        # A page of the same origin that runs none of the site's scripts, so
        # nothing writes the game back after it is cleared.
        page.goto(site_url + "build-manifest.json")
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
    finally:
        ctx.close()
    return folder
