"""What one seat may see: the view, as JSON-ready data.

This module owns the line between what a seat knows and what it does not:
its own hand only, the talon when it was shown or taken, cards given face
down, the last action as that seat may know it, and the public rest (bids,
tricks, scores, the sheet). Bots and the front end decide from views only.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    SUIT_CHARS,
    card_text,
    count,
    points,
    texts_of,
)
from .table import (
    _AFTER_BIDDING,
    CHOOSE,
    DARK,
    Table,
)


class Views(Table):
    """The view part of a :class:`~thousand.Game`."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-ready data; ``None`` is a spectator."""
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise ValueError(f"no seat {seat!r} at a table of {self.players}")
        after_bidding = self.phase in _AFTER_BIDDING
        taken = self.phase != CHOOSE
        sees_talon = after_bidding and taken and (self.talon_shown or seat == self.declarer)
        blindfolded = self.phase == DARK and seat == self.first_hand
        last = self.tricks[-1] if self.tricks else None
        sees_discards = seat is not None and seat == self.declarer
        return {
            "seat": seat,
            "players": self.players,
            "phase": self.phase,
            "turn": self.current_player,
            "dealer": self.dealer,
            "first_hand": self.first_hand,
            "active": list(self.active),
            "sitting_out": self.sitting_out,
            "hand_no": self.hand_no + 1,
            "hand": texts_of(self.hands[seat]) if seat is not None and not blindfolded else [],
            "hand_sizes": [count(h) for h in self.hands],
            "talon": texts_of(self.talon) if sees_talon else None,
            "talon_size": 2 if self.players == 2 else 3,
            "talon_shown": self.talon_shown,
            "talons": (
                [texts_of(t) for t in self.talons]
                if self.phase == CHOOSE
                and seat == self.declarer
                and self.rules.two_player_talon_choice == "seen"
                else None
            ),
            "discarded": texts_of(self.discarded) if sees_discards else None,
            "parting": self.parting,
            "dark": self.dark,
            "golden": self.golden,
            "bids": [[s, "pass" if v is None else v] for s, v in self.bids],
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "passed": [s for s in self.active if self.passed[s]],
            "declarer": self.declarer,
            "bid": self.bid,
            "contract": self.contract,
            "given": [
                [card_text(c) if self._sees_given(seat, to) else None, to] for c, to in self.given
            ],
            "trick": [[s, card_text(c)] for s, c in self.trick],
            "leader": self.trick[0][0] if self.trick else self.turn,
            "tricks": [
                {"leader": lead, "cards": [[s, card_text(c)] for s, c in cards], "winner": w}
                for lead, cards, w in self.tricks
            ],
            "last_trick": (
                {"cards": [[s, card_text(c)] for s, c in last[1]], "winner": last[2]}
                if last
                else None
            ),
            "trump": SUIT_CHARS[self.trump] if self.trump is not None else None,
            "marriages": [[s, "A" if suit < 0 else SUIT_CHARS[suit]] for s, suit in self.marriages],
            "trick_counts": list(self.trick_counts),
            "card_points": [points(w) for w in self.won],
            "marriage_points": self._marriage_points(),
            "scores": list(self.scores),
            "barrel": [
                {
                    "on": self.on_barrel[s],
                    "hands": self.barrel_hands[s],
                    "falls": self.falls[s],
                    "at_380": self.at_380[s] is not None,
                }
                for s in range(self.players)
            ],
            "bolts": list(self.bolts),
            "write_offs": list(self.write_offs),
            "sheet": [_copy_row(row) for row in self.sheet],
            "last_hand": _copy_row(self.sheet[-1]) if self.sheet else None,
            "winner": self.winner,
            "last_action": self._last_action_for(seat),
            "rules": self.rules.to_dict(),
            "legal": (
                [str(a) for a in self.legal_actions()]
                if seat is not None and seat == self.current_player
                else []
            ),
        }

    def _sees_given(self, seat: int | None, to: int) -> bool:
        return not self._give_face_down() or seat in (to, self.declarer)

    def _last_action_for(self, seat: int | None) -> dict[str, Any] | None:
        """The last action as ``seat`` may know it: a card given face down or
        discarded shows as ``??`` to everybody but its giver and receiver."""
        last = self.last_action
        if last is None:
            return None
        out = {k: v for k, v in last.items() if k not in ("to", "hidden")}
        if last["hidden"] and (seat is None or seat not in (last["seat"], last["to"])):
            verb, *rest = str(last["action"]).split()
            out["action"] = " ".join([verb, "??", *rest[1:]])
        if out["trick"] is not None:
            out["trick"] = {
                "cards": [list(x) for x in out["trick"]["cards"]],
                "winner": out["trick"]["winner"],
            }
        return out


def _copy_row(row: dict[str, Any]) -> dict[str, Any]:
    """A copy of a sheet row (values are numbers, texts, and lists of them or of lists)."""
    return {
        k: [list(x) if isinstance(x, list) else x for x in v] if isinstance(v, list) else v
        for k, v in row.items()
    }
