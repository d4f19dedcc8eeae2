"""What every build step shares: where things are, how a step fails, running a tool.

This module owns the folders a build reads and writes (the sources, dist/ and the
download cache .cache/, git-ignored), :class:`BuildError` — a step that cannot go
on, saying what to install or fix — :func:`run`, which turns a tool's failure
into one, the check that pip is there, and a file's SHA-256.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"


class BuildError(Exception):
    """A build step that cannot go on; the message says what to install or fix."""


def run(cmd: list[str], what: str, hint: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a tool; on failure raise BuildError naming the step and the fix."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    except FileNotFoundError as e:
        raise BuildError(f"{what}: {cmd[0]} is not installed. {hint}") from e
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise BuildError(f"{what} failed ({' '.join(cmd)}):\n{tail}\n{hint}")
    return done  # type: ignore[no-any-return]


def check_pip() -> None:
    """Raise BuildError, saying how to install it, when this Python has no pip."""
    done = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True)
    if done.returncode != 0:
        raise BuildError(
            f"pip is missing for {sys.executable}. Install it: "
            f"`{sys.executable} -m ensurepip` or `apt-get install python3-pip`."
        )


def sha256_hex(path: Path) -> str:
    """The file's SHA-256, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
