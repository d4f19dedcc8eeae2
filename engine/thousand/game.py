"""The match of Thousand as one object: the public face of the rules engine.

This module owns :class:`Game`, the whole API the front end, the network
peers and the checks use. A :class:`Game` is driven by actions
(:mod:`thousand.actions`): ``legal_actions()`` lists what the current player
may do, ``apply()`` validates and applies one (an illegal one raises
:class:`IllegalAction` and changes nothing), ``why_illegal()`` says why an
action would be refused without applying it, and ``view(seat)`` builds what
one seat may know. Everything random flows from the seed, so the seed, the
rules and the action log rebuild a match exactly; that is also how a game is
saved (``to_json``/``from_json``).

Phases of a hand: ``dark`` (only when dark play is allowed: first hand
chooses ``dark`` or ``look`` before seeing the cards) → ``bidding``
(торговля) → ``choose`` (two players: take one of two talons) → ``talon``
(the declarer holds the talon, прикуп, and gives one card to each opponent,
снос, or with two players discards two) → ``claim`` (only when an opponent
may claim a redeal for four nines received) → ``contract`` (заказ) →
``play`` → scored, and the next hand is dealt at once. ``over`` when
somebody has won the match. The golden round (золотой кон) skips bidding.

The rules live in the parts :class:`Game` is made of, each in the module
named after what it owns: :mod:`.table` (the state and the seats),
:mod:`.deals`, :mod:`.bidding`, :mod:`.play` (on the trick rules of
:mod:`.position`), :mod:`.hand` (the phases' actions), :mod:`.refusals`,
:mod:`.results` (a hand's score), :mod:`.match` (barrels, bolts, the sheet,
the winner) and :mod:`.views`.
"""

from __future__ import annotations

import copy as _copy
import json
from collections.abc import Iterable, Sequence
from typing import Any

from .actions import Action, IllegalAction
from .bidding import REDEAL_REASONS, RedealReason
from .deals import _check_deal, _check_seat
from .match import Match
from .position import TrickRules
from .refusals import Refusals
from .rules import Rules
from .scoring import shuffled_deck
from .table import (
    BIDDING,
    CHOOSE,
    CLAIM,
    COMPULSORY_BID,
    CONTRACT,
    DARK,
    FOUR_NINES_BONUS,
    INTERMEDIATE_BARREL,
    OBLIGATORY_BID,
    OVER,
    PLAY,
    TALON,
    WIN_SCORE,
)
from .views import Views

__all__ = [
    "BIDDING",
    "CHOOSE",
    "CLAIM",
    "COMPULSORY_BID",
    "CONTRACT",
    "DARK",
    "FOUR_NINES_BONUS",
    "INTERMEDIATE_BARREL",
    "OBLIGATORY_BID",
    "OVER",
    "PLAY",
    "REDEAL_REASONS",
    "SAVE_FORMAT",
    "TALON",
    "WIN_SCORE",
    "Game",
    "RedealReason",
]

SAVE_FORMAT = "thousand-game/1"


