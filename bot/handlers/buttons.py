"""The callback data of every inline button: a short string (< 64 bytes, Telegram's limit), one pattern per
kind, parsed strictly. A press carries untrusted data: anything that does not parse is an expired button,
and what parses still names a pending entry or session that must belong to the chat it was pressed in.

    pc:<32 hex> / px:<32 hex>   Confirm / Cancel of a pending entry (the ledger checks its chat and message)
    j:<session>                 the lobby's Join
    e:<session> / ek:<session>  /end's question: end the session now / keep playing
    r:<session>:<option>:<n>    /rules: set option to its n-th choice (session 0: no open table)
    f:<session>:<state>         the /hu button flow, its whole state (see HuFlow.data)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from scoring.seats import SEATS

Step = Literal["winner", "how", "discarder", "hua", "patterns", "done", "cancel"]
How = Literal["self_draw", "discard", "rob_kong"]

PENDING = re.compile(r"p([cx]):([0-9a-f]{32})")
# The table's own buttons (Join, /end's Confirm): one route, the session handler (`session.join_pressed`).
JOIN = re.compile(r"(j|e|ek):([1-9][0-9]{0,14})")
RULES = re.compile(r"r:(0|[1-9][0-9]{0,14}):([a-z_]{1,24}):([0-9]{1,2})")
FLOW = re.compile(r"f:([1-9][0-9]{0,14}):([whdfpDx])([ESWN-])([sdr-])([ESWN-]):([0-9]{1,2}):([0-9a-f]{1,5})")
ANY = re.compile(r"(?:p[cx]|[jrfe]|ek):.*")  # what the handlers above may be asked about; else expired

HUA_CHOICES = tuple(range(16))
SUZHOU_PATTERNS = (
    "da_menqing",
    "xiao_menqing",
    "hunyise",
    "qingyise",
    "duiduihu",
    "qidui",
    "gangkai",
    "huakai",
    "dadiaoche",
    "haidi",
    "tianhu",
    "dihu",
)
PATTERNS_BY_RULES = {
    "suzhou": SUZHOU_PATTERNS,
    "suzhou-anhui": ("qidui", "dadiaoche", "gangkai", "tianhu", "dihu"),
}
EXTENDED = ("yitiaolong", "xiaosanfeng", "sanfengke", "xiaosixi", "dasixi", "haohua_qidui")
PATTERN_BITS = (*SUZHOU_PATTERNS, *EXTENDED)  # bit i of a flow's pattern mask is PATTERN_BITS[i]

_STEPS: dict[str, Step] = {
    "w": "winner",
    "h": "how",
    "d": "discarder",
    "f": "hua",
    "p": "patterns",
    "D": "done",
    "x": "cancel",
}
_STEP_CODE = {step: code for code, step in _STEPS.items()}
_HOWS: dict[str, How] = {"s": "self_draw", "d": "discard", "r": "rob_kong"}
_HOW_CODE = {how: code for code, how in _HOWS.items()}


def _whole(pattern: re.Pattern[str], data: object) -> re.Match[str] | None:
    return pattern.fullmatch(data) if isinstance(data, str) and len(data) < 64 else None


@dataclass(frozen=True, slots=True)
class PendingPress:
    """Confirm or Cancel under a preview (or an undo question)."""

    pending_id: str
    action: Literal["confirm", "cancel"]

    @property
    def data(self) -> str:
        return f"p{'c' if self.action == 'confirm' else 'x'}:{self.pending_id}"

    @classmethod
    def parse(cls, data: object) -> PendingPress | None:
        match = _whole(PENDING, data)
        if match is None:
            return None
        return cls(match.group(2), "confirm" if match.group(1) == "c" else "cancel")


@dataclass(frozen=True, slots=True)
class JoinPress:
    """The lobby's Join button: the session it seats into."""

    session_id: int

    @property
    def data(self) -> str:
        return f"j:{self.session_id}"

    @classmethod
    def parse(cls, data: object) -> JoinPress | None:
        match = _whole(JOIN, data)
        return cls(int(match.group(2))) if match and match.group(1) == "j" else None


@dataclass(frozen=True, slots=True)
class EndPress:
    """/end's question: end the session it names now (`end`), or keep playing."""

    session_id: int
    end: bool = True

    @property
    def data(self) -> str:
        return f"{'e' if self.end else 'ek'}:{self.session_id}"

    @classmethod
    def parse(cls, data: object) -> EndPress | None:
        match = _whole(JOIN, data)
        return cls(int(match.group(2)), match.group(1) == "e") if match and match.group(1) != "j" else None


