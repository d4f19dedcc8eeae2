"""The whole game in the browser, played through the page as a person would.

Real Chromium, the built site, the real engine in Pyodide, computer players
at the ``random`` level with no delay (``?delay=0&bots=random``). The page
is driven only through its own controls (buttons, cards, dialogs, the
keyboard); the engine's view is read back from ``thousand.view`` to check
what the page shows. Screenshots of each phase go to test-results/screenshots.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect
from site_harness import Console
from table_driver import (
    DEAL,
    after,
    axe_scan,
    axe_source,
    click_action,
    click_card,
    close_dialog,
    import_game,
    moves,
    open_page,
    overflow,
    unreachable_controls,
    view,
    wait_turn,
)
from thousand import Game, Rules

FAST = "?delay=0&bots=random&lang=en"
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
# What the page says for the engine's refusal codes of a card in play.
REFUSALS = {
    "must_follow": "You must follow {}",
    "must_trump": "You must trump ({})",
    "must_beat": "You must beat the trick in {}",
    "must_lead_trump": "You must lead a trump ({})",
    "no_foreign_trump": "You may not lead the trump another player declared ({})",
}
# Your leads in both hands: hearts first (drawing the computer's trumps),
# declaring each marriage with its king once you have taken a trick.
LEADS = ["AH", "KH", "TH", "QH", "AD", "KD", "TD", "QD"]


def scripted_match() -> str:
    """A match from 800 points: two hands of the same deal, where you can bid,
    give, name a contract, declare marriages, reach the barrel and win.
    Anna starts below zero, so a minus sign shows from the start."""
    return Game.new(seed=11, deal=[{**DEAL, "dealer": 0}, DEAL], scores=[800, -300, 0]).to_json()


def minus(n: int) -> str:
    """A change of score as the page writes it: +60, −120, 0."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def bid_until_won(page: Page, keyboard: bool = False) -> None:
    """Bid the lowest value on offer until the bidding is over (typed on the keyboard once)."""
    while view(page)["phase"] == "bidding":
        assert wait_turn(page) == "turn"
        v = view(page)
        if v["phase"] != "bidding":
            break
        bids = [a for a in v["legal"] if a.startswith("bid ")]
        assert bids, v["legal"]
        n = moves(page)
        if keyboard:
            page.locator("#hand").click(position={"x": 2, "y": 2})  # focus off any input
            page.keyboard.type(bids[0].split()[1])
            expect(page.locator("#hint")).to_contain_text(bids[0].split()[1])
            page.keyboard.press("Enter")
            keyboard = False
        else:
            page.locator(f'#actions [data-action="{bids[0]}"]').click()
        after(page, n)
        page.wait_for_function(
            "() => thousand.view.phase !== 'bidding' || thousand.view.turn === 0"
            " || document.querySelector('dialog[open]')"
        )


