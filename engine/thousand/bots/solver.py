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
keeping the old trump, and it halves the branching. The search counts nodes
and stops with :class:`SearchAborted` past a node limit or a deadline.
"""

from __future__ import annotations

import time

from ..cards import CARD_POINTS, MARRIAGE_VALUES, SUIT_MASKS, cards_of, points

INF = 10_000
_SUIT_LOW = 0x41041  # bit 0 of every suit: one bit per suit after a shift
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


def reduce_moves(cards: int, remaining: int) -> int:
    """The cards of ``cards`` to search, given all cards still in hands."""
    out = 0
    for shift in (0, 6, 12, 18):
        h = cards >> shift & 63
        if h:
            out |= _RUNS[(remaining >> shift & 63) << 6 | h] << shift
    return out


def marriage_pairs(hand: int) -> int:
    """Bit ``6*suit`` set for every suit whose king and queen are both in ``hand``."""
    return (hand >> 3) & (hand >> 2) & _SUIT_LOW


class Solver:
    """Alpha-beta for one deal; reuse one instance for the root moves of that deal.

    ``order`` is the seats that play, clockwise (three for the classic
    table); ``declarer`` is one of them. ``first_lead_declares`` is the
    ``marriage_first_lead`` rule: a marriage may be declared before taking a
    trick.
    """

    def __init__(
        self,
        order: list[int],
        declarer: int,
        first_lead_declares: bool = False,
        node_limit: int | None = None,
        deadline: float | None = None,
    ) -> None:
        self.order = order
        self.n = len(order)
        seats = max(order) + 1
        self.next_seat = [0] * seats
        for k, s in enumerate(order):
            self.next_seat[s] = order[(k + 1) % self.n]
        self.declarer = declarer
        self.first_lead_declares = first_lead_declares
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
    ) -> int:
        """Future declarer points once the player to move plays ``card``.

        ``trick`` is the unfinished trick on the table (its first card led by
        ``leader``); ``eligible`` has bit ``seat`` set for every seat that has
        taken a trick (and so may declare). The value includes the marriage
        ``declare`` scores for the declarer and the points of the trick in
        progress if the declarer wins it. With a window ``alpha, beta`` the
        result is exact inside it and a bound outside (fail-soft).
        """
        self.hands = h = list(hands)
        t = -1 if trump is None else trump
        remaining = 0
        for s in self.order:
            remaining |= h[s]
        if not trick:
            gain = 0
            if declare:
                t = _SUIT[card]
                if leader == self.declarer:
                    gain = MARRIAGE_VALUES[t]
            h[leader] ^= 1 << card
            return gain + self._play(
                self.next_seat[leader],
                1,
                _SUIT[card],
                card,
                leader,
                CARD_POINTS[card],
                t,
                eligible,
                remaining ^ (1 << card),
                alpha - gain,
                beta - gain,
            )
        led = _SUIT[trick[0][1]]
        best_seat, best = trick[0]
        pts = CARD_POINTS[best]
        for s, c in trick[1:]:
            pts += CARD_POINTS[c]
            if _SUIT[c] == _SUIT[best]:
                if c > best:
                    best_seat, best = s, c
            elif _SUIT[c] == t:
                best_seat, best = s, c
        seat = self.next_seat[trick[-1][0]]
        h[seat] ^= 1 << card
        pts += CARD_POINTS[card]
        if _SUIT[card] == _SUIT[best]:
            if card > best:
                best_seat, best = seat, card
        elif _SUIT[card] == t:
            best_seat, best = seat, card
        k = len(trick) + 1
        if k == self.n:
            gain = pts if best_seat == self.declarer else 0
            return gain + self._lead(
                best_seat, t, eligible | 1 << best_seat, alpha - gain, beta - gain
            )
        return self._play(
            self.next_seat[seat],
            k,
            led,
            best,
            best_seat,
            pts,
            t,
            eligible,
            remaining ^ (1 << card),
            alpha,
            beta,
        )

    def solve(
        self,
        hands: list[int],
        leader: int,
        trump: int | None,
        eligible: int,
        alpha: int = -INF,
        beta: int = INF,
    ) -> int:
        """Future declarer points from the start of a trick led by ``leader``."""
        self.hands = list(hands)
        return self._lead(leader, -1 if trump is None else trump, eligible, alpha, beta)

    def reaches(
        self, hands: list[int], leader: int, trump: int | None, eligible: int, target: int
    ) -> bool:
        """Whether the declarer takes at least ``target`` more points (a null-window search)."""
        return self.solve(hands, leader, trump, eligible, target - 1, target) >= target

    # --- search ---------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
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
        self._tick()
        remaining = 0
        for s in self.order:
            remaining |= h[s]
        # Quick bounds: the declarer can take at most every point left plus its
        # own marriages, and at least nothing.
        d = self.declarer
        high = points(remaining) + _marriage_points(marriage_pairs(h[d]))
        if high <= alpha:
            return high
        if beta <= 0:
            return 0
        # Eligibility matters only for seats that still hold a marriage.
        elig_key = 0
        for s in self.order:
            if eligible >> s & 1 and marriage_pairs(h[s]):
                elig_key |= 1 << s
        key = (trump + 1) | leader << 3 | elig_key << 6
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
        pairs = marriage_pairs(hand) if may_declare else 0
        others = remaining & ~hand
        moves = cards_of(reduce_moves(hand, remaining))
        if pairs:
            # Both marriage cards stay candidates: either one declares.
            for s6 in cards_of(pairs):
                for c in (s6 + 2, s6 + 3):
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
        for _, c in keyed:
            t = trump
            gain = 0
            suit = _SUIT[c]
            if pairs and c % 6 in (2, 3) and pairs >> (6 * suit) & 1:
                t = suit
                if maximizing:
                    gain = MARRIAGE_VALUES[suit]
            h[leader] = hand ^ (1 << c)
            v = gain + self._play(
                nxt,
                1,
                suit,
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
        legal = hand & SUIT_MASKS[led]
        if not legal:
            if trump >= 0:
                legal = hand & SUIT_MASKS[trump]
            if not legal:
                legal = hand
        self.nodes += 1
        d = self.declarer
        maximizing = seat == d
        last = k == self.n - 1
        if legal & (legal - 1):
            moves = cards_of(reduce_moves(legal, remaining))
        else:
            moves = [legal.bit_length() - 1]
        if len(moves) > 1:
            # Ordering: a side already winning through a partner throws points
            # on the trick; otherwise win as cheaply as possible, or throw the
            # cheapest card.
            partner_wins = (best_seat == d) == maximizing
            best_suit = _SUIT[best]
            keyed = []
            for c in moves:
                sc = _SUIT[c]
                wins = c > best if sc == best_suit else sc == trump
                if wins:
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
        best_suit = _SUIT[best]
        for c in moves:
            h[seat] = hand ^ (1 << c)
            sc = _SUIT[c]
            nb, nbs = best, best_seat
            if sc == best_suit:
                if c > best:
                    nb, nbs = c, seat
            elif sc == trump:
                nb, nbs = c, seat
            np = pts + CARD_POINTS[c]
            if last:
                gain = np if nbs == d else 0
                v = gain + self._lead(nbs, trump, eligible | 1 << nbs, alpha - gain, beta - gain)
            else:
                v = self._play(
                    nxt, k + 1, led, nb, nbs, np, trump, eligible, remaining ^ (1 << c), alpha, beta
                )
            h[seat] = hand
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
