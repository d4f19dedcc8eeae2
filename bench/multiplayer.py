"""Play with friends: time to a seat, and the traffic of a hand, in real Chromium.

This script owns the multiplayer benchmark. Like the browser tests it uses
real parts only: the site built by build.py (into a temporary folder) and
served on loopback, the local signalling relay (npm bittorrent-tracker,
tests/browser/net_relay.mjs), headless Chromium, and WebRTC between the
browser contexts with host candidates only. It prints

- the time from opening the table's link to being seated in the lobby,
  for both guests of a three-player table opening it at the same moment:
  each run is two fresh browser contexts (a friend's first visit: nothing
  cached) that open the link together and wait until the lobby shows their
  seat; the host then frees both seats for the next run. Median (and
  range) over ``--runs`` runs of the guest seated first and of the one
  seated second, measured in the page (navigation start to seated);
- the private deal's shuffle and deal, per hand: from the moment the host
  publishes seat 0's shuffle of a deal until the last of the three peers
  can read its cards (all three shuffles and every seat's unlocks crossed
  the network, every lock in each page's Pyodide), median over the hands
  played, and where it goes: each seat's turn and each relay by the host;
- messages and bytes per hand: a host and two guests then play
  ``--hands`` whole hands through the UI (the host's two opponents are
  people, so every move crosses the network), and every message each peer
  sends is counted: the host's signed envelopes (one per recipient) and
  the guests' part of the private deal. Bytes are the JSON texts handed
  to the transport; WebRTC's own framing and encryption come on top.

    python bench/multiplayer.py [--runs 5] [--hands 3] [--relays both|torrent|nostr]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from net_harness import Table, host_body, init_script, relay  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from site_harness import CHROMIUM, CHROMIUM_ARGS, build  # noqa: E402

STATS = "({...thousand.session.transport.stats})"
# In the lobby the page has no session yet (it gets one at the start): read the guest's record.
MY_SEAT = """() => {
  const key = Object.keys(localStorage).find((k) => k.startsWith("thousand:net:guest:"));
  return JSON.parse(localStorage.getItem(key)).seat;
}"""


def time_to_seat(browser: Browser, table: Table, runs: int) -> dict[str, list[float]]:
    """Two fresh contexts open the link at once, `runs` times; seconds to seated, in the page,
    of the guest seated first and of the one seated second, and every guest's split: the
    page's own start (navigation → rooms joined) and the network's part (rooms → seated),
    the host's share of it split into a relay's socket opening, the host's connection
    (signalling through the relays, WebRTC, Trystero's handshake) and its key's check."""
    out: dict[str, list[float]] = {
        "first": [], "second": [], "page": [], "network": [], "host": [], "seat": [],
        "relay": [], "connect": [], "check": [],
    }  # fmt: skip
    for _ in range(runs):
        contexts = [browser.new_context() for _ in range(2)]
        pages = []
        for ctx in contexts:
            ctx.add_init_script(init_script(table.relay_url))
            pages.append(ctx.new_page())
        times = table.join_together(pages)
        out["first"].append(min(times))
        out["second"].append(max(times))
        for page, seated in zip(pages, times, strict=True):
            joined = table.rooms_joined(page)
            out["page"].append(joined)
            out["network"].append(seated - joined)
            proved = table.mark(page, "thousand:net-host") or seated
            out["host"].append(proved - joined)
            out["seat"].append(seated - proved)
            # The host's part, finer: a relay reached, the host's connection made, its key checked.
            opened = table.mark(page, "thousand:net-relay") or joined
            met = table.mark(page, "thousand:net-host-met") or proved
            out["relay"].append(opened - joined)
            out["connect"].append(met - opened)
            out["check"].append(proved - met)
        # The host frees the seats through the lobby's Remove button.
        for page in pages:
            seat = page.evaluate(MY_SEAT)
            table.host.click(f'#net-seats li[data-seat="{seat}"] .net-remove')
            table.host.wait_for_selector(f'#net-seats li[data-seat="{seat}"][data-status=empty]')
        for ctx in contexts:
            ctx.close()
    return out


def snapshot(table: Table) -> list[dict[str, int]]:
    return [page.evaluate(STATS) for page in table.pages]


def kinds(table: Table) -> Counter[str]:
    """What every peer handed to its transport so far, by the sender's label (the message
    type; a relayed public message as "pub <its type>"): messages under the label, bytes
    under "label bytes". A host's message to two guests counts twice."""
    count: Counter[str] = Counter()
    for page in table.pages:
        for kind, c in page.evaluate("thousand.session.transport.sentByKind").items():
            count[kind] += c["messages"]
            count[f"{kind} bytes"] += c["bytes"]
    return count