def play_hand(page: Page, shot, first: bool) -> None:
    """Take the talon, give two cards, name a contract, and lead out every card."""
    assert wait_turn(page) == "turn"
    v = view(page)
    assert v["phase"] == "talon" and v["declarer"] == 0
    assert sorted(v["hand"]) == sorted([*DEAL["hands"][0], *DEAL["talon"]])
    # The talon cards are marked in your hand, and dimmed cards are none here.
    expect(page.locator("#hand .card.fresh")).to_have_count(3)
    if first:
        shot("talon")
        # One card dragged onto an opponent, the other picked by a click.
        page.locator('#hand [data-card="JS"]').drag_to(page.locator('.seat[data-seat="1"]'))
        click_card(page, "JC")
        slots = page.locator(".give-slot.filled [data-card]")
        expect(slots).to_have_count(2)
        assert (
            page.locator('.give-slot[data-drop-seat="1"] [data-card]').get_attribute("data-card")
            == "JS"
        )
        assert (
            page.locator('.give-slot[data-drop-seat="2"] [data-card]').get_attribute("data-card")
            == "JC"
        )
        shot("give-chosen")
    else:
        click_card(page, "JS")
        click_card(page, "JC")
    n = moves(page)
    page.locator('#actions [data-action="confirm-give"]').click()
    after(page, n + 1)
    assert wait_turn(page) == "turn"
    v = view(page)
    assert v["phase"] == "contract"
    assert [g[1] for g in v["given"]] == [1, 2]
    # The talon's cards are in hands now: the middle no longer shows them.
    expect(page.locator("#talon .card")).to_have_count(0)
    # The cards given show beside their new holders, face up to you.
    expect(page.locator('.seat[data-seat="1"] .gift [data-card="JS"]')).to_have_count(1)
    if first:
        # After giving, the keyboard focus is on the next control: the contract.
        page.wait_for_function("document.activeElement?.closest('#actions .stepper') !== null")
        shot("contract")
        # Write-off sits apart, and its confirmation names the engine's amounts.
        page.locator('#actions .row.apart [data-action="writeoff"]').click()
        confirm = page.locator('dialog[data-dialog="confirm-writeoff"]')
        game = Game.from_json(page.evaluate("thousand.session.exportText()"))
        game.apply("writeoff")
        loss, anna, boris = game.sheet[-1]["deltas"]
        expect(confirm).to_contain_text(f"You score {minus(loss)}")
        expect(confirm).to_contain_text(f"Anna {minus(anna)}, Boris {minus(boris)}")
        shot("writeoff-confirm")
        close_dialog(page, "confirm-writeoff", "false")
        assert view(page)["phase"] == "contract"
        # Number keys name the contract; the button says the typed number at once.
        n = moves(page)
        page.keyboard.type("200")
        expect(page.locator("#actions .stepper .btn.primary")).to_have_text("Play 200")
        page.keyboard.press("Enter")
        after(page, n)
        assert view(page)["contract"] == 200
        # After naming it, the keyboard focus is on your hand, ready to lead.
        page.wait_for_function("document.activeElement?.closest('#hand') !== null")
    else:
        click_action(page, "contract 120")
    for k, card in enumerate(LEADS):
        assert wait_turn(page) == "turn"
        v = view(page)
        assert v["phase"] == "play" and v["turn"] == 0 and not v["trick"]
        # A card given stays shown beside its holder only until it is played.
        played = {c for t in v["tricks"] for _, c in t["cards"]}
        for given, to in v["given"]:
            gift = page.locator(f'.seat[data-seat="{to}"] .gift [data-card="{given}"]')
            expect(gift).to_have_count(0 if given in played else 1)
        # The declarer's count so far, against the contract (the engine's figures).
        count = v["card_points"][0] + v["marriage_points"][0]
        expect(page.locator("#info .chip.count")).to_contain_text(f"{count} / {v['contract']}")
        expect(page.locator("#your-marks .badge.tricks")).to_contain_text(str(v["trick_counts"][0]))
        # Only legal cards respond: all of yours here, since you lead.
        expect(page.locator("#hand .card.dim")).to_have_count(0)
        n = moves(page)
        if first and k == 0:
            # Keyboard play: the focus starts on the first card you may play.
            page.locator("#hand [tabindex='0']").focus()
            assert page.evaluate("document.activeElement.dataset.card") == "AH"
            page.keyboard.press("Enter")
        elif first and k == 1:
            page.locator("#hand [tabindex='0']").focus()
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.card") == "KH"
            page.keyboard.press("Enter")
        else:
            click_card(page, card)
        if card[0] == "K":
            expect(page.locator('dialog[data-dialog="declare"]')).to_be_visible()
            if first and card == "KH":
                shot("declare")
            close_dialog(page, "declare", f"play {card} declare")
        after(page, n)
        if first and card == "KH":
            # The marriage and the new trump are told where the eye is.
            expect(page.locator("#story")).to_contain_text("You declared the ♥ hearts marriage")
            expect(page.locator("#story")).to_contain_text("trump is now ♥")
        if first and k == 2:
            # The trick just taken stays on the table until the next lead.
            page.wait_for_function("thousand.view.last_action?.trick?.winner === 0")
            expect(page.locator("#trick .card")).to_have_count(3)
            expect(page.locator("#trick .trick-winner")).to_contain_text("You")
            expect(page.locator(".chip.trump")).to_contain_text("♥")
            # A screen reader hears the trick and whose turn it is.
            expect(page.locator("#announcer")).to_contain_text("You took the trick")
            label = page.locator('.seat[data-seat="1"]').get_attribute("aria-label")
            assert "Anna" in label and "5 cards" in label, label
            shot("play")


