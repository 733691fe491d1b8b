"""The callback data of every inline button: a short string (< 64 bytes, Telegram's limit), one pattern per
kind, parsed strictly. A press carries untrusted data: anything that does not parse is an expired button,
and what parses still names a pending entry or session that must belong to the chat it was pressed in.

    pc:<32 hex> / px:<32 hex>   Confirm / Cancel of a pending entry (the ledger checks its chat and message)
    d:<32 hex>:<seat>           a seat for a hand entered before the first dealer (the same checks, and
                                the entry must be one waiting for its dealer)
    n:<32 hex>:<seat>           the player a name in a typed /hu means, when it fits several (the entry
                                must be one waiting for that answer)
    j:<session>                 the lobby's Join
    e:<session> / ek:<session>  /end's question: end the session now (entries still waiting dropped) / keep
                                playing
    er:<session>                /end's question: record the entries still waiting, then end
    r:<session>:<option>:<n>    /rules: set option to its n-th choice (session 0: no open table)
    f:<session>:<state>         the /hu button flow, its whole state (see HuFlow.data: at most 52 bytes for
                                three winners, each winner's 花 and patterns in seven base-36 digits)
    sp:<transfer> / sr:<transfer>   a summary's 我已付 (by the payer) / 已收到 (by the payee or an admin)
    pw:<player>:<amount>        /paid's question when a name fits several people: that person (amount 0:
                                all that is open); the presser's own /paid
    vs:<player> / vt:<player>   /score's / /stats' question when a name fits several people: that person
    g:<session>:<seat>:<asker>:<name> / gx:<session>:<asker>   /join's or /sub's question when a name is no
                                known member: seat the guest `name` (seat `-`: /join's next free seat) /
                                seat no one; `asker` (base 36) the Telegram id of who typed the command
                                (0: an anonymous admin, answered by any admin)
    gw:<session>:<seat>:<asker>:<player>   /join's or /sub's question when a name fits several people:
                                seat that player (the same checks)
    sc:<season> / sx:<season>   /season close's question: close the season (the request's id) / keep it
    /start pc<transfer>         the payee's 收款码 in a private chat, for the payer only (a deep link)
"""

from __future__ import annotations

import re
from dataclasses import InitVar, dataclass, replace
from typing import Any, Literal, cast

from scoring.entry import Claim, EntryJSON, build_entry
from scoring.entry import How as EntryHow
from scoring.rules import RULESETS, SUZHOU, RuleSetId, has_shangpai, ruleset
from scoring.seats import SEATS, Seat, is_seat

Step = Literal[
    "winner", "how", "more", "other", "hua", "melds", "patterns", "wild", "wild_won", "done", "cancel"
]
How = Literal["self_draw", "discard", "rob_kong", "bao", "songgang", "multi"]

PENDING = re.compile(r"p([cx]):([0-9a-f]{32})")
DEALER = re.compile(r"d:([0-9a-f]{32}):([ESWN])")
NAME = re.compile(r"n:([0-9a-f]{32}):([ESWN])")
# The table's own buttons (Join, /end's Confirm): one route, the session handler (`session.join_pressed`).
JOIN = re.compile(r"j:([1-9][0-9]{0,14})")
END = re.compile(r"(e|ek|er):([1-9][0-9]{0,14})")
SEASON = re.compile(r"s([cx]):([1-9][0-9]{0,14})")
LEDGER_CSV = re.compile(r"lc:([1-9][0-9]{0,14})")
RULES = re.compile(r"r:(0|[1-9][0-9]{0,14}):([a-z_]{1,24}):([0-9]{1,2})")

