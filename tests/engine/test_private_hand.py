"""Following a match with the other seats' cards unknown, and checking it once they are known."""

from __future__ import annotations

import random
from typing import Any

import pytest
from thousand import Game, IllegalAction, Rules, SeatFollower, Unfollowable, check_deals
from thousand.cards import card_text
from thousand.private_hand import HIDDEN, deal_of, dealing_order

# Fields a follower shows exactly at every point; scores of a finished deal
# wait for its reveal (they may rest on hidden cards).
EXACT = ("hand", "legal", "phase", "turn", "trick", "talon", "given", "hand_sizes", "declarer",
         "contract", "trump", "bids", "last_action", "discarded", "tricks")  # fmt: skip


def random_deals(seed: int, n: int, players: int = 3) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    deals = []
    for k in range(n):
        cards = [card_text(c) for c in range(24)]
        rng.shuffle(cards)
        deals.append(deal_of(players, (k + seed) % players, cards))
    deals[0]["dealer"] = seed % players
    return deals


class Table:
    """A true game on explicit deals, and one follower per seat fed what that seat may know."""

    def __init__(self, seed: int, rules: Rules | None = None, deals: int = 6) -> None:
        self.rules = rules or Rules.preset("classic")
        n = self.rules.players
        self.deals = random_deals(seed, deals, n)
        self.game = Game.new(rules=self.rules, deal=self.deals)
        self.rng = random.Random(seed)
        self.followers = [SeatFollower(self.rules, seed % n, [s]) for s in range(n)]
        self.deal_no = 0
        self.actions: list[str] = []
        self._start_deal()

    def _start_deal(self) -> None:
        deal = self.deals[self.deal_no]
        for s, f in enumerate(self.followers):
            f.deal({s: deal["hands"][s]})
        self._show_talon()

    def _show_talon(self) -> None:
        """The talon to whoever may see it now (the declarer of a golden round at once)."""
        for s, f in enumerate(self.followers):
            talon = self.game.view(s)["talon"]
            if talon is not None and f.waiting is None and not f.talon_seen:
                f.see_talon(talon)

    def step(self, action: str | None = None) -> str:
        g = self.game
        seat = g.current_player
        if action is None:
            legal = [str(a) for a in g.legal_actions()]
            calm = [a for a in legal if a != "redeal"] or legal
            action = self.rng.choice(calm)
        g.apply(action)
        self.actions.append(action)
        for s, f in enumerate(self.followers):
            f.apply(seat, g.view(s)["last_action"]["action"])
        self._show_talon()
        if g.next_deal_number - 1 > self.deal_no:
            deal = self.deals[self.deal_no]
            for f in self.followers:
                assert f.waiting == "reveal"
                assert f.reveal(deal, self.actions) is None
            self.deal_no += 1
            self.actions = []
            if self.deal_no < len(self.deals):
                self._start_deal()
        return action

    def check_views(self) -> None:
        for s, f in enumerate(self.followers):
            if f.waiting is not None:
                continue
            if self.game.phase == "claim" and self.game.current_player != s:
                # Only the seat holding four nines after the pass knows it may claim:
                # the others learn it from its claim, or its refusal to claim.
                continue
            mine, true = f.view(s), self.game.view(s)
            for key in EXACT:
                assert mine[key] == true[key], (s, key, mine[key], true[key])
            if not self.actions:  # a new deal: everything, scores too, is exact
                assert mine == true


@pytest.mark.parametrize("seed", range(4))
def test_every_seat_follows_the_match_exactly_with_the_others_cards_unknown(seed: int) -> None:
    t = Table(seed)
    while t.deal_no < 4 and t.game.current_player is not None:
        t.step()
        t.check_views()
    assert t.deal_no == 4


def test_hidden_talon_and_face_down_passes_are_followed() -> None:
    rules = Rules.preset("classic").replace(pass_face_down=True)
    t = Table(11, rules)
    seen_hidden = 0
    while t.deal_no < 3:
        action = t.step()
        t.check_views()
        seen_hidden += sum(HIDDEN in f.public[-1] for f in t.followers if f.public)
        assert action
    assert seen_hidden > 0


def test_check_deals_finds_the_first_illegal_action_and_its_seat() -> None:
    t = Table(5)
    while t.deal_no < 2:
        t.step()
    game = t.game
    log = list(game.log)
    assert check_deals(t.rules, t.deals[:2], log) is None
    # Find the first trick where a follower could have revoked, and make it revoke.
    replay = Game.new(rules=t.rules, deal=t.deals)
    for k, action in enumerate(log):
        if replay.phase == "play" and replay.view(None)["trick"]:
            seat = replay.current_player
            assert seat is not None
            legal = {str(a) for a in replay.legal_actions()}
            hand = replay.view(seat)["hand"]
            revoke = next((f"play {c}" for c in hand if f"play {c}" not in legal), None)
            if revoke:
                problem = check_deals(t.rules, t.deals[:2], [*log[:k], revoke, *log[k + 1 :]])
                assert problem is not None
                assert (problem.step, problem.seat, problem.action) == (k, seat, revoke)
                assert (
                    "suit" in problem.reason or "trump" in problem.reason or "low" in problem.reason
                )
                break
        replay.apply(action)
    else:
        pytest.fail("no trick to revoke in")
    with pytest.raises(ValueError, match="after the 1 deals"):
        check_deals(t.rules, t.deals[:1], log)


