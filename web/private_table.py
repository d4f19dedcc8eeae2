"""One peer of a private table: what its seats send, what it accepts, and its verdict on each deal.

This module owns the sequence of the private deal (web/net/PRIVATE_DEAL.md)
for the seats one peer plays: a guest its own, the host its own and the
computer seats. Every peer sees the same public messages in the same order
(the host relays them); :meth:`PrivatePeer.receive` checks one, updates the
deal's :class:`~private_deal.Ledger` and the engine's
:class:`thousand.SeatFollower`, and returns what this peer's seats must send
next, so the page only relays. :meth:`PrivatePeer.act` turns a seat's move
into its message (a played card with the position it was dealt in).

A message that breaks the protocol or a move no hand allows is a *dispute*:
the peer names the seat, reveals its secrets at once, and every peer
reveals in turn; each then audits the deal and names the first cheat it
proves. A deal ends the same way when the engine says it is over.

A redeal claim for four nines after the pass is seen only by the seat that
holds them. So that the declarer never names a contract over a claim it
cannot see, every opponent says it is ``ready`` once the pass is done (the
claimant after claiming or declining), and the contract waits for them all.

A person's seat whose player has left can be given to a computer
(``replace``, sent by the host only): from then on the host's peer plays it,
its secrets derived from the host's master, and the deal on the table, whose
cards nobody can open any more, is void and dealt again from its start.

Secrets: a peer keeps one random ``master`` (from ``crypto.getRandomValues``,
kept in its own storage) and derives each deal's secret of each of its
seats from it, so it can go on after a reload and reveals nothing of the
other deals.
"""

from __future__ import annotations

import hashlib
from typing import Any

from mental_poker import SeatSecret, is_secret
from private_deal import Ledger, Problem, ProtocolViolation
from thousand import IllegalAction, Rules, SeatFollower
from thousand.cards import card_text, parse_card
from thousand.private_hand import HIDDEN

Message = dict[str, Any]

# A dispute names what its sender found as the evidence's code and facts, so every
# page can put it in its player's language: the codes a dispute can carry, and the
# facts each may hold (a refused move: the action, the refusal's code and detail).
CLAIMS = ("move", "protocol", "played_other", "shown_known")
CLAIM_FACTS = ("action", "refusal", "suit", "low", "high", "card", "position", "holds")


def claim_facts(facts: Any) -> dict[str, str | int]:
    """The facts of a dispute that travel: the known keys, short texts and numbers only."""
    if not isinstance(facts, dict):
        return {}
    return {
        k: v if isinstance(v, int) else str(v)[:40]
        for k, v in facts.items()
        if k in CLAIM_FACTS and isinstance(v, int | str) and not isinstance(v, bool)
    }


HOST_SEAT = 0
"""The host sits at seat 0; a seat given to a computer is played by the host's peer."""
COMPUTER_LEVELS = ("easy", "normal", "strong")
"""The computer players a person's seat may be given to."""


class BadReplace(ValueError):
    """A ``replace`` this peer refuses (another deal, no person's seat, malformed): no change."""