def arrivals(page: Any) -> list[tuple[float, dict[str, Any], int]]:
    """(time, message, bytes on the wire) of every private-deal message this page received
    (inside ``pub`` at a guest), by its own clock (Date.now(): the pages share one clock)."""
    out = []
    for m in page.evaluate("thousand.session.transport.recorded ?? []"):
        try:
            wire = json.loads(host_body(m["text"]))
        except ValueError:
            continue
        inner = wire.get("m") if isinstance(wire, dict) and wire.get("t") == "pub" else wire
        if isinstance(inner, dict) and isinstance(inner.get("deal"), int):
            out.append((m["time"], inner, len(m["text"])))
    return out


CRYPTO = ("shuffle", "unlock", "pass", "reveal")
"""The private deal's own messages; a played card (``act``) and the rest are the game's."""


def crypto_bytes(table: Table, deals: list[str]) -> float:
    """Bytes per deal of the private deal's own messages, as every page received them."""
    wanted = {int(k) for k in deals}
    total = sum(
        size
        for page in table.pages
        for _, m, size in arrivals(page)
        if m["deal"] in wanted and m["t"] in CRYPTO
    )
    return total / max(1, len(wanted))


def breakdown(table: Table, deals: list[str], started: dict[str, float]) -> dict[str, list[float]]:
    """Where a deal's shuffle + deal time goes, seconds per step, one entry per deal: each
    seat's turn (from the message it answers reaching it to its answer reaching the host:
    its worker's checks and crypto, and any wait behind its audit of the deal before) and
    the host's relay (from a guest's message reaching the host to the next seat receiving
    it, the host's own peer checking it on the way)."""
    host = arrivals(table.host)
    guests = [arrivals(g) for g in table.guests]
    seat_of = [table.guests[i].evaluate(MY_SEAT) for i in range(len(table.guests))]
    steps: dict[str, list[float]] = {}

    def at(events: list[tuple[float, dict[str, Any], int]], deal: int, t: str, seat: int) -> float:
        return next(
            time
            for time, m, _ in events
            if m["deal"] == deal
            and m["t"] == t
            and m["seat"] == seat
            and (t != "unlock" or m.get("stage") == "deal")
        )

    for k in deals:
        d = int(k)
        g = {seat: guests[i] for i, seat in enumerate(seat_of)}
        t = started[k]
        try:
            # shuffles 0 → 1 → 2, then the dealing pass 0 → 1 → 2
            t1 = at(g[1], d, "shuffle", 0)
            t2 = at(host, d, "shuffle", 1)
            t3 = at(g[2], d, "shuffle", 1)
            t4 = at(host, d, "shuffle", 2)
            t5 = at(g[1], d, "unlock", 0)
            t6 = at(host, d, "unlock", 1)
            t7 = at(g[2], d, "unlock", 1)
            t8 = at(host, d, "unlock", 2)
        except StopIteration:
            continue
        dealt = max(page.evaluate("thousand.session.verdicts.dealtAt")[k] for page in table.pages)
        parts = {
            "relay: host → seat 1 (seat 0's shuffle)": t1 - t,
            "seat 1 shuffles": t2 - t1,
            "relay: host → seat 2 (seat 1's shuffle)": t3 - t2,
            "seat 2 shuffles": t4 - t3,
            "host: seat 2's shuffle checked, seat 0 unlocks, relayed": t5 - t4,
            "seat 1 unlocks": t6 - t5,
            "relay: host → seat 2 (seat 1's unlock)": t7 - t6,
            "seat 2 unlocks": t8 - t7,
            "last unlock relayed, every seat reads its cards": dealt - t8,
        }
        for name, v in parts.items():
            steps.setdefault(name, []).append(v / 1000)
    return steps


def traffic(table: Table, hands: int) -> dict[str, Any]:
    """Play the first hand, then count what crosses the network over the next `hands` hands."""
    table.play_until(lambda: table.hand_no(table.host) >= 2, limit=1000)
    before, kinds_before = snapshot(table), kinds(table)
    step = "thousand.session.record.log.filter((m) => m.t === 'act').length"
    steps_before = table.host.evaluate(step)
    first = table.hand_no(table.host)
    table.play_until(lambda: table.hand_no(table.host) >= first + hands, limit=1000 * hands)
    after, kinds_after = snapshot(table), kinds(table)
    steps = table.host.evaluate(step) - steps_before
    d = [{k: a[k] - b[k] for k in a} for a, b in zip(after, before, strict=True)]
    started = table.host.evaluate("thousand.session.shuffledFrom")
    dealt = [page.evaluate("thousand.session.verdicts.dealtAt") for page in table.pages]
    deals = [k for k in started if k != "0" and all(k in x for x in dealt)]
    return {
        "steps": breakdown(table, deals, started),
        "crypto_bytes": crypto_bytes(table, deals),
        "deal_s": [(max(x[k] for x in dealt) - started[k]) / 1000 for k in deals],
        "host_msgs": d[0]["sent"] / hands,
        "host_bytes": d[0]["sentBytes"] / hands,
        "guest_msgs": sum(x["sent"] for x in d[1:]) / hands,
        "guest_bytes": sum(x["sentBytes"] for x in d[1:]) / hands,
        "kinds": {k: (kinds_after[k] - kinds_before[k]) / hands for k in kinds_after},
        "moves": steps / hands,
    }