def test_a_whole_match_against_the_computer(
    page: Page, site_url: str, console: Console, shot
) -> None:
    page.set_viewport_size({"width": 1000, "height": 800})
    open_page(page, site_url, FAST)
    # First visit: a welcome with one-click play, settings and import.
    expect(page.locator('dialog[data-dialog="welcome"]')).to_be_visible()
    shot("welcome")
    import_game(page, scripted_match())
    assert view(page)["scores"] == [800, -300, 0]
    # One minus sign everywhere: the true minus, never a hyphen.
    expect(page.locator('.seat[data-seat="1"] .score')).to_have_text("−300")

    # Hand 1: you speak third and bid (typing the number), then win the bidding.
    assert wait_turn(page) == "turn"
    # The bids so far are told where the eye is, and listed once.
    expect(page.locator("#story")).to_contain_text(re.compile("Anna|Boris"))
    expect(page.locator("#info .chip.contract")).to_have_count(0)
    # The smallest raise is the highlighted bid.
    smallest = next(a for a in view(page)["legal"] if a.startswith("bid "))
    expect(page.locator("#actions .btn.primary")).to_have_attribute("data-action", smallest)
    shot("bidding")
    bid_until_won(page, keyboard=True)
    assert any(s == 0 and v != "pass" for s, v in view(page)["bids"])
    # The end of the bidding: who takes the talon, and what it holds.
    expect(page.locator("#story")).to_contain_text("You took the talon for")
    for card in ("Q♦", "J♠", "J♣"):
        expect(page.locator("#story")).to_contain_text(card)
    play_hand(page, shot, first=True)

    # The end-of-hand summary: made 200 with 120 cards and two marriages; on the barrel.
    assert wait_turn(page) == "dialog:summary"
    summary = page.locator('dialog[data-dialog="summary"]')
    expect(summary).to_contain_text("made the contract 200")
    expect(summary.locator(".mark-barrel")).to_have_count(1)
    # Behind the summary the next deal is on the table, without the last hand's trick.
    expect(page.locator("#trick .card")).to_have_count(0)
    expect(page.locator("#trick .trick-winner")).to_have_count(0)
    shot("summary")
    # A reload while the summary is open shows it again.
    page.reload()
    page.wait_for_function("document.body.dataset.engine === 'ready' && thousand.view")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("made the contract 200")
    close_dialog(page, "summary")
    v = view(page)
    assert v["sheet"][0]["card_points"][0] == 120 and v["sheet"][0]["marriage_points"][0] == 180
    assert v["scores"][0] == 880 and v["barrel"][0]["on"]
    expect(page.locator("#your-marks .badge.barrel")).to_be_visible()

    # Hand 2: on the barrel you need 120; make it and win the match.
    bid_until_won(page)
    assert view(page)["declarer"] == 0
    play_hand(page, shot, first=False)
    assert wait_turn(page) == "dialog:summary"
    close_dialog(page, "summary")
    winner = page.locator('dialog[data-dialog="winner"]')
    expect(winner).to_contain_text("You win")
    shot("winner")
    assert view(page)["winner"] == 0 and view(page)["phase"] == "over"
    # The header counts the hands played, not one more.
    expect(page.locator("#phase")).to_contain_text("Hand 2 · Match over")

    # The score sheet from the winner's screen.
    winner.locator('[data-value="sheet"]').click()
    sheet = page.locator('dialog[data-dialog="sheet"]')
    expect(sheet.locator("tbody tr")).to_have_count(2)
    expect(sheet.locator("td.contract.made")).to_have_count(2)
    # The marks are explained in words under the sheet, readable without hovering.
    expect(sheet.locator(".mark-legend")).to_contain_text("on the barrel")
    assert "-" not in sheet.locator("table.sheet tbody").inner_text()
    shot("sheet")
    close_dialog(page, "sheet")

    # Step through the first hand again.
    page.locator("#btn-menu").click()
    page.locator('[data-menu="replay"]').click()
    page.locator('dialog[data-dialog="replay-pick"] [data-hand="0"]').click()
    replay = page.locator('dialog[data-dialog="replay"]')
    expect(replay).to_contain_text("Dealt")
    for _ in range(6):
        replay.locator('[data-replay="next"]').click()
    expect(replay.locator(".replay-step")).to_contain_text("Step 6")
    shot("replay")
    # One primary button: Next.
    expect(replay.locator(".btn.primary")).to_have_count(1)
    # The last step counts all eight tricks and says who took the last one.
    while replay.locator('[data-replay="next"]').is_enabled():
        replay.locator('[data-replay="next"]').click()
    counts = replay.locator(".replay-tricks").all_inner_texts()
    assert sum(int(re.sub(r"\D", "", c)) for c in counts) == 8, counts
    expect(replay.locator(".replay-winner")).to_contain_text("took the trick")
    shot("replay-end")
    close_dialog(page, "replay", "null")

    # Export: the text is the engine's own save, and rebuilds the same finished match.
    page.locator("#btn-menu").click()
    page.locator('[data-menu="export"]').click()
    text = page.locator("#export-text").input_value()
    game = Game.from_json(text)
    assert game.winner == 0 and game.phase == "over" and game.scores[0] >= 1000
    close_dialog(page, "export", "null")

    # In Russian: your name, the header and the card letters follow the switch.
    page.locator("#btn-menu").click()
    page.locator("#language").select_option("ru")
    close_dialog(page, "menu", "null")
    expect(page.locator("#your-name")).to_have_text("Вы")
    expect(page.locator("#phase")).to_contain_text("Раздача 2 · Партия окончена")
    page.locator("#btn-sheet").click()
    expect(sheet.locator("thead")).to_contain_text("Вы")
    expect(sheet.locator("thead")).not_to_contain_text("You")
    # The computer players' default names follow the language too.
    expect(sheet.locator("thead")).to_contain_text("Анна")
    shot("sheet-ru")
    close_dialog(page, "sheet")
    assert console.errors == []


