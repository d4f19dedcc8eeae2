"""Browser test harness: owns the built site, its local HTTP servers and Chromium.

A session builds dist/ once (into a temporary folder, so a developer's own
dist/ and running server are left alone) with build.py's own build, and
serves it at the root and under /some/sub/path/, where anything outside the
prefix is 404, so an absolute URL anywhere in the site fails a test.
Chromium is Debian's /usr/bin/chromium where it exists, since Playwright
cannot download its own browser here; elsewhere pytest-playwright uses its
installed browser.

A test's `context` is a returning player's browser: a copy of a profile that
visited the site once in this session (its service worker installed, the
engine's snapshot saved, then its saved game and settings cleared), so the
engine restores from the snapshot instead of installing itself twice. A test
about the first visit, or about another origin, is marked `first_visit` and
gets a fresh incognito context instead.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, BrowserType, Page
from site_harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    RESULTS,
    SUB_PATH,
    Console,
    build,
    make_returning_profile,
)


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


@pytest.fixture(scope="session")
def returning_context(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    browser_context_args: dict[str, Any],
    site_url: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[], BrowserContext]]:
    """returning_context() opens a returning player's browser on the site (see the
    module's docstring): a Chromium of its own on a fresh copy of the session's
    visited profile, deleted when the context is closed."""
    args = {**browser_type_launch_args, **browser_context_args}
    profile = make_returning_profile(
        lambda folder: browser_type.launch_persistent_context(str(folder), **args),
        tmp_path_factory.mktemp("returning-profile") / "profile",
        site_url,
    )
    copies = tmp_path_factory.mktemp("returning-copies")
    numbers = itertools.count()
    opened: list[BrowserContext] = []

    def open_context() -> BrowserContext:
        folder = copies / str(next(numbers))
        shutil.copytree(profile, folder, symlinks=True)
        ctx = browser_type.launch_persistent_context(str(folder), **args)
        close = ctx.close

        def close_and_delete(*a: Any, **kw: Any) -> None:
            if ctx in opened:
                opened.remove(ctx)
                close(*a, **kw)
                shutil.rmtree(folder, ignore_errors=True)

        ctx.close = close_and_delete  # type: ignore[method-assign]
        opened.append(ctx)
        return ctx

    yield open_context
    for ctx in list(opened):
        ctx.close()


@pytest.fixture
def context(request: pytest.FixtureRequest, new_context: Callable[[], BrowserContext]) -> Any:
    """pytest-playwright's context for a first visit (`first_visit`), else a
    returning player's (`returning_context`)."""
    if request.node.get_closest_marker("first_visit"):
        yield new_context()
        return
    ctx = request.getfixturevalue("returning_context")()
    yield ctx
    ctx.close()


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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "first_visit: the test's context is a fresh profile (the first visit, or another "
        "origin), not a returning player's",
    )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests get one more try: on a busy two-core machine a page can
    still be laying out or a peer still answering when a check runs. A test
    that fails twice fails. Under pytest-xdist (`-n 2 --dist loadgroup`, as
    scripts/test.sh runs) they are one group, run in order by one worker,
    since each keeps Chromium busy and a module's table is shared; the other
    worker runs the engine's tests meanwhile."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.flaky(reruns=1))
            item.add_marker(pytest.mark.xdist_group("browser"))
