"""The engine's memory snapshot, end to end: real Chromium, the built site, real Pyodide.

The first visit installs the engine with micropip and saves a snapshot of
it; later visits start from that snapshot. These tests read the page's own
timeline (the worker's boot steps are marks there) to see which way the
engine came up, and Cache Storage to see what is kept. The game always
comes from localStorage, never from the snapshot.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page
from site_harness import Console, build, hand_on_page, wait_dealt
from thousand import Game

# Every test here starts from a fresh profile: the snapshot's making is what they check.
pytestmark = pytest.mark.first_visit

SAVED = "performance.getEntriesByName('thousand:snapshot-saved').length > 0"
MARKS = (
    "performance.getEntriesByType('mark').map(m => m.name)"
    ".filter(n => n.startsWith('thousand:')).map(n => n.slice(9))"
)
# The one snapshot kept: its version, its stated SHA-256, the memory's size
# and how much of it is stored (its pages of zeros are not).
KEPT = """async () => {
  const cache = await caches.open("thousand-engine-snapshot");
  const keys = await cache.keys();
  if (keys.length !== 1) return { count: keys.length };
  const r = await cache.match(keys[0]);
  return { count: 1, version: r.headers.get("x-thousand-version"),
           sha256: r.headers.get("x-thousand-sha256"),
           size: Number(r.headers.get("x-thousand-size")),
           stored: (await r.arrayBuffer()).byteLength };
}"""
# Rewrites the kept snapshot: another version's label, or bytes damaged in the middle.
TAMPER = """async ({ version, damage }) => {
  const cache = await caches.open("thousand-engine-snapshot");
  const [key] = await cache.keys();
  const r = await cache.match(key);
  const bytes = new Uint8Array(await r.arrayBuffer());
  if (damage) for (let i = 0; i < 4096; i++) bytes[(bytes.length >> 1) + i] ^= 0x5a;
  const headers = new Headers(r.headers);
  if (version) headers.set("x-thousand-version", version);
  await cache.put(key, new Response(bytes, { headers }));
}"""


# Every text the loading indicator shows, in order, from before the page's scripts run.
RECORD_LOADING = """
window.__loading = [];
new MutationObserver(() => {
  const text = document.getElementById("loading-text")?.textContent;
  if (text && window.__loading.at(-1) !== text) window.__loading.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def first_visit(page: Page, url: str | None) -> None:
    """A fresh profile's visit (to `url`, or the one under way): the engine is
    installed, and its snapshot saved."""
    if url is not None:
        page.goto(url)
    wait_dealt(page)
    steps = page.evaluate(MARKS)
    assert "engine-installed" in steps and "snapshot-restored" not in steps, steps
    page.wait_for_function(SAVED, timeout=60_000)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def saved_game(page: Page) -> str:
    """The game text in localStorage, the only place the page keeps the game."""
    return str(page.evaluate("JSON.parse(localStorage.getItem('thousand.game')).game"))


def table_game(page: Page) -> str:
    """The game text of the session on the table (the engine's own save)."""
    return str(page.evaluate("thousand.session.exportText()"))


def play_a_move(page: Page) -> None:
    """This seat's first legal action, through the session as a click would; then the
    computer seats answer (at once) until it is this seat's turn again, so nothing
    moves while the test looks."""
    page.wait_for_function("thousand.view && thousand.view.turn === 0", timeout=30_000)
    count = len(Game.from_json(saved_game(page)).log)
    page.evaluate("thousand.session.act(thousand.view.legal[0])")
    page.wait_for_function(
        """n => JSON.parse(JSON.parse(localStorage.getItem('thousand.game')).game).log.length > n
              && thousand.view.turn === 0 && thousand.view.legal.length > 0""",
        arg=count,
        timeout=30_000,
    )


def test_later_visits_start_from_the_snapshot_even_offline_with_the_saved_game(
    page: Page, context: BrowserContext, dist: Path, console: Console
) -> None:
    server, url = build.serve_in_thread(dist, "/")
    try:
        first_visit(page, url + "?seed=4&delay=0")
        version = page.evaluate("thousand.engine.info.version")
        kept = page.evaluate(KEPT)
        assert kept["count"] == 1 and kept["version"] == version, kept
        assert kept["size"] > 10_000_000 and 1_000_000 < kept["stored"] < kept["size"], kept

        # A second visit: the engine comes from the snapshot, nothing is installed.
        second = context.new_page()
        second.goto(url + "?seed=4&delay=0")
        wait_dealt(second)
        steps = second.evaluate(MARKS)
        assert {"snapshot-read", "snapshot-restored", "engine-ready", "dealt"} <= set(steps)
        assert "engine-installed" not in steps and "snapshot-made" not in steps, steps
        assert second.evaluate("thousand.engine.info.booted") == "snapshot"
        page.close()

        # The game moves on after the snapshot was made; offline, the next
        # visit restores the engine and resumes the game saved in localStorage.
        play_a_move(second)
        game = Game.from_json(saved_game(second))
        assert game.log
        server.shutdown()
        server.server_close()
        context.set_offline(True)
        second.reload()
        wait_dealt(second)
        assert "snapshot-restored" in second.evaluate(MARKS)
        assert Game.from_json(table_game(second)).log == game.log
        assert sorted(hand_on_page(second)) == sorted(game.view(0)["hand"])
        assert console.errors == []
    finally:
        server.shutdown()


def test_a_snapshot_from_another_version_or_damaged_is_replaced(
    page: Page, site_url: str, console: Console
) -> None:
    first_visit(page, site_url + "?seed=6&delay=0")
    version = page.evaluate("thousand.engine.info.version")
    good = page.evaluate(KEPT)
    play_a_move(page)
    game = Game.from_json(saved_game(page))

    # Another build's snapshot (here: these very bytes, labelled with another
    # version) is never restored: it is deleted and a new one saved.
    page.evaluate(TAMPER, {"version": "0123456789abcdef", "damage": False})
    page.reload()
    wait_dealt(page)
    steps = page.evaluate(MARKS)
    assert {"snapshot-rejected", "engine-installed"} <= set(steps), steps
    assert "snapshot-read" not in steps and "snapshot-restored" not in steps, steps
    page.wait_for_function(SAVED, timeout=60_000)
    assert page.evaluate(KEPT)["version"] == version

    # A snapshot damaged in storage: a normal boot, no error, the saved game
    # resumes, and the damaged copy is replaced by a good one.
    page.evaluate(TAMPER, {"version": None, "damage": True})
    page.reload()
    wait_dealt(page)
    steps = page.evaluate(MARKS)
    assert {"snapshot-rejected", "engine-installed"} <= set(steps), steps
    assert "snapshot-restored" not in steps, steps
    assert page.locator("#loading").is_hidden()
    assert Game.from_json(table_game(page)).log == game.log
    assert sorted(hand_on_page(page)) == sorted(game.view(0)["hand"])
    page.wait_for_function(SAVED, timeout=60_000)
    kept = page.evaluate(KEPT)
    assert kept["version"] == version and kept["size"] == good["size"], kept
    assert console.errors == []


def test_the_loading_indicator_says_what_each_boot_does_in_the_players_language(
    page: Page, context: BrowserContext, site_url: str, console: Console, shot
) -> None:
    context.add_init_script(RECORD_LOADING)
    page.set_viewport_size({"width": 360, "height": 740})
    url = site_url + "?seed=2&delay=0&lang=ru"
    # A first visit: Python downloads, then the engine is installed.
    page.goto(url)
    page.wait_for_function(
        "window.__loading.some(t => t.startsWith('Загрузка и запуск Python'))", timeout=30_000
    )
    shot("first-visit-ru-360")
    first_visit(page, None)
    texts = page.evaluate("window.__loading")
    assert any(re.fullmatch(r"Загрузка и запуск Python \(\d+\.\d МБ\)", t) for t in texts), texts
    assert "Установка движка" in texts, texts
    assert not any(t.startswith("Восстановление") for t in texts), texts

    # A later visit: the engine saved on this device is restored, nothing
    # downloads or is installed.
    second = context.new_page()
    second.goto(url.replace("lang=ru", "lang=en"))
    wait_dealt(second)
    texts = second.evaluate("window.__loading")
    assert "Restoring the engine saved on this device" in texts, texts
    assert not any("Python" in t or "Installing" in t for t in texts), texts
    assert console.errors == []
