"""Perfect-information search of the play phase: alpha-beta over bitmask states.

This module owns the double-dummy solver the ``strong`` bot runs on every
sampled deal (a determinization): all hands are known, the declarer
(играющий) maximises the points it will still take — card points of the
tricks it wins plus the marriages (марьяж) it declares — and the defenders
(вистующие) minimise them, as a team. Hands are card bitmasks; positions at
the start of a trick go into a transposition table with lower and upper
bounds; moves are ordered by the table's best move, then by cheap rules
(masters first when leading, cheapest winner or cheapest discard when
following). Cards that are equivalent for taking tricks (neighbours in a
suit once the played cards are gone) are searched only at the ends of their
run. Inside the search a player who leads the king or queen of a marriage
and may declare it always declares: the points nearly always outweigh
keeping the old trump, and it halves the branching (the ace marriage too).
The search counts nodes and stops with :class:`SearchAborted` past a node
limit or a deadline.

The rules of trick play are the engine's own (:mod:`thousand.position`):
the follow table (``must_beat`` included), the leads a seat may make
(``must_lead_trump``, ``no_lead_foreign_trump``), the declaring cards and
what a declaration does to the trump (the ace marriage and its trump
modes), and who takes a trick; with two players the dead talon's points go
to the last trick where the rules say so (``last_trick_bonus``).
"""

from __future__ import annotations

import time

from ..cards import (
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    CARD_POINTS,
    MARRIAGE_VALUES,
    SUIT_MASKS,
    cards_of,
    points,
)
from ..position import (
    BEATS,
    NO_TRUMP,
    SUIT_LOW,
    Position,
    TrickRules,
    declaration,
    declaring,
    follow_table,
    leadable,
    shows_trump,
)

