"""Test helpers: explicit deals, scripted hands and a small reference model.

Everything here talks to the engine through its public API only
(``Game``, ``Rules``, ``IllegalAction``, ``view``, ``apply``...). The
reference model (points, rounding, trick winners, legal plays) is written
from RULES.md independently of the engine, so a disagreement between the two
is a finding, not a tautology. Every scripted hand is replayed through the
model first: a test whose premise (who holds what, who wins which trick) is
wrong fails loudly in the helper instead of passing or failing by accident.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from thousand import Game, IllegalAction, Rules

RANKS = "9JQKTA"  # low to high inside a suit
SUITS = "SCDH"
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}
DECK = [r + s for s in SUITS for r in RANKS]
DECK_SET = frozenset(DECK)


# --- cards -----------------------------------------------------------------


# The view keys the engine issue promises; every view must carry them.
REQUIRED_KEYS = {
    "phase",
    "turn",
    "hand",
    "talon",
    "trick",
    "trump",
    "bids",
    "contract",
    "declarer",
    "marriages",
    "scores",
    "sheet",
    "rules",
    "legal",
    "parting",
}


def cards(text: str | Iterable[str]) -> list[str]:
    """``"AS TS 9H"`` → ``["AS", "TS", "9H"]``; validates every card."""
    items = text.split() if isinstance(text, str) else list(text)
    for c in items:
        assert c in DECK_SET, f"not a card: {c!r}"
    return items


def points(cs: Iterable[str]) -> int:
    return sum(POINTS[c[0]] for c in cs)


def marriage_suits(cs: Iterable[str]) -> list[str]:
    s = set(cs)
    return [suit for suit in SUITS if "K" + suit in s and "Q" + suit in s]


def marriage_points(cs: Iterable[str]) -> int:
    return sum(MARRIAGE[suit] for suit in marriage_suits(cs))


def beats(a: str, b: str) -> bool:
    """Same suit: does ``a`` rank above ``b``?"""
    return RANKS.index(a[0]) > RANKS.index(b[0])


def round5(n: int) -> int:
    """``nearest5``: remainder 1–2 rounds down, 3–4 up (RULES.md §8.3)."""
    r = n % 5
    return n - r if r <= 2 else n + 5 - r


def round_last_digit(n: int) -> int:
    """``by_last_digit``: last digit 1–3 → 0, 4–7 → 5, 8–9 → next 10."""
    d = n % 10
    base = n - d
    if d == 0:
        return n
    if d <= 3:
        return base
    if d <= 7:
        return base + 5
    return base + 10


def write_off_share(amount: int) -> int:
    """Half of the written-off amount, rounded up to a multiple of 5."""
    half = (amount + 1) // 2
    return -(-half // 5) * 5


# --- deals -----------------------------------------------------------------


def make_deal(dealer: int, hands: Sequence[str], talon: str | None = None) -> dict[str, Any]:
    """A deal dict for ``Game.new(deal=...)``; hands by seat 0, 1, 2.

    The talon defaults to the three cards no hand holds. The deal is checked
    to be a partition of the 24-card deck, so a typo in a test's deal fails
    here and not as a confusing engine error.
    """
    hs = [cards(h) for h in hands]
    assert len(hs) == 3, "classic deals have three hands"
    for seat, h in enumerate(hs):
        assert len(h) == 7, f"seat {seat} has {len(h)} cards, want 7: {h}"
    used = [c for h in hs for c in h]
    assert len(set(used)) == 21, f"a card is dealt twice: {sorted(used)}"
    rest = sorted(DECK_SET - set(used), key=DECK.index)
    t = rest if talon is None else cards(talon)
    assert sorted(t) == sorted(rest), f"talon {t} is not the 3 undealt cards {rest}"
    return {"dealer": dealer, "hands": hs, "talon": list(t)}


def rules(**options: Any) -> Rules:
    r = Rules.preset("classic")
    return r.replace(**options) if options else r


def new_game(
    deal: dict[str, Any] | list[dict[str, Any]],
    scores: list[int] | None = None,
    rules_: Rules | None = None,
    seed: int = 0,
) -> Game:
    return Game.new(rules=rules_, seed=seed, deal=deal, scores=scores)


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def legal_set(game: Game) -> set[str]:
    return set(legal(game))


def plays(game: Game) -> set[str]:
    """The legal ``play`` actions, as text."""
    return {a for a in legal(game) if a.startswith("play ")}


def bids(game: Game) -> set[int]:
    return {int(a.split()[1]) for a in legal(game) if a.startswith("bid ")}


def contracts(game: Game) -> set[int]:
    return {int(a.split()[1]) for a in legal(game) if a.startswith("contract ")}


def hand(game: Game, seat: int) -> set[str]:
    return set(game.view(seat)["hand"])


def act(game: Game, seat: int, action: str) -> None:
    """Apply ``action`` as ``seat``, checking first that it is their turn."""
    assert game.current_player == seat, (
        f"premise: expected seat {seat} to act ({action!r}), "
        f"but it is {game.current_player!r}'s turn in phase {game.view(None)['phase']!r}"
    )
    game.apply(action)


def run(game: Game, script: str) -> None:
    """Apply ``"2 pass; 0 pass; 1 give KD 2"``: seat, then the action text."""
    for step in script.replace("\n", ";").split(";"):
        step = step.strip()
        if not step:
            continue
        seat, action = step.split(maxsplit=1)
        act(game, int(seat), action)


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable, to prove an action left the game unchanged."""
    return (
        json.loads(game.to_json()),
        [game.view(s) for s in (0, 1, 2, None)],
        game.current_player,
        list(game.scores),
        list(game.log),
    )