class PrivatePeer:
    """The private deal as one peer playing ``seats`` takes part in it."""

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        seats: list[int],
        master: str,
        computers: frozenset[int] = frozenset(),
    ) -> None:
        if not is_secret(master):
            raise ValueError("the master secret is 64 lowercase hex digits")
        if rules.players == 2:
            raise ValueError("the private deal is for three or four players")
        self.rules, self.players, self.seats, self.master = rules, rules.players, seats, master
        self.follower = SeatFollower(rules, dealer, seats)
        self.deal_no = 0
        self.verdicts: dict[int, list[Problem]] = {}
        """Deal → the cheats this peer proved in it, with the evidence."""
        self.problems: list[Problem] = []
        self.replaced: dict[int, str] = {}
        """Seat → the level of the computer that took it over from its player."""
        self.computers = computers
        """The seats the lobby gave to computers (the host's peer plays them): no person's."""
        self.catching_up = False
        """Messages this peer's seats sent before are coming again (a reloaded page): what
        they owed then is in the log already, so their shuffles and unlocks, the costly
        part, are not worked out again."""
        self._new_ledger()

    # --- this deal --------------------------------------------------------------------

    def secret(self, seat: int, deal: int | None = None) -> SeatSecret:
        k = self.deal_no if deal is None else deal
        digest = hashlib.sha256(f"thousand/deal-secret/{self.master}/{k}/{seat}".encode())
        return SeatSecret(digest.hexdigest())

    def _new_ledger(self) -> None:
        dealer = int(self.follower.game.view(None)["dealer"])
        self.ledger = Ledger(self.players, dealer, {s: self.secret(s) for s in self.seats})
        self.unlocked: list[int] = []
        """Seats that have taken their locks off in the dealing pass."""
        self.talon_unlocked: list[int] = []
        self.actions: list[str] = []
        """This deal's actions with every card this peer knows."""
        self.hidden: dict[int, int] = {}
        """Action index → the pass that carried its card face down."""
        self.pending_give: Message | None = None
        self.ready: list[int] = []
        """Opponents that said they are ready for the contract after the pass."""
        self._ready_sent: set[int] = set()
        self.revealing = False
        self.revealed_mine = False
        self.problems = []

    def start(self) -> list[Message]:
        """What this peer sends first in a deal (its seat's shuffle, if it is seat 0's)."""
        return self._next()

    # --- what the seats send ----------------------------------------------------------

    def _msg(self, t: str, seat: int, **fields: Any) -> Message:
        return {"t": t, "deal": self.deal_no, "seat": seat, **fields}

    def _next(self) -> list[Message]:
        """The messages this peer's seats owe now."""
        out: list[Message] = []
        led = self.ledger
        if self.revealing:
            return out
        s = led.next_shuffler()
        if s is not None:
            if s in self.seats and not self.catching_up:
                out.append(self._msg("shuffle", s, deck=led.my_shuffle(s)))
            return out
        if len(self.unlocked) < self.players:
            s = len(self.unlocked)
            if s in self.seats and not self.catching_up:
                positions = led.deal_positions(s)
                out.append(
                    self._msg("unlock", s, stage="deal", values=led.my_unlocks(s, positions))
                )
            return out
        if self.follower.hands is None:
            self.follower.deal({s: led.read(s, led.places["hands"][s]) for s in self.seats})
        out += self._talon()
        out += self._pass_turn()
        out += self._ready()
        if self.follower.waiting == "reveal":
            out += self._reveal()
        return out

    def _talon_order(self) -> list[int] | None:
        """Who takes a lock off the talon, in order, once a declarer holds it; else ``None``."""
        view = self.follower.game.view(None)
        if view["declarer"] is None or view["phase"] not in ("talon", "claim", "contract", "play"):
            return None
        if view["talon_shown"]:
            return list(range(self.players))
        return [s for s in range(self.players) if s != view["declarer"]]

    def _talon(self) -> list[Message]:
        order = self._talon_order()
        if order is None or len(self.talon_unlocked) >= len(order):
            return []
        s = order[len(self.talon_unlocked)]
        if s not in self.seats or self.catching_up:
            return []
        talon = self.ledger.places["talon"]
        return [self._msg("unlock", s, stage="talon", values=self.ledger.my_unlocks(s, talon))]

    @property
    def talon_ready(self) -> bool:
        order = self._talon_order()
        return order is None or len(self.talon_unlocked) >= len(order)

    @property
    def turn(self) -> int | None:
        """Who moves now as this peer sees it; ``None`` while cards are moving, keys are
        revealed, a cheat is named, or the contract waits for an opponent to be ready."""
        f = self.follower
        if f.waiting is not None or self.revealing or self.pending_give is not None:
            return None
        if not self.talon_ready:
            return None
        if f.game.phase == "contract" and self.owed_ready():
            return None
        return f.current_player

    def owed_ready(self) -> list[int]:
        """The opponents that have not said yet they are ready for the contract (after the
        pass, while a seat may hold four nines that only it can see)."""
        f = self.follower
        if not self.rules.redeal_four_nines_after_pass or self.revealing:
            return []
        if f.waiting is not None or self.pending_give is not None or not self.talon_ready:
            return []
        if f.game.phase not in ("claim", "contract"):
            return []
        view = f.game.view(None)
        return [s for s in view["active"] if s != view["declarer"] and s not in self.ready]

    def may_claim(self, seat: int, action: object) -> bool:
        """Whether ``action`` may be ``seat``'s answer to a redeal claim for four nines after
        the pass, which this peer cannot see (the seat's cards are not known here)."""
        return (
            action in ("redeal", "decline") and seat not in self.seats and seat in self.owed_ready()
        )

    def _ready(self) -> list[Message]:
        """This peer's opponents say they are ready for the contract (a claimant once it
        has answered its claim)."""
        if self.catching_up:
            return []
        game, out = self.follower.game, []
        for s in self.owed_ready():
            claiming = game.phase == "claim" and game.current_player == s
            if s in self.seats and s not in self._ready_sent and not claiming:
                self._ready_sent.add(s)
                out.append(self._msg("ready", s))
        return out

    def act(self, seat: int, action: str) -> Message:
        """The message of this peer's ``seat`` making ``action`` (checked by the follower first)."""
        if seat not in self.seats:
            raise IllegalAction(f"seat {seat} is not played here")
        if not self.talon_ready or self.pending_give is not None:
            raise IllegalAction("wait: the cards are still moving")
        words = action.split()
        fields: dict[str, Any] = {"action": action, "position": None, "y": None}
        if words[:1] in (["play"], ["give"]):
            fields["position"] = self._position_of(seat, parse_card(words[1]))
        if words[:1] == ["give"] and self._face_down():
            to = int(words[2])
            fields["action"] = f"give {HIDDEN} {to}"
            fields["y"] = self.ledger.pass_start(seat, to, fields["position"])
        trial = self.follower.game.copy()
        trial.apply(action)  # the follower knows this seat's cards: an illegal move stops here
        return self._msg("act", seat, **fields)

    def _face_down(self) -> bool:
        view = self.follower.game.view(None)
        return bool(self.rules.pass_face_down) or not view["talon_shown"]

    def _position_of(self, seat: int, card: int) -> int:
        led = self.ledger
        for k, p in enumerate(led.passes):
            got = p.shown if p.shown is not None else led.received.get(k)
            if p.to == seat and got == card and p.source not in led.opened:
                return p.source
        for j, c in led.known.items():
            if c == card and j not in led.opened:
                return j
        raise IllegalAction(f"seat {seat} does not hold {card_text(card)}")

    def _reveal(self) -> list[Message]:
        self.revealing = True
        if self.revealed_mine:
            return []
        self.revealed_mine = True
        return [self._msg("reveal", s, secret=self.secret(s).secret) for s in self.seats]

    # --- what the peer receives -------------------------------------------------------

    def receive(self, msg: Message) -> list[Message]:
        """One public message, in the order the host relayed it; what this peer sends next."""
        if msg.get("t") == "replace":
            return self._on_replace(msg)
        if msg.get("deal") != self.deal_no:
            return []
        seat = msg.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return []
        try:
            self._receive(seat, msg)
        except IllegalAction as e:
            facts = {"action": str(msg.get("action")), "refusal": e.code, **e.detail}
            return self._dispute(Problem(seat, str(e), "move", facts))
        except ProtocolViolation as e:
            return self._dispute(Problem(seat, str(e), e.code, e.facts))
        except (ValueError, KeyError, TypeError) as e:
            return self._dispute(Problem(seat, str(e), "protocol", {"reason": str(e)}))
        if msg["t"] in ("reveal", "dispute"):
            out = self._reveal()
            if len(self.ledger.revealed) == self.players:
                out += self._audit()
            return out
        try:
            return self._next()
        except ValueError as e:
            # A card that opens to no card, or twice the same card: somebody lied,
            # the audit says who.
            return self._dispute(Problem(-1, str(e), "protocol", {"reason": str(e)}))

    def _on_replace(self, msg: Message) -> list[Message]:
        """A person's seat given to a computer, which the host's peer plays from now on.

        The deal on the table cannot be opened any more (that seat's keys left
        with its player): it is void, scores nothing, and is dealt again from
        its start by the same dealer, with fresh keys (the next deal number).
        """
        seat, deal, level = msg.get("seat"), msg.get("deal"), msg.get("level")
        if set(msg) != {"t", "deal", "seat", "level"}:
            raise BadReplace("a replace names its deal, its seat and the computer's level only")
        if not isinstance(deal, int) or isinstance(deal, bool) or deal != self.deal_no:
            raise BadReplace(f"deal {self.deal_no} is on the table, not {deal!r}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise BadReplace(f"no seat {seat!r} at this table")
        if level not in COMPUTER_LEVELS:
            raise BadReplace(f"no computer player of level {level!r}")
        if seat == HOST_SEAT:
            raise BadReplace("the host's own seat is not given to a computer")
        if seat in self.replaced or seat in self.computers:
            raise BadReplace(f"seat {seat} is played by a computer already")
        if self.verdicts.get(self.deal_no):
            raise BadReplace("a cheat is named in this deal: the table has stopped")
        hosting = HOST_SEAT in self.seats
        seats = [*self.seats, seat] if hosting else [s for s in self.seats if s != seat]
        self.replaced[seat] = level
        self.seats = sorted(seats)
        self.deal_no += 1
        self.follower.void_deal(self.seats)
        self._new_ledger()
        return self.start()

    def _receive(self, seat: int, msg: Message) -> None:
        led, t = self.ledger, msg.get("t")
        if t == "shuffle":
            led.on_shuffle(seat, msg["deck"])
        elif t == "unlock" and msg.get("stage") == "deal":
            if seat != len(self.unlocked):
                raise ProtocolViolation("unlocked out of turn")
            led.on_unlock(seat, msg["values"], led.deal_positions(seat))
            self.unlocked.append(seat)
        elif t == "unlock" and msg.get("stage") == "talon":
            order = self._talon_order()
            if order is None or len(self.talon_unlocked) >= len(order):
                raise ProtocolViolation("no talon to unlock now")
            if seat != order[len(self.talon_unlocked)]:
                raise ProtocolViolation("unlocked the talon out of turn")
            led.on_unlock(seat, msg["values"], led.places["talon"])
            self.talon_unlocked.append(seat)
            self._after_talon()
        elif t == "act":
            self._on_act(seat, msg)
        elif t == "pass":
            self._on_pass(seat, msg)
        elif t == "ready":
            if seat not in self.owed_ready():
                raise ProtocolViolation("said it was ready for the contract when none was due")
            self.ready.append(seat)
        elif t == "reveal":
            led.on_reveal(seat, msg["secret"])
        elif t == "dispute":
            if seat in self.seats:
                return  # this peer's own: its problem is already recorded, in full
            reason = str(msg["reason"])[:400]
            facts: dict[str, Any] = {"reason": reason, "by": seat}
            if msg.get("code") in CLAIMS:  # absent from the disputes of earlier versions
                claim = {**claim_facts(msg.get("facts")), "reason": reason}
                facts["claim"] = {"code": msg["code"], "facts": claim}
            self.problems.append(Problem(int(msg["accused"]), reason, "dispute", facts))
        else:
            raise ProtocolViolation(f"unknown message {t!r}")

    def _after_talon(self) -> None:
        order = self._talon_order()
        if order is None or len(self.talon_unlocked) < len(order):
            return
        talon = self.ledger.places["talon"]
        declarer = int(self.follower.game.view(None)["declarer"])
        if all(j in self.ledger.known for j in talon):
            self.follower.see_talon([card_text(self.ledger.known[j]) for j in talon])
        elif declarer in self.seats:
            self.follower.see_talon(self.ledger.read(declarer, talon))

    def _on_act(self, seat: int, msg: Message) -> None:
        if not self.talon_ready or self.pending_give is not None:
            raise ProtocolViolation("acted while the cards were still moving")
        action = msg["action"]
        if not isinstance(action, str):
            raise ProtocolViolation("an action is a text")
        if self.owed_ready() and self.follower.game.view(None)["declarer"] == seat:
            raise ProtocolViolation("the declarer moved before every opponent was ready")
        if seat in self.ready and action in ("redeal", "decline"):
            raise ProtocolViolation("answered a redeal claim after saying it was ready")
        words = action.split()
        if words[:1] == ["give"] and len(words) == 3:
            if (HIDDEN in action) != self._face_down():
                raise ProtocolViolation("a card passed face up was hidden, or the other way")
            if HIDDEN in action:
                self.ledger.on_pass(seat, int(words[2]), msg["position"], msg["y"])
                self.pending_give = msg
                return
        if words[:1] == ["give"]:
            self.ledger.on_show(seat, int(words[2]), msg["position"], words[1])
        elif words[:1] == ["play"]:
            self.ledger.on_open(seat, msg["position"], words[1])
        self.follower.apply(seat, action)
        self.actions.append(action)

    def _on_pass(self, seat: int, msg: Message) -> None:
        give = self.pending_give
        if give is None:
            raise ProtocolViolation("no card is being passed")
        k = len(self.ledger.passes) - 1
        self.ledger.on_pass_value(k, seat, msg["value"])
        p = self.ledger.passes[k]
        if len(p.values) < 3:
            return
        self.pending_give = None
        giver, to = give["seat"], p.to
        card = None
        if giver in self.seats:
            card = self.ledger.known[p.source]
        elif to in self.seats:
            card = self.ledger.received[k]
        known = f"give {HIDDEN if card is None else card_text(card)} {to}"
        self.follower.apply(giver, known)
        self.hidden[len(self.actions)] = k
        self.actions.append(known)

    def _pass_turn(self) -> list[Message]:
        """The receiver's and the giver's turns in a face-down pass."""
        if self.pending_give is None:
            return []
        k = len(self.ledger.passes) - 1
        p = self.ledger.passes[k]
        if len(p.values) == 1 and p.to in self.seats:
            return [self._msg("pass", p.to, value=self.ledger.pass_answer(k))]
        if len(p.values) == 2 and p.giver in self.seats:
            return [self._msg("pass", p.giver, value=self.ledger.pass_finish(k))]
        return []

    # --- disputes and the audit -------------------------------------------------------

    def _dispute(self, problem: Problem) -> list[Message]:
        self.problems.append(problem)
        out: list[Message] = []
        if not self.revealing:
            me = self.seats[0] if self.seats else problem.seat
            code = problem.code if problem.code in CLAIMS else "protocol"
            out.append(
                self._msg(
                    "dispute",
                    me,
                    accused=problem.seat,
                    reason=problem.text[:400],
                    code=code,
                    facts=claim_facts(problem.facts),
                )
            )
        return out + self._reveal()

    def timeout(self) -> list[Problem]:
        """The time to reveal is up: the deal's verdict with whatever was revealed."""
        return self._verdict()

    def _audit(self) -> list[Message]:
        if self._verdict():
            return []  # a cheat is named: the table stops here
        return self.start()

    def _verdict(self) -> list[Problem]:
        verdict = self.ledger.audit()
        found = list(verdict.problems)
        if verdict.cards is not None and not found:
            deal = self.ledger.deal(verdict.cards)
            actions = list(self.actions)
            for index, k in self.hidden.items():
                p = self.ledger.passes[k]
                actions[index] = f"give {card_text(verdict.cards[p.source])} {p.to}"
            if self.follower.disputed is not None:
                actions.append(self.follower.disputed)
            step = self.follower.reveal(deal, actions)
            if step is not None:
                facts = {"step": step.step, "action": step.action, "refusal": step.code}
                found.append(Problem(step.seat, str(step), "rule", {**step.detail, **facts}))
        if not found:
            found = [p for p in self.problems if p.seat >= 0]
        self.verdicts[self.deal_no] = found
        if not found and self.follower.waiting == "deal":
            self.deal_no += 1
            self._new_ledger()
        return found


def route(peers: list[PrivatePeer], first: list[Message]) -> list[Message]:
    """Deliver messages to every peer in order until none answers (the host's relay, in tests)."""
    queue, seen = list(first), []
    while queue:
        msg = queue.pop(0)
        seen.append(msg)
        for peer in peers:
            queue += peer.receive(msg)
    return seen
