"""The build: the scoring core (`scoring/`, typed under `mypy --strict`) is compiled with mypyc.

The same source runs compiled; there is no second implementation. `pip install .` (or `-e .`) builds
it; after editing a module of `scoring/` in an editable install, run the install again (the tests refuse
to run on a stale build). `__init__` (lazy exports) and `__main__` (the CLI) stay interpreted.
"""

from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup

COMPILED = sorted(
    str(path) for path in Path("scoring").glob("*.py") if path.name not in ("__init__.py", "__main__.py")
)

# Always build afresh (`force`): mypyc leaves unchanged C files alone, and the tests' stale-build check
# compares the sources with the time of the last build.
setup(
    ext_modules=mypycify(COMPILED, opt_level="3", group_name="scoring"),
    options={"build_ext": {"force": True}},
)