def test_a_card_known_elsewhere_or_a_revoke_shown_later_is_unfollowable() -> None:
    t = Table(3)
    while t.game.phase != "play":
        t.step()
    g = t.game
    seat = g.current_player
    assert seat is not None
    other = (seat + 1) % 3
    theirs = g.view(other)["hand"][0]
    f = t.followers[other]
    before = f.view(other)
    with pytest.raises(Unfollowable) as caught:
        f.apply(seat, f"play {theirs}")  # a card the follower's own seat holds
    assert caught.value.seat == seat
    assert f.view(other) == before and f.disputed == f"play {theirs}"
    with pytest.raises(IllegalAction):
        t.followers[seat].apply(seat, "play 9Q")


def test_a_revoke_is_caught_when_the_suit_shows_up_later() -> None:
    """A seat that did not follow a suit and later plays a card of it is named at once.

    (When the seat's cards of that suit are known already, a card passed
    face up, the revoke itself is refused.)
    """
    caught_later = caught_at_once = 0
    for seed in range(60):
        t = Table(seed)
        while t.game.phase != "play" and t.deal_no == 0:
            t.step()
        if t.deal_no:
            continue
        g = t.game
        lead_seat = g.current_player
        assert lead_seat is not None
        lead = next(str(a) for a in g.legal_actions() if "declare" not in str(a))
        g.apply(lead)
        revoker = g.current_player
        assert revoker is not None
        led_suit = lead.split()[1][1]
        hand = g.view(revoker)["hand"]
        same = [c for c in hand if c[1] == led_suit]
        other = [c for c in hand if c[1] != led_suit]
        if not same or not other:
            continue
        watcher = next(s for s in range(3) if s not in (lead_seat, revoker))
        f = t.followers[watcher]
        f.apply(lead_seat, lead)
        try:
            f.apply(revoker, f"play {other[0]}")  # the revoke
        except Unfollowable as e:
            assert e.seat == revoker
            caught_at_once += 1
            continue
        # Play on to the revoking seat's next turn, then it shows the suit.
        leader_cards = [c for c in g.view(lead_seat)["hand"]]
        while f.game.current_player != revoker:
            turn = f.game.current_player
            if turn == watcher:
                f.apply(watcher, f.view(watcher)["legal"][0])
                continue
            for c in leader_cards:
                try:
                    f.apply(lead_seat, f"play {c}")
                except Unfollowable:
                    continue
                leader_cards.remove(c)
                break
        with pytest.raises(Unfollowable) as caught:
            f.apply(revoker, f"play {same[0]}")
        assert caught.value.seat == revoker
        caught_later += 1
    assert caught_later >= 1 and caught_at_once >= 1, (caught_later, caught_at_once)


def test_four_players_and_other_presets_are_followed_too() -> None:
    for seed, preset in enumerate(["four_players", "strict", "polish", "mobile_app"]):
        t = Table(seed, Rules.preset(preset), deals=4)
        while t.deal_no < 3 and t.game.current_player is not None:
            t.step()
            t.check_views()


def test_dealing_order_matches_the_engines() -> None:
    cards = [card_text(c) for c in range(24)]
    for players in (2, 3, 4):
        order = dealing_order(players, 1)
        deal = deal_of(players, 1, cards)
        rules = Rules.preset("classic").replace(players=players)
        game = Game.new(rules=rules, deal={**deal, "dealer": 1})
        for s in range(players):
            assert set(game.view(s)["hand"]) == set(deal["hands"][s])
            assert [cards[j] for j, place in enumerate(order) if place == ("hand", s)] == deal[
                "hands"
            ][s]
        assert len(deal["talon"]) == (4 if players == 2 else 3)


def test_the_dealer_of_four_follows_with_no_cards_of_its_own() -> None:
    """The seat on the talon knows only the shown talon; face-up gives tell where cards went."""
    t = Table(2, Rules.preset("polish").replace(players=4), deals=5)
    while t.deal_no < 4 and t.game.current_player is not None:
        t.step()
        t.check_views()
    assert t.deal_no == 4


def test_a_nine_given_in_the_pass_does_not_make_an_unknown_seat_claim() -> None:
    """Four nines after the pass would let an opponent claim a redeal. A follower that
    sees the declarer give a nine must not guess the other three into that opponent's
    hand: until the seat claims, the likelier deal is one where nobody may."""
    given = claims = 0
    for seed in range(40):
        t = Table(seed, deals=1)
        while t.game.current_player is not None and t.deal_no == 0:
            view = t.game.view(t.game.current_player)
            nines = [a for a in view["legal"] if a.startswith("give 9")]
            others = [a for a in view["legal"] if a.startswith("give ") and a not in nines]
            if view["phase"] == "talon" and (nines or others):
                given += bool(nines)
                t.step((nines or others)[0])
            else:
                claims += view["phase"] == "claim"
                t.step()
            t.check_views()
    assert given >= 20 and claims >= 1, (given, claims)
