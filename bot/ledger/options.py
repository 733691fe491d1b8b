"""The one table of a group's own options (beside the rule options of `scoring.rules.OptionSpec`): each
option's id, where it is kept, what it may be, its default and its catalog keys. Validation (the ledger),
/rules and /schedule (what may be typed, the refusal's bounds), the models' and values' defaults and the
catalog coverage test all read it; adding a group option is one row here and its catalog words.

    >>> BY_ID["round"].allows(5), BY_ID["round"].allows(3), BY_ID["timeout"].allows(4)
    (True, False, False)
    >>> BY_ID["fee"].bounds
    '0–1000000000'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.settings import Settings

Kind = Literal["switch", "whole", "choice", "zone"]


@dataclass(frozen=True, slots=True)
class GroupOption:
    """One group option. `field` is its ChatGroup column, or its key in the group's settling-up options
    (`settle`); a `whole` number lies in `low`..`high`, a `choice` is one of `choices`; `in_rules`: shown and
    set by /rules (`remind` is set by /schedule remind). Its name is `option.<id>.name` in the catalogs, a
    choice's words `option.<id>.<choice>`."""

    id: str
    field: str
    kind: Kind
    default: Any
    low: int = 0
    high: int = 0
    choices: tuple[Any, ...] = ()
    settle: bool = False
    in_rules: bool = True

    def allows(self, value: object) -> bool:
        """Whether `value` may be stored for this option (a zone's name is checked by zoneinfo)."""
        if self.kind == "switch":
            return isinstance(value, bool)
        if self.kind == "whole":
            whole = isinstance(value, int) and not isinstance(value, bool)
            return whole and self.low <= value <= self.high  # type: ignore[operator]
        if self.kind == "choice":
            return value in self.choices and type(value) is type(self.choices[0])
        return isinstance(value, str) and bool(value)

    @property
    def bounds(self) -> str:
        """What may be typed, for a refusal: `5–86400`, `0/1/5/10`, `any/other`."""
        if self.kind == "whole":
            return f"{self.low}–{self.high}"
        return "/".join(map(str, self.choices))


OPTIONS: tuple[GroupOption, ...] = (
    GroupOption("instant", "instant", "switch", False),  # a hand is recorded without Confirm
    GroupOption(  # seconds a preview waits for Confirm
        "timeout",
        "confirm_timeout_seconds",
        "whole",
        Settings.model_fields["confirm_timeout_seconds"].default,
        low=5,
        high=86400,
    ),
    # who confirms: any seated player or admin, or someone other than the one who recorded it
    GroupOption("confirm_by", "confirm_by", "choice", "any", choices=("any", "other")),
    GroupOption("timezone", "timezone", "zone", "Asia/Shanghai"),  # CSV times, /history dates, /schedule
    # Settling up (bot.ledger.money.settling): carry what stays open into the next night's transfers, 抹零 to
    # a
    # multiple of `round` units (0: none), 收盘倍数, 台费 per player per session and 抽水 (percent of each
    # win), both booked to the "台" account; `remind`: hours after which the group is reminded of an open
    # transfer (0: never).
    GroupOption("carry", "carry", "switch", True, settle=True),
    GroupOption("round", "round", "choice", 0, choices=(0, 1, 5, 10), settle=True),
    GroupOption("multiplier", "multiplier", "whole", 1, low=1, high=1000, settle=True),
    GroupOption("fee", "fee", "whole", 0, low=0, high=10**9, settle=True),
    GroupOption("rake", "rake", "whole", 0, low=0, high=100, settle=True),
    GroupOption("remind", "remind", "whole", 0, low=0, high=720, settle=True, in_rules=False),
)
BY_ID = {option.id: option for option in OPTIONS}
SETTLE_OPTIONS: dict[str, Any] = {option.id: option.default for option in OPTIONS if option.settle}
SETTLE_IDS = tuple(option.id for option in OPTIONS if option.settle and option.in_rules)  # in /rules' order
