"""Multiplayer test harness: owns the local signalling relay and a table of browsers.

A relay is npm bittorrent-tracker's WebSocket tracker or a Nostr relay (npm
@nostr-relay/core), both run by net_relay.mjs, installed into .cache/ by
scripts/test.sh (or here, when missing) and bound to this machine's loopback
address. Every browser context gets the
relay and an empty ICE server list through localStorage before the page
loads, so WebRTC uses host candidates on this machine only. `Table` opens
the host and the guests through the page's own UI and plays through it.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from site_harness import RESULTS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "web"))

import mental_poker as mp  # noqa: E402
from private_deal import layout  # noqa: E402
from private_table import PrivatePeer  # noqa: E402
from thousand import Rules  # noqa: E402
from thousand.cards import card_text  # noqa: E402

# Each kind of relay: its folder under .cache/, its packages, and a file that shows it installed.
RELAYS = {
    "torrent": ("net-relay", ["bittorrent-tracker@11.2.3"], "bittorrent-tracker/server.js"),
    "nostr": (
        "net-relay-nostr",
        ["@nostr-relay/core@0.0.40", "@nostr-relay/common@0.0.40", "ws@8.23.0"],
        "@nostr-relay/core/dist/index.js",
    ),
}
SEATED = "() => document.querySelector('#net-lobby[data-seated=true]') ? performance.now() : false"
CARD = re.compile(r"\b[9TJQKA][SCDH]\b")


def install_relay(kind: str = "torrent") -> Path:
    folder, packages, marker = RELAYS[kind]
    target = ROOT / ".cache" / folder
    modules = target / "node_modules"
    if not (modules / marker).exists():
        if shutil.which("npm") is None:
            raise RuntimeError("npm is needed for the test relay (apt-get install nodejs npm)")
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error",
             "--prefix", str(target), *packages],
            check=True,
        )  # fmt: skip
    return modules


RUNNING: dict[str, subprocess.Popen[str]] = {}


def kill_relay(url: str) -> None:
    """Stop a running relay at once, as a relay that goes down would (no goodbye to anyone)."""
    proc = RUNNING[url]
    proc.kill()
    proc.wait(timeout=5)


@contextmanager
def relay(kind: str = "torrent") -> Iterator[str]:
    """A running relay of this kind on 127.0.0.1; yields its ws:// URL and stops it after.

    A Nostr relay's URL comes as the page writes it, `nostr:ws://…`."""
    modules = install_relay(kind)
    url = ""
    proc = subprocess.Popen(
        ["node", str(Path(__file__).with_name("net_relay.mjs")), kind, str(modules), "127.0.0.1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if not line.startswith("listening "):
            raise RuntimeError(f"the relay did not start: {line!r}")
        url = line.split()[1]
        url = url if kind == "torrent" else f"{kind}:{url}"
        RUNNING[url] = proc
        yield url
    finally:
        RUNNING.pop(url, None)
        if proc.stdin:
            with contextlib.suppress(BrokenPipeError):
                proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def init_script(relay_url: str | list[str], config: dict[str, Any] | None = None) -> str:
    relays = [relay_url] if isinstance(relay_url, str) else relay_url
    settings = {"relays": relays, "iceServers": []}
    return (
        f"localStorage.setItem('thousand:net-settings', {json.dumps(json.dumps(settings))});\n"
        f"globalThis.thousandNetConfig = {json.dumps({'record': True, **(config or {})})};"
    )


# --- what a peer received, and what its own keys open ----------------------------------------


def host_body(text: str) -> str:
    """The JSON body of a host's signed envelope (``<signature>.<body>``), or ``text``
    itself when it is no envelope (a guest's plain JSON)."""
    sig, dot, body = text.partition(".")
    return body if dot and body.startswith("{") and not sig.startswith("{") else text


def received(page: Page) -> list[dict[str, Any]]:
    """Every message this page received, as sent: a guest's plain texts (at the host)
    and the bodies of the host's signed envelopes (at a guest). A guest's own public
    message, which comes back as its number and digest (``own``), is shown as the
    ``pub`` of the message the guest sent and matched with it."""
    out = []
    mine = page.evaluate("thousand.session.ownEchoes ?? {}")
    for m in page.evaluate("thousand.session.transport.recorded ?? []"):
        try:
            wire = json.loads(host_body(m["text"]))
        except ValueError:
            continue
        if isinstance(wire, dict) and wire.get("t") == "own" and str(wire.get("i")) in mine:
            wire = {"t": "pub", "i": wire["i"], "m": mine[str(wire["i"])]}
        if isinstance(wire, dict):
            out.append(wire)
    return out


def public_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The private deal's messages among them (a guest gets them inside ``pub``)."""
    out = []
    for m in messages:
        inner = m.get("m") if m.get("t") == "pub" else m
        if isinstance(inner, dict) and inner.get("t") in (
            "shuffle", "unlock", "act", "pass", "ready", "reveal", "dispute"
        ):  # fmt: skip
            out.append(inner)
    return out


def master_of(page: Page) -> str:
    """The page's own master secret, from its own storage."""
    return str(
        page.evaluate(
            """() => { // before the start there is no session yet: this context holds one table
               const key = Object.keys(localStorage)
                 .find((k) => /^thousand:net:(host|guest):/.test(k));
               return JSON.parse(localStorage.getItem(key)).master; }"""
        )
    )


def seat_secret(master: str, seat: int, deal: int) -> mp.SeatSecret:
    return PrivatePeer.secret(_Derive(master), seat, deal)  # type: ignore[arg-type]


class _Derive:
    """Just enough of a peer for :meth:`PrivatePeer.secret`."""

    def __init__(self, master: str) -> None:
        self.master, self.deal_no = master, 0


def values_of(messages: list[dict[str, Any]], deal: int) -> list[mp.Point]:
    """Every locked value about a card in the deal's messages (unlocks, passes)."""
    values: list[mp.Point] = []
    for m in messages:
        if m.get("deal") != deal:
            continue
        if m["t"] == "unlock":
            values += [mp.from_wire(x) for x in m["values"].values()]
        elif m["t"] == "shuffle":
            values += [mp.from_wire(x) for x in m["deck"]]
        elif m["t"] == "pass" or (m["t"] == "act" and m.get("y")):
            values.append(mp.from_wire(m.get("value") or m["y"]))
    return values


def opened_by(master: str, seat: int, messages: list[dict[str, Any]], deal: int = 0) -> set[str]:
    """The cards this seat's own keys (its deal key and pass keys) open from what it received."""
    secret = seat_secret(master, seat, deal)
    # 1: a value with no lock left at all is read by anybody.
    keys = [1, secret.key.unlock] + [secret.pass_key(k).unlock for k in range(8)]
    out = set()
    for x in values_of(messages, deal):
        for d in keys:
            card = mp.decode(mp.unlock(mp.Key(d), [x])[0])
            if card is not None:
                out.add(card_text(card))
    return out


def true_deal(
    messages: list[dict[str, Any]], players: int, dealer: int, deal: int = 0
) -> dict[str, Any]:
    """The deal once every key is revealed: each seat's hand, the talon, what was passed to whom."""
    ms = [m for m in messages if m.get("deal") == deal]
    final = [mp.from_wire(x) for x in [m for m in ms if m["t"] == "shuffle"][-1]["deck"]]
    keys = {m["seat"]: mp.SeatSecret(m["secret"]).key for m in ms if m["t"] == "reveal"}
    cards = []
    for x in mp.unlock(mp.joint(keys[s] for s in range(players)), final):
        card = mp.decode(x)
        cards.append(card_text(card) if card is not None else "--")
    places = layout(players, dealer)
    passed: dict[int, set[str]] = {s: set() for s in range(players)}
    for m in ms:
        words = m["action"].split() if m["t"] == "act" else []
        if words[:1] == ["give"] and m["position"] is not None:
            passed[int(words[2])].add(cards[m["position"]])
    return {
        "hands": [{cards[j] for j in places["hands"][s]} for s in range(players)],
        "talon": {cards[j] for j in places["talon"]},
        "passed": passed,
        "positions": {c: j for j, c in enumerate(cards)},
    }


def position_of(
    master: str, seat: int, messages: list[dict[str, Any]], card: str, deal: int
) -> int:
    """Where this seat's own card lies in the deal, found with its own key only."""
    secret = seat_secret(master, seat, deal)
    unlocks = [m for m in messages if m.get("deal") == deal and m["t"] == "unlock"]
    for m in unlocks:
        for j, x in m["values"].items():
            c = mp.decode(mp.unlock(secret.key, [mp.from_wire(x)])[0])
            if c is not None and card_text(c) == card:
                return int(j)
    raise LookupError(f"seat {seat} cannot find {card}")


RULES = Rules.preset("classic")


class Table:
    """A host and guests, each in its own browser context, seated through the UI.

    Each context comes from ``new_context`` (the conftest's returning players'
    browsers), or is a fresh context of ``browser``."""

    def __init__(
        self,
        browser: Browser,
        site_url: str,
        relay_url: str | list[str],
        guests: int = 2,
        config: dict[str, Any] | None = None,
        new_context: Callable[[], BrowserContext] | None = None,
    ) -> None:
        self.browser = browser
        self.site_url = site_url
        self.relay_url = relay_url
        self.seconds: list[float] = []  # join_together's figures
        self.contexts: list[BrowserContext] = []
        self.pages: list[Page] = []
        self.errors: list[str] = []
        for i in range(guests + 1):
            ctx = (new_context or browser.new_context)()
            ctx.add_init_script(init_script(relay_url, config))
            page = ctx.new_page()
            page.on("pageerror", lambda e, i=i: self.errors.append(f"{i}: {e}"))
            page.on(
                "console",
                lambda m, i=i: self.errors.append(f"{i}: {m.text}") if m.type == "error" else None,
            )
            self.contexts.append(ctx)
            self.pages.append(page)
        self.link = ""

    @property
    def host(self) -> Page:
        return self.pages[0]

    @property
    def guests(self) -> list[Page]:
        return self.pages[1:]

    def open_host(self) -> str:
        page = self.host
        page.goto(self.site_url + "?delay=0")
        page.click("dialog[data-dialog=welcome] button[data-value=friends]", timeout=90_000)
        page.wait_for_selector("#net-link", timeout=30_000)
        self.link = page.input_value("#net-link")
        return self.link

    def guest_url(self, lang: str | None = None) -> str:
        return self.link.replace("#", f"?delay=0{f'&lang={lang}' if lang else ''}#", 1)

    def join(self, page: Page, lang: str | None = None) -> float:
        """Open the link in page; seconds until the lobby shows it seated."""
        start = time.monotonic()
        page.goto(self.guest_url(lang))
        page.wait_for_selector("#net-lobby[data-seated=true]", timeout=60_000)
        return time.monotonic() - start

    def join_together(self, pages: list[Page], urls: list[str] | None = None) -> list[float]:
        """Open the link (or each page's url) in every page at once; each page's seconds
        from navigation start to seated."""
        for page, url in zip(pages, urls or [self.guest_url()] * len(pages), strict=True):
            page.goto(url, wait_until="commit")
        return [
            page.wait_for_function(SEATED, timeout=60_000, polling=50).json_value() / 1000
            for page in pages
        ]

    @staticmethod
    def mark(page: Page, name: str) -> float | None:
        """Seconds from navigation start to the page's first performance mark `name`, if any."""
        at = page.evaluate("n => performance.getEntriesByName(n)[0]?.startTime ?? null", name)
        return None if at is None else float(at) / 1000

    @staticmethod
    def rooms_joined(page: Page) -> float:
        """Seconds from navigation start until the page joined the table's rooms."""
        return float(
            page.evaluate("performance.getEntriesByName('thousand:net-rooms')[0].startTime / 1000")
        )

    def start(self) -> None:
        self.host.click("#net-start:not([disabled])", timeout=30_000)
        for page in self.pages:
            page.wait_for_function("globalThis.thousand?.view != null", timeout=90_000)

    # --- playing through the UI -----------------------------------------------------------

    def view(self, page: Page) -> Any:
        return page.evaluate("globalThis.thousand.view")

    def close_dialogs(self, page: Page) -> None:
        for name in ("summary", "declare"):
            button = page.locator(f"dialog[data-dialog={name}] .dialog-buttons button").first
            if button.count():
                # The dialog may close by itself in between (a new view replaces it).
                with contextlib.suppress(PlaywrightTimeout):
                    button.click(timeout=2_000)

    def click(self, page: Page, selector: str, tries: int = 15) -> None:
        """Click through the UI; a hand's summary that opens meanwhile is closed first."""
        for _ in range(tries - 1):
            self.close_dialogs(page)
            try:
                page.click(selector, timeout=2_000)
                return
            except PlaywrightTimeout:
                continue
        self.close_dialogs(page)
        page.click(selector, timeout=2_000)

    def act_once(self, page: Page) -> bool:
        """If it is this page's turn, make one legal move through the UI; True if it did."""
        self.close_dialogs(page)
        info = page.evaluate("({seat: thousand.session.seat, view: JSON.stringify(thousand.view)})")
        # The page's own JSON text, so that the wait below sees when the view has changed:
        # read again too early, the view a move was made from would make it a second time.
        before, seat = info["view"], info["seat"]
        view = json.loads(before)
        if not view or view["turn"] != seat or not view["legal"]:
            return False
        legal: list[str] = view["legal"]
        phase = view["phase"]
        if phase == "talon":
            cards: list[str] = []
            for a in legal:
                if a.startswith("give ") or a.startswith("discard "):
                    card = a.split()[1]
                    if card not in cards:
                        cards.append(card)
            targets = {a.split()[2] for a in legal if a.startswith("give ")}
            for k, card in enumerate(cards[: len(targets) or 1]):
                # A plain click event: the hand's drag-to-slot handling reads
                # pointer events, which a synthetic click does not need.
                page.locator(f'#hand [data-card="{card}"]').dispatch_event("click")
                page.wait_for_function(
                    "n => document.querySelectorAll('.give-slot.filled').length >= n", arg=k + 1
                )
            self.click(page, '[data-action="confirm-give"]')
            # The page sends one give per card; wait for all of them.
            page.wait_for_function("thousand.view.phase !== 'talon'", timeout=30_000)
            return True
        elif phase == "play":
            plays = [a for a in legal if a.startswith("play ") and not a.endswith(" declare")]
            card = (plays or legal)[0].split()[1]
            self.click(page, f'#hand [data-card="{card}"]')
            self.close_dialogs(page)
        else:
            for choice in ("pass", "decline", "look"):
                if choice in legal:
                    self.click(page, f'#actions [data-action="{choice}"]')
                    break
            else:
                self.click(
                    page, "#actions [data-action^='contract '], #actions [data-action^='bid ']"
                )
        self.moved_on(page, before)
        return True

    def moved_on(self, page: Page, before: str, timeout_s: float = 30) -> None:
        """Wait until ``page``'s view is no longer ``before`` (its JSON), or a page names a
        cheat: a table that names one stops, and a move made just then is never answered."""
        deadline = time.monotonic() + timeout_s
        while True:
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(
                    "before => JSON.stringify(thousand.view) !== before", arg=before, timeout=1_000
                )
                return
            if any(self.alarms(other) for other in self.pages):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"the view did not change after a move: {self.where()}")

    def until_to_play(self, page: Page, want: Any = None) -> dict[str, Any]:
        """Everyone plays on through the UI until ``page``'s seat is to play a card
        (and ``want(view)``); its view then."""
        seat = page.evaluate("thousand.session.seat")

        def ready() -> bool:
            view = self.view(page)
            return (
                view["phase"] == "play"
                and view["turn"] == seat
                and bool(view["legal"])
                and (want is None or want(view))
            )

        for _ in range(600):
            if ready():
                return self.view(page)  # type: ignore[no-any-return]
            moved = False
            for other in self.pages:
                if ready():
                    break
                moved = self.act_once(other) or moved
            if not moved:
                time.sleep(0.05)
        raise AssertionError(f"the seat never got to play a card: {self.where()}")

    def play_until(self, done: Any, limit: int = 400) -> None:
        """Let whoever is to move act through the UI until done() is true."""
        for _ in range(limit):
            if done():
                return
            moved = False
            for page in self.pages:
                if self.act_once(page):
                    moved = True
            if not moved:
                time.sleep(0.05)
        raise AssertionError(f"the game did not get there: {self.where()}")

    def _on_open_pages(self, script: str) -> list[Any]:
        """``script`` evaluated in each page still open: a failure's report of the table."""
        return [page.evaluate(script) for page in self.pages if not page.is_closed()]

    def where(self) -> list[dict[str, Any]]:
        """Each page's deal, phase, turn and alarms: what a failed wait reports."""
        return self._on_open_pages(
            """() => ({seat: thousand.session?.seat, deal: thousand.session?.state?.deal,
               phase: thousand.view?.phase, turn: thousand.view?.turn,
               legal: thousand.view?.legal?.length,
               alarms: [...document.querySelectorAll("#net-alarms .net-alarm")]
                 .map((e) => e.textContent)})"""
        )

    def links(self) -> list[dict[str, Any]]:
        """Each page's connections as it sees them: what a failed reconnection reports."""
        return self._on_open_pages(
            """() => { const s = thousand.session, tr = s.transport;
               return {id: tr.id, host: s.hostPeer ?? null, hostStatus: s.hostStatus ?? null,
                       peers: [...tr.peers], routes: Object.fromEntries(tr.routes),
                       relays: tr.relayState(), paused: Boolean(tr.paused)}; }"""
        )

    def meets_the_host(self, guest: Page) -> None:
        """Until ``guest`` is connected to the host again (within a minute), as after the
        host's reload; if it is not, the failure lists each page's connections."""
        try:
            guest.wait_for_function("thousand.session.hostStatus === 'connected'", timeout=60_000)
        except PlaywrightTimeout as e:
            raise AssertionError(f"the guest did not meet the host again: {self.links()}") from e

    def hand_no(self, page: Page) -> int:
        return int(page.evaluate("thousand.view.hand_no"))

    def steps(self) -> int:
        """How many public messages the host has relayed."""
        return int(self.host.evaluate("thousand.session.record.log.length"))

    def caught_up(self, guest: Page) -> None:
        """Until ``guest`` has handled every public message the host has relayed, and
        no browser sends more on its own (a card given is unlocked by every peer's key)."""
        for _ in range(50):
            n = self.steps()
            guest.wait_for_function("n => thousand.session._have >= n", arg=n, timeout=30_000)
            guest.wait_for_timeout(300)
            if self.steps() == n:
                return
        raise AssertionError(f"the table did not settle: {self.where()}")

    def alarm_seats(self, page: Page) -> list[int]:
        """The seats (0-based) this page names as cheats."""
        return [int(a) for a in page.locator("#net-alarms .net-alarm").evaluate_all(
            "els => els.map((e) => e.dataset.seat)")]  # fmt: skip

    def alarms(self, page: Page) -> list[str]:
        return page.locator("#net-alarms .net-alarm").all_text_contents()

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


PHONE = {"width": 360, "height": 740}


def shots(page: Page, name: str, show: str | None = None) -> None:
    """The page at desktop and phone size, for a person to look at, with the element
    ``show`` (a selector) scrolled into view."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for label, box in (("desktop", size), ("phone", PHONE)):
        page.set_viewport_size(box)
        page.wait_for_timeout(300)
        if show:
            page.locator(show).scroll_into_view_if_needed()
        page.screenshot(path=str(RESULTS / f"net-{name}-{label}.png"))
    if size:
        page.set_viewport_size(size)