INF = 10_000
_SUIT = tuple(c // 6 for c in range(24))


class SearchAborted(Exception):
    """The node limit or the deadline ran out before the search finished."""


def _runs_table() -> tuple[int, ...]:
    # For a suit pattern of remaining cards r and a holding h ⊆ r, the cards of
    # h worth searching: runs of h that no other remaining card splits are
    # equivalent for taking tricks; keep the top and bottom of each run.
    table = [0] * 4096
    for r in range(64):
        for h in range(64):
            if h & ~r:
                continue
            keep = 0
            run: list[int] = []
            for rank in range(6):
                if not r >> rank & 1:
                    continue
                if h >> rank & 1:
                    run.append(rank)
                else:
                    if run:
                        keep |= 1 << run[0] | 1 << run[-1]
                    run = []
            if run:
                keep |= 1 << run[0] | 1 << run[-1]
            table[r << 6 | h] = keep
    return tuple(table)


_RUNS = _runs_table()


def _run_cards_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    # _RUNS as lists of cards, one table per suit, so a search lists its moves
    # with four lookups instead of a mask and a loop over its bits.
    return tuple(
        tuple(tuple(6 * suit + r for r in range(6) if keep >> r & 1) for keep in _RUNS)
        for suit in range(4)
    )


_RUN_CARDS = _run_cards_tables()


def search_moves(cards: int, remaining: int) -> list[int]:
    """The cards of :func:`reduce_moves`, as a list, lowest first."""
    out: list[int] = []
    if cards & 63:
        out += _RUN_CARDS[0][(remaining & 63) << 6 | cards & 63]
    if cards >> 6 & 63:
        out += _RUN_CARDS[1][(remaining >> 6 & 63) << 6 | cards >> 6 & 63]
    if cards >> 12 & 63:
        out += _RUN_CARDS[2][(remaining >> 12 & 63) << 6 | cards >> 12 & 63]
    if cards >> 18:
        out += _RUN_CARDS[3][(remaining >> 18) << 6 | cards >> 18]
    return out


def reduce_moves(cards: int, remaining: int) -> int:
    """The cards of ``cards`` to search, given all cards still in hands."""
    out = 0
    for shift in (0, 6, 12, 18):
        h = cards >> shift & 63
        if h:
            out |= _RUNS[(remaining >> shift & 63) << 6 | h] << shift
    return out


class Solver:
    """Alpha-beta for one deal; reuse one instance for the root moves of that deal.

    ``order`` is the seats that play, clockwise (three for the classic
    table); ``declarer`` is one of them. ``rules`` are the trick rules in
    force (default: the classic ones); ``first_lead_declares`` also turns on
    their ``marriage_first_lead`` (a marriage may be declared before taking
    a trick). ``last_trick_bonus`` is what the last trick carries besides its
    cards (two players: the dead talon, with ``two_player_second_talon ==
    "last_trick"``).
    """

    def __init__(
        self,
        order: list[int],
        declarer: int,
        first_lead_declares: bool = False,
        node_limit: int | None = None,
        deadline: float | None = None,
        rules: TrickRules | None = None,
        last_trick_bonus: int = 0,
    ) -> None:
        rules = rules if rules is not None else TrickRules()
        if first_lead_declares:
            rules = rules._replace(marriage_first_lead=True)
        self.rules = rules
        self.follow = follow_table(rules.must_beat)
        self.plain_leads = not (rules.must_lead_trump or rules.no_lead_foreign_trump)
        self.aces = rules.ace_marriage
        self.last_ace = rules.ace_marriage and rules.ace_marriage_trump == "last_ace"
        self.bonus = last_trick_bonus
        self.trump_by = -1
        self.ace_by = -1
        self.order = order
        self.n = len(order)
        seats = max(order) + 1
        self.next_seat = [0] * seats
        for k, s in enumerate(order):
            self.next_seat[s] = order[(k + 1) % self.n]
        self.declarer = declarer
        self.first_lead_declares = rules.marriage_first_lead
        self.hands: list[int] = [0] * seats
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline

    # --- public ---------------------------------------------------------------------------

    def value_after(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        leader: int,
        trump: int | None,
        eligible: int,
        card: int,
        declare: bool,
        alpha: int = -INF,
        beta: int = INF,
        trump_by: int | None = None,
        ace_by: int | None = None,
    ) -> int:
        """Future declarer points once the player to move plays ``card``.

        ``trick`` is the unfinished trick on the table (its first card led by
        ``leader``); ``eligible`` has bit ``seat`` set for every seat that has
        taken a trick (and so may declare); ``trump_by`` and ``ace_by`` are
        who declared the trump and the ace marriage (``None``: nobody). The
        value includes the marriage ``declare`` scores for the declarer and
        the points of the trick in progress if the declarer wins it. With a
        window ``alpha, beta`` the result is exact inside it and a bound
        outside (fail-soft).
        """
        self.hands = h = list(hands)
        self.trump_by = -1 if trump_by is None else trump_by
        self.ace_by = -1 if ace_by is None else ace_by
        t = NO_TRUMP if trump is None else trump
        remaining = 0
        for s in self.order:
            remaining |= h[s]
        if not trick:
            return self._lead_card(leader, card, declare, t, eligible, remaining, alpha, beta)
        led = _SUIT[trick[0][1]]
        best_seat, best = trick[0]
        pts = CARD_POINTS[best]
        for s, c in trick[1:]:
            pts += CARD_POINTS[c]
            if BEATS[(t + 1) * 576 + best * 24 + c]:
                best_seat, best = s, c
        seat = self.next_seat[trick[-1][0]]
        hand = h[seat]
        h[seat] ^= 1 << card
        if self.last_ace and shows_trump(card, hand, seat, self.ace_by, self.rules):
            t, self.trump_by = _SUIT[card], seat
        pts += CARD_POINTS[card]
        if BEATS[(t + 1) * 576 + best * 24 + card]:
            best_seat, best = seat, card
        k = len(trick) + 1
        left = remaining ^ (1 << card)
        if k == self.n:
            gain = pts if best_seat == self.declarer else 0
            if self.bonus and not left and best_seat == self.declarer:
                gain += self.bonus
            return gain + self._lead(
                best_seat, t, eligible | 1 << best_seat, alpha - gain, beta - gain
            )
        return self._play(
            self.next_seat[seat], k, led, best, best_seat, pts, t, eligible, left, alpha, beta
        )

    def _lead_card(
        self,
        leader: int,
        c: int,
        declare: bool,
        trump: int,
        eligible: int,
        remaining: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Future declarer points once ``leader`` leads ``c`` (declaring or not)."""
        h = self.hands
        hand = h[leader]
        gain = 0
        t = trump
        trump_by, ace_by = self.trump_by, self.ace_by
        if declare:
            declared = declaration(c, leader, trump, trump_by, self.rules)
            t, self.trump_by = declared.trump, declared.trump_by
            if c % 6 == 5:
                self.ace_by = leader
            if leader == self.declarer:
                gain = declared.points
        elif leader == ace_by and shows_trump(c, hand, leader, ace_by, self.rules):
            t, self.trump_by = _SUIT[c], leader
        h[leader] = hand ^ (1 << c)
        v = gain + self._play(
            self.next_seat[leader],
            1,
            _SUIT[c],
            c,
            leader,
            CARD_POINTS[c],
            t,
            eligible,
            remaining ^ (1 << c),
            alpha - gain,
            beta - gain,
        )
        h[leader] = hand
        if t != trump or declare:
            self.trump_by, self.ace_by = trump_by, ace_by
        return v

    def solve(
        self,
        hands: list[int],
        leader: int,
        trump: int | None,
        eligible: int,
        alpha: int = -INF,
        beta: int = INF,
        trump_by: int | None = None,
        ace_by: int | None = None,
    ) -> int:
        """Future declarer points from the start of a trick led by ``leader``."""
        self.hands = list(hands)
        self.trump_by = -1 if trump_by is None else trump_by
        self.ace_by = -1 if ace_by is None else ace_by
        return self._lead(leader, NO_TRUMP if trump is None else trump, eligible, alpha, beta)

    def reaches(
        self,
        hands: list[int],
        leader: int,
        trump: int | None,
        eligible: int,
        target: int,
        trump_by: int | None = None,
        ace_by: int | None = None,
    ) -> bool:
        """Whether the declarer takes at least ``target`` more points (a null-window search)."""
        value = self.solve(hands, leader, trump, eligible, target - 1, target, trump_by, ace_by)
        return value >= target

    def solve_position(self, p: Position) -> int:
        """Future declarer points of a :class:`~thousand.position.Position` at a trick's start."""
        if p.trick:
            raise ValueError("solve_position takes a position at the start of a trick")
        self.bonus = p.last_trick_bonus
        return self.solve(
            p.hands, p.turn, p.trump, p.eligible, trump_by=p.trump_by, ace_by=p.ace_by
        )

    def legal_moves(self, p: Position) -> list[tuple[int, bool]]:
        """The ``(card, declare)`` moves of ``p``'s seat to move, from the same rules the
        search plays by (before it drops equivalent cards and always declares)."""
        seat = p.turn
        hand = p.hands[seat]
        if p.trick:
            led = p.trick[0][1]
            best = led
            t = p.trump
            for _, c in p.trick[1:]:
                if BEATS[(t + 1) * 576 + best * 24 + c]:
                    best = c
            legal = self._followable(hand, _SUIT[led], best, t)
            return [(c, False) for c in cards_of(legal)]
        moves = [
            (c, False) for c in cards_of(leadable(hand, p.trump, p.trump_by != seat, self.rules))
        ]
        if self.first_lead_declares or p.eligible >> seat & 1:
            moves += [(c, True) for c in cards_of(declaring(hand, self.rules))]
        return sorted(moves)

    # --- search ---------------------------------------------------------------------------

    def _followable(self, hand: int, led: int, best: int, trump: int) -> int:
        for allowed in self.follow[(trump + 1) * 576 + best * 24 + led]:
            legal = hand & allowed
            if legal:
                return legal
        return hand

    def _check_limits(self) -> None:
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchAborted("node limit")
        if (
            self.deadline is not None
            and self.nodes & 255 == 0
            and time.perf_counter() > self.deadline
        ):
            raise SearchAborted("deadline")

    def _lead(self, leader: int, trump: int, eligible: int, alpha: int, beta: int) -> int:
        h = self.hands
        hand = h[leader]
        if not hand:
            return 0
        self.nodes += 1
        if self.node_limit is not None or self.deadline is not None:
            self._check_limits()
        remaining = 0
        for s in self.order:
            remaining |= h[s]
        # Quick bounds: the declarer can take at most every point left plus its
        # own marriages, and at least nothing.
        d = self.declarer
        hd = h[d]
        high = points(remaining) + _PAIR_POINTS[(hd >> 3) & (hd >> 2) & SUIT_LOW] + self.bonus
        if self.aces and hd & ACES_MASK == ACES_MASK:
            high += ACE_MARRIAGE_VALUE
        if high <= alpha:
            return high
        if beta <= 0:
            return 0
        # Eligibility matters only for seats that still hold a marriage
        # (marriage_pairs, inline for search).
        elig_key = 0
        aces = self.aces
        for s in self.order:
            if eligible >> s & 1:
                hs = h[s]
                if (hs >> 3) & (hs >> 2) & SUIT_LOW or (aces and hs & ACES_MASK == ACES_MASK):
                    elig_key |= 1 << s
        key = (trump + 1) | leader << 3 | elig_key << 6
        if not self.plain_leads or self.last_ace:
            key = key << 6 | (self.trump_by + 1) | (self.ace_by + 1) << 3
        for s in self.order:
            key = key << 24 | h[s]
        entry = self.tt.get(key)
        best_move = -1
        if entry is not None:
            lo, hi, best_move = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0, b0 = alpha, beta
        maximizing = leader == d
        may_declare = self.first_lead_declares or bool(eligible >> leader & 1)
        declares = declaring(hand, self.rules) if may_declare else 0
        others = remaining & ~hand
        lead = hand
        if not self.plain_leads:
            lead = leadable(hand, trump, self.trump_by != leader, self.rules)
        moves = search_moves(lead, remaining)
        if declares:
            # Every declaring card stays a candidate: any one of them declares.
            for c in cards_of(declares):
                if c not in moves:
                    moves.append(c)
        keyed = []
        for c in moves:
            if c == best_move:
                k = -1000
            elif others & SUIT_MASKS[_SUIT[c]] & ~((2 << c) - 1):
                k = CARD_POINTS[c]  # not a master: lead low
            else:
                k = -100 - CARD_POINTS[c]  # a master: cash it
            keyed.append((k, c))
        keyed.sort()
        best_val = -INF if maximizing else INF
        bm = -1
        nxt = self.next_seat[leader]
        special = declares if leader != self.ace_by else hand
        for _, c in keyed:
            if special >> c & 1:
                v = self._lead_card(
                    leader, c, bool(declares >> c & 1), trump, eligible, remaining, alpha, beta
                )
            else:
                # The common lead, inline: no declaration, the trump unchanged.
                h[leader] = hand ^ (1 << c)
                v = self._play(
                    nxt,
                    1,
                    _SUIT[c],
                    c,
                    leader,
                    CARD_POINTS[c],
                    trump,
                    eligible,
                    remaining ^ (1 << c),
                    alpha,
                    beta,
                )
                h[leader] = hand
            if maximizing:
                if v > best_val:
                    best_val, bm = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best_val:
                best_val, bm = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        lo, hi = -INF, INF
        if entry is not None:
            lo, hi = entry[0], entry[1]
        if best_val <= a0:
            hi = best_val
        elif best_val >= b0:
            lo = best_val
        else:
            lo = hi = best_val
        self.tt[key] = (lo, hi, bm)
        return best_val

    def _play(
        self,
        seat: int,
        k: int,
        led: int,
        best: int,
        best_seat: int,
        pts: int,
        trump: int,
        eligible: int,
        remaining: int,
        alpha: int,
        beta: int,
    ) -> int:
        h = self.hands
        hand = h[seat]
        row = (trump + 1) * 576 + best * 24  # of BEATS; + led: of the follow table
        for allowed in self.follow[row + led]:
            legal = hand & allowed
            if legal:
                break
        else:
            legal = hand
        self.nodes += 1
        d = self.declarer
        maximizing = seat == d
        last = k == self.n - 1
        # One legal card needs no table.
        moves = search_moves(legal, remaining) if legal & (legal - 1) else [legal.bit_length() - 1]
        beats = BEATS
        if len(moves) > 1:
            # Ordering: a side already winning through a partner throws points
            # on the trick; otherwise win as cheaply as possible, or throw the
            # cheapest card.
            partner_wins = (best_seat == d) == maximizing
            keyed = []
            for c in moves:
                if beats[row + c]:
                    key = CARD_POINTS[c] - 50 if last else c % 6 - 40
                elif partner_wins:
                    key = -CARD_POINTS[c]
                else:
                    key = CARD_POINTS[c]
                keyed.append((key, c))
            keyed.sort()
            moves = [c for _, c in keyed]
        best_val = -INF if maximizing else INF
        nxt = self.next_seat[seat]
        ace_by = self.ace_by
        trump_by = self.trump_by
        for c in moves:
            h[seat] = hand ^ (1 << c)
            t = trump
            if seat == ace_by and shows_trump(c, hand, seat, ace_by, self.rules):
                t, self.trump_by = _SUIT[c], seat  # the last ace shows the trump
            if beats[row + c] if t == trump else BEATS[(t + 1) * 576 + best * 24 + c]:
                nb, nbs = c, seat
            else:
                nb, nbs = best, best_seat
            np = pts + CARD_POINTS[c]
            if last:
                gain = np if nbs == d else 0
                if self.bonus and nbs == d and remaining == 1 << c:
                    gain += self.bonus
                v = gain + self._lead(nbs, t, eligible | 1 << nbs, alpha - gain, beta - gain)
            else:
                v = self._play(
                    nxt, k + 1, led, nb, nbs, np, t, eligible, remaining ^ (1 << c), alpha, beta
                )
            h[seat] = hand
            if t != trump:
                self.trump_by = trump_by
            if maximizing:
                if v > best_val:
                    best_val = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best_val:
                best_val = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best_val


def _marriage_points(pairs: int) -> int:
    total = 0
    for suit in range(4):
        if pairs >> (6 * suit) & 1:
            total += MARRIAGE_VALUES[suit]
    return total


_PAIR_POINTS = {
    pairs: _marriage_points(pairs)
    for pairs in (sum(1 << 6 * s for s in range(4) if k >> s & 1) for k in range(16))
}
"""The marriage points of every :func:`marriage_pairs` value, for the search's bounds."""
