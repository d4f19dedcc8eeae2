"""The engine's wheel, built from a clean copy of the sources.

This module owns building the ``thousand`` wheel that micropip installs in the
browser, byte-identical between builds of the same source.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .steps import ROOT, BuildError, check_pip, run

# A fixed timestamp inside the wheel makes it byte-identical between builds of
# the same source, so a rebuild does not change the site's version and make
# every returning player download the whole site again.
WHEEL_EPOCH = "315532800"  # 1980-01-01, the earliest a zip file can say


def build_engine_wheel(out: Path) -> Path:
    """Build the thousand wheel from a clean copy of the sources.

    A copy keeps build/ and egg-info out of the work tree and cannot pick up
    stale modules that setuptools leaves in an in-tree build/lib.
    """
    check_pip()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        shutil.copy2(ROOT / "pyproject.toml", src)
        if (ROOT / "README.md").exists():
            shutil.copy2(ROOT / "README.md", src)
        shutil.copytree(
            ROOT / "engine",
            src / "engine",
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"),
        )
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(out),
            str(src),
        ]
        if can_build_without_isolation():
            cmd.insert(4, "--no-build-isolation")
        run(
            cmd,
            "building the thousand wheel",
            "Install the build backend: `pip install 'setuptools>=70.1'` (or `pip install wheel`).",
            env={**os.environ, "SOURCE_DATE_EPOCH": WHEEL_EPOCH},
        )
    found = list(out.glob("thousand-*-py3-none-any.whl"))
    if len(found) != 1:
        raise BuildError(f"expected one pure-Python thousand wheel in {out}, found {found}")
    return found[0]


def can_build_without_isolation() -> bool:
    """Whether the installed setuptools can make a wheel by itself (no PyPI trip)."""
    probe = (
        "import setuptools, importlib.util as u, sys\n"
        "v = tuple(int(p) for p in setuptools.__version__.split('.')[:2])\n"
        "sys.exit(0 if v >= (70, 1) or u.find_spec('wheel') else 1)\n"
    )
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0
