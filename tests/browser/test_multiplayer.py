# ruff: noqa: E501  (the malicious guest's JavaScript is kept readable on long lines)
"""Play with friends: three real Chromium contexts, real WebRTC, a real local relay.

One table (host and two guests, seated through the lobby from the shared
link) lives for the whole module, and the tests run on it in order, like an
evening of play: a full hand through the UI with every message checked for
leaked cards, a malicious guest's flood, a guest's reload, the host's reload,
and finally a host that cheats on the deal and is caught by the guests'
commit–reveal audit. One table keeps the module fast: each browser boots
Python once.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from net_harness import CARD, Table, relay
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from site_harness import RESULTS
from thousand import Game

GUEST_NAME = "Gosia"
MAIN_JS = Path(__file__).resolve().parents[2] / "web" / "main.js"
pytestmark = pytest.mark.skipif(
    "playWithFriends" not in MAIN_JS.read_text(),
    reason="the page has no 'Play with friends' entry yet (web/main.js)",
)


@pytest.fixture(scope="module")
def relay_url() -> Iterator[str]:
    with relay() as url:
        yield url


@pytest.fixture(scope="module")
def table(browser: Browser, site_url: str, relay_url: str) -> Iterator[Table]:
    t = Table(browser, site_url, relay_url)
    t.open_host()
    for guest in t.guests:
        t.join(guest)
    # A guest sees no host-only control: the start button stays hidden, not just disabled.
    expect(t.guests[0].locator("#net-start")).to_be_hidden()
    # The first guest renames themself in the lobby; the name must survive a reload.
    t.guests[0].fill("#net-name", GUEST_NAME)
    t.guests[0].press("#net-name", "Enter")
    t.guests[0].locator("#net-name").blur()
    expect(t.host.locator(".net-seat-name", has_text=GUEST_NAME).first).to_be_visible()
    # Hints are the host's table setting, off until the host allows them, and
    # every guest's lobby shows the host's choice as it changes.
    for guest in t.guests:
        expect(guest.locator("#net-hints-state")).to_have_attribute("data-hints", "off")
    t.host.check("#net-hints")
    for guest in t.guests:
        expect(guest.locator("#net-hints-state")).to_have_attribute("data-hints", "allowed")
        expect(guest.locator("#net-hints-state")).to_have_text("Hints are allowed at this table.")
    lobby_shots(t)
    t.start()
    names = t.host.evaluate("thousand.session.seats.map((s) => s.name)")
    assert names.count(GUEST_NAME) == 1, names
    yield t
    t.close()


def lobby_shots(t: Table) -> None:
    """The host's and a guest's lobby, desktop and phone size, for a person to look at."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    for who, page in (("host", t.host), ("guest", t.guests[0])):
        size = page.viewport_size
        for name, box in (("desktop", size), ("phone", {"width": 360, "height": 740})):
            page.set_viewport_size(box)
            page.locator(".net-hints").scroll_into_view_if_needed()
            page.screenshot(path=str(RESULTS / f"multiplayer-lobby-hints-{who}-{name}.png"))
        page.set_viewport_size(size)


def host_game(t: Table) -> Game:
    return Game.from_json(t.host.evaluate("thousand.session.record.game"))


