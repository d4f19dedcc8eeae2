"""Random legal games through the public API, checked against a model.

``Tracker`` follows a game from the outside: it reads each new deal from
the seats' views, then mirrors every action in its own model of the hand
(hands, talon, tricks, trump, marriages, bolts, scores) written from
RULES.md and the lead's documented decisions. At every step it checks:

- the engine's legal actions against the model's (bids and caps, gives,
  contracts, follow suit / trump / declarations);
- the 24 cards: the views' hands, the trick and the cards already taken
  are the whole deck, each card once;
- every seat's view against what that seat may know (its hand, cards
  played or passed, the talon only when shown or to the declarer);
- at the end of a hand: card points sum to 120, the declarer's change is
  ±contract, defenders get their rounded points, bolts, write-offs;
- ``to_json``/``from_json`` at random points: same views, same future.

Barrel hands (someone on or reaching 880) are checked more loosely here;
test_barrel.py pins the barrel rules down on explicit deals.
"""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

from helpers import (
    DECK_SET,
    MARRIAGE,
    REQUIRED_KEYS,
    legal_follow,
    legal_leads,
    marriage_points,
    points,
    round5,
    trick_winner,
    write_off_share,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thousand import Game

BARREL = 880
HIDDEN_KEYS = {"sheet", "last_hand", "log", "history"}  # about earlier hands
SCALE = int(os.environ.get("THOUSAND_TEST_SCALE", "1"))


CARD_RE = re.compile(r"(?<![A-Za-z0-9_])[9JQKTA][SCDH](?![A-Za-z0-9_])")


def card_tokens(obj: Any) -> set[str]:
    """Every card text inside a JSON-like value (also inside "play AS")."""
    return set(CARD_RE.findall(json.dumps(obj)))


def view_cards(view: dict[str, Any]) -> set[str]:
    skip = set(HIDDEN_KEYS)
    if (view.get("last_action") or {}).get("hand_over"):
        skip.add("last_action")  # the final trick of the hand before
    return card_tokens({k: v for k, v in view.items() if k not in skip})


def four_nines(cards: set[str]) -> bool:
    return sum(1 for c in cards if c[0] == "9") == 4


class Tracker:
    def __init__(
        self, game: Game, rng: random.Random, *, views_every: int = 1, roundtrip_p: float = 0.02
    ) -> None:
        self.g = game
        self.rng = rng
        self.views_every = views_every
        self.roundtrip_p = roundtrip_p
        self.scores = list(game.scores)
        self.bolts = [0, 0, 0]
        self.hands_played = 0
        self.strict_hands = 0
        self.steps = 0
        self.prev_dealer: int | None = None
        self.prev_end: str | None = None
        self.prev_knowledge: list[set[str]] | None = None
        self.shadow: Game | None = None
        self.shadow_steps = 0
        self.start_hand()

    # --- hand model --------------------------------------------------------------

    def start_hand(self) -> None:
        g = self.g
        views = [g.view(s) for s in range(3)]
        self.hand = [set(v["hand"]) for v in views]
        assert [len(h) for h in self.hand] == [7, 7, 7], views
        dealt = self.hand[0] | self.hand[1] | self.hand[2]
        assert len(dealt) == 21, "a card was dealt twice"
        self.talon = set(DECK_SET - dealt)
        v = g.view(None)
        assert v["phase"] == "bidding", v["phase"]
        first = v["bids"][0]
        self.first_hand = int(first[0])
        assert int(first[1]) == 100
        self.dealer = (self.first_hand - 1) % 3
        if self.prev_dealer is not None:
            want = self.prev_dealer if self.prev_end == "redeal" else (self.prev_dealer + 1) % 3
            assert self.dealer == want, f"dealer {self.dealer}, expected {want}"
        assert g.current_player == (self.first_hand + 1) % 3
        assert v["talon"] is None and v["trump"] is None and v["trick"] == []
        self.phase = "bidding"
        self.high = 100
        self.high_seat = self.first_hand
        self.passed: set[int] = set()
        self.spoken: set[int] = set()
        self.raised = False
        self.declarer: int | None = None
        self.bid: int | None = None
        self.contract: int | None = None
        self.given: dict[int, str] = {}
        self.trick: list[tuple[int, str]] = []
        self.trump: str | None = None
        self.taken: set[str] = set()
        self.pts = [0, 0, 0]
        self.marr = [0, 0, 0]
        self.won = [0, 0, 0]
        self.leads = 0
        self.knows: list[set[str]] = [set(h) for h in self.hand] + [set()]  # 3 = spectator
        self.on_barrel = [s == BARREL for s in self.scores]

    def learn_public(self, cards: set[str]) -> None:
        for k in self.knows:
            k |= cards

    # --- checks --------------------------------------------------------------------

    def check_views(self) -> None:
        g = self.g
        cur = g.current_player
        legal = [str(a) for a in g.legal_actions()]
        assert len(legal) == len(set(legal)), "duplicate legal actions"
        views = {}
        for seat in (0, 1, 2, None):
            v = g.view(seat)
            views[seat] = v
            missing = REQUIRED_KEYS - set(v)
            assert not missing, f"view({seat}) lacks {missing}"
            assert v["phase"] == self.phase, (v["phase"], self.phase)
            assert v["turn"] == cur
            assert list(v["scores"]) == list(g.scores)
            assert v["trump"] == self.trump
            assert v["legal"] == (legal if seat == cur and seat is not None else [])
            if seat is not None:
                assert set(v["hand"]) == self.hand[seat], (seat, v["hand"], self.hand[seat])
            knows = self.knows[3 if seat is None else seat]
            leaked = view_cards(v) - knows
            assert not leaked, f"view({seat}) shows {sorted(leaked)} in phase {self.phase}"
            if self.prev_end == "writeoff" and self.prev_knowledge is not None and "last_hand" in v:
                old = card_tokens(v["last_hand"])
                leaked = old - self.prev_knowledge[3 if seat is None else seat]
                assert not leaked, f"view({seat})['last_hand'] shows {sorted(leaked)}"
            # the talon: hidden in the bidding; after it, shown to all or to
            # the declarer alone (won at 100 without a raise)
            t = v["talon"]
            if self.phase == "bidding":
                assert t is None
            elif self.phase in ("talon", "contract", "claim", "play"):
                may = self.raised or seat == self.declarer
                if may and self.phase == "talon":
                    assert t is not None and set(t) == self.talon, (seat, t)
                if t is not None:
                    assert may and set(t) == self.talon
            trick = [(int(s), c) for s, c in v["trick"]]
            if len(self.trick) in (1, 2):
                assert trick == self.trick, (trick, self.trick)
            else:
                assert trick == [] or len(trick) == 3
            if self.declarer is not None:
                assert v["declarer"] == self.declarer
            if self.contract is not None:
                assert v["contract"] == self.contract
        # the 24 cards: hands, the talon (until taken), the trick, the tricks taken
        held = [set(views[s]["hand"]) for s in range(3)]
        pile = held[0] | held[1] | held[2] | {c for _, c in self.trick} | self.taken
        n = sum(len(h) for h in held) + len(self.trick) + len(self.taken)
        if self.phase == "bidding":
            pile |= self.talon
            n += 3
        assert n == 24 and pile == DECK_SET, f"{n} cards, missing {sorted(DECK_SET - pile)}"

    def expected_legal(self) -> tuple[set[str], set[str]]:
        """(actions that must be exactly the legal set minus 'redeal', optional)."""
        g = self.g
        seat = g.current_player
        assert seat is not None
        h = self.hand[seat]
        if self.phase == "bidding":
            lo = self.high + 5
            if self.on_barrel[seat]:
                lo = max(lo, 120)
            cap = min(300, 120 + marriage_points(h))
            out = {"pass"} | {f"bid {b}" for b in range(lo, cap + 1, 5)}
            # hand-based claims are made before bidding (§4): only before the
            # player has raised in this hand
            if (points(h) < 13 or four_nines(h)) and seat not in self.spoken:
                out.add("redeal")
            return out, set()
        if self.phase == "talon":
            assert seat == self.declarer
            out = {
                f"give {c} {o}" for c in h for o in range(3) if o != seat and o not in self.given
            }
            if not self.on_barrel[seat]:
                out.add("writeoff")
            return out, {"redeal"}
        if self.phase == "claim":
            return {"redeal", "decline"}, set()
        if self.phase == "contract":
            assert seat == self.declarer and self.bid is not None
            lo = max(self.bid, 120) if self.on_barrel[seat] else self.bid
            cap = min(300, 120 + marriage_points(h))
            # Passing a marriage card away can drop the cap below the bid;
            # the declarer is then held to the bid itself (the engine's
            # reading; RULES.md §6.3 does not say).
            out = {f"contract {c}" for c in range(lo, max(cap, lo) + 1, 5)}
            if not self.on_barrel[seat]:
                out.add("writeoff")
            return out, {"redeal"}
        if self.phase == "play":
            if not self.trick:
                out = legal_leads(h, self.won[seat] > 0)
            else:
                out = {f"play {c}" for c in legal_follow(h, self.trick[0][1], self.trump)}
            optional = {"writeoff"} if self.leads == 0 and not self.trick else set()
            return out, optional
        raise AssertionError(self.phase)

    def check_legal(self) -> None:
        legal = {str(a) for a in self.g.legal_actions()}
        must, optional = self.expected_legal()
        assert legal - optional == must - optional, (
            f"phase {self.phase}, seat {self.g.current_player}: "
            f"engine-only {sorted(legal - must - optional)}, "
            f"missing {sorted(must - legal - optional)}"
        )
        if self.phase in ("talon", "contract"):
            # talon-based claims (§12.3 classic) must be offered
            seat = self.g.current_player
            if (
                points(self.talon) < 5
                or sum(c[0] == "9" for c in self.talon) >= 2
                or four_nines(self.hand[seat])
            ):
                assert "redeal" in legal, f"talon claim missing: {sorted(self.talon)}"
        if self.phase == "play" and "writeoff" in legal:
            assert not self.on_barrel[self.declarer]

    # --- policy ------------------------------------------------------------------------

    def choose(self) -> str:
        rng = self.rng
        legal = [str(a) for a in self.g.legal_actions()]
        if self.phase == "bidding":
            if "redeal" in legal and rng.random() < 0.3:
                return "redeal"
            bids_ = [a for a in legal if a.startswith("bid")]
            if bids_ and rng.random() < 0.45:
                return rng.choice(bids_[:4]) if rng.random() < 0.8 else rng.choice(bids_)
            return "pass"
        if self.phase in ("talon", "contract"):
            if "redeal" in legal and rng.random() < 0.3:
                return "redeal"
            if "writeoff" in legal and rng.random() < 0.06:
                return "writeoff"
            if self.phase == "contract":
                cs = sorted(
                    (a for a in legal if a.startswith("contract")), key=lambda a: int(a.split()[1])
                )
                if cs:
                    return cs[0] if rng.random() < 0.7 else rng.choice(cs)
            options = [a for a in legal if a not in ("redeal", "writeoff")] or legal
            return rng.choice(options)
        if self.phase == "play":
            if "writeoff" in legal and rng.random() < 0.03:
                return "writeoff"
            declares = [a for a in legal if a.endswith("declare")]
            if declares and rng.random() < 0.6:
                return rng.choice(declares)
            return rng.choice([a for a in legal if a.startswith("play")])
        return rng.choice(legal)

    # --- stepping ----------------------------------------------------------------------

    def step(self) -> str | None:
        """Check, pick an action, apply it, update the model. Returns the action."""
        g = self.g
        if g.current_player is None:
            return None
        if self.steps % self.views_every == 0:
            self.check_views()
        self.check_legal()
        if self.shadow is None and self.rng.random() < self.roundtrip_p:
            self.start_shadow()
        action = self.choose()
        seat = g.current_player
        before = list(g.scores)
        g.apply(action)
        self.steps += 1
        ended = self.apply_model(seat, action, before)
        self.follow_shadow(action, ended)
        return action

    def start_shadow(self) -> None:
        s = self.g.to_json()
        copy = Game.from_json(s)
        assert json.loads(copy.to_json()) == json.loads(s)
        for seat in (0, 1, 2, None):
            assert copy.view(seat) == self.g.view(seat)
        assert [str(a) for a in copy.legal_actions()] == [str(a) for a in self.g.legal_actions()]
        assert copy.current_player == self.g.current_player
        self.shadow = copy
        self.shadow_steps = 0

    def follow_shadow(self, action: str, ended: bool) -> None:
        """The restored copy takes the same actions and must stay identical,
        through the end of the hand and the next (seeded) deal."""
        if self.shadow is None:
            return
        self.shadow.apply(action)
        self.shadow_steps += 1
        assert self.shadow.current_player == self.g.current_player
        assert [str(a) for a in self.shadow.legal_actions()] == [
            str(a) for a in self.g.legal_actions()
        ]
        if ended or self.shadow_steps >= 40:
            for seat in (0, 1, 2, None):
                assert self.shadow.view(seat) == self.g.view(seat)
            assert self.shadow.scores == self.g.scores
            assert json.loads(self.shadow.to_json()) == json.loads(self.g.to_json())
            self.shadow = None

    def apply_model(self, seat: int, action: str, before: list[int]) -> bool:
        """Mirror the action; True if it ended the hand."""
        parts = action.split()
        verb = parts[0]
        g = self.g
        if verb == "redeal":
            assert list(g.scores) == before, "a redeal scores nothing"
            self.end_hand("redeal")
            return True
        if verb == "writeoff":
            self.score_write_off(seat, before)
            self.end_hand("writeoff")
            return True
        if verb == "bid":
            self.high = int(parts[1])
            self.high_seat = seat
            self.raised = True
            self.spoken.add(seat)
        elif verb == "pass":
            self.passed.add(seat)
        elif verb == "give":
            c, to = parts[1], int(parts[2])
            self.hand[seat].remove(c)
            self.hand[to].add(c)
            self.given[to] = c
            self.knows[to].add(c)
            self.learn_public({c})  # passed cards are shown unless pass_face_down
            if len(self.given) == 2:
                claimant = [o for o in range(3) if o != seat and four_nines(self.hand[o])]
                self.phase = "claim" if claimant else "contract"
                if claimant:
                    assert g.current_player == claimant[0]
                else:
                    assert g.current_player == self.declarer
        elif verb == "decline":
            self.phase = "contract"
            assert g.current_player == self.declarer
        elif verb == "contract":
            self.contract = int(parts[1])
            self.phase = "play"
            assert g.current_player == self.declarer
        elif verb == "play":
            self.play(seat, parts[1], len(parts) == 3)
            if len(self.taken) == 24:
                self.score_play(before)
                self.end_hand("play")
                return True
            return False
        else:
            raise AssertionError(action)
        if self.phase == "bidding":
            self.after_bid()
        return False

    def after_bid(self) -> None:
        g = self.g
        active = [s for s in range(3) if s not in self.passed]
        if len(active) > 1:
            assert g.current_player in active
            assert g.current_player != self.high_seat
            return
        self.declarer = active[0]
        self.bid = self.high
        assert self.declarer == self.high_seat
        self.phase = "talon"
        assert g.current_player == self.declarer
        self.hand[self.declarer] |= self.talon
        self.knows[self.declarer] |= self.talon
        if self.raised:
            self.learn_public(self.talon)

    def play(self, seat: int, card: str, declare: bool) -> None:
        assert card in self.hand[seat]
        self.hand[seat].remove(card)
        if not self.trick:
            self.leads += 1
            if declare:
                self.trump = card[1]
                self.marr[seat] += MARRIAGE[card[1]]
        self.trick.append((seat, card))
        self.learn_public({card})
        if len(self.trick) == 3:
            w = trick_winner(self.trick, self.trump)
            self.won[w] += 1
            self.pts[w] += points(c for _, c in self.trick)
            self.taken |= {c for _, c in self.trick}
            self.trick = []
            if len(self.taken) < 24:
                assert self.g.current_player == w, "the trick's winner leads next"

    # --- scoring -------------------------------------------------------------------------

    def score_play(self, before: list[int]) -> None:
        g = self.g
        assert sum(self.pts) == 120
        assert self.declarer is not None and self.contract is not None
        decl, c = self.declarer, self.contract
        totals = [p + m for p, m in zip(self.pts, self.marr, strict=True)]
        delta = [0, 0, 0]
        for s in range(3):
            if s == decl:
                delta[s] = c if totals[s] >= c else -c
            else:
                delta[s] = round5(totals[s])
        bolt_penalty = [0, 0, 0]
        for s in range(3):
            if self.won[s] == 0 and not self.on_barrel[s]:
                self.bolts[s] += 1
                if self.bolts[s] == 3:
                    bolt_penalty[s] = -120
                    self.bolts[s] = 0
        raw = [before[s] + delta[s] + bolt_penalty[s] for s in range(3)]
        after = list(g.scores)
        summary = g.view(None).get("last_hand") or {}
        for key, model in (
            ("card_points", self.pts),
            ("marriage_points", self.marr),
            ("tricks", self.won),
            ("totals", totals),
        ):
            if key in summary:
                assert list(summary[key]) == model, (key, summary[key], model)
        barrel_hand = any(self.on_barrel) or any(r >= BARREL for r in raw)
        self.hands_played += 1
        if not barrel_hand:
            self.strict_hands += 1
            assert after == raw, (
                f"scores {before} → {after}, model {raw}: totals {totals}, "
                f"contract {c} by {decl}, tricks {self.won}"
            )
        else:
            self.check_barrel_hand(before, after, raw, totals)
        self.scores = after

    def check_barrel_hand(
        self, before: list[int], after: list[int], raw: list[int], totals: list[int]
    ) -> None:
        g = self.g
        decl, c = self.declarer, self.contract
        assert decl is not None and c is not None
        arrivals = [s for s in range(3) if not self.on_barrel[s] and raw[s] >= BARREL]
        for s in range(3):
            if g.winner == s:
                assert s == decl and self.on_barrel[s] and totals[s] >= c
                assert after[s] == BARREL + c
                continue
            if self.on_barrel[s]:
                if s == decl:
                    assert totals[s] < c, "a barrel declarer who makes it wins"
                    assert after[s] in (BARREL - 120, 0), after[s]
                else:
                    assert after[s] in (BARREL, BARREL - 120, 0), after[s]
            elif s in arrivals:
                if g.winner is not None:
                    # the engine leaves the others unclamped in the winning
                    # hand (reported; pinned in test_barrel.py)
                    continue
                want = (BARREL,) if len(arrivals) == 1 else (BARREL - 120, 0)
                assert after[s] in want, (s, after[s], arrivals)
            else:
                assert after[s] == raw[s], (s, before, after, raw)
        if g.winner is not None:
            assert g.current_player is None
            assert g.view(None)["phase"] == "over"
        else:
            assert all(x <= BARREL for x in after)
        if decl is not None and not self.on_barrel[decl] and decl not in arrivals:
            assert after[decl] - before[decl] in (c, -c, c - 120, -c - 120)

    def score_write_off(self, seat: int, before: list[int]) -> None:
        g = self.g
        assert seat == self.declarer
        assert not self.on_barrel[seat], "no write-off on the barrel"
        amount = self.contract if self.contract is not None else self.bid
        assert amount is not None
        share = write_off_share(amount)
        raw = [before[s] + (-amount if s == seat else share) for s in range(3)]
        after = list(g.scores)
        self.hands_played += 1
        if not any(self.on_barrel) and all(r < BARREL for r in raw):
            self.strict_hands += 1
            assert after == raw, f"write-off of {amount}: {before} → {after}, model {raw}"
        else:
            assert after[seat] == raw[seat]
            for s in range(3):
                assert after[s] <= BARREL
        self.scores = after

    def end_hand(self, how: str) -> None:
        self.prev_end = how
        self.prev_dealer = self.dealer
        self.prev_knowledge = [set(k) for k in self.knows]
        if self.g.current_player is None:
            assert self.g.winner is not None
            self.phase = "over"
            return
        self.scores = list(self.g.scores)
        self.start_hand()


def play_random(
    seed: int, policy_seed: int, hands: int, scores: list[int] | None = None, **kw: Any
) -> Tracker:
    game = Game.new(seed=seed, scores=scores)
    t = Tracker(game, random.Random(policy_seed), **kw)
    sheet_len = len(game.sheet)
    while t.hands_played < hands and game.current_player is not None:
        t.step()
        assert len(game.sheet) >= sheet_len
        sheet_len = len(game.sheet)
    if game.current_player is None:
        v = game.view(None)
        assert v["phase"] == "over" and game.winner is not None
        assert game.legal_actions() == [] or list(game.legal_actions()) == []
    return t


def rebuild_from_log(game: Game, seed: int, scores: list[int] | None = None) -> None:
    copy = Game.new(seed=seed, scores=scores)
    for a in game.log:
        copy.apply(str(a))
    assert json.loads(copy.to_json()) == json.loads(game.to_json())


# --- the tests ---------------------------------------------------------------------------


def test_two_thousand_random_hands() -> None:
    """A plain seeded loop: 2000 hands (× THOUSAND_TEST_SCALE) over many games."""
    total = strict = 0
    seed = 0
    while total < 2000 * SCALE:
        t = play_random(seed, seed + 10_000, hands=10, views_every=12, roundtrip_p=0.01)
        total += t.hands_played
        strict += t.strict_hands
        if seed % 10 == 0:
            rebuild_from_log(t.g, seed)
        seed += 1
    assert strict > total // 2, "most random hands should be checked strictly"


@settings(
    max_examples=25 * SCALE,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1))
def test_random_games_full_checks(seed: int, policy: int) -> None:
    # every view of every seat checked at every step
    t = play_random(seed, policy, hands=4, roundtrip_p=0.05)
    rebuild_from_log(t.g, seed)


@settings(
    max_examples=25 * SCALE,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**31 - 1),
    policy=st.integers(0, 2**31 - 1),
    scores=st.lists(st.integers(140, 190).map(lambda x: x * 5), min_size=3, max_size=3),
)
def test_random_games_near_the_barrel(seed: int, policy: int, scores: list[int]) -> None:
    # Start everyone between 700 and 950 so arrivals, knock-offs, falls and
    # wins happen; play until the match ends or 15 hands.
    t = play_random(seed, policy, hands=15, scores=scores, views_every=4, roundtrip_p=0.03)
    rebuild_from_log(t.g, seed, scores)


def test_some_random_matches_finish() -> None:
    finished = 0
    for seed in range(8):
        t = play_random(
            seed, seed, hands=40, scores=[860, 860, 860], views_every=25, roundtrip_p=0.0
        )
        if t.g.winner is not None:
            finished += 1
            assert t.g.scores[t.g.winner] >= 1000
    assert finished > 0, "no random match near the barrel ever finished"