HUA_CHOICES = tuple(range(20))  # the 硬花 buttons; more is typed (/hu 南 自摸 24花)
MAX_SOFT = 35  # meld 花 the flow adds up (one base-36 digit)
# The table's patterns come from the rule set's own data (scoring.rules), in its order; 宿州's end with 上牌
# (a flag of 宿州 only: it doubles every payer's amount).
SUZHOU_PATTERNS = tuple(ruleset(SUZHOU).patterns)
PATTERNS_BY_RULES = {
    rules: (*ruleset(rules).patterns, *(("shangpai",) if has_shangpai(rules) else ())) for rules in RULESETS
}
EXTENDED = tuple(ruleset(SUZHOU).extended_patterns)
# bit i of a winner's pattern mask is PATTERN_BITS[i]; 上牌 is a flag, not a pattern
PATTERN_BITS = (*SUZHOU_PATTERNS, *EXTENDED, "shangpai")
MASK_DIGITS = next(n for n in range(1, 9) if 36**n >= 1 << len(PATTERN_BITS))  # base-36 digits of the mask
CODE_LEN = 2 + MASK_DIGITS  # a winner in a flow button: 硬花, 软花, the pattern mask
FLOW = re.compile(
    r"f:([1-9][0-9]{0,14}):([whmofgpzyDx])([ESWN-])([sdrbgm-])([ESWN-])([0-2])(--|[1-9][mps]|[1-4]z)(w?)"
    rf":([ESWN]{{0,3}}):((?:[0-9a-z]{{{CODE_LEN}}}){{0,3}})"
)
# The meld buttons in the order the flow shows them; a rule set offers those it scores.
MELD_BUTTONS = ("fengpeng", "feng_anke", "feng_minggang", "feng_angang", "minggang", "angang")
# Meld 花 by rule set: each button's item and what one such meld adds, read from the rule set's item values
# (苏州 counts each as a 花 item, 宿州 in the flower count f: docs/rules.md). The flow records their sum as
# the quick entry's 软花 (soft_flowers).
MELD_HUA = {
    rules: tuple((item, ruleset(rules).items[item]) for item in MELD_BUTTONS if item in ruleset(rules).items)
    for rules in RULESETS
}

_STEPS: dict[str, Step] = {
    "w": "winner",
    "h": "how",
    "m": "more",
    "o": "other",
    "f": "hua",
    "g": "melds",
    "p": "patterns",
    "z": "wild",
    "y": "wild_won",
    "D": "done",
    "x": "cancel",
}
_STEP_CODE = {step: code for code, step in _STEPS.items()}
_HOWS: dict[str, How] = {
    "s": "self_draw",
    "d": "discard",
    "r": "rob_kong",
    "b": "bao",
    "g": "songgang",
    "m": "multi",
}
_HOW_CODE = {how: code for code, how in _HOWS.items()}
_ORDER: tuple[Step, ...] = (
    "winner",
    "how",
    "more",
    "other",
    "hua",
    "melds",
    "patterns",
    "wild",
    "wild_won",
    "done",
)
_NEEDS_OTHER = ("discard", "rob_kong", "bao", "songgang", "multi")
DISCARD_WINS = ("discard", "multi")  # wins on a discard (宿州's discarded 混子: docs/rules.md §2)
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


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
class DealerPress:
    """A seat button under the question a hand entered before the first dealer gets: that seat deals."""

    pending_id: str
    seat: Seat

    @property
    def data(self) -> str:
        return f"d:{self.pending_id}:{self.seat}"

    @classmethod
    def parse(cls, data: object) -> DealerPress | None:
        match = _whole(DEALER, data)
        return cls(match.group(1), seat) if match and (seat := _seat(match.group(2))) else None


@dataclass(frozen=True, slots=True)
class NamePress:
    """A seat button under the question a typed /hu gets when a name in it fits several seated players."""

    pending_id: str
    seat: Seat

    @property
    def data(self) -> str:
        return f"n:{self.pending_id}:{self.seat}"

    @classmethod
    def parse(cls, data: object) -> NamePress | None:
        match = _whole(NAME, data)
        return cls(match.group(1), seat) if match and (seat := _seat(match.group(2))) else None


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
        return cls(int(match.group(1))) if match else None


@dataclass(frozen=True, slots=True)
class EndPress:
    """/end's question: end the session it names now (`end`; with `record`, after recording the entries
    still waiting for their Confirm, else dropping them), or keep playing."""

    session_id: int
    end: bool = True
    record: bool = False

    @property
    def data(self) -> str:
        code = "ek" if not self.end else "er" if self.record else "e"
        return f"{code}:{self.session_id}"

    @classmethod
    def parse(cls, data: object) -> EndPress | None:
        match = _whole(END, data)
        if match is None:
            return None
        code = match.group(1)
        return cls(int(match.group(2)), code != "ek", record=code == "er")


@dataclass(frozen=True, slots=True)
class SeasonPress:
    """/season close's question: close the season of the request `season_id` (`close`), or keep it."""

    season_id: int
    close: bool = True

    @property
    def data(self) -> str:
        return f"s{'c' if self.close else 'x'}:{self.season_id}"

    @classmethod
    def parse(cls, data: object) -> SeasonPress | None:
        match = _whole(SEASON, data)
        return cls(int(match.group(2)), match.group(1) == "c") if match else None