def received(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("thousand.session.transport.recorded ?? []")


def bodies(page: Page) -> list[dict[str, Any]]:
    out = []
    for m in received(page):
        wire = json.loads(m["text"])
        if isinstance(wire, dict) and "body" in wire:
            out.append(json.loads(wire["body"]))
    return out


def test_lobby_shows_seats_link_rules_and_qr(table: Table) -> None:
    host = table.host
    assert "#room=" in table.link and "&key=" in table.link
    seats = table.guests[0].evaluate("thousand.session.seats")
    assert [s["kind"] for s in seats] == ["remote", "human", "remote"]
    assert table.host.evaluate("thousand.session.seats.map(s => s.status)") == [
        "host",
        "connected",
        "connected",
    ]
    # The status strip shows every seat's state to everyone.
    for page in table.pages:
        expect(page.locator("#net-strip [data-status=connected]")).to_have_count(2)
    assert host.evaluate("thousand.session.rules.players") == 3


def test_a_full_hand_through_the_ui_leaks_no_hidden_card(table: Table) -> None:
    start_hand = table.hand_no(table.host)
    table.play_until(lambda: all(table.hand_no(p) > start_hand for p in table.pages))
    game = host_game(table)
    # Replay the host's true game here: what each seat may see at every step.
    replay = Game.new(rules=game.rules, seed=game.seed)
    for k, s in game.deal_seeds.items():
        replay.set_deal_seed(k, s)
    visible: list[list[set[str]]] = [[], [], []]
    for step in range(len(game.log) + 1):
        if step:
            replay.apply(game.log[step - 1])
        for seat in range(3):
            seen = set(CARD.findall(json.dumps(replay.view(seat))))
            # A played card is public (the deal's last one shows only in last_action).
            if step and game.log[step - 1].startswith("play "):
                seen.add(game.log[step - 1].split()[1])
            before = visible[seat][-1] if visible[seat] else set()
            visible[seat].append(before | seen)
    for seat, page in ((1, table.guests[0]), (2, table.guests[1])):
        checked = 0
        for body in bodies(page):
            if body["t"] == "reveal":
                break  # the end of the first deal: its seeds and log become public
            payload = {k: v for k, v in body.items() if k not in ("to", "epoch", "n", "time")}
            cards = set(CARD.findall(json.dumps(payload)))
            allowed = visible[seat][body["step"]] if body["t"] == "view" else set()
            assert cards <= allowed, f"seat {seat} was sent {cards - allowed} in {body['t']}"
            checked += 1
        assert checked > 20
        # Every view that reached this guest was its own seat's.
        assert {b["view"]["seat"] for b in bodies(page) if b["t"] == "view"} == {seat}
    # The guests audited the finished deal and found it fair.
    for page in table.guests:
        page.wait_for_function("thousand.session.auditor.checked > 0", timeout=30_000)
        assert table.alarms(page) == []
    assert table.errors == []


def test_a_malicious_guest_changes_nothing(table: Table) -> None:
    host = table.host
    # The rogue is a guest not to move now: its own seat's actions are then
    # refused too, so nothing it sends may change the game.
    turn = table.view(host)["turn"]
    rogue = next(g for g in reversed(table.guests) if g.evaluate("thousand.session.seat") != turn)
    honest = next(g for g in table.guests if g is not rogue)
    host.evaluate("Object.assign(thousand.session.config, {rate: 1e6, burst: 1e6})")
    before = host.evaluate("thousand.session.record.game")
    honest_view = json.dumps(table.view(honest))
    rejected_before = host.evaluate("thousand.session.rejected.total")
    sent = rogue.evaluate(
        """async () => {
      const s = thousand.session, tr = s.transport, host = s.hostPeer, v = thousand.view;
      const others = [0, 1, 2].filter((x) => x !== s.seat);
      const legalOf = v.legal.length ? v.legal : ["pass", "bid 110", "play AS"];
      const junk = ["", "{", "null", "42", "[]", '"text"', "{\\"t\\":1}", "x".repeat(300000)];
      const msgs = [];
      for (let i = 0; i < 1100; i++) {
        const r = i % 11;
        if (r === 0) msgs.push(junk[i % junk.length]);
        else if (r === 1) msgs.push({ t: "act", seat: others[i % 2], action: legalOf[i % legalOf.length], n: i });
        else if (r === 2) msgs.push({ t: "act", seat: s.seat, action: "bid " + (i % 400), n: i });
        else if (r === 3) msgs.push({ t: "act", seat: s.seat, action: "play " + ["AS", "XX", "9H", ""][i % 4], n: i });
        else if (r === 4) msgs.push({ t: "act", seat: s.seat, action: legalOf[0], n: i, extra: 1 });
        else if (r === 5) msgs.push({ t: "seed", deal: i, seed: "0".repeat(64) });
        else if (r === 6) msgs.push({ t: "seed", deal: 1, seed: "nothex" });
        else if (r === 7) msgs.push({ t: "hello", v: 1, name: "x".repeat(i % 40), token: "A".repeat(20 + (i % 30)) });
        else if (r === 8) msgs.push({ t: ["view", "table", "ok", "welcome"][i % 4], seat: i % 5 });
        else if (r === 9) msgs.push({ body: JSON.stringify({ t: "view", to: "*", epoch: "e", n: i, time: 1, view: {}, deal: 0, step: 0 }), sig: "AAAA" });
        else msgs.push({ t: "alarm", deal: 0, seat: others[0], problem: "rigged!", evidence: { commit: null, reveal: { body: "{}", sig: "x" }, views: [] } });
      }
      for (const [i, m] of msgs.entries()) {
        const text = typeof m === "string" ? m : JSON.stringify(m);
        // Half to the host, the forged host messages and alarms to everyone.
        await tr._send(text, { target: i % 11 >= 9 ? [...tr.peers] : [host] });
      }
      await tr._send(new Uint8Array([1, 2, 3]), { target: [host] });
      return msgs.length + 1;
    }"""
    )
    assert sent >= 1000
    host.wait_for_function(
        "n => thousand.session.rejected.total >= n", arg=rejected_before + 900, timeout=60_000
    )
    assert host.evaluate("thousand.session.record.game") == before
    assert json.dumps(table.view(honest)) == honest_view
    assert table.alarms(honest) == [] and table.alarms(host) == []
    codes = host.evaluate("thousand.session.rejected.byCode")
    assert {"malformed", "forged", "not-your-turn"} <= set(codes) or {
        "malformed",
        "forged",
        "illegal",
    } <= set(codes)
    # A flood at the normal limits is cut short by the rate limiter.
    host.evaluate("Object.assign(thousand.session.config, {rate: 20, burst: 60})")
    rogue.evaluate(
        """async () => { const tr = thousand.session.transport, host = thousand.session.hostPeer;
           // All at once, so a slow machine cannot spread them under the limit.
           await Promise.all(Array.from({ length: 400 }, () => tr._send('{"t":"nope"}', { target: [host] }))); }"""
    )
    host.wait_for_function(
        "(thousand.session.rejected.byCode['rate-limited'] ?? 0) > 100", timeout=30_000
    )
    assert host.evaluate("thousand.session.record.game") == before
    # And the game goes on: play a few moves through the UI.
    steps = len(host_game(table).log)
    table.play_until(lambda: len(host_game(table).log) >= steps + 4)
    assert honest.evaluate("thousand.session.ignored") > 0
    assert table.errors == []


# Records every moment the loading box shows over a table that has cards on it.
WATCH_LOADING_BOX = """
window.__covered = [];
new MutationObserver(() => {
  const box = document.getElementById("loading");
  if (box && !box.hidden && document.querySelector("#hand [data-card]")) {
    window.__covered.push(document.getElementById("loading-text").textContent);
  }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def test_a_guest_reloads_mid_hand_and_resumes(table: Table) -> None:
    guest = table.guests[0]
    seat = guest.evaluate("thousand.session.seat")
    hand = table.view(guest)["hand"]
    # Without its engine snapshot the guest's Python boots the long way, so the
    # host's table reaches the page first: the loading box must not cover it.
    guest.evaluate("caches.delete('thousand-engine-snapshot')")
    guest.context.add_init_script(WATCH_LOADING_BOX)
    guest.reload()
    guest.wait_for_function("globalThis.thousand?.view != null", timeout=90_000)
    assert guest.evaluate("thousand.session.seat") == seat
    assert table.view(guest)["hand"] == hand
    # The name given in the lobby is kept: on the guest's own screen and the host's.
    expect(guest.locator("#your-name")).to_have_text(GUEST_NAME)
    table.host.wait_for_function(
        "([seat, name]) => thousand.session.seats[seat].name === name", arg=[seat, GUEST_NAME]
    )
    guest.wait_for_function("document.body.dataset.engine === 'ready'", timeout=90_000)
    assert guest.evaluate("window.__covered") == []
    steps = len(host_game(table).log)
    table.play_until(lambda: len(host_game(table).log) >= steps + 3)


def test_the_host_reloads_mid_hand_and_resumes(table: Table) -> None:
    host = table.host
    game_before = host.evaluate("thousand.session.record.game")
    hand = table.view(host)["hand"]
    host.reload()
    host.wait_for_function("globalThis.thousand?.view != null", timeout=90_000)
    assert host.evaluate("thousand.session.record.game") == game_before
    assert table.view(host)["hand"] == hand
    for guest in table.guests:
        guest.wait_for_function("thousand.session.hostStatus === 'connected'", timeout=60_000)
    steps = len(host_game(table).log)
    table.play_until(lambda: len(host_game(table).log) >= steps + 3)


def test_a_guest_asks_for_a_hint_where_the_host_allows_them(table: Table) -> None:
    host, guest = table.host, table.guests[0]
    seat = guest.evaluate("thousand.session.seat")
    errors_before = len(table.errors)
    # Every player sees the table's setting in the Rules dialog's house rules
    # (once the guest's own engine is up: the table may come before it).
    guest.wait_for_function("document.body.dataset.engine === 'ready'", timeout=90_000)
    rules = guest.locator('dialog[open][data-dialog="rules"]')
    for _ in range(5):  # a view arriving meanwhile may redraw the menu away
        table.close_dialogs(guest)
        with contextlib.suppress(PlaywrightTimeout):
            guest.locator("#btn-menu").click(timeout=2_000)
            guest.locator('[data-menu="rules"]').click(timeout=2_000)
            rules.wait_for(timeout=2_000)
            break
    line = guest.locator('dialog[data-dialog="rules"] .house-rules .table-hints')
    expect(line).to_have_attribute("data-hints", "allowed")
    line.scroll_into_view_if_needed()
    guest.screenshot(path=str(RESULTS / "multiplayer-rules-hints-guest.png"))
    guest.locator('dialog[data-dialog="rules"] .dialog-buttons .btn.primary').click()

    # Everyone plays on until the guest is to play a card.
    def guest_to_play() -> bool:
        view = table.view(guest)
        return view["phase"] == "play" and view["turn"] == seat and bool(view["legal"])

    for _ in range(400):
        if guest_to_play():
            break
        moved = False
        for page in table.pages:
            if guest_to_play():
                break
            moved = table.act_once(page) or moved
        if not moved:
            time.sleep(0.05)
    else:
        raise AssertionError("the guest never got to play a card")
    table.close_dialogs(guest)
    expect(guest.locator("#btn-undo")).to_be_hidden()  # no undo at a network table
    steps = len(host_game(table).log)
    guest.evaluate(
        """() => {
        const engine = thousand.session.engine, call = engine.call.bind(engine);
        window.__calls = [];
        engine.call = (name, ...args) => { window.__calls.push(name); return call(name, ...args); };
    }"""
    )
    guest.locator("#btn-hint").click()
    marked = guest.locator("#hand [data-hint]")
    expect(marked).to_have_count(1, timeout=60_000)
    action = marked.get_attribute("data-hint")
    assert action in table.view(guest)["legal"], action
    assert marked.get_attribute("data-card") == action.split()[1]
    # The guest's own worker thought from the view the host sent; the host played nothing.
    assert guest.evaluate("window.__calls") == ["hint_for_view"]
    assert len(host_game(table).log) == steps
    guest.screenshot(path=str(RESULTS / "multiplayer-hint-guest.png"))
    # A table that does not allow hints offers no Hint button, to anyone. (The
    # lobby is the host's only switch; here the host's table message says no.)
    host.evaluate("thousand.session.record.hints = false; thousand.session._tableChanged()")
    for page in table.pages:
        expect(page.locator("#btn-hint")).to_be_hidden()
    guest.keyboard.press("h")
    guest.wait_for_timeout(500)
    assert guest.evaluate("window.__calls") == ["hint_for_view"]  # the key asks nothing either
    # Nothing went wrong on the guest's page meanwhile (its page index is 1).
    assert [e for e in table.errors[errors_before:] if e.startswith("1:")] == []


def test_a_host_that_picks_the_cards_is_caught_by_the_audit(table: Table) -> None:
    host = table.host
    # The cheat: the next deal is shuffled from a seed the host chose,
    # whatever the guests sent.
    host.evaluate('thousand.session._combine = async () => "c".repeat(64)')
    rigged = host.evaluate("thousand.session.state.next_deal")
    table.play_until(lambda: host.evaluate("thousand.session.state.deal") > rigged, limit=800)
    for page in table.pages:
        page.wait_for_selector("#net-alarms .net-alarm", timeout=60_000)
        assert any(f"hand {rigged + 1}" in a for a in table.alarms(page)), table.alarms(page)