def test_reload_mid_hand_resumes_the_same_position(
    page: Page, site_url: str, console: Console, shot
) -> None:
    open_page(page, site_url, "?seed=7&delay=0&bots=random&lang=en")
    assert wait_turn(page) == "turn"
    v = view(page)
    explained: set[str] = set()
    # Play on until the hand is well under way (past the bidding), passing whenever asked.
    for _ in range(40):
        v = view(page)
        if v["phase"] == "play" and len(v["tricks"]) >= 2:
            break
        state = wait_turn(page)
        if state.startswith("dialog:"):
            close_dialog(page, state.split(":")[1])
            continue
        v = view(page)
        if v["phase"] == "bidding":
            click_action(page, "pass")
        elif v["phase"] == "talon":
            for card in v["hand"][:2]:
                click_card(page, card)
            n = moves(page)
            page.locator('#actions [data-action="confirm-give"]').click()
            after(page, n + 1)
        elif v["phase"] == "contract":
            page.locator("#actions .stepper .btn.primary").click()
        elif v["phase"] == "play":
            playable = {a.split()[1] for a in v["legal"] if a.startswith("play ")}
            # Only legal cards respond; the others are dimmed and say so.
            dimmed = page.locator("#hand .card.dim").evaluate_all(
                "els => els.map(e => [e.dataset.card, e.getAttribute('aria-disabled')])"
            )
            assert {c for c, _ in dimmed} == set(v["hand"]) - playable
            assert all(flag == "true" for _, flag in dimmed)
            if dimmed:
                n = moves(page)
                page.locator(f'#hand [data-card="{dimmed[0][0]}"]').click(force=True)
                # The page says why, in the words of the engine's reason code.
                game = Game.from_json(page.evaluate("thousand.session.exportText()"))
                refusal = game.why_illegal(f"play {dimmed[0][0]}", 0)
                assert refusal is not None
                suit = SUIT_SYMBOLS[refusal.suit] if refusal.suit else ""
                expect(page.locator("#note")).to_have_text(REFUSALS[refusal.code].format(suit))
                explained.add(refusal.code)
                assert moves(page) == n
            card = sorted(playable)[0]
            n = moves(page)
            click_card(page, card)
            if page.locator('dialog[data-dialog="declare"]').count():
                close_dialog(page, "declare")
            after(page, n)
        else:
            page.locator("#actions [data-action]").first.click()
    assert explained, "no dimmed card was clicked"
    before = view(page)
    saved = page.evaluate("thousand.session.exportText()")
    assert before["phase"] in ("play", "bidding", "talon", "contract")
    hand = sorted(
        page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )
    page.reload()
    page.wait_for_function(
        "document.body.dataset.engine === 'ready' && thousand.view", timeout=90_000
    )
    after_reload = view(page)
    assert page.evaluate("thousand.session.exportText()") == saved
    for key in (
        "phase",
        "hand",
        "bids",
        "trick",
        "tricks",
        "scores",
        "turn",
        "contract",
        "hand_no",
    ):
        assert after_reload[key] == before[key], key
    assert (
        sorted(
            page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        )
        == hand
    )
    shot("resumed")
    assert console.errors == []