@dataclass(frozen=True, slots=True)
class LedgerCsvPress:
    """/ledger's button under a long session's last rows: the whole ledger of `session_id` as the CSV."""

    session_id: int

    @property
    def data(self) -> str:
        return f"lc:{self.session_id}"

    @classmethod
    def parse(cls, data: object) -> LedgerCsvPress | None:
        match = _whole(LEDGER_CSV, data)
        return cls(int(match.group(1))) if match else None


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
class Win:
    """One winner's part of a /hu button flow: seat, 硬花, meld 花 (软花), patterns (and 上牌)."""

    seat: Seat
    hua: int = 0
    soft: int = 0
    patterns: tuple[str, ...] = ()

    @property
    def code(self) -> str:
        """CODE_LEN base-36 digits: 硬花, 软花, the pattern mask (MASK_DIGITS digits)."""
        mask = sum(1 << PATTERN_BITS.index(p) for p in self.patterns)
        digits = ""
        for _ in range(MASK_DIGITS):
            mask, digit = divmod(mask, 36)
            digits = _B36[digit] + digits
        return _B36[self.hua] + _B36[self.soft] + digits


@dataclass(frozen=True, slots=True)
class HuFlow:
    """One state of the /hu button flow; a button holds the state its press leads to. `wins` are the
    winners in the order chosen (several: 一炮多响), `cur` the one whose 花 are being asked, `other` the
    discarder / robbed player / feeder, `by` the seat of the player who started the flow (None: an admin
    without a seat), `wild` 宿州's 混子, `won_on_wild` whether the discard won on was that 混子 (the rules
    refuse such a win). `winner=` is a shorthand for a first winner."""

    session_id: int
    step: Step
    wins: tuple[Win, ...] = ()
    how: How | None = None
    other: Seat | None = None
    cur: int = 0
    wild: str | None = None
    by: Seat | None = None
    won_on_wild: bool = False
    winner: InitVar[Seat | None] = None

    def __post_init__(self, winner: Seat | None) -> None:
        if winner is not None:
            object.__setattr__(self, "wins", (Win(winner), *self.wins))

    @property
    def data(self) -> str:
        """`f:<session>:<step><by><how><other><cur><wild>[w]:<winners>:<CODE_LEN digits a winner>`, at most
        52 bytes, e.g. `f:7:gSs-0--:S:5000000` (南, started by 南, self-draw, 5 硬花, now at the meld 花);
        `w` after the wild tile: the discard won on was the 混子."""
        how = _HOW_CODE[self.how] if self.how else "-"
        seats = "".join(w.seat for w in self.wins)
        return (
            f"f:{self.session_id}:{_STEP_CODE[self.step]}{self.by or '-'}{how}{self.other or '-'}{self.cur}"
            f"{self.wild or '--'}{'w' if self.won_on_wild else ''}"
            f":{seats}:{''.join(w.code for w in self.wins)}"
        )

    @classmethod
    def parse(cls, data: object) -> HuFlow | None:
        """The state in a flow button's data, or None when it is not one the flow can produce."""
        match = _whole(FLOW, data)
        if match is None:
            return None
        session, step, by, how, other, cur, wild, won_on_wild, seats, codes = match.groups()
        if len(codes) != CODE_LEN * len(seats) or len(set(seats)) != len(seats):
            return None
        wins = []
        for letter, i in zip(seats, range(0, len(codes), CODE_LEN), strict=True):
            code = codes[i : i + CODE_LEN]
            seat = _seat(letter)
            mask = int(code[2:], 36)
            if (
                seat is None
                or mask >> len(PATTERN_BITS)
                or int(code[0], 36) not in HUA_CHOICES
                or int(code[1], 36) > MAX_SOFT
            ):
                return None
            patterns = tuple(p for b, p in enumerate(PATTERN_BITS) if mask >> b & 1)
            wins.append(Win(seat, int(code[0], 36), int(code[1], 36), patterns))
        state = cls(
            int(session),
            _STEPS[step],
            tuple(wins),
            _HOWS.get(how),
            _seat(other),
            int(cur),
            None if wild == "--" else wild,
            _seat(by),
            won_on_wild == "w",
        )
        return state if state.consistent() else None

    def consistent(self) -> bool:
        """Whether the flow can be in this state: each choice made before the step that needs it."""
        if self.step == "cancel":
            return True
        at = _ORDER.index(self.step)
        count, many = len(self.wins), self.how == "multi"
        if at == 0:
            ok = count == 0 and self.how is None
        elif at == 1:
            ok = count == 1 and self.how is None
        elif many:
            ok = 1 <= count <= 3 if self.step == "more" else 2 <= count <= 3
        else:
            ok = count == 1 and self.how is not None and self.step != "more"
        needs_other = self.how in _NEEDS_OTHER and at >= _ORDER.index("hua")
        if not ok or (self.other is not None) != needs_other or self.other in self.seats:
            return False
        if self.by is not None and self.by not in SEATS:
            return False
        if (self.won_on_wild or self.step == "wild_won") and not self.asks_won_on_wild:
            return False
        return self.cur == 0 or (at >= _ORDER.index("hua") and self.cur < count)

    @property
    def asks_won_on_wild(self) -> bool:
        """Whether the flow asks if the tile won on was the 混子: a discard win with a 混子 named."""
        return self.wild is not None and self.how in DISCARD_WINS

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The winners' seats, in the order chosen."""
        return tuple(w.seat for w in self.wins)

    @property
    def current(self) -> Win:
        """The winner whose 花 and patterns the step asks for."""
        return self.wins[self.cur]

    def with_current(self, **changes: Any) -> HuFlow:
        """The same state with the current winner changed."""
        wins = list(self.wins)
        wins[self.cur] = replace(wins[self.cur], **changes)
        return replace(self, wins=tuple(wins))

    def toggled(self, pattern: str) -> HuFlow:
        """The same state with `pattern` of the current winner switched on or off."""
        chosen = self.current.patterns
        if pattern in chosen:
            return self.with_current(patterns=tuple(p for p in chosen if p != pattern))
        return self.with_current(patterns=tuple(p for p in PATTERN_BITS if p in (*chosen, pattern)))

    def toggled_winner(self, seat: Seat) -> HuFlow:
        """一炮多响: `seat` added to the winners, or taken off (never the first)."""
        if seat in self.seats[1:]:
            return replace(self, wins=tuple(w for w in self.wins if w.seat != seat))
        return replace(self, wins=(*self.wins, Win(seat)))

    def entry(self) -> EntryJSON:
        """The ledger entry of a finished flow, from the one builder: what `bot.grammar.parse_hu` makes of
        the same hand in words (the declared form: `南 包 西 5花 2软 清一色 杠开`)."""
        assert self.wins and self.how is not None
        how: EntryHow = "discard" if self.how == "multi" else cast(EntryHow, self.how)
        claims = [
            Claim(
                win.seat,
                hard_flowers=win.hua,
                soft_flowers=win.soft,
                patterns=tuple(p for p in win.patterns if p != "shangpai"),
                flags=frozenset({"shangpai"} if "shangpai" in win.patterns else ()),
                winning_tile=self.wild if self.won_on_wild else None,  # `+2p` beside `混子 2p`: refused
            )
            for win in self.wins
        ]
        return build_entry(how, claims, other=self.other, wild=self.wild)


