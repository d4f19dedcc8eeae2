"""The view's ``last_action``: what just happened, as each seat may know it."""

from __future__ import annotations

from thousand import Game


def playing_at_100(seed: int) -> Game:
    """A game whose first hand won at 100, gave its last cards and named 100."""
    g = Game.new(seed=seed)
    g.apply("pass")
    g.apply("pass")
    declarer = g.current_player
    for opp in ((declarer + 1) % 3, (declarer + 2) % 3):
        g.apply(f"give {g.view(declarer)['hand'][-1]} {opp}")
    g.apply("contract 100")
    return g


def test_a_face_down_give_shows_its_card_only_to_giver_and_receiver() -> None:
    g = Game.new(seed=11)
    first = g.first_hand
    g.apply("pass")
    g.apply("pass")  # first hand takes the talon at 100 unseen: passes go face down
    assert g.declarer == first and not g.talon_shown
    receiver, other = [(first + 1) % 3, (first + 2) % 3]
    card = g.view(first)["hand"][0]
    g.apply(f"give {card} {receiver}")
    assert g.view(first)["last_action"]["action"] == f"give {card} {receiver}"
    assert g.view(receiver)["last_action"]["action"] == f"give {card} {receiver}"
    assert g.view(other)["last_action"]["action"] == f"give ?? {receiver}"
    assert g.view(None)["last_action"]["action"] == f"give ?? {receiver}"


def test_the_final_trick_is_reported_after_the_next_hand_is_dealt() -> None:
    g = playing_at_100(seed=3)
    while g.hand_no == 0:
        g.apply(g.legal_actions()[0])
    last = g.view(0)["last_action"]
    assert last["hand_over"] is True
    assert len(last["trick"]["cards"]) == 3
    row = g.sheet[-1]
    # The final trick's winner is the seat that led the last trick of the hand
    # or took it: it must be one with a trick counted in the row.
    assert row["tricks"][last["trick"]["winner"]] >= 1
    assert g.view(0)["trick"] == [] and g.phase == "bidding"


def test_a_completed_trick_mid_hand_names_its_winner() -> None:
    g = playing_at_100(seed=5)
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    last = g.view(1)["last_action"]
    assert last["trick"]["winner"] == g.tricks[-1][2] == g.current_player
    assert [c for _, c in last["trick"]["cards"]] == [c for _, c in g.view(1)["tricks"][0]["cards"]]


def test_the_log_says_who_made_each_action_and_in_which_hand() -> None:
    game = Game.new(seed=5)
    movers = []
    while len(game.sheet) < 2 and game.current_player is not None:
        movers.append((game.current_player, len(game.sheet)))
        game.apply(game.legal_actions()[0])
    assert game.log_movers == movers
    assert Game.from_json(game.to_json()).log_movers == movers
