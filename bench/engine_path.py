"""Which engine the bot benches import: the source, or a compiled copy of its search.

The strong level's work is fixed by sample and node counts, so its
decisions do not depend on how fast the engine runs. With ``--compiled`` on
a bench's command line, the bench imports a copy of ``engine/thousand`` in
which mypyc has compiled the perfect-information solver and the card sets
to C: the same decisions, about three times sooner, which makes hours of
whole matches fit a session. The copy is built once per code digest
under ``.cache/compiled-engine/`` (it needs mypy and a C compiler) and is never
shipped: the wheel stays pure Python. Importing this module puts the
chosen engine first on ``sys.path``, so a bench imports it before ``thousand``.
It also words the options the bot benches share (``--compiled``, ``--budget-s``).
"""

from __future__ import annotations

import ast
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "engine"
COMPILED = ("thousand/bots/solver.py", "thousand/cards.py")
"""The modules mypyc compiles: the search's inner loop and what it calls most."""


def source_digest() -> str:
    """A digest of the engine's code: it names the compiled copy, and tags the results a
    bench keeps so that runs of different engines are not merged.

    A Python module counts by its syntax tree without docstrings or comments, so a
    measurement written into a docstring leaves the digest, and the results kept under
    it, as they were; a data file counts byte for byte.
    """
    h = hashlib.sha256()
    for path in sorted((SOURCE / "thousand").rglob("*")):
        if path.suffix in (".py", ".json"):
            h.update(str(path.relative_to(SOURCE)).encode())
            h.update(_code(path) if path.suffix == ".py" else path.read_bytes())
    return h.hexdigest()[:16]


def _code(path: Path) -> bytes:
    """A module's code with its docstrings and comments left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            kept = [s for s in body if not _is_docstring(s)]
            node.body = kept or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.unparse(tree).encode()


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def compiled_engine() -> Path:
    """The folder of the compiled copy of the engine, built first if it is not there."""
    tag = f"{sys.implementation.cache_tag}-{sys.platform}"
    out = ROOT / ".cache" / "compiled-engine" / f"{source_digest()}-{tag}"
    if (out / "done").exists():
        return out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(
        SOURCE / "thousand", out / "thousand", ignore=shutil.ignore_patterns("__pycache__")
    )
    print(f"compiling the engine's search with mypyc into {out} ...", file=sys.stderr)
    subprocess.run(
        [sys.executable, "-m", "mypyc", *COMPILED],
        cwd=out,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    shutil.rmtree(out / "build", ignore_errors=True)
    (out / "done").write_text("")
    return out


ENGINE = compiled_engine() if "--compiled" in sys.argv else SOURCE
"""The folder the benches import ``thousand`` from, as the command line asks."""
sys.path.insert(0, str(ENGINE))

COMPILED_HELP = "import a copy of the engine with its search compiled by mypyc: same decisions"
"""The ``--compiled`` option's help, the same in every bench that takes it."""

BUDGET_S_HELP = (
    "the strong level's wall-clock safety net per decision (seconds); raise it on a loaded "
    "machine so that the node counts, not the clock, end the searches"
)
"""The ``--budget-s`` option's help, the same in every bench that takes it."""
