"""The table tells the story: what happened, why a card is refused, and the words.

Real Chromium, the built site and the real engine, driven through the page.
These tests cover what a new player needs to follow a hand without knowing
the rules: the languages (every key in every language, Russian card
letters and words from the first screen), why a dimmed card may not be
played, and a four-player hand whose dealer sits out.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from site_harness import Console
from table_driver import (
    after,
    close_dialog,
    import_game,
    moves,
    open_page,
    overflow,
    view,
    wait_turn,
)
from thousand import Game, Rules
from thousand.bots import choose


def test_every_word_in_every_language_and_russian_from_the_first_screen(
    page: Page, site_url: str, console: Console, shot
) -> None:
    open_page(page, site_url, "?delay=0&bots=random&lang=ru")
    welcome = page.locator('dialog[data-dialog="welcome"]')
    expect(welcome).to_be_visible()
    # Behind the welcome, your seat already speaks Russian.
    expect(page.locator("#your-name")).to_have_text("Вы")
    shot("welcome-ru")
    # Every key of the interface exists in every language it offers.
    missing = page.evaluate(
        """async () => {
            const { DICTS, LANGUAGES } = await import(new URL("i18n.js", location.href));
            const out = {};
            for (const code of Object.keys(LANGUAGES)) {
                out[code] = Object.keys(DICTS.en).filter((k) => !Object.hasOwn(DICTS[code], k));
            }
            return out;
        }"""
    )
    assert missing == {"en": [], "ru": [], "uk": [], "pl": []}, missing
    welcome.locator('[data-value="settings"]').click()
    settings = page.locator('dialog[data-dialog="settings"]')
    # The third-bolt setting's "off" is in Russian too.
    options = "el => [...el.options].map((o) => o.textContent).join(' | ')"
    bolt = settings.locator("#rule-bolt_mode").evaluate(options)
    assert "никогда" in bolt and "off" not in bolt, bolt
    assert "ни одной взятки" in settings.locator("#rule-bolt_rule").evaluate(options)
    close_dialog(page, "settings", "null")
    expect(welcome).to_be_visible()
    welcome.locator('[data-value="play"]').click()
    # The bots play on at once, so the cards are read in one go, once they show the view's hand.
    cards = page.wait_for_function(
        """() => {
            const hand = globalThis.thousand?.view?.hand ?? [];
            const cards = [...document.querySelectorAll("#hand .card")].map((c) => ({
                card: c.dataset.card,
                letter: c.querySelector(".corner").dataset.r,
                label: c.getAttribute("aria-label"),
            }));
            const shown = cards.map((c) => c.card).sort().join();
            return hand.length && shown === [...hand].sort().join() ? cards : null;
        }""",
        polling=100,
    ).json_value()
    # Russian decks: В Д К Т for J Q K A, and the cards are named in Russian.
    expected = {"9": "9", "J": "В", "Q": "Д", "K": "К", "T": "10", "A": "Т"}
    assert [c["letter"] for c in cards] == [expected[c["card"][0]] for c in cards]
    aces = [c["label"] for c in cards if c["card"][0] == "A"]
    assert all(label and "туз" in label for label in aces), aces
    shot("table-ru")
    assert console.errors == []


def _last_trick_of_a_four_player_hand() -> str:
    """A four-player game stopped before the last trick of its first hand (the dealer sits out)."""
    game = Game.new(rules=Rules.preset("four_players"), seed=5)
    k = 0
    while not (game.phase == "play" and sum(game.view(None)["hand_sizes"]) == 3):
        game.apply(choose(game.view(game.current_player), "random", k))
        k += 1
    assert game.sitting_out == game.dealer != 0
    return game.to_json()


def _open_the_last_trick_of_four(page: Page, site_url: str, query: str) -> int:
    """The page with that four-player game imported; the seat that sits out."""
    open_page(page, site_url, query)
    text = _last_trick_of_a_four_player_hand()
    import_game(page, text)
    return Game.from_json(text).dealer


def test_a_four_player_hand_with_the_dealer_sitting_out(
    page: Page, site_url: str, console: Console, shot
) -> None:
    page.set_viewport_size({"width": 1000, "height": 800})
    # At a computer's pace (not instant), so the final trick's moment shows.
    out = _open_the_last_trick_of_four(page, site_url, "?delay=300&bots=random&lang=en")
    # The dealer's seat says it sits out.
    expect(page.locator(f'.seat[data-seat="{out}"] .chip.sits-out')).to_have_text("sits out")
    shot("four-players")
    # You lead the last trick; the computer players follow.
    assert wait_turn(page) == "turn"
    card = next(a for a in view(page)["legal"] if a.startswith("play ")).split()[1]
    n = moves(page)
    page.locator(f'#hand [data-card="{card}"]').click()
    after(page, n)
    # The hand is scored, and its final trick stays on the table a moment first.
    page.wait_for_function(
        """() => thousand.view.sheet.length === 1 && !document.querySelector('dialog[open]')
            && document.querySelectorAll('#trick .card').length === 3""",
        polling=20,
    )
    expect(page.locator("#trick .trick-winner")).to_be_visible()
    shot("final-trick")
    summary = page.locator('dialog[data-dialog="summary"]')
    expect(summary).to_be_visible()
    # Then the summary covers it, and behind it the next deal has no old trick.
    expect(page.locator("#trick .card")).to_have_count(0)
    row = view(page)["sheet"][-1]
    delta = row["deltas"][out]
    line = summary.locator("tbody tr").nth(out)
    expect(line).to_contain_text("sits out")
    result = line.locator("td.delta").inner_text()
    shown = f"+{delta}" if delta > 0 else ("0" if delta == 0 else f"−{-delta}")
    assert result == shown, (result, delta)
    # In the English interface the marks are not Cyrillic letters.
    marks = summary.locator(".mark").all_inner_texts()
    assert not any("\u0400" <= ch <= "\u04ff" for m in marks for ch in m), marks
    shot("four-players-summary")
    close_dialog(page, "summary")
    assert console.errors == []


def test_a_four_player_table_fits_a_phone_in_russian(
    page: Page, site_url: str, console: Console, shot
) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    out = _open_the_last_trick_of_four(page, site_url, "?delay=0&bots=random&lang=ru")
    expect(page.locator(f'.seat[data-seat="{out}"] .chip.sits-out')).to_have_text("не играет")
    # Three seats across a phone: nothing sticks out, and every name shows.
    assert overflow(page) == 0
    names = page.locator(".seat .name").evaluate_all("els => els.map((e) => e.clientWidth)")
    assert len(names) == 3 and min(names) > 20, names
    shot("four-players-phone-ru")
    card = next(a for a in view(page)["legal"] if a.startswith("play ")).split()[1]
    page.locator(f'#hand [data-card="{card}"]').click()
    summary = page.locator('dialog[data-dialog="summary"]')
    expect(summary).to_be_visible()
    # Every column of the hand's summary fits the phone.
    table = summary.locator(".summary-table")
    wide = table.evaluate("t => t.offsetWidth - t.parentElement.clientWidth")
    assert wide <= 0, wide
    shot("four-players-summary-phone-ru")
    close_dialog(page, "summary")
    # The next deal's story never runs under the last trick's button.
    expect(page.locator("#story")).to_be_visible()
    # Measured in one read (the computer players move on between two reads). However
    # long the centre's content grows, its box ends above the button.
    story, content, button = page.evaluate(
        """() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            const center = document.querySelector(".center");
            const pad = parseFloat(getComputedStyle(center).paddingBottom);
            return [box("#story").bottom, box(".center").bottom - pad, box("#btn-last-trick").top];
        }"""
    )
    assert story <= button and content <= button, (story, content, button)
    assert overflow(page) == 0
    shot("four-players-next-deal-phone-ru")
    assert console.errors == []


# A redeal you claim (a hand worth less than 13), then the same dealer's
# second deal, where a computer player wins the bidding and gives you a card
# (face up: classic rules pass the cards face up).
WEAK_DEAL = {
    "hands": [
        ["9S", "9C", "9D", "9H", "JS", "JC", "QC"],
        ["AH", "TH", "KH", "QH", "AD", "TD", "KD"],
        ["AS", "TS", "KS", "QS", "AC", "TC", "KC"],
    ],
    "talon": ["QD", "JD", "JH"],
    "dealer": 0,
}
SECOND_DEAL = {
    "hands": [
        ["9S", "9C", "9D", "JS", "JC", "QC", "JH"],
        WEAK_DEAL["hands"][1],
        WEAK_DEAL["hands"][2],
    ],
    "talon": ["QD", "JD", "9H"],
    "dealer": 0,
}
STORY_WORDS = {
    "en": {
        "redeal": "Redeal: You — hand worth less than 13",
        "deal": "First hand: Anna, on 100",
        "gave": "gave you",
        "hidden": "to Boris",
        "trick": "took the trick",
        "from": "from",
    },
    "ru": {
        "redeal": "Пересдача: Вы — на руке меньше 13 очков",
        "deal": "Анна: первая рука, 100 без слов",
        "gave": "Снос вам:",
        "hidden": "→ Борис",
        "trick": "Взятку берёт",
        "from": "от:",
    },
}


@pytest.mark.parametrize(
    ("lang", "width", "height"),
    [("en", 1000, 800), ("ru", 360, 740), ("ru", 1000, 800), ("en", 360, 740)],
)
def test_a_redeal_and_a_hand_the_computer_declares_are_told(
    page: Page, site_url: str, console: Console, shot, lang: str, width: int, height: int
) -> None:
    words = STORY_WORDS[lang]
    page.set_viewport_size({"width": width, "height": height})
    open_page(page, site_url, f"?delay=0&bots=random&lang={lang}")
    import_game(page, Game.new(seed=21, deal=[WEAK_DEAL, SECOND_DEAL]).to_json())
    # Every line the story shows, as it shows it.
    page.evaluate(
        """() => {
            window.storyLog = [];
            new MutationObserver(() => storyLog.push(document.getElementById('story').innerText))
              .observe(document.getElementById('story'), {childList: true, subtree: true});
        }"""
    )
    story = page.locator("#story")
    assert wait_turn(page) == "turn"
    n = moves(page)
    page.locator('#actions [data-action="redeal"]').click()
    after(page, n)
    # The redeal and its reason, then the new deal and its automatic 100.
    expect(story.locator(".story-ended")).to_have_text(words["redeal"])
    expect(story).to_contain_text(words["deal"])
    shot(f"redeal-{lang}-{width}")
    assert wait_turn(page) == "turn"
    n = moves(page)
    page.locator('#actions [data-action="pass"]').click()
    after(page, n)
    # The redeal note does not linger: it goes with the next change.
    expect(story.locator(".story-ended")).to_have_count(0)
    expect(story).not_to_contain_text(words["redeal"])
    # The sheet: the redeal row does not take the hand's number.
    page.locator("#btn-sheet").click()
    numbers = page.locator(".sheet tbody th").all_inner_texts()
    assert numbers == ["↻"], numbers
    shot(f"redeal-sheet-{lang}-{width}")
    close_dialog(page, "sheet")
    # A computer player declares: you receive a card, marked in your hand.
    seen_received = False
    for _ in range(12):
        state = wait_turn(page)
        if state != "turn":
            break
        v = view(page)
        mine = {c for c, to in v["given"] if to == 0 and c}
        played = {c for t in v["tricks"] for _, c in t["cards"]}
        received = page.locator("#hand .card.received")
        expect(received).to_have_count(len(mine - played))
        if mine - played and not seen_received:
            assert words["from"] in (received.first.get_attribute("data-from") or "")
            shot(f"received-{lang}-{width}")
            seen_received = True
        card = next(a for a in v["legal"] if a.startswith("play ")).split()[1]
        n = moves(page)
        page.locator(f'#hand [data-card="{card}"]').click()
        if page.locator('dialog[data-dialog="declare"]').count():
            close_dialog(page, "declare")
        after(page, n)
    assert seen_received
    assert wait_turn(page) == "dialog:summary"
    shot(f"computer-summary-{lang}-{width}")
    log = "\n".join(page.evaluate("storyLog"))
    for key in ("gave", "hidden", "trick"):
        assert words[key] in log, (key, log)
    assert console.errors == []