def assert_illegal(game: Game, action: str, *words: str) -> IllegalAction:
    """``action`` raises IllegalAction with a message and changes nothing."""
    before = snapshot(game)
    try:
        game.apply(action)
    except IllegalAction as e:
        err = e
    else:
        raise AssertionError(f"{action!r} was accepted but should be illegal")
    assert isinstance(err, ValueError)
    msg = str(err)
    assert msg.strip(), f"IllegalAction for {action!r} has an empty message"
    for w in words:
        assert w.lower() in msg.lower(), f"message for {action!r} lacks {w!r}: {msg!r}"
    assert snapshot(game) == before, f"illegal {action!r} changed the game"
    return err


# --- trick play reference model -----------------------------------------------


def trick_winner(trick: Sequence[tuple[int, str]], trump: str | None) -> int:
    """The seat that wins a complete trick (RULES.md §7.3)."""
    best_seat, best = trick[0]
    for seat, c in trick[1:]:
        if c[1] == best[1]:
            if beats(c, best):
                best_seat, best = seat, c
        elif c[1] == trump:
            best_seat, best = seat, c
    return best_seat


def legal_follow(hand_: Iterable[str], lead: str, trump: str | None) -> set[str]:
    """Cards a follower may play (RULES.md §7.2): suit, else trump, else any."""
    h = set(hand_)
    same = {c for c in h if c[1] == lead[1]}
    if same:
        return same
    if trump is not None:
        trumps = {c for c in h if c[1] == trump}
        if trumps:
            return trumps
    return h


def legal_leads(hand_: Iterable[str], may_declare: bool) -> set[str]:
    """Lead actions as text: every card, plus ``declare`` for K/Q of a marriage."""
    h = set(hand_)
    out = {f"play {c}" for c in h}
    if may_declare:
        for suit in marriage_suits(h):
            out.add(f"play K{suit} declare")
            out.add(f"play Q{suit} declare")
    return out


# --- scripted hands ---------------------------------------------------------


