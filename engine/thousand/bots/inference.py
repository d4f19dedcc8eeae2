"""What the cards played so far say about the hidden hands: a likelihood per sampled deal.

This module owns the card-play evidence the search bot weighs its samples
by. A sampled deal puts cards in the other seats' hands; going back through
the tricks, it also says what each seat held when it played each card. Two
habits of sensible play make some of those holdings unlikely:

- a seat that plays a card that does not take the trick plays its cheapest
  such card, so a holding with a cheaper losing card it could have played
  makes the deal less likely;
- a seat that leads without declaring cashes a master (a card nothing still
  out beats in its suit) before it leads a card that is not one, so a
  holding with a master beside a led non-master is less likely.

A third habit, declaring a marriage (марьяж) with a lead that could, weighed a
holding with a king and queen beside a lead that declared nothing at 0.2: -0.02 ±
0.28 match points per hand in a paired run against the normal level (1,200 deals,
58 changed, nearly all in defence). It is not here: the strong level itself
leads without declaring while it holds a marriage in about one such lead in nine.

Each broken habit multiplies the deal's weight by a factor below one (the
budget's ``infer_follow`` and ``infer_lead``, one half each by default; their
docstrings give the figures; 1 turns a habit off). Voids are not here: a
seat that did not follow suit lacks it for certain, and the sampling never
deals it one.
"""

from __future__ import annotations

from ..cards import CARD_POINTS, FULL_DECK, SUIT_MASKS, cards_of
from ..position import BEATS, NO_TRUMP, follow_table
from .heuristic import _is_master
from .knowledge import Knowledge
from .sampling import Deal


def play_likelihood(
    k: Knowledge, deal: Deal, follow: float, lead: float, must_beat: bool = False
) -> float:
    """The relative likelihood of ``deal`` given the cards the other seats have played."""
    if follow >= 1.0 and lead >= 1.0:
        return 1.0
    table = follow_table(must_beat)
    weight = 1.0
    # Cards each seat played after the point the walk back has reached.
    later = [0] * k.players
    gone_after = 0
    for trick in reversed(k.history):
        t = NO_TRUMP if trick.trump is None else trick.trump
        cards = trick.cards
        for j in range(len(cards) - 1, -1, -1):
            s, c = cards[j]
            later[s] |= 1 << c
            gone_after |= 1 << c
            if s == k.seat or s >= len(deal.hands):
                continue
            held = deal.hands[s] | later[s]
            if j == 0:
                if lead < 1.0 and not trick.declared:
                    # Cards still out as this seat saw them at its lead.
                    out = FULL_DECK & ~(k.played & ~gone_after) & ~held
                    if not _is_master(c, out) and _holds_master(held, out):
                        weight *= lead
                continue
            if follow >= 1.0:
                continue
            best = cards[0][1]
            for _, x in cards[1:j]:
                if BEATS[(t + 1) * 576 + best * 24 + x]:
                    best = x
            if BEATS[(t + 1) * 576 + best * 24 + c]:
                continue
            legal = _followable(table, held, cards[0][1] // 6, best, t)
            cheaper = [
                x
                for x in cards_of(legal)
                if CARD_POINTS[x] < CARD_POINTS[c] and not BEATS[(t + 1) * 576 + best * 24 + x]
            ]
            if cheaper:
                weight *= follow
    return weight


def _followable(
    table: tuple[tuple[int, ...], ...], hand: int, led: int, best: int, trump: int
) -> int:
    for allowed in table[(trump + 1) * 576 + best * 24 + led]:
        legal = hand & allowed
        if legal:
            return legal
    return hand


def _holds_master(hand: int, out: int) -> bool:
    for suit_mask in SUIT_MASKS:
        top = hand & suit_mask
        if top and not out & suit_mask & ~((2 << (top.bit_length() - 1)) - 1):
            return True
    return False
