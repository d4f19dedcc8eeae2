"""Small tools for the house-rule tests: explicit deals, scripted hands, card bookkeeping.

The tests in this folder drive the engine only through its public API
(``Game.new``, ``apply``, ``legal_actions``, ``view``, ``sheet``); these
helpers build the explicit deals (the remaining cards of a deal are filled
in, so a test names only the cards that matter) and play a hand out with a
fixed, readable policy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from thousand import Game, Rules

RANKS = "9JQKTA"
SUITS = "SCDH"
DECK = [r + s for s in SUITS for r in RANKS]
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
CARD_RE = re.compile(r"\b[9JQKTA][SCDH]\b")


def points(cards: Iterable[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def split(text: str | Sequence[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def make_deal(
    hands: Sequence[str | None], talon: str | None = None, dealer: int = 0
) -> dict[str, Any]:
    """A deal for ``Game.new``: ``hands`` per seat as text, ``None`` for "from the rest".

    With two players each hand has 10 cards and the talon 4 (talon 0 then
    talon 1); with four players the dealer's hand is ``""``. The hands given
    as ``None``, then the talon if ``None``, receive the cards left over in
    deck order (9 J Q K T A of spades, clubs, diamonds, hearts).
    """
    n = len(hands)
    given = [split(h) if h is not None else None for h in hands]
    tal = split(talon) if talon is not None else None
    used = [c for h in given if h for c in h] + (tal or [])
    assert len(used) == len(set(used)), f"a card appears twice: {sorted(used)}"
    rest = [c for c in DECK if c not in used]
    per = 10 if n == 2 else 7
    for k, h in enumerate(given):
        if h is None:
            size = 0 if n == 4 and k == dealer else per
            given[k], rest = rest[:size], rest[size:]
    if tal is None:
        tal = rest
    assert tal is not None
    for k, h in enumerate(given):
        size = 0 if n == 4 and k == dealer else per
        assert h is not None and len(h) == size, f"seat {k} has {h}"
    assert len(tal) == (4 if n == 2 else 3), f"talon {tal}"
    return {"dealer": dealer, "hands": given, "talon": tal}


def rules(**options: Any) -> Rules:
    return Rules.preset("classic").replace(**options)


def new_game(
    hands: Sequence[str | None],
    talon: str | None = None,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    later: Sequence[dict[str, Any]] = (),
    seed: int = 1,
    **options: Any,
) -> Game:
    """A match from one explicit deal (then ``later`` deals, then the seed)."""
    options.setdefault("players", len(hands))
    first = make_deal(hands, talon, dealer)
    deals = [first, *later]
    return Game.new(
        rules=rules(**options),
        seed=seed,
        deal=deals if later else first,
        scores=list(scores) if scores is not None else None,
    )


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def run(game: Game, *actions: str) -> Game:
    for action in actions:
        game.apply(action)
    return game


def strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def highest_play(options: list[str]) -> str:
    """A plain play of the strongest card by rank (ties by suit); the default policy."""
    plays = [a for a in options if a.startswith("play ") and not a.endswith("declare")]
    return max(plays, key=lambda a: strength(a.split()[1]))


def lowest_play(options: list[str]) -> str:
    plays = [a for a in options if a.startswith("play ") and not a.endswith("declare")]
    return min(plays, key=lambda a: strength(a.split()[1]))


def finish(
    game: Game,
    *script: str,
    policy: Callable[[list[str]], str] = highest_play,
) -> dict[str, Any]:
    """Apply ``script``, then play the hand out with ``policy``; the hand's sheet row."""
    rows = len(game.sheet)
    for action in script:
        game.apply(action)
    while len(game.sheet) == rows:
        game.apply(policy(legal(game)))
    return game.sheet[rows]


def view_cards(view: dict[str, Any], skip: tuple[str, ...] = ("sheet", "last_hand")) -> set[str]:
    """Every card text anywhere in a view, except under ``skip`` (past hands)."""
    if (view.get("last_action") or {}).get("hand_over"):
        skip = (*skip, "last_action")  # the final trick of the hand before
    shown = {k: v for k, v in view.items() if k not in skip}
    return set(CARD_RE.findall(json.dumps(shown)))


# --- scenario builders --------------------------------------------------------------------

POWER = "AS AC AD AH TS TC TD"
"""Seven cards that take every trick they lead or follow (with TH from the talon)."""
POWER_TALON = "TH JS JC"


def power_deal(strong: int, dealer: int = 0, players: int = 3) -> dict[str, Any]:
    """``strong`` holds the aces and three tens, the talon holds TH JS JC; the rest in order.

    Whoever declares, ``strong`` takes all eight tricks if the declarer gives it TH
    (see :func:`play_power_hand`), so every other seat gets a bolt.
    """
    hands: list[str | None] = [None] * players
    hands[strong] = POWER
    if players == 4:
        hands[dealer] = ""
    return make_deal(hands, POWER_TALON, dealer)


