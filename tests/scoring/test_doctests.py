"""The runnable examples in the scoring core's docstrings stay true.

The docstrings are read from the source with `ast` and run over the imported module's names.
"""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import scoring

SOURCE = Path(scoring.__file__).parent
MODULES = sorted(path.stem for path in SOURCE.glob("*.py") if path.stem not in ("__init__", "__main__"))


def examples(name: str) -> list[doctest.DocTest]:
    """Every docstring of `scoring.<name>` with examples, as DocTests over the imported module's names."""
    module = importlib.import_module(f"scoring.{name}")
    path = SOURCE / f"{name}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    tests = []
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    for node in nodes:
        doc = ast.get_docstring(node, clean=False)
        if doc and ">>>" in doc:
            where = getattr(node, "name", name)
            lineno = getattr(node, "lineno", 0)
            tests.append(
                parser.get_doctest(doc, dict(vars(module)), f"scoring.{name}.{where}", str(path), lineno)
            )
    return tests


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


def test_the_examples_are_found() -> None:
    assert sum(len(examples(name)) for name in MODULES) >= 38
    for name in ("tiles", "hand", "decompose", "waits", "request", "rules", "settle"):
        assert examples(name), name
