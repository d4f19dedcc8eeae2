"""The static site end to end: real Chromium, the built dist/, the real engine in Pyodide.

Each test opens the page as a player would and checks what the engine in
the worker dealt against the same engine run here in Python, so the page,
the worker, the wheel and the bridge are all exercised with no mocks.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from site_harness import SUB_PATH, Console, actions_on_page, build, hand_on_page, wait_dealt
from thousand import Game
from thousand.cards import card_label, parse_card

# Records every value the loading bar shows, from before the page's own
# scripts run, so a test can see the progress the player saw.
RECORD_PROGRESS = """
window.__progress = [];
new MutationObserver(() => {
  const bar = document.getElementById("loading-bar");
  const text = document.getElementById("loading-text");
  if (bar) window.__progress.push([Number(bar.value), text ? text.textContent : ""]);
}).observe(document, {subtree: true, attributes: true, childList: true, characterData: true});
"""


def offered(game: Game) -> list[str]:
    """The legal actions of whoever is to move."""
    return [str(a) for a in game.legal_actions()]


def page_game(page: Page) -> Game:
    """The game the page is playing, rebuilt here from its own save text."""
    return Game.from_json(page.evaluate("thousand.session.exportText()"))


@pytest.mark.first_visit
def test_boots_engine_and_deals_the_hand_the_engine_deals(
    page: Page, site_url: str, console: Console, shot
) -> None:
    page.add_init_script(RECORD_PROGRESS)
    page.goto(site_url + "?seed=0")
    # First paint: the table and the loading indicator, before Python is up.
    expect(page.locator("#loading")).to_be_visible()
    expect(page.locator(".seats")).to_be_visible()
    shot("loading")
    wait_dealt(page)
    shot("dealt")

    game = Game.new(seed=0)
    view = game.view(0)
    # The hand is shown sorted by suit; the cards are the engine's.
    assert sorted(hand_on_page(page)) == sorted(view["hand"])
    for text in view["hand"]:
        card = page.locator(f'#hand [data-card="{text}"]')
        expect(card).to_have_attribute("aria-label", card_label(parse_card(text)))
    # Whatever the computer seats did first, the page offers only what the
    # engine allows this seat now.
    page.wait_for_function("thousand.view && thousand.view.turn === 0", timeout=30_000)
    game = page_game(page)
    assert set(actions_on_page(page)) <= set(offered(game)) and actions_on_page(page)
    assert page.locator("#loading").is_hidden()

    # The loading bar moved through real steps up to 100, and said that Python
    # downloads, with its size (a first visit: nothing cached yet).
    progress = page.evaluate("window.__progress")
    values = [v for v, _ in progress]
    assert values == sorted(values) and values[-1] == 100
    assert len(set(values)) >= 5, progress
    downloading = r"Downloading and starting Python \(\d+\.\d MB\)"
    assert any(re.fullmatch(downloading, text) for _, text in progress), progress

    # Painted first, engine later: the table did not wait for Python.
    paint, ready = page.evaluate(
        """[performance.getEntriesByName("first-contentful-paint")[0].startTime,
            performance.getEntriesByName("thousand:engine-ready")[0].startTime]"""
    )
    assert paint < ready
    assert console.errors == []


def test_actions_go_through_the_engine(page: Page, site_url: str, console: Console, shot) -> None:
    page.goto(site_url + "?seed=0&delay=0")
    wait_dealt(page)
    # Click three of the offered actions (passing or the lowest bid, so the
    # hand moves on); each time the page offers what the engine says is legal.
    for _ in range(3):
        page.wait_for_function(
            "thousand.view && (thousand.view.turn === 0 || thousand.view.phase !== 'bidding')",
            timeout=30_000,
        )
        game = page_game(page)
        if game.phase != "bidding" or game.current_player != 0:
            break
        assert set(actions_on_page(page)) <= set(offered(game))
        action = actions_on_page(page)[0]
        count = len(game.log)
        page.locator(f'#actions [data-action="{action}"]').click()
        page.wait_for_function(
            "n => JSON.parse(thousand.session.exportText()).log.length > n", arg=count
        )
        game = page_game(page)
        assert game.log[count] == action
        # The computer players move on at once: the hand on the page is the engine's
        # once the page has drawn the latest move (read both again until then).
        for _ in range(50):
            hand, game = hand_on_page(page), page_game(page)
            if sorted(hand) == sorted(game.view(0)["hand"]):
                break
            page.wait_for_timeout(100)
        assert sorted(hand) == sorted(game.view(0)["hand"])
    shot("after-three-actions")
    assert console.errors == []


def test_call_api_reports_engine_errors_by_name(
    page: Page, site_url: str, console: Console
) -> None:
    page.goto(site_url + "?seed=0")
    wait_dealt(page)
    outcome = page.evaluate(
        """async () => {
            const e = thousand.engine;
            const out = {};
            const tries = [["illegal", "apply", "bid 5"], ["unknown", "nope", 1]];
            for (const [key, method, arg] of tries) {
                try { await e.call(method, arg); out[key] = "resolved"; }
                catch (err) { out[key] = [err.name, err.message]; }
            }
            out.view = (await e.call("view", 0)).phase;
            out.info = e.info;
            return out;
        }"""
    )
    assert outcome["illegal"][0] == "IllegalAction"
    assert outcome["unknown"][0] == "LookupError"
    assert outcome["view"] == "bidding"
    assert "view" in outcome["info"]["methods"] and outcome["info"]["engine"]
    assert console.errors == []


def test_reload_boots_and_deals_again(page: Page, site_url: str, console: Console) -> None:
    page.goto(site_url + "?seed=3")
    wait_dealt(page)
    first = hand_on_page(page)
    page.reload()
    wait_dealt(page)
    assert hand_on_page(page) == first
    assert sorted(first) == sorted(Game.new(seed=3).view(0)["hand"])
    assert console.errors == []


# When each multiplayer module (the lobby, Trystero) began to load, in ms since navigation.
NET_FETCHES = """performance.getEntriesByType("resource")
  .filter((e) => /\\/(net|vendor)\\//.test(new URL(e.name).pathname)).map((e) => e.startTime)"""
MARK = "performance.getEntriesByName('thousand:{}')[0]?.startTime ?? null"


@pytest.mark.first_visit
def test_multiplayer_modules_wait_until_the_first_hand_is_dealt(
    page: Page, site_url: str, console: Console
) -> None:
    # Against the computer none of them competes with Python's start; the
    # menu has them once the hand is dealt.
    page.goto(site_url + "?seed=4")
    wait_dealt(page)
    page.wait_for_function(f"{MARK.format('dealt')} !== null")
    dealt = page.evaluate(MARK.format("dealt"))
    page.wait_for_function(f"{NET_FETCHES}.length > 20")
    assert min(page.evaluate(NET_FETCHES)) > dealt
    page.click("#btn-menu")
    expect(page.locator("dialog .menu")).to_be_visible()
    assert console.errors == []


@pytest.mark.first_visit
def test_a_tables_link_loads_the_multiplayer_modules_while_python_starts(
    page: Page, site_url: str
) -> None:
    # (No relay answers here; only when the modules loaded is looked at.)
    page.goto(site_url + f"#room={'r' * 16}&key={'k' * 16}")
    page.wait_for_function(f"{MARK.format('pyodide-ready')} !== null", timeout=120_000)
    fetched = page.evaluate(NET_FETCHES)
    assert len(fetched) > 20
    assert max(fetched) < page.evaluate(MARK.format("pyodide-ready"))


@pytest.fixture
def own_server(dist: Path, request: pytest.FixtureRequest) -> Iterator[tuple[object, str]]:
    """A server of this test's own, which the test may shut down."""
    server, url = build.serve_in_thread(dist, request.param)
    yield server, url
    server.shutdown()


@pytest.mark.first_visit
@pytest.mark.parametrize("own_server", ["/", SUB_PATH], indirect=True, ids=["root", "sub-path"])
def test_offline_after_first_visit(
    page: Page, context: BrowserContext, own_server: tuple[object, str], console: Console, shot
) -> None:
    server, url = own_server
    page.goto(url + "?seed=5")
    wait_dealt(page)
    # The service worker has precached the site once it is active.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")

    # No network at all: the browser is offline and the server is gone.
    server.shutdown()  # type: ignore[attr-defined]
    server.server_close()  # type: ignore[attr-defined]
    context.set_offline(True)
    page.reload()
    wait_dealt(page)
    shot("offline")
    # The game dealt from seed 5 resumes (the computer seats may have bid meanwhile).
    game = page_game(page)
    replayed = Game.new(seed=5)
    replayed.replay(game.log)
    assert replayed.to_json() == game.to_json()
    assert sorted(hand_on_page(page)) == sorted(game.view(0)["hand"])
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # Proof that the network really was gone: a file the worker does not cache fails.
    assert (
        page.evaluate("fetch('not-precached.txt').then(() => 'fetched', () => 'failed')")
        == "failed"
    )
    # A failed fetch of purpose is the only error allowed here.
    assert [e for e in console.errors if "not-precached" not in e] == []


@pytest.mark.first_visit
def test_returning_player_gets_a_changed_site(
    page: Page, dist: Path, tmp_path: Path, console: Console
) -> None:
    site = tmp_path / "dist"
    shutil.copytree(dist, site)
    server, url = build.serve_in_thread(site, "/")
    try:
        page.goto(url + "?seed=0")
        wait_dealt(page)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null")

        # A new release changes one file.
        index = site / "index.html"
        index.write_text(index.read_text().replace("<title>", "<title>Updated · "))
        manifest = json.loads((site / "build-manifest.json").read_text())
        build.stamp(site, manifest["engine_wheel"])
        server.served.clear()

        # The next visit still opens from the cache, notices the new service
        # worker, and tells the player; the visit after shows the new page.
        page.reload()
        wait_dealt(page)
        expect(page.locator("#note")).to_contain_text("new version", timeout=30_000)
        fetched = {path.split("?")[0] for path in server.served} - {"/sw.js"}
        # Only what changed was downloaded again, not the 13 MB of Python.
        assert fetched == {"/index.html", "/build-manifest.json"}, fetched
        page.reload()
        wait_dealt(page)
        assert page.title().startswith("Updated · ")
        assert console.errors == []
    finally:
        server.shutdown()


@pytest.mark.first_visit
def test_works_under_a_sub_path(page: Page, sub_path_url: str, console: Console, shot) -> None:
    assert sub_path_url.endswith(SUB_PATH)
    page.goto(sub_path_url + "?seed=0")
    wait_dealt(page)
    shot("sub-path")
    assert sorted(hand_on_page(page)) == sorted(Game.new(seed=0).view(0)["hand"])
    # Anything outside the prefix is 404, so a single absolute URL would have
    # logged a failed load here.
    assert console.errors == []


@pytest.mark.first_visit
def test_installable_as_a_pwa(page: Page, context: BrowserContext, sub_path_url: str) -> None:
    page.goto(sub_path_url + "?seed=0")
    wait_dealt(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    manifest = page.evaluate("fetch('manifest.webmanifest').then(r => r.json())")
    for icon in manifest["icons"]:
        status, kind = page.evaluate(
            "src => fetch(src).then(r => [r.status, r.headers.get('content-type')])", icon["src"]
        )
        assert status == 200 and kind.startswith("image/"), icon
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Every Playwright context is incognito, where Chromium never installs;
    # any other reason (manifest, icons, service worker) is the site's fault.
    errors = [e for e in errors if e["errorId"] != "in-incognito"]
    assert errors == [], json.dumps(errors)


def test_fits_a_phone(page: Page, site_url: str, console: Console, shot) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(site_url + "?seed=0")
    wait_dealt(page)
    shot("phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert console.errors == []
