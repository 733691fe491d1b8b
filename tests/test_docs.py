"""The documents against the tree. docs/architecture.md names every package and module of `bot/` and
`scoring/`, by the convention stated at its top (a `### `pkg/`` heading per package, a `- `module.py`:`
bullet per module under it), and names nothing that does not exist; every path, every dotted name of
`bot` or `scoring` and every short dotted name of one of their modules or classes (`hands.insert_row`,
`Turn.start`) in README.md and docs/ exists; every relative link and its anchor resolve; the README's two
commands on a fresh machine are the ones CI and the image run."""

from __future__ import annotations

import functools
import importlib
import json
import re
import shlex
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
README = ROOT / "README.md"
DOCUMENTS = (README, *sorted((ROOT / "docs").glob("*.md")))
TOP_PACKAGES = ("bot", "scoring")
# Alembic revisions are data, not modules: the folder's heading stands for them.
DATA_FOLDERS = frozenset({"bot/ledger/storage/migrations/versions/"})

HEADING = re.compile(r"^### `(?P<path>[^`]+)`\s*$")
BULLET = re.compile(r"^- (?P<names>`[^`]+`(?:, `[^`]+`)*):")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"(?<![\w./<-])((?:bot|scoring|tests|bench|docs)/[\w./-]*)")
DOTTED = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.\w+)+)")
FILE_ENDINGS = frozenset(
    {"py", "md", "toml", "html", "css", "js", "json", "ini", "mako", "db", "csv", "png", "txt"}
)
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def layout() -> dict[str, list[str]]:
    """The Layout section of docs/architecture.md: each package heading's path and its bullets' names."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in section.splitlines():
        heading = HEADING.match(line)
        if heading:
            path = heading.group("path")
            assert path not in found, f"docs/architecture.md: the heading {path} appears twice"
            current = found[path] = []
            continue
        bullet = BULLET.match(line)
        if bullet:
            assert current is not None, f"docs/architecture.md: a bullet before the first heading: {line}"
            current.extend(CODE_SPAN.findall(bullet.group("names")))
    return found


def packages() -> list[str]:
    """Every package directory under bot/ and scoring/, as `path/` relative to the repository."""
    found = []
    for top in TOP_PACKAGES:
        for init in sorted((ROOT / top).rglob("__init__.py")):
            found.append(init.parent.relative_to(ROOT).as_posix() + "/")
    return found


def modules(package: str) -> list[str]:
    """The modules of one package (its own files, not its subpackages'), `__init__.py` aside."""
    if package in DATA_FOLDERS:
        return []
    return sorted(p.name for p in (ROOT / package).glob("*.py") if p.name != "__init__.py")


def test_every_package_has_its_heading() -> None:
    missing = [p for p in packages() if p not in layout()]
    assert not missing, f"docs/architecture.md has no heading for these packages: {missing}"


@pytest.mark.parametrize("package", packages())
def test_every_module_is_named_under_its_package(package: str) -> None:
    named = layout().get(package, [])
    missing = [m for m in modules(package) if m not in named]
    assert not missing, f"docs/architecture.md names none of these modules under `{package}`: {missing}"


def test_everything_the_layout_names_exists() -> None:
    gone = []
    for package, names in layout().items():
        if not (ROOT / package / "__init__.py").is_file():
            gone.append(package)
        for name in names:
            path = ROOT / package / name
            if not (path.is_dir() if name.endswith("/") else path.is_file()):
                gone.append(package + name)
    assert not gone, f"docs/architecture.md names what does not exist: {gone}"


def test_a_module_is_named_once() -> None:
    twice = [f"{p}{n}" for p, names in layout().items() for n in set(names) if names.count(n) > 1]
    assert not twice, f"docs/architecture.md names these twice: {twice}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_document_names_exists(document: Path) -> None:
    spans = CODE_SPAN.findall(document.read_text(encoding="utf-8"))
    paths = {path.rstrip(".") for span in spans for path in PATH.findall(span)}
    gone = sorted(p for p in paths if not (ROOT / p).exists())
    assert not gone, f"{document.name} names paths that do not exist: {gone}"


def resolves(dotted: str) -> bool:
    """Whether `bot.x.y` is a module, or a name in the longest module it starts with."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        return has_names(found, parts[cut:])
    return False


def has_names(found: object, names: list[str]) -> bool:
    """Whether `found.a.b…` exists for these names."""
    for name in names:
        if not hasattr(found, name):
            return False
        found = getattr(found, name)
    return True


@functools.cache
def index() -> tuple[dict[str, list[object]], dict[str, list[object]]]:
    """Every module of bot/ and scoring/ (the Alembic migrations aside) by its last name, and every class
    they define by its name: what a short dotted name in a document (`hands.insert_row`, `Turn.start`)
    may mean."""
    by_name: dict[str, list[object]] = defaultdict(list)
    classes: dict[str, list[object]] = defaultdict(list)
    for top in TOP_PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts.pop()
            module = importlib.import_module(".".join(parts))
            by_name[parts[-1]].append(module)
            for name, value in vars(module).items():
                if isinstance(value, type) and value.__module__ == module.__name__:
                    classes[name].append(value)
    return by_name, classes


def short_name_problem(dotted: str) -> bool:
    """Whether a short dotted name starts with a module or class of ours and none of those has the rest
    (False for names that are none of ours: `mahjong.db`, a host name)."""
    first, *rest = dotted.split(".")
    by_name, classes = index()
    candidates = classes.get(first, []) if first[:1].isupper() else by_name.get(first, [])
    return bool(candidates) and not any(has_names(c, rest) for c in candidates)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_dotted_name_a_document_gives_exists(document: Path) -> None:
    """`bot.x.y` and `scoring.x` must resolve; a shorter `hands.insert_row` or `Turn.start` must name
    something in a module or class of that name."""
    spans = CODE_SPAN.findall(document.read_text(encoding="utf-8"))
    names = {name for span in spans for name in DOTTED.findall(span)}
    names = {name for name in names if name.rsplit(".", 1)[1] not in FILE_ENDINGS}
    gone = sorted(
        name
        for name in names
        if (not resolves(name) if name.startswith(TOP_PACKAGES) else short_name_problem(name))
    )
    assert not gone, f"{document.name} names modules or names that do not exist: {gone}"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for match in LINK.finditer(document.read_text(encoding="utf-8")):
        target = match.group("target")
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        linked = (document.parent / file).resolve() if file else document
        if not linked.exists():
            broken.append(target)
        elif anchor:
            headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.MULTILINE)
            if anchor not in {slug(h) for h in headings}:
                broken.append(target)
    assert not broken, f"{document.name} links to what is not there: {broken}"


def readme_commands() -> tuple[list[str], list[str]]:
    """The README's two commands on a fresh machine, each as its steps (`&&`), the venv's bin/ dropped:
    (install and run, install and test)."""
    lines = [
        line.strip()
        for line in README.read_text(encoding="utf-8").splitlines()
        if line.startswith("    python3 -m venv .venv && ")
    ]
    assert len(lines) == 2, f"the README shows {len(lines)} fresh-machine commands, not two: {lines}"
    run, test = sorted(lines, key=lambda line: "pytest" in line)
    return [step.replace(".venv/bin/", "") for step in run.split(" && ")], [
        step.replace(".venv/bin/", "") for step in test.split(" && ")
    ]


def ci_commands() -> list[list[str]]:
    """The command lines of .ci/run as words (comments and `echo` lines aside)."""
    found = []
    for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "echo ")):
            try:
                found.append(shlex.split(line, comments=True))
            except ValueError:
                continue  # a line of a multi-line construct
    return found


def in_order(words: list[str], line: list[str]) -> bool:
    """Whether `words` occur in `line` in this order, other words (flags) allowed between them."""
    rest = iter(line)
    return all(word in rest for word in words)


def test_the_readme_test_command_is_what_ci_runs() -> None:
    """Each step of the README's test command is a command of .ci/run, with at most more flags (CI's venv
    lives in .ci/venv, and CI adds -q, coverage and the like)."""
    _run, test = readme_commands()
    commands = ci_commands()
    for step in test:
        words = [".ci/venv" if word == ".venv" else word for word in shlex.split(step)]
        assert any(in_order(words, line) for line in commands), f"`{step}` is not what .ci/run does"


def test_the_readme_run_command_installs_the_same_and_runs_what_the_image_runs() -> None:
    run, test = readme_commands()
    assert run[0] == test[0], "the two commands make their venv alike"
    assert shlex.split(run[1]) == [w.replace("[test]", "") for w in shlex.split(test[1])], (
        "the run command installs the project as the test command does, without the test extra"
    )
    cmd = [args for word, args in dockerfile_instructions() if word == "CMD"][-1]
    assert shlex.split(run[-1]) == json.loads(cmd), "the README runs the bot as the image's CMD does"


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile's lines that start one (continuations aside)."""
    found = []
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(" ")
        if word.isupper() and word.isalpha():
            found.append((word, rest.strip()))
    return found


def test_the_documented_inner_loop_selects_a_registered_marker() -> None:
    readme = README.read_text(encoding="utf-8")
    assert 'python -m pytest -m "not slow"' in readme
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^\s*"slow: ', pyproject, re.MULTILINE), "pyproject.toml registers no `slow` marker"
