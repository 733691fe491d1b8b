"""The Dockerfile, checked statically (no Docker engine here) on its parsed instructions, the runtime image
(last stage) in particular: base image, non-root user, no secrets, the project installed (not editable) with
no compiler, a volume for the SQLite data, a health check and an entry command that
exist in the project."""

from __future__ import annotations

import fnmatch
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE", re.IGNORECASE)
# A Telegram bot token looks like 123456789:AA... (35 characters after the colon)
TOKEN_VALUE = re.compile(r"\b\d{6,}:[A-Za-z0-9_-]{30,}\b")


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, comments dropped and continuation lines joined."""
    result: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        word, _, rest = pending.strip().partition(" ")
        result.append((word.upper(), rest.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return result


def stages() -> list[list[tuple[str, str]]]:
    """The build stages, each from its FROM on; the last one is the image that runs."""
    result: list[list[tuple[str, str]]] = []
    for word, args in instructions():
        if word == "FROM":
            result.append([])
        assert result, f"{word} before the first FROM"
        result[-1].append((word, args))
    return result


def runtime() -> list[tuple[str, str]]:
    """The instructions of the runtime image (the last stage)."""
    return stages()[-1]


def of(kind: str) -> list[str]:
    """The arguments of every `kind` instruction of the runtime image."""
    return [args for word, args in runtime() if word == kind]


def commands(run: str) -> list[list[str]]:
    """A shell-form RUN as its commands (argv lists), split at `&&`, `;` and `||`."""
    argv = shlex.split(run, posix=True)
    result: list[list[str]] = [[]]
    for token in argv:
        if token in ("&&", "||", ";"):
            result.append([])
        else:
            result[-1].append(token)
    return [c for c in result if c]


def apt_packages() -> set[str]:
    """Every package an `apt-get install` of the runtime image installs."""
    packages: set[str] = set()
    for run in of("RUN"):
        for argv in commands(run):
            if argv[:2] == ["apt-get", "install"]:
                packages |= {a for a in argv[2:] if not a.startswith("-")}
    return packages


def exec_form(args: str) -> list[str]:
    """The argv of an exec-form (JSON array) or shell-form command."""
    import json

    return json.loads(args) if args.startswith("[") else shlex.split(args)


def env_values() -> dict[str, str]:
    values: dict[str, str] = {}
    for args in of("ENV"):
        for token in shlex.split(args):
            name, sep, value = token.partition("=")
            if sep:
                values[name] = value
    return values


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


def module_exists(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def test_base_image_is_slim_python_311() -> None:
    [base] = of("FROM")
    image = base.split()[0]
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", image), image


def test_runs_as_a_non_root_user_before_the_command() -> None:
    order = [word for word, _ in runtime()]
    users = of("USER")
    assert users, "no USER instruction: the bot would run as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    assert max(i for i, w in enumerate(order) if w == "USER") < order.index("CMD")
    # the user is created in the image
    assert any("useradd" in run and user in run for run in of("RUN"))


def test_no_secrets_are_baked_in() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert not TOKEN_VALUE.search(text)
    for kind in ("ENV", "ARG", "LABEL"):
        for args in of(kind):
            for token in shlex.split(args):
                name = token.partition("=")[0]
                assert not SECRET_NAME.search(name), f"{kind} {name} would bake a secret into the image"
    for args in of("COPY") + of("ADD"):
        assert ".env" not in args.split()
    ignored = dockerignore()
    assert ".env" in ignored and ".git" in ignored


def test_entry_command_is_the_bot_module() -> None:
    [cmd] = of("CMD")
    argv = exec_form(cmd)
    assert argv == ["python", "-m", "bot"]
    assert (ROOT / "bot" / "__main__.py").is_file() and module_exists("bot.__main__")
    assert "def main" in (ROOT / "bot" / "__main__.py").read_text(encoding="utf-8")


def test_health_check_command_exists_and_has_sane_timing() -> None:
    [check] = of("HEALTHCHECK")
    options, _, command = check.partition("CMD")
    argv = exec_form(command.strip())
    assert argv[:3] == ["python", "-m", "bot.health"] and module_exists("bot.health")
    seconds = {m.group(1): int(m.group(2)) for m in re.finditer(r"--([a-z-]+)=(\d+)s", options)}
    assert seconds["timeout"] < seconds["interval"]
    from bot.health import HEARTBEAT_SECONDS, MAX_AGE_SECONDS

    # the heartbeat is written well within the age the check accepts
    assert HEARTBEAT_SECONDS * 2 <= MAX_AGE_SECONDS


def test_data_volume_is_where_the_settings_put_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    [volume] = of("VOLUME")
    volumes = exec_form(volume)
    env = env_values()
    assert env["DATA_DIR"] in volumes
    for name in ("DATABASE_URL", "TELEGRAM_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATA_DIR", env["DATA_DIR"])
    from bot.settings import Settings

    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url == f"sqlite:///{env['DATA_DIR']}/mahjong.db"
    [expose] = of("EXPOSE")
    assert int(expose.split("/")[0]) == settings.webhook_port


def test_cjk_font_is_installed_in_the_image() -> None:
    assert {"fonts-noto-cjk", "fontconfig"} <= apt_packages()
    # the build fails if matplotlib cannot find it: a `python -c` that asserts find_cjk_font()
    checks = [argv for run in of("RUN") for argv in commands(run) if argv[:2] == ["python", "-c"]]
    assert any("find_cjk_font()" in argv[2] and "assert" in argv[2] for argv in checks)


def test_copied_sources_exist_and_are_not_ignored() -> None:
    patterns = dockerignore()
    for args in of("COPY"):
        *sources, _dest = args.split()
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: not in the project"
            assert not any(fnmatch.fnmatch(source, p.rstrip("/")) for p in patterns), f"{source} is ignored"
    # everything the package needs at run time is copied
    copied = {s for args in of("COPY") for s in args.split()[:-1]}
    assert {"pyproject.toml", "scoring", "bot"} <= copied


COMPILERS = {"gcc", "g++", "clang", "cc", "build-essential", "python3-dev", "libpython3-dev", "libc6-dev"}


def install_step() -> tuple[str, list[list[str]]]:
    """The RUN of the runtime image that pip-installs the project, and its commands."""
    [run] = [run for run in of("RUN") if any(argv[:2] == ["pip", "install"] for argv in commands(run))]
    return run, commands(run)


def test_the_image_installs_the_project_not_an_editable_checkout() -> None:
    _run, argv = install_step()
    [install] = [a for a in argv if a[:2] == ["pip", "install"]]
    targets = [a for a in install[2:] if not a.startswith("-")]
    assert targets == ["."] and "-e" not in install and "--editable" not in install
    # the copied sources are removed in the same step, so /app cannot shadow the installed package
    removed = {path for a in argv if a[:2] == ["rm", "-rf"] for path in a[2:]}
    copied = {s for args in of("COPY") for s in args.split()[:-1]}
    assert {"scoring", "bot"} <= removed and {"scoring", "bot"} <= copied
    assert argv.index(install) < min(i for i, a in enumerate(argv) if a[:2] == ["rm", "-rf"])


def test_the_runtime_image_is_pure_python_without_a_compiler() -> None:
    """The build is pure Python and needs no compiler; the image has none."""
    assert not apt_packages() & COMPILERS


def test_installed_package_carries_its_data_files() -> None:
    """`pip install .` in the image must bring the catalogs and the migrations, not only .py files:
    every folder of Python code is a package (setuptools finds it), and package-data covers the rest."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    data_patterns = package_data["*"]

    def by_package(f: Path) -> bool:  # a package's own patterns, relative to its folder (static/*.js)
        for package, patterns in package_data.items():
            base = ROOT.joinpath(*package.split("."))
            if package != "*" and f.is_relative_to(base):
                return any(fnmatch.fnmatch(str(f.relative_to(base)), p) for p in patterns)
        return False

    for top in ("bot", "scoring"):
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            if folder.name == "__pycache__":
                continue
            files = [f for f in folder.iterdir() if f.is_file() and f.suffix != ".pyc"]
            if any(f.suffix == ".py" for f in files):
                assert (folder / "__init__.py").is_file(), f"{folder} has code but no __init__.py"
            for f in files:
                if f.suffix != ".py":
                    installed = any(fnmatch.fnmatch(f.name, p) for p in data_patterns) or by_package(f)
                    assert installed, f"{f} would not be installed"
    assert (ROOT / "bot" / "i18n" / "zh-Hans.toml").is_file()
