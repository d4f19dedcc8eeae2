"""The player's helps in the browser: rules, hints, undo, statistics, sound and motion.

Real Chromium, the built site, the real engine in Pyodide, computer players
at the ``random`` level (``?delay=0&bots=random``). The page is driven
through its own controls; the engine's view and save are read back from
``thousand.view`` and ``thousand.session`` to check what the page did.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect
from site_harness import Console
from table_driver import (
    after,
    axe_scan,
    axe_source,
    click_card,
    close_dialog,
    moves,
    open_page,
    view,
    wait_turn,
)
from test_game_ui import bid_until_won, import_game, play_hand, scripted_match
from thousand import Game, Rules

FAST = "?delay=0&bots=random&lang=en"
HOUSE = {"must_beat": True, "rounding": "nearest10", "penalty": 100}
# With these rules and seed, you bid first, and a computer seat declares
# and leads, so your first card follows a lead.
HOUSE_SEED = 3

# Counts Web Audio sources that start, and animations that run (Web
# Animations and CSS), from the first script of the page on.
COUNTERS = """
window.__sounds = 0;
window.__animations = 0;
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.__sounds += 1;
  return start.apply(this, args);
};
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
document.addEventListener('animationstart', () => { window.__animations += 1; }, true);
"""


def log(page: Page) -> list[str]:
    return json.loads(page.evaluate("thousand.session.exportText()"))["log"]  # type: ignore[no-any-return]


def wait_log(page: Page, n: int) -> None:
    """Wait until the game's log holds exactly n actions."""
    page.wait_for_function("n => JSON.parse(thousand.session.exportText()).log.length === n", arg=n)


def reload(page: Page) -> None:
    page.reload()
    page.wait_for_function(
        "document.body.dataset.engine === 'ready' && thousand.view", timeout=90_000
    )


def my_turn(page: Page) -> dict:
    """Wait for your turn, closing any hand summary on the way; returns the view."""
    for _ in range(10):
        state = wait_turn(page)
        if state == "turn":
            return view(page)
        assert state == "dialog:summary", state
        close_dialog(page, "summary")
    raise AssertionError("never your turn")


def play_a_card(page: Page, card: str) -> None:
    n = moves(page)
    click_card(page, card)
    if page.locator('dialog[data-dialog="declare"]').count():
        close_dialog(page, "declare")
    after(page, n)


def step(page: Page) -> None:
    """Take one plain move in whatever phase it is: pass, give the first cards,
    the lowest contract, the first card you may play."""
    v = my_turn(page)
    n = moves(page)
    if v["phase"] == "bidding" and "pass" in v["legal"]:
        page.locator('#actions [data-action="pass"]').click()
    elif v["phase"] == "talon":
        for card in v["hand"][:2]:
            click_card(page, card)
        page.locator('#actions [data-action="confirm-give"]').click()
    elif v["phase"] == "contract":
        page.locator("#actions .stepper .btn.primary").click()
    elif v["phase"] == "play":
        play_a_card(page, next(a for a in v["legal"] if a.startswith("play ")).split()[1])
        return
    else:
        page.locator("#actions [data-action]").first.click()
    after(page, n)


def open_menu_item(page: Page, item: str) -> None:
    page.locator("#btn-menu").click()
    page.locator(f'[data-menu="{item}"]').click()


