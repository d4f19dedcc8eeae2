"""The table tells the story: what happened, why a card is refused, and the words.

Real Chromium, the built site and the real engine, driven through the page.
These tests cover what a new player needs to follow a hand without knowing
the rules: the languages (every key in every language, Russian card
letters and words from the first screen), why a dimmed card may not be
played, and a four-player hand whose dealer sits out.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect
from site_harness import Console
from table_driver import after, close_dialog, import_game, moves, open_page, view, wait_turn
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
    page.wait_for_function("thousand.view && thousand.view.hand.length")
    # Russian decks: В Д К Т for J Q K A, and the cards are named in Russian.
    letters = page.locator("#hand .card .corner:not(.low)").evaluate_all(
        "els => els.map(e => e.dataset.r)"
    )
    hand = view(page)["hand"]
    expected = {"9": "9", "J": "В", "Q": "Д", "K": "К", "T": "10", "A": "Т"}
    assert sorted(letters) == sorted(expected[c[0]] for c in hand)
    if any(c[0] == "A" for c in hand):
        ace = next(c for c in hand if c[0] == "A")
        label = page.locator(f'#hand [data-card="{ace}"]').get_attribute("aria-label")
        assert label and "туз" in label, label
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


def test_a_four_player_hand_with_the_dealer_sitting_out(
    page: Page, site_url: str, console: Console, shot
) -> None:
    page.set_viewport_size({"width": 1000, "height": 800})
    open_page(page, site_url, "?delay=0&bots=random&lang=en")
    text = _last_trick_of_a_four_player_hand()
    out = Game.from_json(text).dealer
    import_game(page, text)
    # The dealer's seat says it sits out.
    expect(page.locator(f'.seat[data-seat="{out}"] .chip.sits-out')).to_have_text("sits out")
    shot("four-players")
    state = wait_turn(page)
    if state == "turn":
        card = next(a for a in view(page)["legal"] if a.startswith("play ")).split()[1]
        n = moves(page)
        page.locator(f'#hand [data-card="{card}"]').click()
        after(page, n)
        state = wait_turn(page)
    assert state == "dialog:summary"
    summary = page.locator('dialog[data-dialog="summary"]')
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
