"""The state of a match at the table, the seats, and the constants of the rules.

This module owns the data every part of a :class:`~thousand.Game` works on:
the match state (scores, barrels, bolts, the sheet) and the hand state
(hands, bids, talon, tricks), the phases, who sits where (first hand, the
dealer sitting out with four players, the declarer's opponents) and the
numbers of the game (the obligatory 100, the 1000 to win). The parts of the
game are mixins over :class:`Table`, each in the module named after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Card, CardSet, count
from .position import TrickRules
from .rules import Rules

if TYPE_CHECKING:
    from .actions import Action, IllegalAction

OBLIGATORY_BID = 100
"""First hand sits on the hundred (обязательная сотня)."""
COMPULSORY_BID = 120
"""The bid of dark play and of the golden round."""
WIN_SCORE = 1000
FOUR_NINES_BONUS = 120
INTERMEDIATE_BARREL = 380
"""The intermediate barrel (промежуточная бочка), where the rules have one."""
DISCARDS = 2
"""Cards the declarer lays away face down after the talon with two players."""

DARK, BIDDING, CHOOSE, TALON, CLAIM, CONTRACT, PLAY, OVER = (
    "dark", "bidding", "choose", "talon", "claim", "contract", "play", "over",
)  # fmt: skip
_AFTER_BIDDING = (CHOOSE, TALON, CLAIM, CONTRACT, PLAY)


class Table:
    """The state of one match and its seats; the rules are in the mixins over it."""

    def __init__(self) -> None:
        # Filled in by new(); a bare Game is not playable.
        self.rules = Rules()
        self._trick_rules = TrickRules()
        self.seed: int | str = 0
        self.deals: list[dict[str, Any]] = []
        self.deal_seeds: dict[int, str] = {}
        self.explicit_dealt = 0
        """How many of ``deals`` have been dealt."""
        self.start_scores: list[int] | None = None
        self.players = 3
        self.log: list[str] = []
        self.log_movers: list[tuple[int, int]] = []
        """For each action of ``log``: the seat that made it and how many sheet
        rows (hands, redeals included) were written before it."""
        # Match state, one entry per seat.
        self.scores: list[int] = []
        self.bolts: list[int] = []
        self.on_barrel: list[bool] = []
        self.barrel_hands: list[int] = []
        self.falls: list[int] = []
        self.write_offs: list[int] = []
        self.bombs: list[int] = []
        self.reverse_hands: list[int | None] = []
        self.at_380: list[int | None] = []
        self.last_bids: list[int | None] = []
        self.sheet: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.hand_no = 0
        self.deal_no = 0
        self.dealer = 0
        self.golden_left = 0
        self.golden_made = False
        # Hand state.
        self.phase = BIDDING
        self.turn = 0
        self.active: list[int] = []
        self.hands: list[CardSet] = []
        self.dealt: list[CardSet] = []
        self.talons: list[CardSet] = []
        self.talon: CardSet = 0
        self.talon_shown = False
        self.dark = False
        self.golden = False
        self.bids: list[tuple[int, int | None]] = []
        self.high_bid = OBLIGATORY_BID
        self.high_bidder = 0
        self.passed: list[bool] = []
        self.raised = False
        self.declarer: int | None = None
        self.bid: int | None = None
        self.contract: int | None = None
        self.given: list[tuple[Card, int]] = []
        self.discarded: CardSet = 0
        self.claimants: list[int] = []
        self.nines_bonus: list[int] = []
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, Card], ...], int]] = []
        self.won: list[CardSet] = []
        self.trick_counts: list[int] = []
        self.marriages: list[tuple[int, int]] = []
        self.ace_marriage_by: int | None = None
        self.trump: int | None = None
        self.trump_by: int | None = None
        self.last_action: dict[str, Any] | None = None
        self._last_trick_winner: int | None = None
        """The latest action with the trick it completed; the hand may already be over."""

    @property
    def _target(self) -> int:
        return WIN_SCORE + 1 if self.rules.target_1001 else WIN_SCORE

    @property
    def first_hand(self) -> int:
        """The seat left of the dealer (первая рука)."""
        return (self.dealer + 1) % self.players

    @property
    def sitting_out(self) -> int | None:
        """With four players the dealer sits out the hand ("on the talon")."""
        return self.dealer if self.players == 4 else None

    def _next(self, seat: int) -> int:
        s = (seat + 1) % self.players
        return (s + 1) % self.players if s == self.sitting_out else s

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return None if self.phase == OVER else self.turn

    @property
    def opponents(self) -> list[int]:
        """The declarer's opponents (вистующие), clockwise from the declarer."""
        assert self.declarer is not None
        out, s = [], self._next(self.declarer)
        while s != self.declarer:
            out.append(s)
            s = self._next(s)
        return out

    @property
    def parting(self) -> list[int | None]:
        """What the declarer has still to part with after the talon (снос): each opponent
        still without a card, clockwise from the declarer, or with two players ``None`` for
        each card still to lay away face down. Empty outside the talon phase."""
        if self.phase != TALON:
            return []
        if self.players == 2:
            return [None] * (DISCARDS - count(self.discarded))
        return list(self.receivers)

    @property
    def receivers(self) -> list[int]:
        """The opponents still without a card from the declarer, clockwise from it."""
        given_to = {seat for _, seat in self.given}
        return [s for s in self.opponents if s not in given_to]

    def _before_first_lead(self) -> bool:
        return not self.tricks and not self.trick

    def _give_face_down(self) -> bool:
        # A hidden talon (at 100, dark, golden) is passed face down too, or the
        # passed cards would show the other opponent part of it.
        return bool(self.rules.pass_face_down) or not self.talon_shown

    if TYPE_CHECKING:
        # The parts of a Game call each other through these; each is defined in
        # the module named after it, and Game joins them.

        def legal_actions(self) -> list[Action]: ...  # hand.py

        def _refusal(self, action: Action) -> IllegalAction: ...  # refusals.py

        def _deal(self) -> None: ...  # deals.py

        def _take_talon(self, declarer: int) -> None: ...  # bidding.py

        def _score_hand(self) -> None: ...  # results.py

        def _marriage_points(self) -> list[int]: ...  # results.py

        def _finish_hand(
            self, result: str, deltas: list[int], marks: list[list[str]], details: dict[str, Any]
        ) -> None: ...  # match.py
