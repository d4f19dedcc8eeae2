"""The catalogue of house-rule options (договорённости) of RULES.md §12.

This module owns the data of every option: its id, group, default, the
values it may take and a one-line description in English and Russian, and
how one value is checked (:meth:`Option.check`). :mod:`thousand.rules`
builds the frozen ``Rules`` of a game and the named presets on top of it.

>>> OPTIONS_BY_ID["bid_step"].check(5)
5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Option groups, in the order of RULES.md §12.
GROUPS: dict[str, tuple[str, str]] = {
    "bidding": ("Bidding and contract", "Торговля и заказ"),
    "play": ("Play", "Розыгрыш"),
    "redeal": ("Redeal claims", "Пересдача"),
    "scoring": ("Scoring", "Подсчёт очков"),
    "write_off": ("Write-off", "Роспись"),
    "barrel": ("Barrel and match", "Бочка и партия"),
    "table": ("Dark, golden round, table size", "Тёмная, золотой кон, число игроков"),
}


@dataclass(frozen=True)
class Option:
    """One house rule: its id, default, allowed values and descriptions."""

    id: str
    default: Any
    group: str
    en: str
    ru: str
    choices: tuple[Any, ...] = ()
    """The allowed values; empty for a free number (see ``step`` and bounds)."""
    low: int | None = None
    high: int | None = None
    step: int = 1
    optional: bool = False
    """``None`` ("off") is allowed besides the values."""

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        if self.choices:
            return "choice"
        return "int"

    def check(self, value: Any) -> Any:
        """The value if it is allowed for this option, else ``ValueError``."""
        if value is None and self.optional:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"rule {self.id!r} takes true or false, not {value!r}")
            return value
        if self.choices:
            if value not in self.choices or isinstance(value, bool):
                allowed = ", ".join(repr(c) for c in self.choices)
                off = " or null" if self.optional else ""
                raise ValueError(f"rule {self.id!r} takes one of {allowed}{off}, not {value!r}")
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"rule {self.id!r} takes a whole number, not {value!r}")
        if self.low is not None and value < self.low:
            raise ValueError(f"rule {self.id!r} must be at least {self.low}, not {value}")
        if self.high is not None and value > self.high:
            raise ValueError(f"rule {self.id!r} must be at most {self.high}, not {value}")
        if value % self.step:
            raise ValueError(f"rule {self.id!r} must be a multiple of {self.step}, not {value}")
        return value

    def describe(self) -> dict[str, Any]:
        """A JSON-ready description for the settings screen."""
        return {
            "id": self.id,
            "group": self.group,
            "kind": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "low": self.low,
            "high": self.high,
            "step": self.step,
            "optional": self.optional,
            "en": self.en,
            "ru": self.ru,
        }


def _opt(id: str, default: Any, group: str, en: str, ru: str, **kw: Any) -> Option:
    return Option(id, default, group, en, ru, **kw)


OPTIONS: tuple[Option, ...] = (
    # 12.1 Bidding and contract
    _opt(
        "bid_cap",
        "hand_marriages",
        "bidding",
        "Bid cap: 120 plus the marriages in your hand, or no cap",
        "Предел торговли: 120 плюс марьяжи на руке, или без предела",
        choices=("hand_marriages", "none"),
    ),
    _opt(
        "max_bid",
        300,
        "bidding",
        "Highest possible bid or contract",
        "Наибольшая возможная ставка или заказ",
        low=120,
        high=1000,
        step=5,
    ),
    _opt(
        "bid_step",
        5,
        "bidding",
        "Bidding step (Polish: 10)",
        "Шаг торговли (польский: 10)",
        choices=(5, 10),
    ),
    _opt(
        "no_jump_bids",
        False,
        "bidding",
        "Raise by exactly one step, no jumps",
        "Повышать только на один шаг, без прыжков",
    ),
    _opt(
        "silence_below",
        None,
        "bidding",
        "A player below this score must pass (no bidding in the pit)",
        "Игрок с очками ниже этого обязан пасовать (молчание в яме)",
        low=-1000,
        high=1000,
        step=5,
        optional=True,
    ),
    _opt(
        "hidden_talon_at_100",
        True,
        "bidding",
        "The talon taken at the obligatory 100 with no raise is not shown",
        "Прикуп, взятый на обязательной сотне без торга, не показывается",
    ),
    _opt(
        "pass_face_down",
        False,
        "bidding",
        "Cards passed to opponents are face down",
        "Снос отдаётся закрытым",
    ),
    _opt(
        "barrel_min_bid",
        120,
        "bidding",
        "Least bid that a player on the barrel may win with",
        "Наименьшая ставка игрока на бочке",
        choices=(120, 121, 125),
    ),
    # 12.2 Play
    _opt(
        "marriage_first_lead",
        False,
        "play",
        "A marriage may be declared before taking a trick",
        "Марьяж можно объявить, не взяв ни одной взятки",
    ),
    _opt(
        "marriage_needs_capture",
        False,
        "play",
        "A marriage counts only if its declarer takes its K or Q in a trick",
        "Марьяж засчитывается, только если объявивший взял его короля или даму",
    ),
    _opt(
        "ace_marriage",
        False,
        "play",
        "Ace marriage: all four aces in one hand score 200",
        "Тузовый марьяж: четыре туза на руке — 200",
    ),
    _opt(
        "ace_marriage_trump",
        "none",
        "play",
        "Trump after an ace marriage: unchanged, cancelled, or the last ace's suit",
        "Козырь после тузового марьяжа: прежний, отменяется или масть последнего туза",
        choices=("none", "cancel", "last_ace"),
    ),
    _opt(
        "no_lead_foreign_trump",
        False,
        "play",
        "You may not lead a trump you did not declare while holding other suits",
        "Нельзя ходить с чужого козыря, имея другие масти",
    ),
    _opt(
        "must_lead_trump",
        False,
        "play",
        "You must lead a trump when you can",
        "Обязательно ходить с козыря, если он есть",
    ),
    _opt(
        "must_beat",
        False,
        "play",
        "Must beat: play higher in the suit led, or over-trump, when you can",
        "Обязательно перебивать: старшей картой масти или старшим козырем",
    ),
    # 12.3 Redeal claims
    _opt(
        "redeal_talon_below",
        5,
        "redeal",
        "Redeal if the talon is worth less than this",
        "Пересдача, если в прикупе меньше стольких очков",
        low=1,
        high=40,
        optional=True,
    ),
    _opt(
        "redeal_two_nines_talon",
        True,
        "redeal",
        "Redeal for two nines in the talon",
        "Пересдача при двух девятках в прикупе",
    ),
    _opt(
        "redeal_three_nines_talon",
        False,
        "redeal",
        "Redeal for three nines in the talon",
        "Пересдача при трёх девятках в прикупе",
    ),
    _opt(
        "redeal_three_jacks_talon",
        False,
        "redeal",
        "Redeal for three jacks in the talon",
        "Пересдача при трёх валетах в прикупе",
    ),
    _opt(
        "redeal_hand_below",
        13,
        "redeal",
        "Redeal if a dealt hand is worth less than this",
        "Пересдача, если на руке меньше стольких очков",
        low=1,
        high=60,
        optional=True,
    ),
    _opt(
        "redeal_four_nines",
        True,
        "redeal",
        "Redeal for four nines in a dealt hand",
        "Пересдача при четырёх девятках на руке",
    ),
    _opt(
        "redeal_four_nines_after_pass",
        True,
        "redeal",
        "Redeal for four nines after taking the talon or receiving a card",
        "Пересдача при четырёх девятках после прикупа или сноса",
    ),
    _opt(
        "redeal_four_jacks",
        False,
        "redeal",
        "Redeal for four jacks in a hand",
        "Пересдача при четырёх валетах на руке",
    ),
    _opt(
        "redeal_only_at_100",
        False,
        "redeal",
        "Only a declarer who took the talon at 100 may claim a redeal",
        "Пересдачу может требовать только взявший прикуп на сотне",
    ),
    _opt(
        "redeal_penalty_dealer",
        False,
        "redeal",
        "A redeal for nines costs the dealer the penalty",
        "Пересдача из-за девяток стоит сдающему штраф",
    ),
    # 12.4 Scoring
    _opt(
        "rounding",
        "nearest5",
        "scoring",
        "How defenders' points are rounded",
        "Округление очков вистующих",
        choices=("nearest5", "by_last_digit", "none", "nearest10"),
    ),
    _opt(
        "declarer_rounding",
        False,
        "scoring",
        "The declarer's points are rounded before comparing with the contract",
        "Очки играющего округляются перед сравнением с заказом",
    ),
    _opt(
        "penalty",
        120,
        "scoring",
        "Size of every penalty",
        "Размер штрафа",
        low=0,
        high=1000,
        step=5,
    ),
    _opt(
        "bolt_rule",
        "no_tricks",
        "scoring",
        "A bolt is for taking no trick, or for zero points",
        "Болт — за ни одной взятки или за ноль очков",
        choices=("no_tricks", "zero_points"),
    ),
    _opt(
        "bolt_mode",
        "total",
        "scoring",
        "Every third bolt costs the penalty: counted in total, in a row, or never",
        "Каждый третий болт — штраф: всего, подряд или никогда",
        choices=("total", "consecutive", "off"),
    ),
    _opt(
        "no_bolt_on_own_game",
        False,
        "scoring",
        "The declarer gets no bolt in their own game",
        "Играющий не получает болт на своей игре",
    ),
    _opt(
        "four_nines_bonus",
        False,
        "scoring",
        "Four nines in hand after the pass score 120",
        "Четыре девятки на руке после сноса — плюс 120",
    ),
    # 12.5 Write-off
    _opt(
        "write_off",
        True,
        "write_off",
        "The declarer may write off (concede) a hand",
        "Играющий может расписать игру",
    ),
    _opt(
        "write_off_flat_60",
        False,
        "write_off",
        "A write-off gives each opponent 60 instead of half the contract",
        "При росписи вистующие получают по 60, а не половину заказа",
    ),
    _opt(
        "write_off_keeps_score",
        False,
        "write_off",
        "A write-off costs the declarer nothing",
        "При росписи заказ у играющего не вычитается",
    ),
    _opt(
        "write_off_limit",
        None,
        "write_off",
        "Most write-offs per player per match",
        "Наибольшее число росписей за партию",
        low=1,
        high=10,
        optional=True,
    ),
    _opt(
        "write_off_third_penalty",
        False,
        "write_off",
        "The third write-off also costs the penalty",
        "Третья роспись стоит штрафа",
    ),
    _opt(
        "write_off_on_barrel",
        False,
        "write_off",
        "A player on the barrel may write off",
        "Игрок на бочке может расписать",
    ),
    _opt(
        "cross",
        False,
        "write_off",
        "Cross (крещусь): the declarer abandons the hand, nobody scores, opponents get a bolt",
        "Крещусь: игра отменяется, никто не получает очков, вистующим — болт",
    ),
    _opt(
        "bomb",
        0,
        "write_off",
        "Bombs per match: abandon a hand at no cost, each opponent gets 60 (Polish)",
        "Бомбы за партию: отказ от игры без потерь, соперникам по 60 (польские правила)",
        low=0,
        high=10,
    ),
    # 12.6 Barrel and match
    _opt(
        "barrel_at",
        880,
        "barrel",
        "Score at which a player sits on the barrel",
        "Очки, с которых игрок садится на бочку",
        choices=(880, 900),
        optional=True,
    ),
    _opt(
        "barrel_attempts",
        3,
        "barrel",
        "Hands a player may stay on the barrel",
        "Сколько раздач можно сидеть на бочке",
        low=1,
        high=10,
    ),
    _opt(
        "barrel_three_falls_zero",
        True,
        "barrel",
        "The third fall from the barrel resets the score to 0",
        "Третье падение с бочки обнуляет счёт",
    ),
    _opt(
        "one_on_barrel",
        True,
        "barrel",
        "Only one player on the barrel: an arrival knocks the other off",
        "На бочке только один: пришедший сбивает сидящего",
    ),
    _opt(
        "barrel_fall_to",
        "minus_penalty",
        "barrel",
        "A fall from the barrel costs the penalty, drops to 500, or costs your last bid",
        "Падение с бочки: минус штраф, до 500 или минус последняя ставка",
        choices=("minus_penalty", "500", "minus_contract"),
    ),
    _opt(
        "target_1001", False, "barrel", "Play to 1001 instead of 1000", "Игра до 1001 вместо 1000"
    ),
    _opt(
        "lock_at",
        None,
        "barrel",
        "Above this score only a contract you won and made counts (Polish)",
        "Выше этих очков засчитывается только свой сыгранный заказ (польские правила)",
        low=100,
        high=995,
        step=5,
        optional=True,
    ),
    _opt(
        "samosval",
        False,
        "barrel",
        "Samosval: exactly 555 falls to 0",
        "Самосвал: ровно 555 очков — сброс в 0",
    ),
    _opt("samosval_negative", False, "barrel", "Samosval also at −555", "Самосвал также при −555"),
    _opt(
        "reverse_barrel",
        False,
        "barrel",
        "Reverse barrel: at −880, reach −1000 within three hands or go back to −760",
        "Обратная бочка: на −880 за три раздачи дойти до −1000, иначе −760",
    ),
    _opt(
        "intermediate_barrel_380",
        False,
        "barrel",
        "An intermediate barrel at 380",
        "Промежуточная бочка на 380",
    ),
    # 12.7 Dark, golden round, table size
    _opt(
        "dark",
        False,
        "table",
        "Dark play: first hand may bid 120 without looking",
        "Тёмная: первая рука может играть 120 не глядя",
    ),
    _opt(
        "dark_min_score",
        None,
        "table",
        "Dark play only with at least this score",
        "Тёмная только при стольких очках",
        low=-1000,
        high=1000,
        step=5,
        optional=True,
    ),
    _opt(
        "dark_undarken",
        False,
        "table",
        "An opponent with a marriage may bid 125 against dark play",
        "Соперник с марьяжем может перебить тёмную ставкой 125",
    ),
    _opt(
        "dark_cap_240",
        False,
        "table",
        "Dark play's doubled result is capped at 240",
        "Результат тёмной не больше 240",
    ),
    _opt(
        "dark_double_bolt",
        False,
        "table",
        "A bolt in dark play counts double",
        "Болт на тёмной считается за два",
    ),
    _opt(
        "dark_write_off", False, "table", "Dark play may be written off", "Тёмную можно расписать"
    ),
    _opt(
        "golden",
        False,
        "table",
        "Golden round: the first hands at a compulsory 120, doubled",
        "Золотой кон: первые раздачи на обязательных 120, очки удваиваются",
    ),
    _opt(
        "golden_reset",
        False,
        "table",
        "If nobody made 120 in the golden round, scores reset",
        "Если никто не сыграл 120 в золотом коне, счёт обнуляется",
    ),
    _opt(
        "golden_repeat",
        False,
        "table",
        "If nobody made 120, the golden round is replayed",
        "Если никто не сыграл 120, золотой кон повторяется",
    ),
    _opt(
        "golden_raise",
        False,
        "table",
        "The golden contract may be raised",
        "Заказ в золотом коне можно повысить",
    ),
    _opt(
        "golden_double_bolt",
        False,
        "table",
        "A bolt in the golden round counts double",
        "Болт в золотом коне считается за два",
    ),
    _opt(
        "golden_marriage_not_doubled",
        False,
        "table",
        "Marriages are not doubled in the golden round",
        "Марьяжи в золотом коне не удваиваются",
    ),
    _opt("players", 3, "table", "Number of players", "Число игроков", choices=(3, 2, 4)),
    _opt(
        "dealer_score",
        "talon_points",
        "table",
        "4 players: the dealer scores the talon's points, a flat 30, or 50 per ace",
        "Вчетвером сдающий получает очки прикупа, 30 или по 50 за туза",
        choices=("talon_points", "flat_30", "aces_50"),
    ),
    _opt(
        "talon_half_marriage",
        False,
        "table",
        "4 players: a lone K or Q in the talon adds half its marriage for the dealer",
        "Вчетвером одинокий король или дама в прикупе дают сдающему половину марьяжа",
    ),
    _opt(
        "two_player_second_talon",
        "dead",
        "table",
        "2 players: the other talon is dead, or goes to the last trick",
        "Вдвоём второй прикуп мёртвый или идёт взявшему последнюю взятку",
        choices=("dead", "last_trick"),
    ),
    _opt(
        "two_player_talon_choice",
        "blind",
        "table",
        "2 players: the declarer chooses a talon after seeing both, or blind",
        "Вдвоём играющий выбирает прикуп, видя оба, или вслепую",
        choices=("blind", "seen"),
    ),
)

OPTIONS_BY_ID: dict[str, Option] = {o.id: o for o in OPTIONS}
