"""Scripted hands, and one plain deal, used by several test modules.

Each hand is written trick by trick; ``ScriptedHand`` derives the deal
(hands of 7, the talon, the two passed cards) from it and replays the tricks
through the reference model in helpers.py, which checks every premise noted
in the comments: the declarer leads first, everyone follows suit or trumps
as required, and the stated card points are right. In all of them seat 0
deals, seat 1 is first hand and the declarer, and the talon is won at the
obligatory 100 with both others passing unless a test changes the bidding.
"""

from __future__ import annotations

from helpers import ScriptedHand, make_deal

# Hand A — follow suit, trump when void, declaration, a second marriage that
# replaces the trump (RULES.md §7.2, §7.4, §12.10).
#   Deal: seat 1 AS KH QH TH 9C 9D JD; talon KS TS KC; seat 1 gives KC to 2
#   and TS to 0. Seat 1 then holds AS KS KH QH TH 9C 9D JD (hearts marriage).
#   Seat 2 holds TD JH AC KD QD TC AD KC (diamonds marriage, no spades).
#   Seat 0 holds 9S 9H JC AH QC JS QS TS (no diamonds).
#   t1 AS wins, no trump (first lead: KH could not declare).
#   t2 seat 1 declares hearts (100): trump H; seat 2 must play its only
#      heart JH, seat 0 chooses 9H and keeps AH.
#   t3 seat 1 leads 9C, seat 2 wins with AC (seat 0 follows with JC).
#   t4 seat 2 declares diamonds (80): trump D. Seat 0 has no diamond and
#      plays AH — hearts are no longer trump, so KD still wins.
#   t5 seat 2 leads TC; seat 1 has no club and holds TH (old trump) and JD
#      (new trump): it must play JD, which wins.
#   t6 seat 1 leads TH; seat 2, void in hearts, must trump (AD wins).
#   Card points: seat 1 21+6+15 = 42 (+100) = 142; seat 2 13+15+23+9+18 = 78
#   (+80) = 158 → 160; seat 0 took nothing (0, a bolt).
HAND_A = ScriptedHand(
    dealer=0,
    declarer=1,
    talon="KS TS KC",
    gives={2: "KC", 0: "TS"},
    bidding="2 pass; 0 pass",
    contract=100,
    tricks=[
        "1:AS 2:TD 0:9S",  # 21 to seat 1
        "1:KH* 2:JH 0:9H",  # 6 to seat 1, hearts trump
        "1:9C 2:AC 0:JC",  # 13 to seat 2
        "2:KD* 0:AH 1:9D",  # 15 to seat 2, diamonds trump; AH does not win
        "2:TC 0:QC 1:JD",  # 15 to seat 1 (JD trumps)
        "1:TH 2:AD 0:JS",  # 23 to seat 2
        "2:QD 0:QS 1:QH",  # 9 to seat 2
        "2:KC 0:TS 1:KS",  # 18 to seat 2
    ],
)

# Hand B — the declarer takes seven tricks, seat 2 the last one worth 25.
#   Seat 1: AS KS QS TS AH TH KH + talon KC KD QD; gives KD to 2, QD to 0.
#   Seat 1 declares spades (40) on its second lead; the defenders' only
#   spades (9S, JS) fall on the first trick, so nobody can trump later.
#   Seat 1: 13+6+16+21+13+15+11 = 95 (+40) = 135. Seat 2: KC+AC+TC = 25.
#   Seat 0 takes no trick (a bolt). Contracts up to 135 are made.
#   Seat 1's cap: 120 + 40 = 160 at bidding and at the contract.
HAND_B = ScriptedHand(
    dealer=0,
    declarer=1,
    talon="KC KD QD",
    gives={2: "KD", 0: "QD"},
    bidding="2 pass; 0 pass",
    contract=120,
    tricks=[
        "1:AS 2:9S 0:JS",  # 13
        "1:KS* 2:JD 0:9D",  # 6, spades trump
        "1:QS 2:TD 0:QD",  # 16
        "1:TS 2:AD 0:9C",  # 21
        "1:AH 2:JH 0:9H",  # 13
        "1:TH 2:QH 0:JC",  # 15
        "1:KH 2:KD 0:QC",  # 11
        "1:KC 2:AC 0:TC",  # 25 to seat 2
    ],
)