def pattern_choices(rules: RuleSetId, options: dict[str, Any]) -> tuple[str, ...]:
    """The patterns the flow offers for a table's rules (with the extended list when that option is on);
    宿州's list ends with 上牌."""
    base = PATTERNS_BY_RULES.get(rules, SUZHOU_PATTERNS)
    return base + EXTENDED if rules == "suzhou" and options.get("extended") else base


def _seat(letter: str) -> Seat | None:
    """The seat a button's letter stands for; None for `-` (no seat) or anything else."""
    return letter if is_seat(letter) else None


SETTLE = re.compile(r"s([pr]):([1-9][0-9]{0,14})")
PAYCODE_START = "pc"  # /start pc<transfer>: the payee's 收款码 in a private chat, for the payer only
PAYCODE = re.compile(r"pc([1-9][0-9]{0,14})")


@dataclass(frozen=True, slots=True)
class SettlePress:
    """A transfer's button: `paid` (我已付, by the payer) or `received` (已收到, by the payee or an admin)."""

    transfer_id: int
    action: Literal["paid", "received"]

    @property
    def data(self) -> str:
        return f"s{'p' if self.action == 'paid' else 'r'}:{self.transfer_id}"

    @classmethod
    def parse(cls, data: object) -> SettlePress | None:
        match = _whole(SETTLE, data)
        if match is None:
            return None
        return cls(int(match.group(2)), "paid" if match.group(1) == "p" else "received")