def opponents(game: Game) -> list[int]:
    """The declarer's opponents, clockwise from the declarer."""
    view = game.view(None)
    active, d = view["active"], view["declarer"]
    k = active.index(d)
    return active[k + 1 :] + active[:k]


def win_bidding(game: Game, seat: int, value: int | None = None) -> None:
    """Drive the bidding so that ``seat`` wins it: others pass, ``seat`` bids ``value``
    (or the least it may) when it has to."""
    if game.phase == "dark":
        game.apply("look")
    while game.phase == "bidding":
        view = game.view(None)
        if game.current_player == seat and view["high_bidder"] != seat:
            options = legal(game)
            wanted = f"bid {value}" if value is not None else None
            bids = [a for a in options if a.startswith("bid ")]
            game.apply(wanted if wanted in options else bids[0])
        else:
            game.apply("pass")


def give(game: Game, *cards: str) -> None:
    """The declarer passes ``cards`` to the opponents, in clockwise order."""
    for card, seat in zip(cards, opponents(game), strict=True):
        game.apply(f"give {card} {seat}")


def play_power_hand(
    game: Game, declarer: int, strong: int, contract: int | None = None, bid: int | None = None
) -> dict[str, Any]:
    """Play a :func:`power_deal` hand: ``declarer`` wins the bidding and ``strong`` every trick."""
    win_bidding(game, declarer, bid)
    opps = opponents(game)
    if declarer == strong:
        give(game, "JS", "JC")
    else:
        game.apply(f"give TH {strong}")
        other = [o for o in opps if o != strong]
        if other:
            game.apply(f"give JS {other[0]}")
    if game.phase == "claim":
        game.apply("decline")
    value = contract if contract is not None else game.view(None)["bid"]
    return finish(game, f"contract {value}")


def play_trick(
    game: Game, *cards: str, policy: Callable[[list[str]], str] = highest_play
) -> int | None:
    """Play ``cards`` (``"AS"`` or ``"KH declare"``) into a trick, complete it with
    ``policy``; the trick's winner (``None`` if the hand ended with it)."""
    done = len(game.view(None)["tricks"])
    rows = len(game.sheet)
    for c in cards:
        game.apply(f"play {c}")
    while len(game.sheet) == rows and len(game.view(None)["tricks"]) == done:
        game.apply(policy(legal(game)))
    if len(game.sheet) != rows:
        return None
    return int(game.view(None)["tricks"][-1]["winner"])


def plays(game: Game) -> list[str]:
    """The cards the current player may play (plain plays, no declarations)."""
    return sorted(a.split()[1] for a in legal(game) if a.startswith("play ") and "declare" not in a)


# --- invariants of random games ------------------------------------------------------------
# These read a few fields of the engine's state (hands, talon, given cards) as the ground
# truth that a seat's view is checked against; everything else goes through the public API.

AFTER_BIDDING = ("choose", "talon", "claim", "contract", "play")


def texts(mask: int) -> set[str]:
    return {DECK[c] for c in range(24) if mask >> c & 1}


def played_cards(game: Game, view: dict[str, Any] | None = None) -> set[str]:
    """The cards played so far in this hand (from the spectator's ``view``)."""
    view = view if view is not None else game.view(None)
    out = {c for t in view["tricks"] for _, c in t["cards"]}
    return out | {c for _, c in view["trick"]}


def talon_should_show(game: Game, view: dict[str, Any] | None = None) -> bool:
    """RULES.md §6.1, computed from the public view, not from the engine's flag."""
    view = view if view is not None else game.view(None)
    if view["dark"] or view["golden"]:
        return False
    raised = any(v != "pass" for _, v in view["bids"][1:])
    at_100 = not raised and view["bid"] == 100
    return not (game.rules.hidden_talon_at_100 and at_100)


def knowable(game: Game, seat: int | None, view: dict[str, Any] | None = None) -> set[str]:
    """Every card of the current hand that ``seat`` may know (RULES.md §6, the lead's choices);
    ``view`` is the spectator's view of the same moment, if already at hand."""
    view = view if view is not None else game.view(None)
    phase, declarer = view["phase"], view["declarer"]
    known = played_cards(game, view)
    blind = phase == "dark" and seat == view["first_hand"]
    if seat is not None and not blind:
        known |= texts(game.hands[seat])
    if phase in AFTER_BIDDING:
        taken = phase != "choose"
        talon = texts(game.talon) if taken else set()
        if taken and game.talon_shown:
            known |= talon
        if seat is not None and seat == declarer:
            known |= talon | texts(game.discarded)
            if game.players == 2 and game.rules.two_player_talon_choice == "seen":
                known |= texts(game.talons[0] | game.talons[1])
        face_down = game.rules.pass_face_down or view["dark"]
        for card, to in game.given:
            if not face_down or seat in (to, declarer):
                known.add(DECK[card])
    return known


