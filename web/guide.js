/* The first-game guide: owns the short tips shown the first time each
 * situation comes up — your first bid, the talon, giving cards, the
 * contract, a lead with a marriage in hand after taking a trick, and the
 * barrel. Each tip shows once (until dismissed, or until the situation
 * has passed); it can be dismissed, and all of them
 * switched off. Which tips were seen is kept in the preferences, so
 * switching the guide back on shows them all again.
 */
import { t } from "./i18n.js";

/** The tips that fit the view, in the order they are shown. */
function situations(view, you) {
  const mine = view.turn === you && view.legal.length;
  const out = [];
  if (view.barrel?.[you]?.on) out.push("barrel");
  if (!mine) return out;
  if (view.phase === "bidding") out.push("bid");
  if (view.phase === "talon" && view.declarer === you) out.push("talon", "give");
  if (view.phase === "contract") out.push("contract");
  if (view.phase === "play" && !view.trick.length && view.trick_counts[you] > 0 && hasMarriage(view.hand)) {
    out.push("marriage");
  }
  return out;
}

function hasMarriage(hand) {
  return [..."SCDH"].some((s) => hand.includes(`K${s}`) && hand.includes(`Q${s}`));
}

/**
 * Show the next unseen tip for `view` in `box` (or clear it). `prefs` holds
 * {guide: {off, seen: [ids]}}; `save(prefs)` keeps them.
 */
export function renderGuide(box, view, you, prefs, save) {
  const guide = (prefs.guide ??= { off: false, seen: [] });
  const next = guide.off || !view || view.phase === "over" ? null : situations(view, you).find((id) => !guide.seen.includes(id));
  const shown = box.dataset.tip ?? "";
  if (shown === (next ?? "")) return;
  if (shown && !guide.seen.includes(shown)) {
    // The situation has passed: its tip was shown once.
    guide.seen = [...guide.seen, shown];
    save(prefs);
  }
  box.replaceChildren();
  box.hidden = !next;
  box.dataset.tip = next ?? "";
  if (!next) return;
  const text = document.createElement("p");
  text.textContent = t(`guide.${next}`);
  const ok = document.createElement("button");
  ok.type = "button";
  ok.className = "btn small";
  ok.dataset.guide = "dismiss";
  ok.textContent = t("guide.ok");
  const off = document.createElement("button");
  off.type = "button";
  off.className = "btn small quiet";
  off.dataset.guide = "off";
  off.textContent = t("guide.off");
  const done = (all) => {
    if (all) guide.off = true;
    guide.seen = [...new Set([...guide.seen, next])];
    save(prefs);
    renderGuide(box, view, you, prefs, save);
  };
  ok.addEventListener("click", () => done(false));
  off.addEventListener("click", () => done(true));
  const row = document.createElement("div");
  row.className = "row";
  row.append(ok, off);
  box.append(text, row);
}

/** Switch the guide on (every tip shows again) or off. */
export function setGuide(prefs, on) {
  prefs.guide = on ? { off: false, seen: [] } : { ...(prefs.guide ?? { seen: [] }), off: true };
}
