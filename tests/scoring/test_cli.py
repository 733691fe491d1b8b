"""`python -m scoring` as a user runs it: JSON in/out with exit codes 0 and 2, and the human forms."""

import json
import subprocess
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def run(*args: str, stdin: str = "") -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in proc.stderr
    return proc.returncode, proc.stdout


def test_score_json_worked_example() -> None:
    hand = {"concealed": "11223355778899p", "winning_tile": "9p", "flowers": ["中", "发", "春", "梅", "百搭"]}
    request = {"rules": "suzhou", "stake": 5, "wins": [{"winner": "S", "type": "self_draw", "hand": hand}]}
    code, out = run("score", "--json", stdin=json.dumps(request, ensure_ascii=False))
    assert code == 0
    response: dict[str, Any] = json.loads(out)
    assert response["payments"] == {"E": -200, "S": 600, "W": -200, "N": -200}
    assert response["wins"][0]["hua"] == 40 and response["next_dealer"] == "S"


def test_score_json_not_allowed_is_still_exit_0() -> None:
    request = {
        "rules": "suzhou",
        "discarder": "W",
        "wins": [{"winner": "S", "type": "discard", "hand": "[555p] 123m456m789m5s+5s 中"}],
    }
    code, out = run("score", "--json", stdin=json.dumps(request, ensure_ascii=False))
    assert code == 0 and json.loads(out)["wins"][0]["allowed"] is False


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ('{"rules": "suzhou", "options": {"nope": 1}, "event": "draw"}', "nope"),
        ('{"rules": "suzhou", "dealer": "X", "event": "draw"}', "dealer"),
        ('{"wins": [{"winner": "S", "type": "self_draw", "hand": "123m456m789m5s+5s"}]}', "wrong tile count"),
        ('{"wins": [{"winner": "S", "type": "self_draw", "hand": "12345m"}]}', "wins[0].hand"),
        ("not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_score_json_malformed_exits_2(stdin: str, needle: str) -> None:
    code, out = run("score", "--json", stdin=stdin)
    assert code == 2
    assert needle in json.loads(out)["error"]


def test_human_score_in_chinese() -> None:
    code, out = run("score", "11223355778899p 中发春梅百搭", "--self-draw", "--winner", "S", "--stake", "5")
    assert code == 0
    assert "清一色 10" in out and "七对 15" in out and "硬花 10" in out and "合计 40 花" in out
    assert "南(S) +600" in out


def test_human_score_in_english_with_options() -> None:
    code, out = run(
        "score",
        "[555p] 123m456m789m5s+5s 中发白",
        "--winner",
        "S",
        "--discarder",
        "W",
        "--option",
        "threshold=2/3",
        "--lang",
        "en",
    )
    assert code == 0 and "Base 5" in out and "W -8" in out


def test_human_score_not_allowed() -> None:
    code, out = run("score", "[555p] 123m456m789m5s+5s 中", "--winner", "S", "--discarder", "W")
    assert code == 0 and "不能胡" in out and "需要 4" in out


def test_human_quick_entry_anhui() -> None:
    code, out = run("score", "--rules", "宿州", "--hard", "3", "--winner", "S", "--discarder", "E", "--json")
    assert code == 0 and json.loads(out)["payments"]["E"] == -8


@pytest.mark.parametrize(
    ("lang", "own", "stake"), [("zh", "花牌 1", "底分 1"), ("en", "Flower tiles 1", "base 1")]
)
def test_human_score_of_a_suzhou_anhui_hand_in_its_own_words(lang: str, own: str, stake: str) -> None:
    """宿州's items by its names (花牌, not 苏州's 硬花), no 杠开 0 (it adds nothing there), its 底分, no
    滴零 in the next hand's line."""
    code, out = run(
        "score", "--rules", "宿州", "--self-draw", "--after-kong", "--lang", lang, "(7777m)456m789p12399s 中"
    )
    assert code == 0 and own in out and stake in out, out
    assert not any(word in out for word in ("硬花", "软花", "杠开", "Hard flowers", "diling", "滴零")), out


def test_human_bad_hand_exits_2() -> None:
    code, out = run("score", "123m0p", "--self-draw")
    assert code == 2 and "0p" in json.loads(out)["error"]


def test_ting() -> None:
    code, out = run("ting", "1112345678999m")
    assert code == 0 and "听 9 张" in out
    code, out = run("ting", "1112345678999m", "--json")
    assert [w["tile"] for w in json.loads(out)["waits"]] == [f"{r}m" for r in range(1, 10)]


def test_the_new_options_through_the_cli() -> None:
    # `python -m scoring score … --option key=value` takes the issue-19 options; a bad value exits 2.
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "scoring", "score", *args], capture_output=True, text=True, check=False
        )

    out = run(
        "1111m3333p5566s1z+1z 春",
        "--self-draw",
        "--winner",
        "S",
        "--option",
        "extended=true",
        "--option",
        "haoqidui=4/8",
    )
    assert out.returncode == 0 and "双豪七对 30\n  双豪七对 ×4" in out.stdout and "南(S) +444" in out.stdout
    bad = run("123m456m789m111m2m+2m", "--self-draw", "--option", "qingyise=x3")
    assert bad.returncode == 2 and "options.qingyise" in bad.stdout + bad.stderr