@dataclass
class Outcome:
    """What the reference model says a scripted hand yields."""

    card_points: list[int]
    marriages: list[int]
    tricks: list[int]

    @property
    def totals(self) -> list[int]:
        return [p + m for p, m in zip(self.card_points, self.marriages, strict=True)]


@dataclass
class ScriptedHand:
    """One hand from the deal to the last trick, written as tricks.

    ``tricks`` are strings like ``"1:AS 2:9S 0:JS"`` in play order; a ``*``
    after a card (``"1:KS*"``) declares the marriage. The 8-card hands after
    the passes are the cards each seat plays; from them, the talon and the
    two gives the original 7-card hands are derived, so a script cannot hold
    a card twice or miss one.
    """

    dealer: int
    declarer: int
    talon: str
    gives: dict[int, str]  # opponent seat -> card the declarer gives them
    bidding: str  # e.g. "2 pass; 0 pass" (seat action; ...)
    contract: int
    tricks: list[str]
    _parsed: list[list[tuple[int, str, bool]]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._parsed = []
        for t in self.tricks:
            trick = []
            for item in t.split():
                seat_s, c = item.split(":")
                declare = c.endswith("*")
                trick.append((int(seat_s), c.rstrip("*"), declare))
            assert len(trick) == 3, f"a trick has three cards: {t}"
            self._parsed.append(trick)
        assert len(self._parsed) == 8, "a hand has eight tricks"

    # the 8 cards each seat plays
    def final_hands(self) -> list[list[str]]:
        hs: list[list[str]] = [[], [], []]
        for trick in self._parsed:
            for seat, c, _ in trick:
                hs[seat].append(c)
        for seat, h in enumerate(hs):
            assert len(h) == 8, f"seat {seat} plays {len(h)} cards: {h}"
        assert len({c for h in hs for c in h}) == 24, "a card is played twice"
        return hs

    def deal(self) -> dict[str, Any]:
        final = self.final_hands()
        talon = cards(self.talon)
        opponents = [s for s in range(3) if s != self.declarer]
        assert sorted(self.gives) == sorted(opponents)
        given = {s: self.gives[s] for s in opponents}
        originals: list[list[str]] = [[], [], []]
        for s in opponents:
            assert given[s] in final[s], f"seat {s} must play the card it is given"
            originals[s] = [c for c in final[s] if c != given[s]]
        ten = set(final[self.declarer]) | set(given.values())
        assert set(talon) <= ten, "the talon ends up in the declarer's ten cards"
        originals[self.declarer] = [
            c for c in final[self.declarer] + list(given.values()) if c not in talon
        ]
        return make_deal(self.dealer, [" ".join(h) for h in originals], " ".join(talon))

    def actions(self) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        for step in self.bidding.split(";"):
            step = step.strip()
            if step:
                seat, action = step.split(maxsplit=1)
                out.append((int(seat), action))
        for s, c in self.gives.items():
            out.append((self.declarer, f"give {c} {s}"))
        out.append((self.declarer, f"contract {self.contract}"))
        for trick in self._parsed:
            for seat, c, declare in trick:
                out.append((seat, f"play {c} declare" if declare else f"play {c}"))
        return out

    def outcome(self) -> Outcome:
        """Replay the tricks through the reference model, checking legality."""
        hands_ = [set(h) for h in self.final_hands()]
        trump: str | None = None
        pts = [0, 0, 0]
        mar = [0, 0, 0]
        won = [0, 0, 0]
        leader = self.declarer
        for n, trick in enumerate(self._parsed, 1):
            assert trick[0][0] == leader, f"trick {n}: seat {leader} should lead"
            for i, (seat, c, declare) in enumerate(trick):
                assert seat == (leader + i) % 3, f"trick {n}: seat {seat} out of turn"
                if i == 0:
                    if declare:
                        assert won[seat] > 0, f"trick {n}: {seat} has taken no trick yet"
                        assert c[0] in "KQ" and c[1] in marriage_suits(hands_[seat]), (
                            f"trick {n}: {c} does not declare a marriage"
                        )
                        trump = c[1]
                        mar[seat] += MARRIAGE[c[1]]
                else:
                    assert not declare
                    ok = legal_follow(hands_[seat], trick[0][1], trump)
                    assert c in ok, f"trick {n}: seat {seat} may not play {c}; legal {sorted(ok)}"
                hands_[seat].remove(c)
            plain = [(s, c) for s, c, _ in trick]
            leader = trick_winner(plain, trump)
            won[leader] += 1
            pts[leader] += points(c for _, c in plain)
        assert sum(pts) == 120
        return Outcome(pts, mar, won)

    def play(self, game: Game, *, upto_contract: bool = False) -> None:
        """Apply the whole script (or stop before the first lead)."""
        self.outcome()  # the premise must hold before the engine is asked
        for seat, action in self.actions():
            if upto_contract and action.startswith("play "):
                return
            act(game, seat, action)

    def play_until(self, game: Game, seat: int, action: str) -> None:
        """Apply the script's actions up to (not including) ``seat``'s ``action``."""
        self.outcome()
        for s, a in self.actions():
            if (s, a) == (seat, action):
                return
            act(game, s, a)
        raise AssertionError(f"{seat} {action!r} is not in the script")


def scripted_game(
    script: ScriptedHand,
    scores: list[int] | None = None,
    rules_: Rules | None = None,
    extra_deals: Sequence[dict[str, Any]] = (),
) -> Game:
    deals = [script.deal(), *extra_deals]
    return new_game(deals if len(deals) > 1 else deals[0], scores=scores, rules_=rules_)


def with_dealer(script: ScriptedHand, dealer: int, bidding: str) -> ScriptedHand:
    """The same cards and play with another dealer (and bidding to match)."""
    return ScriptedHand(
        dealer=dealer,
        declarer=script.declarer,
        talon=script.talon,
        gives=dict(script.gives),
        bidding=bidding,
        contract=script.contract,
        tricks=list(script.tricks),
    )


def with_contract(script: ScriptedHand, contract: int) -> ScriptedHand:
    s = with_dealer(script, script.dealer, script.bidding)
    s.contract = contract
    return s


# Bidding that makes seat 1 the declarer, by dealer (first hand = dealer + 1):
# dealer 0 -> first hand 1 sits on 100 and both others pass (talon hidden);
# dealer 1 -> seat 0 speaks first, seat 1 raises, first hand 2 passes;
# dealer 2 -> seat 1 speaks first and raises, 2 and first hand 0 pass.
SEAT1_WINS = {0: "2 pass; 0 pass", 1: "0 pass; 1 bid 105; 2 pass", 2: "1 bid 105; 2 pass; 0 pass"}


def play_scripted(
    script: ScriptedHand,
    scores: list[int] | None = None,
    rules_: Rules | None = None,
) -> tuple[Game, list[int]]:
    """Play one scripted hand from a fresh game; return it and the score changes."""
    game = scripted_game(script, scores=scores, rules_=rules_)
    before = list(game.scores)
    script.play(game)
    return game, [a - b for a, b in zip(game.scores, before, strict=True)]


def play_hands(game: Game, scripts: Sequence[ScriptedHand]) -> list[list[int]]:
    """Play several scripted hands in a row; the scores after each one."""
    out = []
    for s in scripts:
        s.play(game)
        out.append(list(game.scores))
    return out


def new_game_or_skip(
    deal: Any, rules_: Rules, option: str, scores: list[int] | None = None
) -> Game:
    """Game.new, or skip the test if ``option`` is not implemented yet.

    A NotImplementedError must name the option (the issue's contract).
    """
    import pytest

    try:
        return new_game(deal, scores=scores, rules_=rules_)
    except NotImplementedError as e:
        assert option in str(e), f"NotImplementedError does not name {option!r}: {e}"
        pytest.skip(f"{option} not implemented yet: {e}")
