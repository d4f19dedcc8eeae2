"""Play with friends over two kinds of relay: finding the table, the connection picture, the chat.

One table for the module: a host and two guests in real Chromium contexts,
signalling through two local relays of different kinds started here (a
WebTorrent tracker and a Nostr relay). The tracker is killed while the host
waits in the lobby; both guests then open the link at the same moment and
still join and play, through the Nostr relay alone. The tests then use the
table in order: the connection picture with round-trip times (under the
top bar, clear of the cards), a guest going offline and coming back, the
chat and its rate limit, and a guest who closes the tab mid-hand, shown to
everyone as gone, whose seat the host gives to a computer at once: the hand
is dealt again and played to its end with the computer seat, and that player
is told so on coming back. The first guest's page is in Russian, so the
screenshots show both languages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from net_harness import PHONE, Table, init_script, kill_relay, relay, shots
from playwright.sync_api import Browser, BrowserContext, Page, expect
from table_driver import close_dialog

DEAD_RELAYS = ["ws://127.0.0.1:9", "nostr:ws://127.0.0.1:9"]  # nothing listens on port 9
FAST = {"awayMs": 20_000, "pingMs": 500, "lateMs": 3_000, "chatBurst": 5, "chatEveryMs": 2_000}


def test_a_guest_nobody_answers_is_told_what_can_help(
    site_url: str, returning_context: Callable[[], BrowserContext]
) -> None:
    """Relays that do not answer: after the wait the lobby says so and offers retry, relay, TURN."""
    link = "#room=" + "r" * 22 + "&key=" + "k" * 22
    for lang in ("en", "ru"):
        ctx = returning_context()
        ctx.add_init_script(init_script(DEAD_RELAYS, {"noPeerMs": 1500}))
        page = ctx.new_page()
        page.goto(f"{site_url}?delay=0&lang={lang}{link}")
        box = page.locator("#net-nopeer")
        expect(box).to_be_visible(timeout=30_000)
        expect(box.locator(".net-nopeer-relays")).to_contain_text(" 0 ")
        for button in ("#net-retry", "#net-other-relay", "#net-add-turn"):
            expect(box.locator(button)).to_be_visible()
        words = "Nobody has answered" if lang == "en" else "пока никто не ответил"
        expect(box).to_contain_text(words)
        # "Another relay" opens the connection settings at the relay list.
        page.click("#net-other-relay")
        expect(page.locator("#net-relays")).to_be_focused()
        box.scroll_into_view_if_needed()
        shots(page, f"nopeer-{lang}")
        ctx.close()


@pytest.fixture(scope="module")
def table(
    browser: Browser, site_url: str, returning_context: Callable[[], BrowserContext]
) -> Iterator[Table]:
    with relay("torrent") as tracker, relay("nostr") as nostr:
        t = Table(browser, site_url, [tracker, nostr], config=FAST, new_context=returning_context)
        t.open_host()
        t.host.wait_for_timeout(1500)  # the host is announced on both relays
        kill_relay(tracker)
        ru = t.guest_url().replace("?delay=0", "?delay=0&lang=ru", 1)
        t.seconds = t.join_together(t.guests, [ru, t.guest_url()])
        t.start()
        yield t
        t.close()


def presence(page: Page) -> list[str]:
    return page.locator("#net-strip .net-presence-seat").evaluate_all(
        "els => els.map((e) => e.dataset.status)"
    )


def test_both_guests_join_at_once_and_play_with_one_relay_dead(table: Table) -> None:
    assert len(table.seconds) == 2 and all(s < 60 for s in table.seconds)
    # A friend's first visit is seated first: Python boots once the host has answered
    # (or after 4 s, whichever comes first), and nothing of Pyodide loads before that.
    for guest in table.guests:
        host, asked, loaded = (
            table.mark(guest, f"thousand:{m}")
            for m in ("net-host", "boot-asked", "pyodide-script-loaded")
        )
        assert host is not None and asked is not None and loaded is not None
        assert asked >= min(host, 3.9) and loaded >= asked, (host, asked, loaded)
    acts = "thousand.session.record.log.filter((m) => m.t === 'act').length"
    before = table.host.evaluate(acts)
    # Everyone moves through the UI (bidding, talon, the first tricks).
    table.play_until(lambda: table.host.evaluate(acts) >= before + 12)
    assert table.errors == [] or all("ws://127.0.0.1" in e for e in table.errors), table.errors


def test_a_message_the_guest_cannot_match_or_lost_is_sent_again_whole(table: Table) -> None:
    """A guest's own message comes back as its number and digest only; one that matches
    nothing it sent, or a public message lost on the way, makes it ask for the whole
    messages again, and it follows the hand on with nothing missing."""
    guest = table.guests[1]
    guest.evaluate(
        """() => {
      const s = thousand.session, tr = s.transport;
      // The next message this seat sends is forgotten: its digest will match nothing.
      const remember = s._remember.bind(s);
      s.forgot = 0;
      s._remember = async () => {
        s._remember = remember;
        s.forgot = 1;
      };
      // The next public message of another seat is lost on the way.
      const receive = tr._receive.bind(tr);
      s.lost = 0;
      tr._receive = (data, peer) => {
        if (!s.lost && typeof data === "string" && data.includes('"t":"pub"')) {
          s.lost = 1;
          return;
        }
        receive(data, peer);
      };
    }"""
    )
    host_log = "thousand.session.record.log.length"
    before = table.host.evaluate(host_log)
    table.play_until(
        lambda: (
            table.host.evaluate(host_log) >= before + 6
            and guest.evaluate("thousand.session.forgot && thousand.session.lost")
        )
    )
    guest.wait_for_function("thousand.session.resends.mismatch >= 1", timeout=20_000)
    guest.wait_for_function(
        "(({gap, quiet}) => gap + quiet >= 1)(thousand.session.resends)", timeout=20_000
    )
    # Nothing was lost: the guest followed every public message, in the host's order.
    guest.wait_for_function(
        "n => thousand.session._have >= n", arg=table.host.evaluate(host_log), timeout=20_000
    )
    assert table.host.evaluate("thousand.session.transport.sentByKind.own.messages") > 0
    acts = "thousand.session.record.log.filter((m) => m.t === 'act').length"
    moved = table.host.evaluate(acts)
    table.play_until(lambda: table.host.evaluate(acts) >= moved + 6)
    assert guest.evaluate("thousand.session._early.size") == 0
    for page in table.pages:
        assert table.alarms(page) == []


def strip_and_cards(table: Table, page: Page) -> dict[str, Any]:
    """Where the connection strip ends and each card of the hand begins, read together
    once this seat holds cards. Between hands, while the hand redraws itself, or after
    its last card with another player's still to come, it holds none: the table plays
    on until it does."""
    found: dict[str, Any] = {}

    def dealt() -> bool:
        found.update(
            page.evaluate(
                """() => {
                    const cards = [...document.querySelectorAll('#hand [data-card]')];
                    const strip = document.querySelector('#net-strip');
                    if (!strip || cards.length === 0) return null;
                    return {bottom: strip.getBoundingClientRect().bottom,
                            tops: cards.map((c) => c.getBoundingClientRect().top)};
                }"""
            )
            or {}
        )
        return bool(found)

    table.play_until(dealt)
    return found


def test_every_seat_shows_its_connection_and_round_trip_time(table: Table) -> None:
    for page in table.pages:
        expect(page.locator("#net-strip .net-presence-seat")).to_have_count(3)
        page.wait_for_function(
            "document.querySelectorAll('#net-strip .net-presence-state').length === 3 && "
            "[...document.querySelectorAll('#net-strip .net-presence-state')].filter("
            "(e) => /\\d+ (ms|мс)/.test(e.textContent)).length >= 2",
            timeout=20_000,
        )
        assert presence(page) == ["host", "connected", "connected"], presence(page)
    # A host under the default name is not called host twice.
    line = table.host.locator("#net-strip .net-presence-seat").first.inner_text()
    assert line.lower().count("host") == 1, line
    # The picture sits in the page's flow: at 360×740 it covers no card.
    for page in (table.host, table.guests[0]):
        page.set_viewport_size(PHONE)
        layout = strip_and_cards(table, page)
        assert all(layout["bottom"] <= y for y in layout["tops"]), layout
        page.set_viewport_size({"width": 1280, "height": 720})
    shots(table.host, "presence-en")
    shots(table.guests[0], "presence-ru")


def seat_of(page: Page) -> str:
    return str(page.evaluate("thousand.session.seat"))


def test_a_guest_that_goes_offline_shows_as_away(table: Table) -> None:
    offline = table.contexts[2]
    line = f'#net-strip [data-seat="{seat_of(table.guests[1])}"]'
    offline.set_offline(True)
    for page in (table.host, table.guests[0]):
        expect(page.locator(line)).to_have_attribute("data-status", "away", timeout=15_000)
    expect(table.host.locator(line)).to_contain_text("away")
    expect(table.guests[0].locator(line)).to_contain_text("отключился")
    shots(table.host, "away-en")
    shots(table.guests[0], "away-ru")
    offline.set_offline(False)
    for page in (table.host, table.guests[0]):
        expect(page.locator(line)).to_have_attribute("data-status", "connected", timeout=30_000)


def test_chat_lines_and_reactions_reach_everyone(table: Table) -> None:
    sender = table.guests[0]
    table.click(sender, "#net-chat-open")  # past a hand's summary, if one is open
    sender.fill("#net-chat-text", "Привет всем")
    sender.press("#net-chat-text", "Enter")
    table.click(sender, '#net-chat [data-react="gg"]')
    for page in table.pages:
        log = page.locator("#net-chat .net-chat-log li")
        expect(log.filter(has_text="Привет всем")).to_have_count(1)
        expect(page.locator('#net-chat li[data-react="gg"]')).to_have_count(1)
    expect(table.host.locator('#net-chat li[data-react="gg"]')).to_contain_text("Good game")
    expect(sender.locator('#net-chat li[data-react="gg"]')).to_contain_text("Хорошая игра")
    # The host's own line reaches the guests too; and a closed panel counts what is unread.
    table.click(table.host, "#net-chat-open")
    table.host.fill("#net-chat-text", "Well, shall we?")
    table.host.press("#net-chat-text", "Enter")
    expect(table.guests[1].locator("#net-chat-open")).to_have_text("Chat (3)")
    expect(sender.locator("#net-chat li", has_text="Well, shall we?")).to_have_count(1)
    shots(table.host, "chat-en")
    shots(sender, "chat-ru")
    for page in (table.host, sender):
        table.click(page, "#net-chat .net-chat-close")
    expect(sender.locator("#net-chat")).to_be_hidden()


def test_a_chat_flood_is_rate_limited_and_a_long_line_refused(table: Table) -> None:
    flooder, reader = table.guests
    line = f'#net-chat li[data-seat="{seat_of(flooder)}"]'
    before = reader.locator(line).count()
    rejected = table.host.evaluate("thousand.session.rejected.byCode['chat-limited'] ?? 0")
    flooder.evaluate(
        """() => { const s = thousand.session, say = (m) => s.transport.send(m, s.hostPeer);
           for (let i = 0; i < 30; i++) say({ t: "chat", text: `spam ${i}`, react: null });
           say({ t: "chat", text: "x".repeat(201), react: null });
           say({ t: "chat", text: "both", react: "gg" }); }"""
    )
    table.host.wait_for_function(
        "n => (thousand.session.rejected.byCode['chat-limited'] ?? 0) >= n + 20",
        arg=rejected,
        timeout=15_000,
    )
    expect(flooder.locator("#net-chat .net-chat-note")).not_to_be_empty()
    reader.wait_for_timeout(500)
    arrived = reader.locator(line).count() - before
    assert 1 <= arrived <= FAST["chatBurst"] + 1, arrived
    assert reader.locator("#net-chat li", has_text="x" * 201).count() == 0
    assert reader.locator("#net-chat li", has_text="both").count() == 0


def log_of(page: Page, kind: str) -> list[dict[str, Any]]:
    return list(page.evaluate("k => thousand.session.record.log.filter((m) => m.t === k)", kind))


def in_language(table: Table, page: Page, lang: str) -> None:
    """Switch a page's words live, through the menu's language switch, as a player does."""
    table.click(page, "#btn-menu")  # a hand's summary that is open is closed first
    page.locator("#language").select_option(lang)
    close_dialog(page, "menu", "null")
    page.wait_for_timeout(FAST["pingMs"] * 2)  # the connection picture redraws itself


def test_a_guest_who_closes_the_tab_is_replaced_by_a_computer_at_once(table: Table) -> None:
    host, watcher, leaver = table.host, table.guests[0], table.guests[1]
    seat = int(seat_of(leaver))
    line = f'#net-strip [data-seat="{seat}"]'
    # Mid-hand: a few moves are made first, and the hand cannot end without the
    # leaver (nobody is declaring or writing off, tricks are left to play, no
    # claim has ended it).
    acts = len(log_of(host, "act"))

    def mid_hand() -> bool:
        view = table.view(host)
        return (
            len(log_of(host, "act")) >= acts + 3
            and view["phase"] in ("bidding", "play")
            and len(view["hand"]) >= 3
            # a redeal claim ends a hand in the bidding: its keys are being revealed
            and not host.evaluate("thousand.session.state.revealing")
        )

    table.play_until(mid_hand)
    leaver.close(run_before_unload=True)
    table.pages.remove(leaver)
    expect(host.locator(line)).to_have_attribute("data-status", "left", timeout=15_000)
    expect(watcher.locator(line)).to_have_attribute("data-status", "left")
    before = host.evaluate(
        "({deal: thousand.session.state.deal, hand: thousand.view.hand_no, "
        "dealer: thousand.view.dealer, rows: thousand.view.sheet.length})"
    )
    # A player who said goodbye may be replaced at once: only the host is offered it.
    button = host.locator(f"{line} button.net-replace")
    expect(button).to_have_text("Replace with a computer")
    assert watcher.locator(f"{line} button").count() == 0
    shots(host, "replace-en")
    story = host.locator("#story")
    table.close_dialogs(host)  # a hand that has just ended shows its summary first
    told = story.inner_text()
    in_language(table, host, "ru")
    expect(button).to_have_text("Заменить компьютером")
    # The chat's words follow the switch too, its count of unread lines kept.
    expect(host.locator("#net-chat-open")).to_have_text(re.compile(r"^Чат(\s\(\d+\))?$"))
    placeholder = host.locator("#net-chat-text").get_attribute("placeholder")
    assert placeholder == "Сообщение (до 200 знаков)"
    # The story of the deal so far is told again in the new language.
    assert told and story.inner_text() != told
    shots(host, "replace-ru")
    in_language(table, host, "en")
    table.click(host, f"{line} button.net-replace")
    # Every page shows the seat as a computer run by the host, in its own words.
    for page, words in (
        (host, "computer, run by the host"),
        (watcher, "компьютер, им управляет хозяин"),
    ):
        expect(page.locator(line)).to_have_attribute("data-status", "replaced", timeout=15_000)
        expect(page.locator(line)).to_contain_text(words)
    expect(host.locator("#story")).to_contain_text("A computer plays for")
    expect(watcher.locator("#story")).to_contain_text("Вместо игрока")
    assert host.locator(f"{line} button").count() == 0
    replace = log_of(host, "replace")
    assert replace == [{"t": "replace", "deal": before["deal"], "seat": seat, "level": "normal"}]
    # The deal whose cards nobody can open is dealt again from its start, by the same dealer.
    for page in (host, watcher):
        page.wait_for_function(
            "d => thousand.session.state.deal === d + 1 && thousand.view.hand.length === 7",
            arg=before["deal"],
            timeout=30_000,
        )
        view = table.view(page)
        assert (view["hand_no"], view["dealer"], len(view["sheet"])) == (
            before["hand"],
            before["dealer"],
            before["rows"],
        )
    shots(host, "replaced-en")
    shots(watcher, "replaced-ru")
    # The host and the other guest play on with the computer seat to the end of that
    # deal (played out, or dealt again on a claim: either is one row of the sheet).
    audited = "d => String(d + 1) in thousand.session.state.verdicts"
    table.play_until(lambda: host.evaluate(audited, before["deal"]), limit=1200)
    for page in (host, watcher):
        page.wait_for_function(audited, arg=before["deal"])
        assert page.evaluate("thousand.session.state.verdicts")[str(before["deal"] + 1)] == []
        assert str(before["deal"]) not in page.evaluate("thousand.session.state.verdicts")
        # The void hand scored nothing: one row more, the hand dealt again.
        assert len(table.view(page)["sheet"]) == before["rows"] + 1
    assert table.alarms(host) == [] and table.alarms(watcher) == []
    # Only the dead relay's refused connections, as in the first test, and the
    # connection to the closed page, which the peers' WebRTC reports as aborted.
    expected = ("ws://127.0.0.1", "reason=Close called")
    assert [e for e in table.errors if not any(x in e for x in expected)] == []


def settle(table: Table) -> tuple[Page, Page]:
    """Until a person is to move on a dealt hand the host holds cards in, and the watcher
    has every public message: nothing moves on the table by itself then. The table plays
    on to get there, as the host's last card of a hand may leave another person's to come.
    Returns the host and the watcher."""
    host, watcher = table.host, table.guests[0]
    table.play_until(
        lambda: host.evaluate(
            """() => { const s = thousand.session, turn = s.state?.turn;
               return thousand.view?.hand?.length > 0 && Number.isInteger(turn)
                 && s.record.seats[turn].kind !== "bot"; }"""
        )
    )
    count = host.evaluate("thousand.session.record.log.length")
    watcher.wait_for_function("n => thousand.session._have >= n", arg=count, timeout=15_000)
    return host, watcher


def test_a_wrong_replace_from_the_host_is_refused_and_changes_nothing(table: Table) -> None:
    host, watcher = settle(table)
    deal = host.evaluate("thousand.session.state.deal")
    state = watcher.evaluate("JSON.stringify(thousand.session.state.views)")
    # A host that publishes nonsense: its own seat, another deal.
    host.evaluate(
        """deal => { const s = thousand.session;
           for (const m of [{ t: "replace", deal, seat: 0, level: "easy" },
                            { t: "replace", deal: deal + 5, seat: 1, level: "easy" }]) {
             const i = s.record.log.push(m) - 1;
             s._persist(); // kept before it is sent, as the host keeps what it publishes
             s._broadcast({ t: "pub", i, m });
           } }""",
        deal,
    )
    expect(watcher.locator("#note")).to_contain_text("Замена игрока отклонена", timeout=15_000)
    count = host.evaluate("thousand.session.record.log.length")
    watcher.wait_for_function("n => thousand.session._have >= n", arg=count, timeout=15_000)
    assert watcher.evaluate("JSON.stringify(thousand.session.state.views)") == state
    assert watcher.evaluate("thousand.session.state.deal") == deal
    assert table.alarms(watcher) == []


def test_a_player_whose_seat_was_replaced_is_told_so_on_coming_back(table: Table) -> None:
    back = table.contexts[2].new_page()
    back.goto(table.guest_url())
    status = back.locator("#net-lobby-status")
    expect(status).to_contain_text("A computer player took your seat", timeout=60_000)
    expect(back.locator("#net-lobby")).to_have_attribute("data-seated", "false")
    # It is the first thing under the lobby's title, in sight on a phone too.
    assert status.evaluate("e => e.previousElementSibling.id") == "net-lobby-title"
    shots(back, "replaced-back-en")
    back.close()


def test_the_host_reloads_and_plays_on_with_the_computer_seat(table: Table) -> None:
    host, watcher = settle(table)
    state = host.evaluate(
        "({log: JSON.stringify(thousand.session.record.log), hand: thousand.view.hand, "
        "seats: thousand.session.state.seats, deal: thousand.session.state.deal})"
    )
    host.reload()
    host.wait_for_function("globalThis.thousand?.view != null", timeout=90_000)
    # Replayed from the public messages, the refused replace ones included: the same state.
    again = host.evaluate(
        "({log: JSON.stringify(thousand.session.record.log), hand: thousand.view.hand, "
        "seats: thousand.session.state.seats, deal: thousand.session.state.deal})"
    )
    assert again == state
    table.meets_the_host(watcher)
    expect(host.locator('#net-strip [data-status="replaced"]')).to_have_count(1, timeout=15_000)
    acts = len(log_of(host, "act"))
    table.play_until(lambda: len(log_of(host, "act")) >= acts + 4)
    assert table.alarms(host) == [] and table.alarms(watcher) == []


def test_a_message_the_host_signed_that_is_none_is_said_once_and_not_asked_for_again(
    table: Table,
) -> None:
    """Last in this module: the table cannot go on past such a message."""
    host, watcher = table.host, table.guests[0]
    at = host.evaluate(
        """() => { const s = thousand.session;
           const i = s.record.log.push({ t: "shuffle", deal: s.state.deal, deck: 5 }) - 1;
           s._broadcast({ t: "pub", i, m: s.record.log[i] });
           return i; }"""
    )
    expect(watcher.locator("#note")).to_contain_text("не может прочесть", timeout=15_000)
    watcher.wait_for_function(f"thousand.session._have === {at}")
    asked = watcher.evaluate("JSON.stringify(thousand.session.resends)")
    # A quiet table asks the host again every few seconds; not for this message.
    watcher.wait_for_timeout(2.5 * 4000)
    assert watcher.evaluate("JSON.stringify(thousand.session.resends)") == asked
    assert table.alarms(watcher) == []
