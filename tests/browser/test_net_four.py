"""Four friends at one table: four real Chromium contexts, real WebRTC, a real local relay.

With four players the dealer sits the deal out (RULES.md §11): its browser
still shuffles and unlocks with the others, but is dealt no card. One whole
hand is played through the UI; every page's engine audits it fair, and no
page could read a card that was not its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

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
from playwright.sync_api import Browser, BrowserContext

PLAYERS = 4
FOUR_PLAYERS = """(() => { const key = "thousand.prefs";
  const prefs = JSON.parse(localStorage.getItem(key) || "{}");
  prefs.setup = { ...(prefs.setup ?? {}), preset: "classic", rules: { players: @N@ } };
  localStorage.setItem(key, JSON.stringify(prefs)); })();""".replace("@N@", str(PLAYERS))


@pytest.fixture(scope="module")
def four(
    browser: Browser, site_url: str, returning_context: Callable[[], BrowserContext]
) -> Iterator[Table]:
    with relay() as url:
        t = Table(browser, site_url, url, guests=PLAYERS - 1, new_context=returning_context)
        t.contexts[0].add_init_script(FOUR_PLAYERS)  # the host's own setting: four players
        t.open_host()
        ru = t.guest_url().replace("?delay=0", "?delay=0&lang=ru", 1)
        t.join_together(t.guests, [ru, *[t.guest_url()] * (PLAYERS - 2)])
        t.start()
        yield t
        t.close()


def test_four_friends_play_a_hand_with_the_dealer_sitting_out(four: Table) -> None:
    host = four.host
    assert host.evaluate("thousand.session.rules.players") == PLAYERS
    seats = [p.evaluate("thousand.session.seat") for p in four.pages]
    assert sorted(seats) == list(range(PLAYERS))
    dealer = int(host.evaluate("thousand.view.dealer"))
    sitting_out = four.pages[seats.index(dealer)]
    assert sitting_out.evaluate("thousand.view.hand.length") == 0
    assert sitting_out.locator("#hand [data-card]").count() == 0
    shots(sitting_out, "four-dealer-en" if sitting_out != four.guests[0] else "four-dealer-ru")
    shots(four.guests[0], "four-ru")
    start = four.hand_no(host)
    four.play_until(lambda: all(four.hand_no(p) > start for p in four.pages))
    # Every page's engine checked the finished deal with every key and found it fair.
    for page in four.pages:
        page.wait_for_function("thousand.session.verdicts.checked > 0", timeout=60_000)
        assert four.alarms(page) == []
    scores = {json.dumps(p.evaluate("thousand.view.scores")) for p in four.pages}
    assert len(scores) == 1, scores
    log = host.evaluate("thousand.session.record.log")
    truth = true_deal(log, PLAYERS, dealer=dealer)
    assert truth["hands"][dealer] == set()
    talon_openers = {m["seat"] for m in log if m["t"] == "unlock" and m["stage"] == "talon"}
    for page, seat in zip(four.pages, seats, strict=True):
        messages = public_messages(received(page))
        first_reveal = next(k for k, m in enumerate(messages) if m["t"] == "reveal")
        opened = opened_by(master_of(page), seat, messages[:first_reveal])
        # The talon is this seat's to know if it was shown to all or it took it.
        shown = len(talon_openers) == PLAYERS or seat not in talon_openers
        allowed = (
            truth["hands"][seat] | truth["passed"][seat] | (truth["talon"] if shown else set())
        )
        assert truth["hands"][seat] <= opened, "the seat's own keys open its own cards"
        assert opened <= allowed, f"seat {seat} could read {opened - allowed}"
    assert four.errors == []