def check_views(game: Game) -> None:
    """No view shows a card its seat may not know; hands, tricks and talon add up to 24."""
    n = game.players
    spectator = game.view(None)
    seats: list[int | None] = [None, *range(n)]
    for seat in seats:
        view = spectator if seat is None else game.view(seat)
        if seat is None:
            json.dumps(view)
        leaked = view_cards(view) - knowable(game, seat, spectator)
        assert not leaked, f"seat {seat} sees {sorted(leaked)} in phase {view['phase']}"
        if seat is not None and view["turn"] != seat:
            assert view["legal"] == []
    # Cards conserved: every card is in exactly one place.
    hands = [texts(h) for h in game.hands]
    played = played_cards(game, spectator)
    places = [*hands, played, texts(game.discarded)]
    phase = spectator["phase"]
    if n == 2:
        talons = [texts(t) for t in game.talons]
        taken = texts(game.talon) if phase in AFTER_BIDDING and phase != "choose" else set()
        places += [t for t in talons if t != taken] if taken else talons
    elif phase not in AFTER_BIDDING:
        places.append(texts(game.talon))
    assert sum(len(p) for p in places) == 24, [sorted(p) for p in places]
    assert set().union(*places) == set(DECK)
    assert spectator["hand_sizes"] == [len(h) for h in hands]
    if n == 4:
        assert (
            hands[spectator["dealer"]] == set() and spectator["sitting_out"] == spectator["dealer"]
        )
    if phase in AFTER_BIDDING and phase != "choose":
        assert game.talon_shown == talon_should_show(game, spectator)


def last_row(game: Game) -> dict[str, Any]:
    return game.sheet[-1]


def bids(game: Game) -> list[int]:
    return [int(a.split()[1]) for a in legal(game) if a.startswith("bid ")]


def contracts(game: Game) -> list[int]:
    return [int(a.split()[1]) for a in legal(game) if a.startswith("contract ")]


# Seat 2 opens the bidding. It holds no marriage here (KH, QH sit with seat 0).
PLAIN = ["KH QH 9S JS 9C JC 9D", "AS TS AC TC AD TD AH", "QS QC QD JD 9H JH TH"]
PLAIN_TALON = "KS KC KD"
# Seat 2 holds the diamond marriage: cap 120 + 80 = 200.
MARRIED = ["KH QH 9S JS 9C JC 9D", "AS TS AC TC AD TD AH", "QS QC QD KD JD JH TH"]
MARRIED_TALON = "KS KC 9H"


def power_match(
    strong: list[int],
    declarers: list[int] | None = None,
    players: int = 3,
    contract: int = 120,
    **options: Any,
) -> tuple[Game, list[dict[str, Any]]]:
    """Hands from :func:`power_deal`: in hand k, ``strong[k]`` takes every trick and
    ``declarers[k]`` (the strong seat by default) wins the bidding and plays ``contract``.
    Dealer 0 first."""
    declarers = declarers or strong
    scores = options.pop("scores", None)
    deals = [power_deal(s, dealer=k % players, players=players) for k, s in enumerate(strong)]
    g = Game.new(rules=rules(players=players, **options), seed=1, deal=deals, scores=scores)
    rows = []
    for s, d in zip(strong, declarers, strict=True):
        rows.append(play_power_hand(g, d, s, contract=contract))
    return g, rows


# Highest-card play from this deal leaves the defenders 73 (seat 0) and 24 (seat 2).
ROUNDING_DEAL = ["JS QS AS 9C JD AD AH", "KS KC TC QD 9H QH TH", "9S TS JC AC 9D TD JH"]
ROUNDING_TALON = "KH QC KD"


def barrel(g: Game, seat: int) -> dict[str, Any]:
    return dict(g.view(None)["barrel"][seat])


def same_deal(times: int) -> list[dict[str, Any]]:
    return [make_deal(PLAIN, PLAIN_TALON, dealer=k % 3) for k in range(times)]


def declare(g: Game, seat: int, bid: int | None = None) -> None:
    """``seat`` wins the bidding; the game waits in the talon phase."""
    win_bidding(g, seat, bid)
    assert g.phase == "talon" and g.current_player == seat


# Seat 1 wins trick 1 with AS and declares hearts with the king, which seat 2's AH
# takes; seat 2 leads JD, seat 1 wins it with AD and leads the queen of trumps.
CAPTURE = ["QS KS 9C JC 9D 9H JH", "AS KH QH AD TS AC TC", "AH TH JD QD KD TD KC"]
CAPTURE_TALON = "9S JS QC"


STRONG = "AS TS AC TC AD TD AH"
