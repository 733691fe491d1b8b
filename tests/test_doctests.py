"""The runnable examples in the docstrings of the scoring core and the bot stay true.

The docstrings are read from the source with `ast` and run over the imported module's names (the
migrations' env.py runs only under Alembic and is left out).
"""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import bot
import scoring

ROOT = Path(scoring.__file__).parent.parent
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for package in (scoring, bot)
    for path in Path(package.__file__).parent.rglob("*.py")
    if path.stem != "__main__" and "migrations" not in path.parts
)


def examples(name: str) -> list[doctest.DocTest]:
    """Every docstring of module `name` with examples, as DocTests over the imported module's names."""
    module = importlib.import_module(name.removesuffix(".__init__"))
    path = ROOT / (name.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    tests = []
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    for node in nodes:
        doc = ast.get_docstring(node, clean=False)
        if doc and ">>>" in doc:
            where = getattr(node, "name", name)
            lineno = getattr(node, "lineno", 0)
            tests.append(parser.get_doctest(doc, dict(vars(module)), f"{name}.{where}", str(path), lineno))
    return tests


@pytest.mark.slow
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


def test_the_examples_are_found() -> None:
    assert sum(len(examples(name)) for name in MODULES if name.startswith("scoring.")) >= 38
    for name in ("tiles", "hand", "decompose", "waits", "request", "rules", "settle"):
        assert examples(f"scoring.{name}"), name
    for name in ("text", "ledger.options", "ledger.money.settling", "render.hands"):
        assert examples(f"bot.{name}"), name