PAY = re.compile(r"pw:([1-9][0-9]{0,14}):(0|[1-9][0-9]{0,12})")


@dataclass(frozen=True, slots=True)
class PayPress:
    """An answer to /paid's "which one?": the person meant, and the amount (None: all that is open)."""

    player_id: int
    amount: int | None

    @property
    def data(self) -> str:
        return f"pw:{self.player_id}:{self.amount or 0}"

    @classmethod
    def parse(cls, data: object) -> PayPress | None:
        match = _whole(PAY, data)
        if match is None:
            return None
        return cls(int(match.group(1)), int(match.group(2)) or None)


VIEW = re.compile(r"v([st]):([1-9][0-9]{0,14})")


@dataclass(frozen=True, slots=True)
class ViewPress:
    """An answer to /score's or /stats' "which one?": the person meant."""

    player_id: int
    view: Literal["score", "stats"]

    @property
    def data(self) -> str:
        return f"v{'s' if self.view == 'score' else 't'}:{self.player_id}"

    @classmethod
    def parse(cls, data: object) -> ViewPress | None:
        match = _whole(VIEW, data)
        if match is None:
            return None
        return cls(int(match.group(2)), "score" if match.group(1) == "s" else "stats")


GUEST = re.compile(
    r"g(?::([1-9][0-9]{0,14}):([ESWN-]):(0|[1-9a-z][0-9a-z]{0,11}):(\S{1,16})|x:([1-9][0-9]{0,14}):(0|[1-9a-z][0-9a-z]{0,11}))"
)
DATA_BYTES = 64  # Telegram's bound on a button's callback data, in bytes


def _b36(number: int) -> str:
    digits = ""
    while number:
        number, digit = divmod(number, 36)
        digits = _B36[digit] + digits
    return digits or "0"


@dataclass(frozen=True, slots=True)
class GuestPress:
    """An answer to /join's or /sub's "no member is called that: a guest?": seat the guest `name` (at
    `seat`, a /sub; None: /join's next free seat), or, `name` None, seat no one. `asker` is the Telegram id
    of who typed the command (0: an anonymous admin): only they or an admin answer."""

    session_id: int
    asker: int
    name: str | None
    seat: Seat | None = None

    @property
    def data(self) -> str:
        if self.name is None:
            return f"gx:{self.session_id}:{_b36(self.asker)}"
        return f"g:{self.session_id}:{self.seat or '-'}:{_b36(self.asker)}:{self.name}"

    @property
    def fits(self) -> bool:
        """Whether the data is within Telegram's 64 bytes (a long name in 4-byte characters is not)."""
        return len(self.data.encode()) <= DATA_BYTES and self.parse(self.data) == self

    @classmethod
    def parse(cls, data: object) -> GuestPress | None:
        match = _whole(GUEST, data)
        if match is None:
            return None
        session, seat, asker, name, cancel_session, cancel_asker = match.groups()
        if name is None:
            return cls(int(cancel_session), int(cancel_asker, 36), None)
        return cls(int(session), int(asker, 36), name, _seat(seat))


SEAT_WHO = re.compile(r"gw:([1-9][0-9]{0,14}):([ESWN-]):(0|[1-9a-z][0-9a-z]{0,11}):([1-9][0-9]{0,14})")


@dataclass(frozen=True, slots=True)
class SeatWhoPress:
    """An answer to /join's or /sub's "which one?" when a name fits several people of the group: seat
    `player_id` (at `seat`, a /sub; None: /join's next free seat), for `asker` (as GuestPress) or an admin."""

    session_id: int
    asker: int
    player_id: int
    seat: Seat | None = None

    @property
    def data(self) -> str:
        return f"gw:{self.session_id}:{self.seat or '-'}:{_b36(self.asker)}:{self.player_id}"

    @classmethod
    def parse(cls, data: object) -> SeatWhoPress | None:
        match = _whole(SEAT_WHO, data)
        if match is None:
            return None
        session, seat, asker, player = match.groups()
        return cls(int(session), int(asker, 36), int(player), _seat(seat))
