"""Thousand (Тысяча, 1000): the rules engine of the Russian trick-taking card game.

The package owns every rule of the game; the web front end and network peers
only ask it. Start a match with :meth:`Game.new`, list what the current
player may do with :meth:`Game.legal_actions`, apply one with
:meth:`Game.apply`, and show each seat :meth:`Game.view`. A refused action
raises :class:`IllegalAction` with a stable ``code`` (see
``thousand.actions.REFUSAL_CODES``); :meth:`Game.why_illegal` asks why
without applying.

Cards are written rank ``9 J Q K T A`` plus suit ``S C D H`` (``TH``: the ten
of hearts). Actions are written as players say them:

- ``bid 105`` — raise the bidding (торговля); ``pass`` — leave it for this hand;
- ``redeal`` — claim a redeal (пересдача); ``decline`` — let a redeal claim go;
- ``give QS 2`` — pass the queen of spades to seat 2 (снос);
- ``contract 120`` — name the contract (заказ);
- ``writeoff`` — concede the hand before the first lead (роспись);
- ``play AH`` — play a card; ``play KH declare`` — lead the king of a marriage
  and declare it (марьяж), making hearts trump.

>>> g = Game.new(seed=7)
>>> g.phase, g.current_player == (g.dealer + 2) % 3
('bidding', True)
"""

from .actions import Action, IllegalAction, parse_action
from .game import Game
from .private_hand import IllegalStep, SeatFollower, Unfollowable, check_deals  # noqa: F401
from .rules import Rules

__all__ = ["Action", "Game", "IllegalAction", "Rules", "parse_action"]
__version__ = "0.1.0"
