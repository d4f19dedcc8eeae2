# ruff: noqa: E501  (the malicious guest's JavaScript is kept readable on long lines)
"""Play with friends: three real Chromium contexts, real WebRTC, a real local relay.

One table of people only (host and two guests, seated through the lobby
from the shared link) lives for the whole module, and the tests run on it
in order, like an evening of play: a full private hand through the UI with
every message each peer received decrypted with that peer's own keys, a
malicious guest's flood, a guest's reload, the host's reload and a hint.
One table keeps the module fast: each browser boots Python once. The last
test has a table of its own, whose host reloads while the guests' first
shuffles are on their way. The cheats, each of which stops its table, are
in test_multiplayer_cheats.py.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from net_harness import (
    Table,
    master_of,
    opened_by,
    public_messages,
    received,
    relay,
    shots,
    true_deal,
)
from playwright.sync_api import Browser, BrowserContext, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from site_harness import RESULTS

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
def table(
    browser: Browser, site_url: str, relay_url: str, returning_context: Callable[[], BrowserContext]
) -> Iterator[Table]:
    t = Table(browser, site_url, relay_url, new_context=returning_context)
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
    # The lobby says what stays private, and no longer that the host sees every hand.
    for page in t.pages:
        expect(page.locator("#net-privacy")).to_contain_text(
            "The host learns no more than any guest"
        )
        expect(page.locator("#net-bots")).to_be_hidden()  # people only: no computer seat
    lobby_shots(t)
    t.start()
    names = t.host.evaluate("thousand.session.seats.map((s) => s.name)")
    assert names.count(GUEST_NAME) == 1, names
    yield t
    t.close()


def lobby_shots(t: Table) -> None:
    """The host's and a guest's lobby, desktop and phone size, for a person to look at."""
    for who, page in (("host", t.host), ("guest", t.guests[0])):
        shots(page, f"lobby-hints-{who}", show="#net-privacy")


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
    # Every page's own engine checked the finished deal with every key and found it fair.
    for page in table.pages:
        page.wait_for_function("thousand.session.verdicts.checked > 0", timeout=60_000)
        assert table.alarms(page) == []
    log = table.host.evaluate("thousand.session.record.log")
    truth = true_deal(log, 3, dealer=0)
    talon_openers = {m["seat"] for m in log if m["t"] == "unlock" and m["stage"] == "talon"}
    for page in table.pages:
        seat = page.evaluate("thousand.session.seat")
        messages = public_messages(received(page))
        first_reveal = next(k for k, m in enumerate(messages) if m["t"] == "reveal")
        before = messages[:first_reveal]  # the keys are public after this
        assert len(before) > 10
        opened = opened_by(master_of(page), seat, before)
        # The talon is this seat's to know if it was shown to all or it took it.
        shown = len(talon_openers) == 3 or seat not in talon_openers
        allowed = (
            truth["hands"][seat] | truth["passed"][seat] | (truth["talon"] if shown else set())
        )
        assert truth["hands"][seat] <= opened, "the seat's own keys open its own cards"
        assert opened <= allowed, f"seat {seat} could read {opened - allowed}"
        # Nobody could open another seat's cards even with all they received.
        others = set().union(*(truth["hands"][s] for s in range(3) if s != seat))
        assert not (
            opened_by(master_of(page), seat, messages) & (others - allowed - truth["talon"])
        )
    # The host relayed the guests' messages; no view or hand of theirs ever passed through it.
    assert not any(m.get("t") == "view" for m in received(table.guests[0]))
    assert table.errors == []


def test_a_malicious_guest_changes_nothing(table: Table) -> None:
    host = table.host
    # The rogue is a guest not to move now: its own seat's actions are then
    # refused too, so nothing it sends may change the game.
    turn = table.view(host)["turn"]
    rogue = next(g for g in reversed(table.guests) if g.evaluate("thousand.session.seat") != turn)
    honest = next(g for g in table.guests if g is not rogue)
    host.evaluate("Object.assign(thousand.session.config, {rate: 1e6, burst: 1e6})")
    before = host.evaluate("JSON.stringify(thousand.session.record.log)")
    honest_view = json.dumps(table.view(honest))
    rejected_before = host.evaluate("thousand.session.rejected.total")
    sent = rogue.evaluate(
        """async () => {
      const s = thousand.session, tr = s.transport, host = s.hostPeer, v = thousand.view;
      const others = [0, 1, 2].filter((x) => x !== s.seat);
      const deal = s.state.deal, hex = "02" + "a".repeat(64);
      const legalOf = v.legal.length ? v.legal : ["pass", "bid 110", "play AS"];
      const junk = ["", "{", "null", "42", "[]", '"text"', "{\\"t\\":1}", "x".repeat(300000)];
      const act = (seat, action, i) => ({ t: "act", deal, seat, action, position: i % 24, y: null, n: i });
      const msgs = [];
      for (let i = 0; i < 1100; i++) {
        const r = i % 11;
        if (r === 0) msgs.push(junk[i % junk.length]);
        else if (r === 1) msgs.push(act(others[i % 2], legalOf[i % legalOf.length], i));
        else if (r === 2) msgs.push(act(s.seat, "bid " + (i % 400), i));
        else if (r === 3) msgs.push(act(s.seat, "play " + ["AS", "XX", "9H", ""][i % 4], i));
        else if (r === 4) msgs.push({ ...act(s.seat, legalOf[0], i), extra: 1 });
        else if (r === 5) msgs.push([{ t: "shuffle", deal: i, seat: s.seat, deck: Array(24).fill(hex) },
                                     { t: "unlock", deal, seat: s.seat, stage: "deal", values: { 3: hex } },
                                     { t: "pass", deal, seat: s.seat, value: hex }][i % 3]);
        else if (r === 6) msgs.push([{ t: "reveal", deal, seat: s.seat, secret: "nothex" },
                                     { t: "unlock", deal, seat: others[0], stage: "deal", values: {} },
                                     { t: "dispute", deal, seat: s.seat, accused: i % 2 ? 9 : 0, reason: "x", code: "move",
                                       facts: i % 2 ? {} : { action: "x".repeat(41) } }][i % 3]);
        else if (r === 7) msgs.push({ t: "hello", v: 2, name: "x".repeat(i % 40), token: "A".repeat(20 + (i % 30)), have: i });
        else if (r === 8) msgs.push(i % 2 ? { t: ["view", "table", "own", "welcome", "resend"][i % 5], seat: i % 5 }
                                          // Only the host may give a seat to a computer.
                                          : [{ t: "replace", deal, seat: others[0], level: "normal" },
                                             { t: "replace", deal, seat: s.seat, level: "easy" },
                                             { t: "replace", deal: -1, seat: 9, level: "godlike" },
                                             { t: "replace" }][(i >> 1) % 4]);
        else if (r === 9) msgs.push("AAAA." + JSON.stringify({ t: "pub", to: "*", epoch: "e", n: i, i,
                                    m: i % 2 ? act(others[0], "pass", i) : { t: "replace", deal, seat: others[0], level: "normal" } }));
        else msgs.push({ t: "dispute", deal, seat: others[0], accused: s.seat, reason: "rigged!", code: "move", facts: {} });
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
    assert host.evaluate("JSON.stringify(thousand.session.record.log)") == before
    assert json.dumps(table.view(honest)) == honest_view
    # No seat changed hands: the forged and the guest's replace messages came to nothing.
    for page in table.pages:
        assert page.evaluate("thousand.session.state.replaced") == {}
    assert table.alarms(honest) == [] and table.alarms(host) == []
    codes = host.evaluate("thousand.session.rejected.byCode")
    assert {"malformed", "forged", "not-your-turn", "stale", "refused"} <= set(codes), codes
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
    assert host.evaluate("JSON.stringify(thousand.session.record.log)") == before
    # And the game goes on: play a few moves through the UI.
    steps = table.steps()
    table.play_until(lambda: table.steps() >= steps + 4)
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
    table.caught_up(guest)  # the last move of the test before may still be on its way
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
    steps = table.steps()
    table.play_until(lambda: table.steps() >= steps + 3)


def test_the_host_reloads_mid_hand_and_resumes(table: Table) -> None:
    host = table.host
    # Mid-hand: the host holds its cards and someone is to move (the table plays on
    # past the end of a hand whose last card is a guest's to play).
    table.play_until(
        lambda: host.evaluate("thousand.view?.turn != null && thousand.view.hand.length > 0")
    )
    log_before = host.evaluate("thousand.session.record.log")
    hand = table.view(host)["hand"]
    host.reload()
    host.wait_for_function("globalThis.thousand?.view != null", timeout=90_000)
    # Nothing is lost; a guest's message on its way at the reload may come after.
    log_after = host.evaluate("thousand.session.record.log")
    assert log_after[: len(log_before)] == log_before
    assert table.view(host)["hand"] == hand
    for guest in table.guests:
        table.meets_the_host(guest)
    steps = table.steps()
    table.play_until(lambda: table.steps() >= steps + 3)


def test_a_guest_asks_for_a_hint_where_the_host_allows_them(table: Table) -> None:
    host, guest = table.host, table.guests[0]
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

    table.until_to_play(guest)  # everyone plays on until the guest is to play a card
    table.close_dialogs(guest)
    expect(guest.locator("#btn-undo")).to_be_hidden()  # no undo at a network table
    steps = table.steps()
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
    assert table.steps() == steps
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


def test_the_host_reloads_while_the_first_deal_is_shuffled_and_the_deal_goes_on(
    browser: Browser, site_url: str, relay_url: str, returning_context: Callable[[], BrowserContext]
) -> None:
    t = Table(browser, site_url, relay_url, new_context=returning_context)
    try:
        t.open_host()
        for guest in t.guests:
            t.join(guest)
        t.start()
        t.host.reload()
        t.host.wait_for_function("globalThis.thousand?.view != null", timeout=90_000)
        for guest in t.guests:
            t.meets_the_host(guest)
        # The guests' shuffles that came while it was away are in the log at last.
        t.play_until(lambda: t.steps() >= 12)
        assert all(page.evaluate("thousand.view.hand.length") > 0 for page in t.pages)
    finally:
        t.close()
