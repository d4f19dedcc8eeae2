"""Browser test harness: owns the built site, its local HTTP servers and Chromium.

A session builds dist/ once (into a temporary folder, so a developer's own
dist/ and running server are left alone) with build.py's own build, and
serves it at the root and under /some/sub/path/, where anything outside the
prefix is 404, so an absolute URL anywhere in the site fails a test.
Chromium is Debian's /usr/bin/chromium where it exists, since Playwright
cannot download its own browser here; elsewhere pytest-playwright uses its
installed browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page
from site_harness import CHROMIUM, CHROMIUM_ARGS, RESULTS, SUB_PATH, Console, build


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = {**browser_type_launch_args}
    args["args"] = [*args.get("args", []), *CHROMIUM_ARGS]
    if CHROMIUM.exists() and "executable_path" not in args:
        args["executable_path"] = str(CHROMIUM)
    return args


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per session by build.py."""
    target = tmp_path_factory.mktemp("site") / "dist"
    try:
        build.build(target, quiet=True)
    except build.BuildError as e:
        pytest.fail(f"build.py failed: {e}", pytrace=False)
    return target


@pytest.fixture(scope="session")
def site_url(dist: Path) -> Iterator[str]:
    """The site served at the root of a local HTTP server."""
    server, url = build.serve_in_thread(dist, "/")
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def sub_path_url(dist: Path) -> Iterator[str]:
    """The site served only under SUB_PATH, as on GitHub Pages' /repo/."""
    server, url = build.serve_in_thread(dist, SUB_PATH)
    yield url
    server.shutdown()


@pytest.fixture
def console(context: BrowserContext, page: Page) -> Console:
    """Collects console output; `console.errors` must stay empty in a healthy page."""
    log = Console()
    context.on("console", log.on_console)
    context.on("weberror", lambda e: log.on_error(e.error))
    page.on("pageerror", log.on_error)
    page.on("crash", lambda _: log.on_error("the page crashed"))
    return log


@pytest.fixture
def shot(page: Page, request: pytest.FixtureRequest) -> Any:
    """shot("name") saves a screenshot to test-results/screenshots/<test>-<name>.png."""
    RESULTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = RESULTS / f"{request.node.name}-{name}.png"
        # The window as the player sees it: a full-page shot resizes the window,
        # and the page would be measured at the wrong size afterwards.
        page.screenshot(path=str(path))
        return path

    return take


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests get one more try: on a busy two-core machine a page can
    still be laying out or a peer still answering when a check runs. A test
    that fails twice fails."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.flaky(reruns=1))
