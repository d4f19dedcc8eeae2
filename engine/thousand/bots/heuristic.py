"""Rule-of-thumb players: the ``easy`` and ``normal`` levels.

This module owns the heuristic decisions — hand valuation for bidding
(торговля), choosing the two cards to give (снос), naming the contract
(заказ) or writing off (роспись), and card play. ``easy`` looks at its own
hand only; ``normal`` also counts cards: which cards are out, which are
masters, who has shown a void, and whether its partner is winning the
trick. The strong bot borrows :func:`give_plan` and :func:`estimate` for its
candidate moves and its bidding inference.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import (
    ACE,
    CARD_POINTS,
    KING,
    MARRIAGE_VALUES,
    QUEEN,
    SUIT_MASKS,
    TEN,
    card,
    card_text,
    cards_of,
    marriage_points_in,
    parse_card,
    points,
)
from ..position import marriage_pairs
from .knowledge import Knowledge, legal_plays, play_text, read_view


def _sure_tricks(hand: int, gone: int = 0) -> int:
    """Tricks from the top of each suit: cards that are masters in sequence."""
    tricks = 0
    for s in range(4):
        held = hand & SUIT_MASKS[s]
        length = held.bit_count()
        n = 0
        for r in range(ACE, -1, -1):
            c = card(s, r)
            if gone >> c & 1:
                continue
            if held >> c & 1 and n < length:
                n += 1
            else:
                break
        tricks += n
    return tricks


def estimate(hand: int, with_talon: bool = True) -> float:
    """Points a declarer holding ``hand`` can expect to take (card points and marriages).

    A least-squares fit to perfect-information play on 600 random deals
    (declarer with the talon, two cards given by :func:`give_plan`): masters
    from the top of a suit and aces carry the value, card points add little
    beyond them, and a marriage counts nearly in full when the hand can win
    a trick to declare it. ``with_talon`` is for a 7-card hand before the
    talon (прикуп): the residual spread there is about 45 points, against
    20 for the 8 cards the declarer keeps.
    """
    tricks = _sure_tricks(hand)
    aces = sum(1 for s in range(4) if hand >> card(s, ACE) & 1)
    marriages = marriage_points_in(hand)
    if with_talon:
        return 43.0 + 8.25 * tricks + 14.6 * aces + marriages * (0.81 if tricks else 0.25)
    return 8.7 + 11.0 * tricks + 13.2 * aces + marriages * (0.96 if tricks else 0.2)


def crude_estimate(hand: int) -> float:
    """The easy level's valuation: card points and marriages, plus the talon's average."""
    return 30.0 + 0.8 * points(hand) + marriage_points_in(hand)


def _round_down5(x: float) -> int:
    return int(x // 5 * 5)


# --- bidding ---------------------------------------------------------------------------------


def _bids(legal: list[str]) -> list[int]:
    return sorted(int(a.split()[1]) for a in legal if a.startswith("bid "))


def bid_decision(view: dict[str, Any], limit: float) -> str:
    """Raise by the smallest step while it stays within ``limit``, else pass."""
    legal: list[str] = view["legal"]
    bids = _bids(legal)
    if bids and bids[0] <= limit:
        return f"bid {bids[0]}"
    if "pass" in legal:
        return "pass"
    return legal[0]


# --- giving cards ----------------------------------------------------------------------------


def _keep_score(hand: int, c: int) -> float:
    """How much a declarer wants to keep card ``c``: high is keep, low is give."""
    s, r = c // 6, c % 6
    suit = hand & SUIT_MASKS[s]
    length = suit.bit_count()
    score = float(CARD_POINTS[c])
    if r in (KING, QUEEN) and marriage_pairs(hand) >> (6 * s) & 1:
        score += 40 + MARRIAGE_VALUES[s] / 4
    if r == ACE:
        score += 20
    if r == TEN and hand >> card(s, ACE) & 1:
        score += 12
    # Long suits are the declarer's strength; short low cards are losers.
    score += 3 * length
    return score


def give_plan(hand: int, opponents: list[int], count: int = 1) -> list[list[tuple[int, int]]]:
    """Up to ``count`` candidate ways to give one card to each opponent, best first."""
    ranked = sorted(cards_of(hand), key=lambda c: (_keep_score(hand, c), c))
    pool = ranked[: max(len(opponents) + 2, 4)]
    plans: list[list[tuple[int, int]]] = []
    if len(opponents) == 1:
        for c in pool:
            plans.append([(c, opponents[0])])
    else:
        pairs = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1 :]]
        pairs.sort(key=lambda p: _keep_score(hand, p[0]) + _keep_score(hand, p[1]))
        for a, b in pairs:
            # The lower card goes to the seat that plays right after the declarer.
            lo, hi = (a, b) if CARD_POINTS[a] <= CARD_POINTS[b] else (b, a)
            plans.append([(lo, opponents[0]), (hi, opponents[1])])
            plans.append([(hi, opponents[0]), (lo, opponents[1])])
    return plans[:count]


def _give_action(view: dict[str, Any], plan: list[tuple[int, int]]) -> str | None:
    legal = set(view["legal"])
    for c, s in plan:
        text = f"give {card_text(c)} {s}"
        if text in legal:
            return text
    return None


def _opponents_to_receive(view: dict[str, Any]) -> list[int]:
    """The opponents still to get a card from the declarer, clockwise from it."""
    return [s for s in view.get("parting") or [] if s is not None]


# --- card play -------------------------------------------------------------------------------


def _beats(c: int, best: int, trump: int | None) -> bool:
    if c // 6 == best // 6:
        return c > best
    return trump is not None and c // 6 == trump


def _winning(trick: list[tuple[int, int]], trump: int | None) -> tuple[int, int]:
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if _beats(c, best, trump):
            best_seat, best = s, c
    return best_seat, best


def _is_master(c: int, out: int) -> bool:
    """No card still out (in other hands) beats ``c`` in its suit."""
    higher = SUIT_MASKS[c // 6] & ~((2 << c) - 1)
    return not out & higher


def play_card(view: dict[str, Any], k: Knowledge, counting: bool, rng: random.Random) -> str:
    legal: list[str] = view["legal"]
    moves = legal_plays(legal)
    if not moves:
        return _fallback(legal)
    declares = [(c, d) for c, d in moves if d]
    trump = k.trump
    me = k.seat
    d = k.declarer
    # Cards still in other hands, as far as this seat can tell.
    out = ~(k.hand | k.played) & 0xFFFFFF if counting else ~k.hand & 0xFFFFFF
    cards = [c for c, dec in moves if not dec]
    if not k.trick:
        if declares:
            best = max(declares, key=lambda m: (MARRIAGE_VALUES[m[0] // 6], -(m[0] % 6)))
            # Lead the queen: it risks fewer points than the king.
            queen = [c for c, _ in declares if c // 6 == best[0] // 6 and c % 6 == QUEEN]
            return play_text(queen[0] if queen else best[0], True)
        return play_text(_lead(k, cards, out, counting), False)
    return play_text(_follow(k, cards, out, counting, me, d, trump), False)


def _lead(k: Knowledge, cards: list[int], out: int, counting: bool) -> int:
    trump = k.trump
    opp_void_suits = 0
    if counting:
        for s in k.others:
            if k.declarer is None or (s == k.declarer) != (k.seat == k.declarer):
                opp_void_suits |= k.void[s]
    masters = [c for c in cards if _is_master(c, out)]
    if trump is not None and counting:
        # A master of a side suit is safe only if no opponent can ruff it.
        safe = [c for c in masters if c // 6 == trump or not opp_void_suits & SUIT_MASKS[c // 6]]
    else:
        safe = masters
    if safe:
        trumps = [c for c in safe if c // 6 == trump]
        if trumps and k.seat == k.declarer:
            return max(trumps)
        return max(safe, key=lambda c: (CARD_POINTS[c], c))
    if not counting:
        return max(cards, key=lambda c: (c % 6, c))
    # Lead low from the longest side suit, keeping marriage cards home.
    keep = 0
    pairs = marriage_pairs(k.hand)
    for s in range(4):
        if pairs >> (6 * s) & 1:
            keep |= 1 << card(s, KING) | 1 << card(s, QUEEN)
    candidates = [c for c in cards if not keep >> c & 1 and c // 6 != trump] or cards

    def lead_key(c: int) -> tuple[int, int, int]:
        length = (k.hand & SUIT_MASKS[c // 6]).bit_count()
        return (CARD_POINTS[c], -length, c)

    return min(candidates, key=lead_key)


def _follow(
    k: Knowledge,
    cards: list[int],
    out: int,
    counting: bool,
    me: int,
    d: int | None,
    trump: int | None,
) -> int:
    win_seat, win_card = _winning(k.trick, trump)
    last = len(k.trick) == len(k.order) - 1
    partner_winning = d is not None and me != d and win_seat not in (me, d)
    winners = [c for c in cards if _beats(c, win_card, trump)]
    losers = [c for c in cards if c not in winners]
    cheap_loser = min(losers or cards, key=lambda c: (CARD_POINTS[c], c))
    if counting and partner_winning and not last and losers:
        # Defenders score their own points (each defender is paid separately), so
        # a trick is worth taking from the partner — unless only a card the
        # declarer can still beat would do it.
        sure_now = [c for c in winners if _is_master(c, out)]
        if not sure_now and not _may_ruff(k, d, win_card, trump):
            return cheap_loser
    if not winners:
        return cheap_loser
    if last:
        return min(winners, key=lambda c: (CARD_POINTS[c], c))
    if counting:
        sure = [
            c for c in winners if _is_master(c, out) and not _may_ruff(k, k.trick_next(), c, trump)
        ]
        if sure:
            return min(sure, key=lambda c: (CARD_POINTS[c], c))
    return max(winners, key=lambda c: (c % 6, c))


def _may_ruff(k: Knowledge, seat: int | None, c: int, trump: int | None) -> bool:
    """Whether ``seat`` might trump a card of ``c``'s suit: void in it, maybe holding trumps."""
    if seat is None or trump is None or c // 6 == trump:
        return False
    return bool(k.void[seat] & SUIT_MASKS[c // 6]) and not k.void[seat] & SUIT_MASKS[trump]


# --- the levels ------------------------------------------------------------------------------


def choose_heuristic(view: dict[str, Any], level: str, rng: random.Random) -> str:
    legal: list[str] = view["legal"]
    counting = level == "normal"
    phase = view.get("phase")
    k = read_view(view)
    if phase == "bidding":
        if "redeal" in legal and estimate(k.hand) < 95:
            return "redeal"
        limit = estimate(k.hand) - 45 if counting else crude_estimate(k.hand) - 10
        if view["seat"] == view.get("first_hand") and limit < 100:
            limit = 100
        return bid_decision(view, limit)
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        # Two players: the declarer lays cards away face down; keep the best.
        return min(discards, key=lambda a: (_keep_score(k.hand, parse_card(a.split()[1])), a))
    if phase == "talon":
        if "redeal" in legal and estimate(k.hand, with_talon=False) < 80:
            return "redeal"
        opponents = _opponents_to_receive(view)
        if opponents:
            if counting:
                plans = give_plan(k.hand, opponents, 1)
            else:
                low = sorted(cards_of(k.hand), key=lambda c: (CARD_POINTS[c], c))
                plans = [list(zip(low, opponents, strict=False))]
            action = _give_action(view, plans[0]) if plans else None
            if action:
                return action
            gives = [a for a in legal if a.startswith("give ")]
            if gives:
                return gives[0]
        return _fallback(legal)
    if phase == "contract":
        contracts = sorted(int(a.split()[1]) for a in legal if a.startswith("contract "))
        est = estimate(k.hand, with_talon=False)
        bid = k.bid or 100
        give_up = 70 if counting else 50
        if "writeoff" in legal and est < bid - give_up:
            return "writeoff"
        if not contracts:
            return _fallback(legal)
        if counting:
            # Raising the contract above the bid pays only when it is nearly sure.
            target = max(contracts[0], _round_down5(est - 35))
            fits = [v for v in contracts if v <= target]
            return f"contract {fits[-1] if fits else contracts[0]}"
        return f"contract {contracts[0]}"
    if phase == "claim":
        return "redeal" if "redeal" in legal else _fallback(legal)
    if phase == "play":
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return play_card(view, k, counting, rng)
    return _fallback(legal)


def _fallback(legal: list[str]) -> str:
    """A safe legal action for a phase this bot does not know."""
    for prefer in ("decline", "pass"):
        if prefer in legal:
            return prefer
    for a in legal:
        if a.split()[0] not in ("writeoff", "redeal", "bomb"):
            return a
    return legal[0]