def table_press(data: object) -> JoinPress | EndPress | None:
    """A press of one of the table's own buttons (JOIN's data): the lobby's Join or /end's question."""
    return JoinPress.parse(data) or EndPress.parse(data)


@dataclass(frozen=True, slots=True)
class RulesPress:
    """A /rules button: set `option` to its `choice`-th value, for the table (or none: 0) it was shown for."""

    session_id: int
    option: str
    choice: int

    @property
    def data(self) -> str:
        return f"r:{self.session_id}:{self.option}:{self.choice}"

    @classmethod
    def parse(cls, data: object) -> RulesPress | None:
        match = _whole(RULES, data)
        return cls(int(match.group(1)), match.group(2), int(match.group(3))) if match else None


@dataclass(frozen=True, slots=True)
class HuFlow:
    """One state of the /hu button flow; a button holds the state its press leads to."""

    session_id: int
    step: Step
    winner: str | None = None
    how: How | None = None
    discarder: str | None = None
    hua: int = 0
    patterns: tuple[str, ...] = ()

    @property
    def data(self) -> str:
        """`f:<session>:<step><winner><how><discarder>:<hua>:<pattern mask, hex>`, e.g. `f:7:pSdN:5:9`."""
        mask = sum(1 << PATTERN_BITS.index(p) for p in self.patterns)
        how = _HOW_CODE[self.how] if self.how else "-"
        return (
            f"f:{self.session_id}:{_STEP_CODE[self.step]}{self.winner or '-'}{how}{self.discarder or '-'}"
            f":{self.hua}:{mask:x}"
        )

    @classmethod
    def parse(cls, data: object) -> HuFlow | None:
        """The state in a flow button's data, or None when it is not one the flow can produce."""
        match = _whole(FLOW, data)
        if match is None:
            return None
        session, step, winner, how, discarder, hua, mask = match.groups()
        patterns = tuple(p for i, p in enumerate(PATTERN_BITS) if int(mask, 16) >> i & 1)
        if int(mask, 16) >> len(PATTERN_BITS) or int(hua) not in HUA_CHOICES:
            return None
        state = cls(
            int(session),
            _STEPS[step],
            None if winner == "-" else winner,
            _HOWS.get(how),
            None if discarder == "-" else discarder,
            int(hua),
            patterns,
        )
        return state if state.consistent() else None

    def consistent(self) -> bool:
        """Whether the flow can be in this state: each choice made before the step that needs it."""
        order = ("winner", "how", "discarder", "hua", "patterns", "done")
        at = order.index(self.step) if self.step != "cancel" else 0
        needs_discarder = self.how in ("discard", "rob_kong")
        if self.step != "cancel":
            if (self.winner is not None) != (at >= 1) or (self.how is not None) != (at >= 2):
                return False
            if self.discarder is not None and not (needs_discarder and at >= 3):
                return False
            if needs_discarder and at >= 3 and self.discarder is None:
                return False
            if at < 4 and (self.hua or self.patterns):
                return False
        return self.discarder is None or (self.discarder in SEATS and self.discarder != self.winner)

    def toggled(self, pattern: str) -> HuFlow:
        """The same state with `pattern` switched on or off."""
        chosen = tuple(p for p in self.patterns if p != pattern)
        if len(chosen) == len(self.patterns):
            chosen = tuple(p for p in PATTERN_BITS if p in (*self.patterns, pattern))
        return replace(self, patterns=chosen)

    def entry(self) -> dict[str, Any]:
        """The ledger entry of a finished flow (the declared quick form)."""
        assert self.winner is not None and self.how is not None
        declared = {"hard_flowers": self.hua, "soft_flowers": 0, "patterns": list(self.patterns)}
        win: dict[str, Any] = {"winner": self.winner, "type": self.how, "declared": declared}
        entry: dict[str, Any] = {"event": "win", "wins": [win]}
        if self.how != "self_draw":
            entry["discarder"] = self.discarder
        return entry


def pattern_choices(rules: str, options: dict[str, Any]) -> tuple[str, ...]:
    """The patterns the flow offers for a table's rules (with the extended list when that option is on)."""
    base = PATTERNS_BY_RULES.get(rules, SUZHOU_PATTERNS)
    return base + EXTENDED if rules == "suzhou" and options.get("extended") else base