def test_a_changed_setting_reaches_the_engine(
    page: Page, site_url: str, console: Console, shot
) -> None:
    open_page(page, site_url, "?seed=3&delay=0&bots=random&lang=en")
    assert wait_turn(page) in ("turn", "dialog:summary")
    assert view(page)["rules"]["samosval"] is False
    page.locator("#btn-menu").click()
    page.locator('[data-menu="settings"]').click()
    settings = page.locator('dialog[data-dialog="settings"]')
    expect(settings).to_be_visible()
    # Every house rule of the engine is there, in its group, with its description.
    for option in Rules.options():
        if option["id"] != "players":
            assert settings.locator(f'[data-rule="{option["id"]}"]').count() == 1, option["id"]
    settings.locator('details[data-group="barrel"] summary').click()
    rule = settings.locator('[data-rule="samosval"]')
    expect(rule).to_contain_text("555")
    rule.locator("input").check()
    expect(settings.locator("#setting-preset")).to_have_value("custom")
    settings.locator("#setting-name").fill("Tester")
    # The ace marriage's trump option says what it means.
    assert "unchanged" in settings.locator("#rule-ace_marriage_trump").evaluate(
        "el => [...el.options].map((o) => o.textContent).join()"
    )
    shot("settings")
    settings.locator('[data-value="start"]').click()
    # A game is in progress: starting another asks first.
    close_dialog(page, "confirm-new")
    page.wait_for_function("thousand.view && thousand.view.rules.samosval === true")
    assert view(page)["rules"]["samosval"] is True
    expect(page.locator("#your-name")).to_have_text("Tester")
    # The choice is kept for the next game too.
    prefs = json.loads(page.evaluate("localStorage.getItem('thousand.prefs')"))
    assert prefs["setup"]["rules"]["samosval"] is True

    # The four-colour deck: diamonds turn blue.
    page.locator("#btn-menu").click()
    page.locator("#four-colour").check()
    diamond = page.locator("#hand .card.suit-D, #hand .card.suit-H").first
    colour = diamond.evaluate("e => getComputedStyle(e).color")
    expect(page.locator("body")).to_have_class(re.compile("four-colour"))
    close_dialog(page, "menu", "null")
    assert page.locator("#hand .card.suit-D").count() == 0 or (
        page.locator("#hand .card.suit-D").first.evaluate("e => getComputedStyle(e).color")
        == "rgb(21, 96, 189)"
    ), colour

    # Russian, and back: the language switch changes the page's words.
    page.locator("#btn-menu").click()
    page.locator("#language").select_option("ru")
    expect(page.locator("#btn-menu")).to_have_text("Меню")
    shot("menu-ru")
    page.locator("#language").select_option("en")
    expect(page.locator("#btn-menu")).to_have_text("Menu")
    close_dialog(page, "menu", "null")
    assert console.errors == []