class Game(Refusals, Match, Views):
    """One match of Thousand. Build it with :meth:`Game.new` or :meth:`Game.from_json`."""

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: int | str = 0,
        deal: dict[str, Any] | Sequence[dict[str, Any]] | None = None,
        scores: Sequence[int] | None = None,
    ) -> Game:
        """A new match.

        ``seed`` deals every hand reproducibly; ``deal`` (one deal or a list)
        fixes the first deals explicitly, as ``{"dealer": 0, "hands": [[…7
        cards], …], "talon": [3 cards]}``; ``scores`` starts from given scores.
        With two players each hand has 10 cards and ``talon`` lists 4 cards:
        the first two are talon 0, the last two talon 1. With four players
        ``hands`` lists four hands and the dealer's is empty.

        Explicit deals are dealt in their order, each by the dealer it is
        written for: the seat its ``dealer`` names, or with four players the
        seat whose hand is empty (without ``dealer``, deal ``k`` is written for
        the ``k``-th dealer from the first one). A redeal is dealt again by the
        same dealer, so when the next explicit deal is written for another
        dealer, the redeal is shuffled from the seed and that explicit deal
        waits for its dealer. With two or three players a deal that names no
        dealer fits any dealer and is simply the next deal, redeals counting.
        So the cards always match who plays.
        """
        rules = rules if rules is not None else Rules.preset("classic")
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules value, not {type(rules).__name__}")
        unsupported = rules.unsupported()
        if unsupported:
            raise NotImplementedError(
                "these rule options are not implemented yet: " + ", ".join(unsupported)
            )
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number or a text, not {seed!r}")
        g = cls()
        g.rules = rules
        g._trick_rules = TrickRules.of(rules)
        g.seed = seed
        g.players = n = rules.players
        if deal is None:
            deals: list[Any] = []
        elif isinstance(deal, dict):
            deals = [deal]
        elif isinstance(deal, list | tuple):
            deals = list(deal)
        else:
            raise ValueError("deal must be a dict or a list of dicts")
        g.scores = [0] * n
        g.bolts = [0] * n
        g.on_barrel = [False] * n
        g.barrel_hands = [0] * n
        g.falls = [0] * n
        g.write_offs = [0] * n
        g.bombs = [0] * n
        g.reverse_hands = [None] * n
        g.at_380 = [None] * n
        g.last_bids = [None] * n
        if scores is not None:
            g.start_scores = g._check_scores(scores)
            barrel = rules.barrel_at
            for s, value in enumerate(g.start_scores):
                if barrel is not None and value >= barrel:
                    g.scores[s], g.on_barrel[s] = barrel, True
                else:
                    g.scores[s] = value
        if deals and isinstance(deals[0], dict) and "dealer" in deals[0]:
            g.dealer = _check_seat(deals[0]["dealer"], n, "deal 1: dealer")
        else:
            g.dealer = shuffled_deck(seed, -1)[0] % n
        g.deals = [_check_deal(d, n, k, (g.dealer + k) % n) for k, d in enumerate(deals)]
        if rules.golden:
            g.golden_left = min(n, 3)
        g._deal()
        return g

    def to_json(self) -> str:
        """The match as JSON: rules, seed, explicit deals, starting scores and the action log."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "deals": self.deals,
                "deal_seeds": {str(k): v for k, v in sorted(self.deal_seeds.items())},
                "scores": self.start_scores,
                "log": self.log,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """A match saved by :meth:`to_json`; a corrupt save raises ``ValueError`` saying why."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"not a saved game: {e}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a saved game: expected format {SAVE_FORMAT!r}")
        log = data.get("log")
        if not isinstance(log, list) or not all(isinstance(a, str) for a in log):
            raise ValueError("corrupt save: the action log must be a list of texts")
        try:
            game = cls.new(
                rules=Rules.from_dict(data.get("rules") or {}),
                seed=data.get("seed", 0),
                deal=data.get("deals") or None,
                scores=data.get("scores"),
            )
        except (TypeError, KeyError, NotImplementedError) as e:
            raise ValueError(f"corrupt save: {e}") from None
        seeds = data.get("deal_seeds") or {}
        if not isinstance(seeds, dict):
            raise ValueError("corrupt save: deal_seeds must map deal numbers to seeds")
        for key, value in seeds.items():
            if not isinstance(key, str) or not key.isdigit() or not isinstance(value, str):
                raise ValueError(f"corrupt save: bad deal seed {key!r}: {value!r}")
            game.deal_seeds[int(key)] = value
        game.replay(log)
        return game

    @property
    def next_deal_number(self) -> int:
        """The number of the next deal (redeals count): what :meth:`set_deal_seed` names."""
        return self.deal_no

    def set_deal_seed(self, deal_number: int, seed: str) -> None:
        """Shuffle a future deal from ``seed`` instead of the match seed.

        For a caller whose deal's seed comes from outside the match (drawn
        from several parties, say); it is set before that hand is dealt.
        """
        if not isinstance(seed, str) or not seed:
            raise ValueError("a deal seed is a non-empty text")
        if not isinstance(deal_number, int) or deal_number < self.deal_no:
            raise ValueError(f"deal {deal_number} has already been dealt")
        self.deal_seeds[deal_number] = seed

    def replay(self, actions: Iterable[str | Action]) -> None:
        """Apply actions in order; the first illegal one raises ValueError naming its place."""
        for k, action in enumerate(actions):
            try:
                self.apply(action)
            except IllegalAction as e:
                raise ValueError(f"action {k + 1} ({action}) cannot be replayed: {e}") from None

    def copy(self) -> Game:
        """An independent copy, cheap enough for search."""
        g = _copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list | dict):
                setattr(g, name, value.copy())
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game hand {self.hand_no + 1} {self.phase} turn={self.current_player} "
            f"scores={self.scores}>"
        )