# Hand C — seat 2 takes exactly the six clubs (one suit = 30 points), seat 1
# everything else (90) plus the spades marriage (40) = 130.
#   Seat 1: AS KS QS TS AH TH TD + talon KC JC AD; gives AD to 2, TD to 0.
HAND_C = ScriptedHand(
    dealer=0,
    declarer=1,
    talon="KC JC AD",
    gives={2: "AD", 0: "TD"},
    bidding="2 pass; 0 pass",
    contract=130,
    tricks=[
        "1:AS 2:9S 0:JS",  # 13
        "1:KS* 2:JD 0:9D",  # 6, spades trump
        "1:QS 2:KD 0:QD",  # 10
        "1:TS 2:AD 0:TD",  # 31
        "1:AH 2:JH 0:9H",  # 13
        "1:TH 2:KH 0:QH",  # 17
        "1:JC 2:QC 0:9C",  # 5 to seat 2 (QC beats JC)
        "2:AC 0:TC 1:KC",  # 25 to seat 2
    ],
)

# Hand D — seat 1 takes all eight tricks (120) and declares hearts (100):
# 220. Both defenders take nothing (a bolt each).
#   Seat 1: AS TS KS QS AH TH KH + talon QH JC JD; gives JC to 2, JD to 0;
#   then holds both spade and heart marriages: contract cap 120+140 = 260.
#   Hearts are led four times first, which strips seat 0's 9H and JH, so no
#   defender can trump the spades afterwards.
HAND_D = ScriptedHand(
    dealer=0,
    declarer=1,
    talon="QH JC JD",
    gives={2: "JC", 0: "JD"},
    bidding="2 pass; 0 pass",
    contract=170,
    tricks=[
        "1:AS 2:9S 0:9D",
        "1:KH* 2:9C 0:9H",  # hearts trump
        "1:AH 2:QC 0:JH",
        "1:TH 2:TC 0:QD",
        "1:QH 2:AC 0:KC",
        "1:TS 2:JS 0:TD",
        "1:KS 2:KD 0:AD",
        "1:QS 2:JC 0:JD",
    ],
)

# Hand E — seat 1 takes seven tricks worth 118 and loses the last, 9C, to
# seat 2's JC (2 points, which round to 0). Nothing is declared.
#   Seat 1: AS TS KS QS AH TH KH + talon 9C QC JD; gives QC to 2, JD to 0.
#   118 < 120: a contract of 120 fails (no rounding for the declarer).
HAND_E = ScriptedHand(
    dealer=0,
    declarer=1,
    talon="9C QC JD",
    gives={2: "QC", 0: "JD"},
    bidding="2 pass; 0 pass",
    contract=120,
    tricks=[
        "1:AS 2:9S 0:JS",  # 13
        "1:TS 2:AC 0:AD",  # 32
        "1:KS 2:TC 0:TD",  # 24
        "1:QS 2:KC 0:KD",  # 11
        "1:AH 2:QH 0:9H",  # 14
        "1:TH 2:JH 0:QD",  # 15
        "1:KH 2:QC 0:JD",  # 9
        "1:9C 2:JC 0:9D",  # 2 to seat 2
    ],
)


def _plain(*, talon: str, give_2: str, give_0: str, tricks: list[str]) -> ScriptedHand:
    """A hand at the obligatory 100 with contract 100 and no declarations."""
    return ScriptedHand(
        dealer=0,
        declarer=1,
        talon=talon,
        gives={2: give_2, 0: give_0},
        bidding="2 pass; 0 pass",
        contract=100,
        tricks=tricks,
    )


# Defender totals for the rounding examples (RULES.md §8.3, §14). Found by a
# random search over legal plays with the reference model, then checked by
# hand; the comment after each trick is its points and winner.

# seat 2: 17, seat 0: 18, seat 1: 85.
ROUND_17_18 = _plain(
    talon="9H AS AC",
    give_2="9H",
    give_0="AS",
    tricks=[
        "1:JH 2:AH 0:KC",  # 17 → 2
        "2:QD 0:JD 1:AD",  # 16 → 1
        "1:AC 2:JC 0:TC",  # 23 → 1
        "1:KH 2:QH 0:KD",  # 11 → 1
        "1:TH 2:9H 0:9S",  # 10 → 1
        "1:QC 2:TS 0:JS",  # 15 → 1
        "1:9C 2:TD 0:9D",  # 10 → 1
        "1:QS 2:KS 0:AS",  # 18 → 0
    ],
)

# seat 2: 51, seat 0: 53, seat 1: 16.
ROUND_51_53 = _plain(
    talon="KD 9D JH",
    give_2="KD",
    give_0="9D",
    tricks=[
        "1:QS 2:AS 0:JS",  # 16 → 2
        "2:JC 0:KC 1:TC",  # 16 → 1
        "1:QH 2:AH 0:9H",  # 14 → 2
        "2:QD 0:JD 1:TH",  # 15 → 2
        "2:KH 0:9D 1:JH",  # 6 → 2
        "2:KD 0:AD 1:9S",  # 15 → 0
        "0:TS 1:KS 2:QC",  # 17 → 0
        "0:AC 1:9C 2:TD",  # 21 → 0
    ],
)