def line(xs: list[float]) -> str:
    runs = ", ".join(f"{x:.2f}" for x in xs)
    return f"median {statistics.median(xs):.2f} s (runs: {runs})"


def print_seated(seated: dict[str, list[float]], runs: int, relays: list[str]) -> None:
    """The join figures, printed as soon as they are measured."""
    print(f"\nlink opened → seated in the lobby (navigation start → seated), {runs} runs")
    print(f"of two fresh contexts opening it at once, relays: {', '.join(relays)}")
    print(f"  guest seated first:  {line(seated['first'])}")
    print(f"  guest seated second: {line(seated['second'])}")
    print("every guest's split:")
    print(f"  the page's own start (navigation → rooms joined): {line(seated['page'])}")
    print(f"  the network's part (rooms joined → seated):       {line(seated['network'])}")
    print(f"    rooms joined → the host's signed key checked:   {line(seated['host'])}")
    print(f"      rooms joined → a relay's socket open:         {line(seated['relay'])}")
    print(f"      → the host connected (signalling, WebRTC):    {line(seated['connect'])}")
    print(f"      → its signed key checked:                     {line(seated['check'])}")
    print(f"    the host's key checked → seated in the lobby:   {line(seated['seat'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="joins to time (default 5)")
    parser.add_argument("--hands", type=int, default=3, help="hands to count (default 3)")
    parser.add_argument(
        "--relays",
        choices=["both", "torrent", "nostr"],
        default="both",
        help="which local relays the pages signal through (default both: a tracker and Nostr)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        print("building the site…", flush=True)
        build.build(dist, quiet=True)
        server, url = build.serve_in_thread(dist, "/")
        try:
            with relay("torrent") as tracker, relay("nostr") as nostr, sync_playwright() as p:
                relays = {"both": [tracker, nostr], "torrent": [tracker], "nostr": [nostr]}[
                    args.relays
                ]
                launch: dict[str, Any] = {"args": CHROMIUM_ARGS}
                if CHROMIUM.exists():
                    launch["executable_path"] = str(CHROMIUM)
                browser = p.chromium.launch(**launch)
                table = Table(browser, url, relays)
                table.open_host()
                seated = time_to_seat(browser, table, args.runs)
                print_seated(seated, args.runs, relays)
                sys.stdout.flush()
                for guest in table.guests:
                    table.join(guest)
                table.start()
                t = traffic(table, args.hands)
                table.close()
                browser.close()
        finally:
            server.shutdown()

    print(
        f"\ntraffic per hand, mean of {args.hands} hands "
        f" (host + 2 guests, {t['moves']:.0f} moves a hand)"
    )
    total_msgs = t["host_msgs"] + t["guest_msgs"]
    total_bytes = t["host_bytes"] + t["guest_bytes"]
    print(f"  shuffle + deal (3 peers): {line(t['deal_s'])}")
    for name, xs in t["steps"].items():
        print(f"    {name}: {line(xs)}")
    print(f"  host → guests: {t['host_msgs']:.0f} messages, {t['host_bytes'] / 1024:.1f} KiB")
    print(f"  guests → host: {t['guest_msgs']:.0f} messages, {t['guest_bytes'] / 1024:.1f} KiB")
    print(f"  all:           {total_msgs:.0f} messages, {total_bytes / 1024:.1f} KiB")
    crypto = t["crypto_bytes"]
    print(
        f"  of which the private deal's own ({', '.join(CRYPTO)}): {crypto / 1024:.1f} KiB; "
        f"the rest: {(total_bytes - crypto) / 1024:.1f} KiB"
    )
    print("  by message type (all peers), messages and KiB per hand:")
    per_kind = t["kinds"]
    labels = [k for k in per_kind if not k.endswith(" bytes") and per_kind[k]]
    for k in sorted(labels, key=lambda k: -per_kind[f"{k} bytes"]):
        print(f"    {k:<14} {per_kind[k]:6.1f} {per_kind[f'{k} bytes'] / 1024:8.1f} KiB")


if __name__ == "__main__":
    main()
