"""Dealing a hand: the shuffle or an explicit deal, and the hand's fresh state.

This module owns how the cards reach the table: a deal shuffled from the
seed (or a network game's deal seed), an explicit deal checked to be a
partition of the deck and dealt by the dealer it is written for, the talon
(прикуп; two talons with two players), who plays and who sits out, and the
start of the hand: dark play offered, the bidding opened, or the golden round
(золотой кон) going straight to the talon.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    FULL_DECK,
    bit,
    card_text,
    mask_of,
    parse_card,
    texts_of,
)
from .scoring import shuffled_deck
from .table import (
    BIDDING,
    COMPULSORY_BID,
    DARK,
    OBLIGATORY_BID,
    Table,
)


class Dealing(Table):
    """The dealing part of a :class:`~thousand.Game`."""

    def _deal(self) -> None:
        n = self.players
        first = self.first_hand
        self.active = [first]
        while len(self.active) < min(n, 3):
            self.active.append(self._next(self.active[-1]))
        per = 10 if n == 2 else 7
        hands = [0] * n
        explicit = self._next_explicit_deal()
        if explicit is not None:
            d = explicit
            self.explicit_dealt += 1
            hands = [mask_of(h) for h in d["hands"]]
            talon_cards = [parse_card(c) for c in d["talon"]]
        else:
            seed = self.deal_seeds.get(self.deal_no, self.seed)
            deck = shuffled_deck(seed, self.deal_no)
            for k, seat in enumerate(self.active):
                for c in deck[k * per : (k + 1) * per]:
                    hands[seat] |= bit(c)
            talon_cards = deck[len(self.active) * per :]
        if n == 2:
            self.talons = [
                bit(talon_cards[0]) | bit(talon_cards[1]),
                bit(talon_cards[2]) | bit(talon_cards[3]),
            ]
            self.talon = 0
        else:
            self.talons = []
            self.talon = sum(bit(c) for c in talon_cards)
        self.deal_no += 1
        self.hands = hands
        self.dealt = list(hands)
        self.talon_shown = False
        self.dark = False
        self.golden = self.golden_left > 0
        self.bids = [(first, OBLIGATORY_BID)]
        self.high_bid = OBLIGATORY_BID
        self.high_bidder = first
        self.passed = [s not in self.active for s in range(n)]
        self.raised = False
        self.declarer = None
        self.bid = None
        self.contract = None
        self.given = []
        self.discarded = 0
        self.claimants = []
        self.nines_bonus = []
        self.trick = []
        self.tricks = []
        self.won = [0] * n
        self.trick_counts = [0] * n
        self.marriages = []
        self.ace_marriage_by = None
        self.trump = None
        self.trump_by = None
        if self.golden:
            # Golden round: first hand is declarer at a compulsory 120, talon unseen.
            self.bids = [(first, COMPULSORY_BID)]
            self.high_bid = COMPULSORY_BID
            self._take_talon(first)
        elif self._may_play_dark():
            self.phase = DARK
            self.turn = first
        else:
            self.phase = BIDDING
            self.turn = self._next(first)

    def _next_explicit_deal(self) -> dict[str, Any] | None:
        """The next explicit deal if it is written for the dealer dealing now."""
        if self.explicit_dealt >= len(self.deals):
            return None
        d = self.deals[self.explicit_dealt]
        if "dealer" in d:
            return d if d["dealer"] == self.dealer else None
        if self.players == 4:
            return None if d["hands"][self.dealer] else d
        return d

    def _may_play_dark(self) -> bool:
        r = self.rules
        first = self.first_hand
        if not r.dark or self.players == 2 or self.on_barrel[first]:
            return False
        return r.dark_min_score is None or self.scores[first] >= r.dark_min_score


def _check_seat(value: Any, players: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise ValueError(f"{what} must be a seat 0..{players - 1}, not {value!r}")
    return value


def _check_deal(d: Any, players: int, k: int, dealer: int) -> dict[str, Any]:
    """A validated explicit deal; ``ValueError`` says what is wrong with it."""
    where = f"deal {k + 1}"
    if not isinstance(d, dict):
        raise ValueError(f"{where} must be a dict with 'hands' and 'talon'")
    unknown = set(d) - {"dealer", "hands", "talon"}
    if unknown:
        raise ValueError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
    hands, talon = d.get("hands"), d.get("talon")
    if "dealer" in d:
        dealer = _check_seat(d["dealer"], players, f"{where}: dealer")
    per = 10 if players == 2 else 7
    talon_size = 4 if players == 2 else 3
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"{where} must give {players} hands")
    for seat, h in enumerate(hands):
        size = 0 if players == 4 and seat == dealer else per
        if not isinstance(h, list) or len(h) != size:
            if size == 0:
                raise ValueError(f"{where}: the dealer (seat {dealer}) sits out with no cards")
            raise ValueError(f"{where}: every hand has {per} cards")
        if not all(isinstance(c, str) for c in h):
            raise ValueError(f"{where}: cards are texts like 'TH'")
    if not isinstance(talon, list) or len(talon) != talon_size:
        raise ValueError(f"{where}: the talon has {talon_size} cards")
    if not all(isinstance(c, str) for c in talon):
        raise ValueError(f"{where}: cards are texts like 'TH'")
    all_cards = mask_of([c for h in hands for c in h] + list(talon))
    if all_cards != FULL_DECK:
        raise ValueError(f"{where} must use every card of the deck once")
    out: dict[str, Any] = {
        "hands": [texts_of(mask_of(h)) for h in hands],
        # Keep the talon's order: with two players it splits into two talons.
        "talon": [card_text(parse_card(c)) for c in talon],
    }
    if "dealer" in d:
        out["dealer"] = _check_seat(d["dealer"], players, f"{where}: dealer")
    return out