# seat 2: 56, seat 0: 58, seat 1: 6.
ROUND_56_58 = _plain(
    talon="9H AC JD",
    give_2="9H",
    give_0="AC",
    tricks=[
        "1:KS 2:JS 0:9S",  # 6 → 1
        "1:QH 2:AH 0:JH",  # 16 → 2
        "2:QC 0:AC 1:KC",  # 18 → 0
        "0:TS 1:QS 2:JC",  # 15 → 0
        "0:AS 1:KH 2:TH",  # 25 → 0
        "0:KD 1:QD 2:AD",  # 18 → 2
        "2:TC 0:9C 1:JD",  # 12 → 2
        "2:9H 0:9D 1:TD",  # 10 → 2
    ],
)

# seat 2: 34, seat 0: 37, seat 1: 49.
ROUND_34_37 = _plain(
    talon="AC 9D AH",
    give_2="AC",
    give_0="9D",
    tricks=[
        "1:9C 2:JC 0:TD",  # 12 → 2
        "2:JH 0:KH 1:AH",  # 17 → 1
        "1:JD 2:AD 0:9D",  # 13 → 2
        "2:QD 0:9H 1:KD",  # 7 → 1
        "1:JS 2:KS 0:QS",  # 9 → 2
        "2:KC 0:AS 1:TC",  # 25 → 1
        "1:9S 2:QH 0:TS",  # 10 → 0
        "0:TH 1:QC 2:AC",  # 27 → 0
    ],
)

# seat 2: 28, seat 0: 33, seat 1: 59.
ROUND_28_33 = _plain(
    talon="9D AD AC",
    give_2="9D",
    give_0="AD",
    tricks=[
        "1:AH 2:QH 0:9H",  # 14 → 1
        "1:QS 2:AS 0:JS",  # 16 → 2
        "2:JD 0:QD 1:KD",  # 9 → 1
        "1:TH 2:9S 0:JH",  # 12 → 1
        "1:TS 2:TD 0:KS",  # 24 → 1
        "1:JC 2:TC 0:9C",  # 12 → 2
        "2:9D 0:AD 1:KC",  # 15 → 0
        "0:KH 1:AC 2:QC",  # 18 → 0
    ],
)

# seat 2: 32, seat 0: 34, seat 1: 54.
ROUND_32_34 = _plain(
    talon="9C AC AH",
    give_2="9C",
    give_0="AC",
    tricks=[
        "1:AH 2:JH 0:9H",  # 13 → 1
        "1:JS 2:9S 0:TS",  # 12 → 0
        "0:KC 1:JC 2:QC",  # 9 → 0
        "0:KH 1:TH 2:QH",  # 17 → 1
        "1:TD 2:AD 0:AS",  # 32 → 2
        "2:9C 0:TC 1:QD",  # 13 → 0
        "0:QS 1:KS 2:9D",  # 7 → 1
        "1:KD 2:JD 0:AC",  # 17 → 1
    ],
)

# The declarer takes no trick (seat 1: a bolt of its own, §8.5 — the
# declarer's own hand counts unless no_bolt_on_own_game). Seat 2: 81 → 80,
# seat 0: 39 → 40. Seat 1 has no marriage (cap 120); contract 105 fails.
DECLARER_BOLT = ScriptedHand(
    dealer=0,
    declarer=1,
    talon="AD KD 9H",
    gives={2: "AD", 0: "KD"},
    bidding="2 pass; 0 pass",
    contract=105,
    tricks=[
        "1:JH 2:AH 0:TH",  # 23 → 2
        "2:AD 0:QD 1:JD",  # 16 → 2
        "2:KS 0:AS 1:9S",  # 15 → 0
        "0:AC 1:TC 2:QC",  # 24 → 0
        "0:KD 1:9H 2:TD",  # 14 → 2
        "2:TS 0:KC 1:QS",  # 17 → 2
        "2:KH 0:9C 1:QH",  # 7 → 2
        "2:JS 0:9D 1:JC",  # 4 → 2
    ],
)


# A deal for the bidding and the redeal claims, not a scripted hand.
# Seat 0: hearts and diamonds marriages (cap 120 + 100 + 80 = 300).
# Seat 1: spades marriage (cap 160). Seat 2: no marriage (cap 120).
# Hand points: seat 0 46, seat 1 22, seat 2 27; no four nines; talon KC TD AD
# (25 points, no nine) — so nobody may claim a redeal.
CAPS_DEAL = make_deal(
    0,
    [
        "KH QH KD QD AS AC TC",
        "QS KS TS JH 9C QC 9D",
        "AH TH 9S JS JC JD 9H",
    ],
    "KC TD AD",
)
