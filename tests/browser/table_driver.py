"""Playing the game page as a person does: clicking what the table offers.

Helpers shared by the game UI tests: open the page with instant computer
players, wait for your turn (or a dialog), read the engine's view that the
page draws, and take the moves by clicking the page's own controls — never
by calling the engine behind the UI's back. The page exposes its session
as ``thousand.session`` and its current view as ``thousand.view`` for
reading only.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from playwright.sync_api import Page, expect
from site_harness import BOOT_TIMEOUT_MS, ROOT

AXE_DIR = ROOT / ".cache" / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"

# The deal of the scripted match: you (seat 0) hold both red marriages'
# top cards; the computer seats hold no marriage, so they cannot bid past 120.
DEAL = {
    "hands": [
        ["AH", "TH", "KH", "QH", "AD", "TD", "KD"],
        ["AS", "TS", "KS", "9S", "QC", "9H", "9D"],
        ["QS", "AC", "TC", "KC", "9C", "JH", "JD"],
    ],
    "talon": ["QD", "JS", "JC"],
}


def axe_source() -> str:
    """axe-core's script, installed from npm into .cache/axe when it is not there yet."""
    if not AXE_JS.exists():
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(AXE_DIR),
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            capture_output=True,
        )
    return AXE_JS.read_text()


def open_page(page: Page, url: str, query: str = "") -> None:
    """Open the site and wait for the engine (not for a game: the welcome may show)."""
    page.goto(url + query)
    page.wait_for_function(
        "document.body.dataset.engine !== 'loading'", timeout=BOOT_TIMEOUT_MS, polling=100
    )
    assert page.evaluate("document.body.dataset.engine") == "ready", page.locator(
        "#loading-text"
    ).text_content()


def import_game(page: Page, text: str) -> None:
    dialog = page.locator("dialog[open]")
    if dialog.get_attribute("data-dialog") == "welcome":
        dialog.locator('[data-value="import"]').click()
    else:
        page.locator("#btn-menu").click()
        page.locator('[data-menu="import"]').click()
    page.locator("#import-text").fill(text)
    page.locator('dialog[data-dialog="import"] [data-value="import"]').click()
    page.wait_for_function("thousand.view !== null && thousand.view !== undefined")


def view(page: Page) -> dict[str, Any]:
    """The view on the table; waits for the first one (the engine can be ready before it)."""
    page.wait_for_function("globalThis.thousand?.view != null", polling=100)
    return page.evaluate("thousand.view")  # type: ignore[no-any-return]


def moves(page: Page) -> int:
    """How many actions the game's log holds."""
    return len(json.loads(page.evaluate("thousand.session.exportText()"))["log"])


def wait_turn(page: Page, timeout: float = 30_000) -> str:
    """Wait until you may act, a dialog is open or the match is over; returns which."""
    page.wait_for_function(
        """() => {
            if (document.querySelector('dialog[open]')) return true;
            const v = thousand.view;
            const mine = v && v.turn === thousand.session.seat && v.legal.length;
            return Boolean(v && (v.phase === 'over' || mine));
        }""",
        timeout=timeout,
        polling=50,
    )
    name = page.evaluate("document.querySelector('dialog[open]')?.dataset.dialog ?? null")
    if name:
        return f"dialog:{name}"
    return "over" if view(page)["phase"] == "over" else "turn"


def after(page: Page, count: int) -> None:
    """Wait until the log has grown past ``count`` actions."""
    page.wait_for_function(
        "n => JSON.parse(thousand.session.exportText()).log.length > n", arg=count, timeout=30_000
    )


def click_action(page: Page, action: str) -> None:
    n = moves(page)
    page.locator(f'#actions [data-action="{action}"]').click()
    after(page, n)


def click_card(page: Page, card: str) -> None:
    page.locator(f'#hand [data-card="{card}"]').click()


def close_dialog(page: Page, name: str, value: str | None = None) -> None:
    dialog = page.locator(f'dialog[open][data-dialog="{name}"]')
    expect(dialog).to_be_visible()
    if value is None:
        dialog.locator(".dialog-buttons .btn.primary").click()
    else:
        dialog.locator(f'.dialog-buttons [data-value="{value}"]').click()
    expect(dialog).to_have_count(0)


def overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (0 when nothing sticks out)."""
    return page.evaluate(  # type: ignore[no-any-return]
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth"
    )


def unreachable_controls(page: Page) -> list[str]:
    """Visible buttons, inputs and selects that cannot be scrolled fully into the window."""
    return page.evaluate(  # type: ignore[no-any-return]
        """async () => {
            const bad = [];
            const root = document.querySelector('dialog[open]') ?? document;
            const controls = 'button, input, select, textarea, summary, a[href]';
            const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
            await frame();  // a dialog just opened lays out before it is measured
            for (const el of root.querySelectorAll(controls)) {
                const box = el.getBoundingClientRect();
                if (!box.width || !box.height || el.closest('[hidden]')) continue;
                // Inside a closed <details> a control still has a box, but no place on screen.
                const shut = el.closest('details:not([open])');
                if (shut && el !== shut.querySelector(':scope > summary')) continue;
                el.scrollIntoView({block: 'center', inline: 'center'});
                let r = el.getBoundingClientRect();
                if (r.top < -1 || r.bottom > innerHeight + 1) {
                    await frame();
                    el.scrollIntoView({block: 'center', inline: 'center'});
                    r = el.getBoundingClientRect();
                }
                const out = r.left < -1 || r.right > innerWidth + 1;
                if (out || r.top < -1 || r.bottom > innerHeight + 1) {
                    const what = el.textContent.trim().slice(0, 30) || el.id;
                    bad.push(`${el.tagName} ${what} ${JSON.stringify(r)}`);
                }
            }
            return bad;
        }"""
    )


def axe_scan(page: Page, source: str) -> list[str]:
    """Serious and critical axe-core violations on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=source)
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations
              .filter(v => ['serious', 'critical'].includes(v.impact))
              .map(v => `${v.id} (${v.impact}): ${v.help} — ` +
                   v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
        }"""
    )
    return result  # type: ignore[no-any-return]