def test_phone_layout_fits_and_passes_an_accessibility_scan(
    page: Page, site_url: str, console: Console, shot
) -> None:
    axe = axe_source()
    page.set_viewport_size({"width": 360, "height": 740})
    open_page(page, site_url, FAST)
    expect(page.locator('dialog[data-dialog="welcome"]')).to_be_visible()
    assert overflow(page) <= 0
    assert axe_scan(page, axe) == []
    import_game(page, scripted_match())
    assert wait_turn(page) == "turn"
    problems: dict[str, object] = {}

    def check(name: str) -> None:
        problems[f"{name}: overflow"] = overflow(page)
        problems[f"{name}: unreachable"] = unreachable_controls(page)
        problems[f"{name}: axe"] = axe_scan(page, axe)
        # After the checks, so the screenshot never changes what is measured.
        shot(f"phone-{name}")

    check("bidding")
    bid_until_won(page)
    assert wait_turn(page) == "turn"
    click_card(page, "JS")
    check("talon")
    click_card(page, "JC")
    n = moves(page)
    page.locator('#actions [data-action="confirm-give"]').click()
    after(page, n + 1)
    assert wait_turn(page) == "turn"
    check("contract")
    n = moves(page)
    page.locator("#actions .stepper .btn.primary").click()
    after(page, n)
    n = moves(page)
    click_card(page, "AH")
    after(page, n)
    assert wait_turn(page) == "turn"
    check("play")
    for name, opener in [
        ("menu", lambda: page.locator("#btn-menu").click()),
        ("sheet", lambda: page.locator("#btn-sheet").click()),
    ]:
        opener()
        check(name)
        page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)
    page.locator("#btn-menu").click()
    page.locator('[data-menu="settings"]').click()
    # The dialog opens once the menu has closed: open its groups only when it is there.
    expect(page.locator('dialog[data-dialog="settings"]')).to_be_visible()
    page.locator('dialog[data-dialog="settings"] details').evaluate_all(
        "els => els.forEach(d => d.open = true)"
    )
    expect(page.locator('dialog[data-dialog="settings"] details:not([open])')).to_have_count(0)
    check("settings")
    page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)
    # Play the hand out: the summary fits the phone, every column, no scrolling inside.
    for card in LEADS[1:]:
        assert wait_turn(page) == "turn"
        n = moves(page)
        click_card(page, card)
        if card[0] == "K":
            close_dialog(page, "declare", f"play {card} declare")
        after(page, n)
    assert wait_turn(page) == "dialog:summary"
    check("summary")
    body = page.locator('dialog[data-dialog="summary"] .dialog-body')
    sideways = body.evaluate("b => b.scrollWidth - b.clientWidth")
    table = page.locator('dialog[data-dialog="summary"] table').evaluate(
        "t => t.getBoundingClientRect().right - t.closest('dialog').getBoundingClientRect().right"
    )
    problems["summary: scrolls sideways"] = sideways
    problems["summary: table sticks out"] = table
    bad = {
        k: v
        for k, v in problems.items()
        if v not in (0, [], None) and not (isinstance(v, int) and v <= 0)
    }
    assert bad == {}, json.dumps(bad, indent=1)
    assert console.errors == []


def test_a_corrupt_save_is_reported_and_set_aside(
    page: Page, site_url: str, console: Console, shot
) -> None:
    open_page(page, site_url, FAST)
    expect(page.locator('dialog[data-dialog="welcome"]')).to_be_visible()
    for raw, reason in [
        ("{this is not json", "not JSON"),
        (
            json.dumps(
                {
                    "format": "thousand-web/1",
                    "seat": 0,
                    "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                    "game": json.dumps(
                        {"format": "thousand-game/1", "seed": 1, "log": ["fly away"]}
                    ),
                }
            ),
            "cannot be replayed",
        ),
    ]:
        page.evaluate("raw => localStorage.setItem('thousand.game', raw)", raw)
        page.reload()
        page.wait_for_function("document.body.dataset.engine !== 'loading'", timeout=90_000)
        report = page.locator('dialog[data-dialog="save-bad"]')
        expect(report).to_be_visible()
        expect(report).to_contain_text(reason)
        shot("corrupt-save")
        kept = page.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('thousand.game.bad.'))"
            ".map(k => localStorage.getItem(k))"
        )
        assert raw in kept
        assert page.evaluate("localStorage.getItem('thousand.game')") is None
        close_dialog(page, "save-bad")
        # Then the game goes on: the welcome offers a new one.
        expect(page.locator('dialog[data-dialog="welcome"]')).to_be_visible()
    close_dialog(page, "welcome", "play")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    assert console.errors == []


def test_settings_say_what_every_level_does(
    page: Page, site_url: str, console: Console, shot
) -> None:
    from thousand.bots import LEVELS

    for lang, strong_word in (("en", "match"), ("ru", "партии")):
        for width, height, size in ((1280, 800, "desktop"), (360, 740, "phone")):
            page.set_viewport_size({"width": width, "height": height})
            open_page(page, site_url, f"?seed=3&delay=0&bots=random&lang={lang}")
            assert wait_turn(page) in ("turn", "dialog:summary")
            page.locator("#btn-menu").click()
            page.locator('[data-menu="settings"]').click()
            settings = page.locator('dialog[data-dialog="settings"]')
            expect(settings).to_be_visible()
            notes = settings.locator(".level-notes dd")
            expect(notes).to_have_count(len(LEVELS))
            texts = notes.all_text_contents()
            # One line each, all different, none left as a bare key.
            assert len(set(texts)) == len(LEVELS), texts
            assert all(t and not t.startswith("level.") for t in texts), texts
            assert strong_word in texts[LEVELS.index("strong")], texts
            settings.locator(".level-notes").scroll_into_view_if_needed()
            shot(f"levels-{lang}-{size}")
    assert console.errors == []