def test_rules_hint_and_undo(page: Page, site_url: str, console: Console, shot) -> None:
    page.set_viewport_size({"width": 1100, "height": 800})
    open_page(page, site_url, FAST)
    # Rules from the welcome screen: the game explained, no game's rules yet.
    page.locator('dialog[data-dialog="welcome"] [data-value="rules"]').click()
    rules = page.locator('dialog[data-dialog="rules"]')
    expect(rules).to_contain_text("Bidding and the obligatory 100")
    expect(rules.locator(".rules-cards .card")).to_have_count(14)
    close_dialog(page, "rules")
    game = Game.new(rules=Rules.preset("classic").replace(**HOUSE), seed=HOUSE_SEED)
    import_game(page, game.to_json())

    # Rules from the menu list every option of this game that is not classic, in words.
    open_menu_item(page, "rules")
    expect(rules).to_be_visible()
    listed = rules.locator("[data-rule]").evaluate_all("els => els.map(e => e.dataset.rule)")
    assert sorted(listed) == sorted(HOUSE)
    texts = {o["id"]: o["en"] for o in Rules.options()}
    for rule in HOUSE:
        expect(rules.locator(f'[data-rule="{rule}"]')).to_contain_text(texts[rule])
    assert axe_scan(page, axe_source()) == []
    rules.locator(".house-rules").scroll_into_view_if_needed()
    shot("rules")
    close_dialog(page, "rules")

    # Undo after a bid (Ctrl+Z) restores the bidding; the same bid gets the same answers.
    v = my_turn(page)
    assert v["phase"] == "bidding"
    before_log = log(page)
    bid = next(a for a in v["legal"] if a.startswith("bid "))
    page.locator(f'#actions [data-action="{bid}"]').click()
    after(page, len(before_log))
    my_turn(page)
    answered = log(page)
    assert len(answered) > len(before_log) + 1  # the computer seats answered
    page.locator("#hand").click(position={"x": 2, "y": 2})
    page.keyboard.press("Control+z")
    wait_log(page, len(before_log))
    restored = view(page)
    assert log(page) == before_log
    for key in ("phase", "bids", "legal", "hand", "turn"):
        assert restored[key] == v[key], key
    page.locator(f'#actions [data-action="{bid}"]').click()
    after(page, len(before_log))
    my_turn(page)
    assert log(page) == answered

    # Pass from now on, until you are to play a card.
    for _ in range(20):
        v = my_turn(page)
        if v["phase"] == "play":
            break
        assert v["phase"] == "bidding", v["phase"]
        n = moves(page)
        page.locator('#actions [data-action="pass"]').click()
        after(page, n)
    assert v["phase"] == "play" and v["trick"], "a computer seat leads first"

    # Hint (the H key): the strong bot's card is marked, and it is one you may play.
    page.keyboard.press("h")
    hinted = page.locator("#hand [data-hint]")
    expect(hinted).to_have_count(1)
    action = hinted.get_attribute("data-hint")
    assert action in v["legal"] and action.startswith("play ")
    assert hinted.get_attribute("data-card") == action.split()[1]
    expect(page.locator("#hint")).to_contain_text("Hint: play")
    shot("hint")

    # Undo after a card: the same position, the log back to before the card.
    before_card = log(page)
    play_a_card(page, action.split()[1])
    my_turn(page)
    played = log(page)
    assert played[len(before_card)] == action
    page.locator("#btn-undo").click()
    wait_log(page, len(before_card))
    assert log(page) == before_card  # one action (the card) shorter than with it
    restored = view(page)
    for key in ("hand", "trick", "legal", "hand_no", "contract", "scores"):
        assert restored[key] == v[key], key
    expect(page.locator("#hand [data-hint]")).to_have_count(0)
    # Replaying the same card gives the same computer answers.
    play_a_card(page, action.split()[1])
    my_turn(page)
    assert log(page)[: len(played)] == played

    # Finish the hand with the first card you may play each time.
    hand_no = view(page)["hand_no"]
    for _ in range(30):
        if wait_turn(page) == "dialog:summary":
            close_dialog(page, "summary")
            break
        v = view(page)
        play_a_card(page, next(a for a in v["legal"] if a.startswith("play ")).split()[1])
    # The sheet marks the hand in which undo was used; the mark survives a reload and export.
    page.locator("#btn-sheet").click()
    sheet = page.locator('dialog[data-dialog="sheet"]')
    expect(sheet.locator('tr[data-undo="1"]')).to_have_count(1)
    expect(sheet.locator("tr[data-undo] .mark-undo")).to_have_attribute("title", re.compile("undo"))
    shot("sheet-undo")
    close_dialog(page, "sheet")
    reload(page)
    page.locator("#btn-sheet").click()
    expect(sheet.locator('tr[data-undo="1"] th')).to_contain_text(str(hand_no))
    close_dialog(page, "sheet")
    text = page.evaluate("thousand.session.exportText()")
    assert json.loads(text)["undo_hands"] == [hand_no]
    assert len(Game.from_json(text).sheet) >= 1
    assert console.errors == []


