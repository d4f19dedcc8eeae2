"""Cheats at a private network table are named by every honest peer at the end of the hand.

Each test is one table of three people (real Chromium, real WebRTC, the
local relay) with one cheat injected into one page, the way a modified
client would send it: a guest plays a card it was not dealt, a guest
revokes, the host lies in the shuffle to deal itself a chosen card, a guest
keeps its keys. A named cheat stops its table, hence a table per test.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from net_harness import (
    Table,
    master_of,
    mp,
    position_of,
    public_messages,
    received,
    relay,
    seat_secret,
    shots,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from site_harness import RESULTS
from thousand.cards import parse_card, suit_of

REVEAL_MS = 6_000


@pytest.fixture(scope="module")
def relay_url() -> Iterator[str]:
    with relay() as url:
        yield url


@pytest.fixture
def table(
    browser: Browser, site_url: str, relay_url: str, returning_context: Callable[[], BrowserContext]
) -> Iterator[Table]:
    t = Table(
        browser, site_url, relay_url, config={"revealMs": REVEAL_MS}, new_context=returning_context
    )
    t.open_host()
    # The host picks a computer player's level; the lobby's redraw each second keeps the choice.
    seat = t.host.locator('#net-seats li[data-seat="1"]')
    seat.locator(".net-level").select_option("strong")
    t.host.wait_for_timeout(1_500)
    seat.locator(".net-seat-bot").click()
    expect(seat.locator(".net-seat-status")).to_contain_text("(strong)")
    shots(t.host, "lobby-computer-host", show="#net-seats")
    # A Russian guest takes the seat after it. A computer seat's cards are the host's to
    # know, and the lobby says so while there is one.
    t.join(t.guests[1], lang="ru")
    expect(t.guests[1].locator('#net-seats li[data-seat="2"] .net-you')).to_have_count(1)
    for page in (t.host, t.guests[1]):
        expect(page.locator("#net-bots")).to_be_visible()
    # It has the default name of its seat, as a computer player at a table of one's own,
    # and each page says the name and the level in its own words.
    expect(seat.locator(".net-seat-name")).to_have_text("Anna")
    theirs = t.guests[1].locator('#net-seats li[data-seat="1"]')
    expect(theirs.locator(".net-seat-name")).to_have_text("Анна")
    expect(theirs.locator(".net-seat-status")).to_contain_text("(сильный)")
    shots(t.guests[1], "lobby-computer-guest-ru", show="#net-seats")
    # The link it may pass on is the host's, without its own page's language.
    expect(t.guests[1].locator("#net-link")).to_have_value(t.link)
    seat.locator(".net-remove").click()
    expect(t.host.locator("#net-bots")).to_be_hidden()
    t.join(t.guests[0])
    # The seats the tests below expect.
    expect(t.guests[0].locator('#net-seats li[data-seat="1"] .net-you')).to_have_count(1)
    expect(t.guests[1].locator("#net-privacy")).to_contain_text("Хозяин стола знает не больше")
    yield t
    t.close()


def seat_of(page: Page) -> int:
    return int(page.evaluate("thousand.session.seat"))


SEND_PLAY = """([card, position]) => {
  const s = thousand.session;
  s.transport.send({ t: "act", deal: s.state.deal, seat: s.seat, action: "play " + card,
                     position, y: null, n: 999999 }, s.hostPeer);
}"""


def named_by(t: Table, pages: list[Page], seat: int) -> None:
    """Every one of ``pages`` names ``seat`` (and nobody else) as the cheat."""
    for page in pages:
        page.wait_for_selector("#net-alarms .net-alarm", timeout=90_000)
        assert t.alarm_seats(page) == [seat], t.alarms(page)  # one alarm, naming only the cheat


def test_a_guest_that_plays_a_card_not_dealt_to_it_is_named(table: Table) -> None:
    t = table
    shots(t.guests[1], "lobby-private-guest-ru", show="#net-privacy")  # its lobby in Russian
    t.start()
    cheat, victim = t.guests
    view = t.until_to_play(cheat)
    theirs = t.view(victim)["hand"]
    mine = [
        a.split()[1] for a in view["legal"] if a.startswith("play ") and not a.endswith(" declare")
    ]
    # A card of the other guest's hand, of a suit the cheat may play, from a position of its own.
    suits = {suit_of(parse_card(c)) for c in mine}
    card = next((c for c in theirs if suit_of(parse_card(c)) in suits), theirs[0])
    own = position_of(
        master_of(cheat), seat_of(cheat), public_messages(received(cheat)), mine[0], 0
    )
    cheat.evaluate(SEND_PLAY, [card, own])
    named_by(t, [t.host, victim], seat_of(cheat))
    # The evidence in each player's language, the cheat named and numbered from 1.
    name = cheat.evaluate("thousand.session.name")
    # (The audit's words when only the keys could tell; a peer that held the card
    # itself refused the play at once, and the others say what that peer found.)
    seat = seat_of(cheat) + 1
    for page, words in ((t.host, f"(seat {seat})"), (victim, f"(место {seat})")):
        text = " ".join(t.alarms(page))
        assert words in text and name in text, text
        assert "сыграл" in text or "показал" in text or page is t.host, text
        # Never the audit's own English words, or another peer's, with seats counted from 0.
        assert "this table knows" not in text and "which holds" not in text, text
    # The move is told once, though the alarms redraw the table.
    for page in (t.host, victim):
        lines = page.locator("#story span").all_inner_texts()
        assert lines and all(a != b for a, b in itertools.pairwise(lines)), lines
    # The alarm strip sits under the top bar, never over it: desktop and phone, en and ru.
    for page, who in ((t.host, "host-en"), (victim, "guest-ru")):
        size = page.viewport_size
        for kind, box in (("desktop", size), ("phone", {"width": 360, "height": 740})):
            page.set_viewport_size(box)  # type: ignore[arg-type]
            bar = page.locator("body > header").bounding_box()
            alarm = page.locator("#net-alarms").bounding_box()
            assert bar and alarm and alarm["y"] >= bar["y"] + bar["height"] - 0.5, (bar, alarm)
            page.screenshot(path=str(RESULTS / f"multiplayer-cheat-named-{who}-{kind}.png"))
        page.set_viewport_size(size)  # type: ignore[arg-type]


def test_a_guest_that_revokes_is_named_at_the_end_of_the_hand(table: Table) -> None:
    t = table
    t.start()
    cheat = t.guests[0]

    def can_revoke(view: dict) -> bool:
        return bool(view["trick"]) and any(f"play {c}" not in view["legal"] for c in view["hand"])

    def dealt(card: str) -> int | None:
        """The card's deal position, found with the cheat's own key (None: it came in a pass)."""
        try:
            deal = int(cheat.evaluate("thousand.session.state.deal"))
            return position_of(
                master_of(cheat), seat_of(cheat), public_messages(received(cheat)), card, deal
            )
        except LookupError:
            return None

    refused = f"thousand.session.log.filter((e) => e.seat === {seat_of(cheat)}).length"
    for _ in range(8):
        view = t.until_to_play(cheat, can_revoke)
        revokes = [c for c in view["hand"] if f"play {c}" not in view["legal"]]
        card, position = next((c, j) for c in revokes if (j := dealt(c)) is not None)
        before = t.host.evaluate(refused)
        cheat.evaluate(SEND_PLAY, [card, position])
        # Where the host can already prove the seat holds the suit (from the cards it
        # knows), it refuses the move at once and relays nothing: the cheat plays on
        # honestly and tries again at a later trick, where only the keys can tell.
        t.host.wait_for_function(
            f"n => {refused} > n || document.querySelector('#net-alarms .net-alarm')",
            arg=before,
            timeout=60_000,
        )
        if t.host.evaluate(refused) == before:
            break
        legal = next(a for a in view["legal"] if a.startswith("play "))
        cheat.evaluate("a => thousand.session.act(a)", legal)
    named_by(t, [t.host, t.guests[1]], seat_of(cheat))
    assert any("broke the rules with move" in a for a in t.alarms(t.host)), t.alarms(t.host)
    assert any("нарушил правила" in a for a in t.alarms(t.guests[1])), t.alarms(t.guests[1])


def test_a_host_that_deals_itself_a_chosen_card_by_lying_in_the_shuffle_is_named(
    table: Table,
) -> None:
    t = table
    # The host's key for the first deal, from its own storage: it locks the card it wants
    # and slips it into its shuffled deck in place of a card (the second card, where the
    # first is already the one it wants: else the deck would be honest).
    key = seat_secret(master_of(t.host), 0, 0).key
    chosen = mp.to_wire(mp.lock(key, [mp.encode(parse_card("AH"))])[0])
    t.host.evaluate(
        """(chosen) => {
      const engine = thousand.engine, call = engine.call.bind(engine);
      engine.call = async (name, ...args) => {
        const state = await call(name, ...args);
        for (const m of state?.out ?? [])
          if (m.t === "shuffle" && m.seat === 0 && m.deal === 0)
            m.deck[m.deck[0] === chosen ? 1 : 0] = chosen;
        return state;
      };
    }""",
        chosen,
    )
    t.start()
    t.play_until(lambda: any(t.alarms(p) for p in t.guests), limit=600)
    named_by(t, t.guests, 0)
    # Its deck repeats a card, so the shuffle stops at its turn (or, a subtler lie, the
    # keys show it): either way the evidence is the shuffle, in each guest's language.
    assert "shuffle" in " ".join(t.alarms(t.guests[0]))
    assert "тасовк" in " ".join(t.alarms(t.guests[1]))


def test_a_guest_that_keeps_its_keys_is_named_when_the_time_is_up(table: Table) -> None:
    t = table
    t.start()
    cheat = t.guests[1]
    cheat.evaluate(
        """() => { const tr = thousand.session.transport, send = tr.send.bind(tr);
           tr.send = (m, to) => (m?.t === "reveal" ? undefined : send(m, to)); }"""
    )
    hand = t.hand_no(t.host)
    t.play_until(lambda: t.view(t.host)["hand_no"] > hand or bool(t.alarms(t.host)), limit=600)
    named_by(t, [t.host, t.guests[0]], seat_of(cheat))
