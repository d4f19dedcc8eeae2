"""One hand as a state machine: the actions of each phase, listed and applied.

This module owns the dispatch of a hand, from the deal to the last trick:
what the seat to move may do in each phase (``dark``, ``bidding``,
``choose``, ``talon``, ``claim``, ``contract``, ``play``), whether one action
is among them, and applying it: an illegal action raises
:class:`~thousand.IllegalAction` and changes nothing. Each phase's rules
live in the module named after it (:mod:`.bidding`, :mod:`.play`,
:mod:`.results`).
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    Bomb,
    Contract,
    Cross,
    Dark,
    Decline,
    Discard,
    Give,
    IllegalAction,
    Look,
    Pass,
    Play,
    Redeal,
    Take,
    WriteOff,
    as_action,
)
from .bidding import Bidding
from .cards import (
    bit,
    card_text,
    iter_cards,
)
from .deals import Dealing
from .play import TrickPlay
from .results import HandResults
from .table import (
    BIDDING,
    CHOOSE,
    CLAIM,
    COMPULSORY_BID,
    CONTRACT,
    DARK,
    OVER,
    PLAY,
    TALON,
)


class Hand(Bidding, TrickPlay, Dealing, HandResults):
    """The action dispatch of a :class:`~thousand.Game`."""

    def legal_actions(self) -> list[Action]:
        """Everything the current player may do now."""
        if self.phase == OVER:
            return []
        s = self.turn
        out: list[Action] = []
        if self.phase == DARK:
            out.extend((Dark(), Look()))
        elif self.phase == BIDDING:
            out.extend(Bid(v) for v in self._bid_values(s))
            out.append(Pass())
            if self._redeal_reasons(s):
                out.append(Redeal())
        elif self.phase == CHOOSE:
            out.extend((Take(0), Take(1)))
        elif self.phase == TALON:
            if self.players == 2:
                out.extend(Discard(c) for c in iter_cards(self.hands[s]))
            else:
                receivers = self.receivers
                out.extend(Give(c, to) for c in iter_cards(self.hands[s]) for to in receivers)
            self._append_declarer_options(out)
        elif self.phase == CLAIM:
            out.extend((Redeal(), Decline()))
        elif self.phase == CONTRACT:
            out.extend(Contract(v) for v in self._contract_values())
            self._append_declarer_options(out)
        elif self.phase == PLAY:
            out.extend(self._plays(s))
            if self._before_first_lead():
                self._append_abandon_options(out)
        return out

    def _append_declarer_options(self, out: list[Action]) -> None:
        self._append_abandon_options(out)
        if self._redeal_reasons(self.turn):
            out.append(Redeal())

    def _append_abandon_options(self, out: list[Action]) -> None:
        if self._may_write_off():
            out.append(WriteOff())
        r = self.rules
        anyone_on_barrel = any(self.on_barrel)
        if r.cross and not self.dark and not self.golden and not anyone_on_barrel:
            out.append(Cross())
        if r.bomb and self.declarer is not None and self.bombs[self.declarer] < r.bomb:
            out.append(Bomb())

    def is_legal(self, action: Action | str) -> bool:
        try:
            act = as_action(action)
        except IllegalAction:
            return False
        return self._allows(act)

    def _allows(self, act: Action) -> bool:
        if isinstance(act, Play) and self.phase == PLAY:
            # The hot path of every hand, checked without listing all actions.
            s = self.turn
            if self.trick:
                return not act.declare and bool(self._followable(self.hands[s]) & bit(act.card))
            if act.declare:
                return bool(self.hands[s] & bit(act.card)) and self._may_declare(s, act.card)
            return bool(self._leadable(s) & bit(act.card))
        return act in self.legal_actions()

    def apply(self, action: Action | str) -> Action:
        """Apply one action of the current player; an illegal one raises and changes nothing."""
        act = as_action(action)
        if not self._allows(act):
            raise self._refusal(act)
        self.log.append(str(act))
        s = self.turn
        self.log_movers.append((s, len(self.sheet)))
        hand_before = self.hand_no
        completed = len(self.tricks)
        trick_before = list(self.trick)
        hidden_from_others = (isinstance(act, Give) and self._give_face_down()) or isinstance(
            act, Discard
        )
        if isinstance(act, Dark):
            self.dark = True
            self.bids = [(s, COMPULSORY_BID)]
            self.high_bid = COMPULSORY_BID
            self.phase = BIDDING
            self.turn = self._next(s)
        elif isinstance(act, Look):
            self.phase = BIDDING
            self.turn = self._next(s)
        elif isinstance(act, Bid):
            self.bids.append((s, act.value))
            self.last_bids[s] = act.value
            self.high_bid, self.high_bidder, self.raised = act.value, s, True
            self.dark = False  # an opponent's bid over dark play undarkens it
            self._advance_bidding()
        elif isinstance(act, Pass):
            self.bids.append((s, None))
            self.passed[s] = True
            self._advance_bidding()
        elif isinstance(act, Redeal):
            self._redeal(s)
        elif isinstance(act, Decline):
            self._next_claim()
        elif isinstance(act, Take):
            self._take_talon_of_two(act.index)
        elif isinstance(act, Discard):
            self.hands[s] &= ~bit(act.card)
            self.discarded |= bit(act.card)
            if not self.parting:
                self._after_passing()
        elif isinstance(act, Give):
            self.hands[s] &= ~bit(act.card)
            self.hands[act.seat] |= bit(act.card)
            self.given.append((act.card, act.seat))
            if not self.receivers:
                self._after_passing()
        elif isinstance(act, Contract):
            self.contract = act.value
            self.last_bids[s] = act.value
            self.phase = PLAY
        elif isinstance(act, WriteOff):
            self._write_off()
        elif isinstance(act, Cross | Bomb):
            self._abandon(act)
        elif isinstance(act, Play):
            self._play(s, act)
        trick = None
        if isinstance(act, Play) and (len(self.tricks) > completed or self.hand_no > hand_before):
            # The trick this card completed, even when the hand was scored at once.
            cards = [*trick_before, (s, act.card)]
            winner = self._last_trick_winner
            trick = {"cards": [[seat, card_text(c)] for seat, c in cards], "winner": winner}
        self.last_action = {
            "seat": s,
            "action": str(act),
            "trick": trick,
            "hand_over": self.hand_no > hand_before or self.phase == OVER,
            "to": act.seat if isinstance(act, Give) else None,
            "hidden": hidden_from_others,
        }
        return act
