"""The build: pure Python by default; `SCORING_USE_MYPYC=1` compiles the scoring core with mypyc.

The compiled build is the same typed source (`mypy --strict` checks it); there is no second implementation.
`__init__` (lazy exports and the stale-build check) and `__main__` (the CLI) always stay interpreted. The
compiled code of all modules is one library, `scoring__mypyc`; after editing `scoring/` in a compiled
editable install, build again (or `make clean`: delete the `.so` files) or `import scoring` refuses to run.
"""

from pathlib import Path

from backend import use_mypyc  # build_backend/backend.py: the one reading of SCORING_USE_MYPYC
from setuptools import setup

if use_mypyc():
    from mypyc.build import mypycify

    compiled = sorted(
        str(path) for path in Path("scoring").glob("*.py") if path.name not in ("__init__.py", "__main__.py")
    )
    # `force`: mypyc leaves unchanged C files alone, and setuptools would then skip the link, leaving the
    # library older than its sources (which `scoring/__init__.py` refuses).
    setup(ext_modules=mypycify(compiled, opt_level="3", group_name="scoring"),
          options={"build_ext": {"force": True}})
else:
    setup()