def test_statistics_and_sound(page: Page, site_url: str, console: Console, shot) -> None:
    page.add_init_script(COUNTERS)
    page.set_viewport_size({"width": 1100, "height": 800})
    open_page(page, site_url, FAST)
    import_game(page, scripted_match())
    # Sound off: nothing starts while you bid.
    page.locator("#btn-menu").click()
    page.locator("#sound").uncheck()
    close_dialog(page, "menu")
    assert json.loads(page.evaluate("localStorage.getItem('thousand.prefs')"))["sound"] is False
    page.evaluate("window.__sounds = 0")  # the computer's first bids sounded while it was on
    bid_until_won(page)
    page.wait_for_timeout(300)
    assert page.evaluate("window.__sounds") == 0
    # Sound on: the cards played make sounds.
    page.locator("#btn-menu").click()
    page.locator("#sound").check()
    close_dialog(page, "menu")
    play_hand(page, shot, first=True)
    assert wait_turn(page) == "dialog:summary"
    assert page.evaluate("window.__sounds") > 0
    close_dialog(page, "summary")
    bid_until_won(page)
    play_hand(page, shot, first=False)
    close_dialog(page, "summary")
    expect(page.locator('dialog[data-dialog="winner"]')).to_be_visible()
    page.keyboard.press("Escape")

    # Statistics: one match, counted as the engine's sheet has it.
    final = view(page)
    rows = [r for r in final["sheet"] if r["result"] != "redeal"]
    game_log = log(page)
    replay = Game.from_json(
        json.dumps({**json.loads(page.evaluate("thousand.session.exportText()")), "log": []})
    )
    declared = 0
    for action in game_log:
        declared += replay.current_player == 0 and action.endswith(" declare")
        replay.apply(action)
    expected = {
        "played": "1",
        "won": "1",
        "abandoned": "0",
        "hands": str(len(rows)),
        "contracts": str(sum(r["declarer"] == 0 for r in rows)),
        "average": str(round(sum(r["deltas"][0] for r in rows) / len(rows))),
        "marriages": str(declared),
        "bolts": str(sum(r["marks"][0].count("bolt") for r in rows)),
        "barrels": str(sum(r["marks"][0].count("barrel") for r in rows)),
        "best": str(final["scores"][0]),
    }
    assert declared == 4 and expected["barrels"] == "1"

    def check_stats() -> None:
        open_menu_item(page, "stats")
        stats = page.locator('dialog[data-dialog="stats"] [data-kind="computer"]')
        for key, value in expected.items():
            expect(stats.locator(f'[data-group="all"][data-stat="{key}"]')).to_have_text(value)
        made = sum(r["declarer"] == 0 and r["result"] == "made" for r in rows)
        expect(stats.locator('[data-group="all"][data-stat="made"]')).to_contain_text(f"{made} (")
        # The same match under its level and its table size.
        expect(stats.locator('[data-group="level-random"][data-stat="played"]')).to_have_text("1")
        expect(stats.locator('[data-group="players-3"][data-stat="won"]')).to_have_text("1")
        expect(page.locator('dialog[data-dialog="stats"] .stats-chart rect')).to_have_count(1)

    check_stats()
    shot("stats")
    close_dialog(page, "stats")
    # A reload keeps them, and the finished match is not counted twice.
    reload(page)
    check_stats()
    # Reset, with a confirmation.
    page.locator('dialog[data-dialog="stats"] [data-value="reset"]').click()
    close_dialog(page, "confirm-reset")
    expect(page.locator('dialog[data-dialog="stats"] [data-kind="computer"]')).to_contain_text(
        "No match finished yet"
    )
    close_dialog(page, "stats")
    assert console.errors == []


def test_reduced_motion_has_no_animation(page: Page, site_url: str, console: Console) -> None:
    page.add_init_script(COUNTERS)
    # A speed chosen in the menu wins over the URL's delay: motion is on.
    page.add_init_script("localStorage.setItem('thousand.prefs', JSON.stringify({speed: 'fast'}))")
    page.emulate_media(reduced_motion="reduce")
    open_page(page, site_url, f"?seed={HOUSE_SEED}&delay=0&bots=random&lang=en")
    expect(page.locator("body")).to_have_class(re.compile("instant"))
    page.wait_for_function("thousand.view")  # the engine is up; the deal follows it

    # Play on until cards have been played to the table: nothing moves.
    for _ in range(30):
        v = view(page)
        if v["phase"] == "play" and (v["tricks"] or len(v["trick"]) > 1):
            break
        step(page)
    page.wait_for_timeout(500)
    assert page.evaluate("window.__animations") == 0
    # The same page without the system's request: cards move again.
    page.emulate_media(reduced_motion="no-preference")
    page.locator("#btn-menu").click()
    page.locator("#speed").select_option("normal")
    close_dialog(page, "menu")
    expect(page.locator("body")).not_to_have_class(re.compile("instant"))
    for _ in range(10):
        if page.evaluate("window.__animations"):
            break
        step(page)
    page.wait_for_function("window.__animations > 0")
    assert console.errors == []


def test_screens_of_the_helps(page: Page, site_url: str, console: Console, shot) -> None:
    """Each help in English and Russian, on a desktop and a 360×740 phone."""
    for lang in ("en", "ru"):
        for size, (w, h) in (("desktop", (1100, 800)), ("phone", (360, 740))):
            page.set_viewport_size({"width": w, "height": h})
            if page.url.startswith("http"):  # a fresh first game each time
                page.evaluate("localStorage.clear()")
            open_page(page, site_url, f"?seed={HOUSE_SEED}&delay=0&bots=random&lang={lang}")
            my_turn(page)
            expect(page.locator('#guide[data-tip="bid"]')).to_be_visible()
            shot(f"{lang}-{size}-guide")
            page.locator("#btn-hint").click()
            expect(page.locator("[data-hint]")).to_have_count(1)
            shot(f"{lang}-{size}-hint")
            page.locator("#btn-menu").click()
            shot(f"{lang}-{size}-menu")
            page.locator('[data-menu="rules"]').click()
            house = page.locator('dialog[data-dialog="rules"] .house-rules')
            house.scroll_into_view_if_needed()
            expect(house).to_be_visible()
            shot(f"{lang}-{size}-rules")
            close_dialog(page, "rules")
            open_menu_item(page, "stats")
            shot(f"{lang}-{size}-stats")
            close_dialog(page, "stats")
    assert console.errors == []
