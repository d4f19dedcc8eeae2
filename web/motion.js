/* Motion: owns the table's cosmetic animation and the speed setting.
 *
 * The speed is chosen in words (slow, normal, fast, instant); it sets both
 * the computer's pace and how long the motion takes. A speed chosen in the
 * menu wins over the URL's ?delay=, which only sets the pace when none is.
 * The motion: cards are dealt to the seats, a played card travels from its
 * seat to the middle (style.css's "fly", timed by --anim), a finished trick
 * slides towards its taker (and back: it stays on the table to be seen), and the talon flips when it is shown. Motion
 * never holds game state: it decorates what the table has drawn, and it is
 * off at "instant" and when the system asks for reduced motion.
 */

/** The computer's pause between moves (ms) and the length of one motion (ms), by speed. */
export const SPEEDS = {
  slow: { delay: 1400, motion: 480 },
  normal: { delay: 700, motion: 320 },
  fast: { delay: 300, motion: 160 },
  instant: { delay: 0, motion: 0 },
};

/** The speed in effect: the menu's choice, else the URL's delay, else an older saved delay. */
export function speedOf(prefs, urlDelay) {
  if (prefs.speed in SPEEDS) return prefs.speed;
  const ms = urlDelay !== null && /^\d+$/.test(urlDelay) ? Number(urlDelay) : prefs.delay;
  if (typeof ms !== "number") return "normal";
  if (ms === 0) return "instant";
  return ms <= 400 ? "fast" : ms <= 1000 ? "normal" : "slow";
}

/** The computer's pause in ms: the URL's exact delay when no speed was chosen in the menu. */
export function delayOf(prefs, urlDelay) {
  if (!(prefs.speed in SPEEDS) && urlDelay !== null && /^\d+$/.test(urlDelay)) return Number(urlDelay);
  return SPEEDS[speedOf(prefs, urlDelay)].delay;
}

let motionMs = SPEEDS.normal.motion;

export function reducedMotion() {
  return globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Set the page's motion for a speed: the CSS duration and the "instant" switch. */
export function applySpeed(speed) {
  motionMs = reducedMotion() ? 0 : SPEEDS[speed]?.motion ?? SPEEDS.normal.motion;
  document.body.classList.toggle("instant", motionMs === 0);
  document.body.style.setProperty("--anim", `${motionMs}ms`);
}

function animate(el, frames, options) {
  if (!motionMs || typeof el.animate !== "function") return;
  el.animate(frames, { duration: motionMs, easing: "ease-out", ...options });
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Cards arrive in your hand and on the seats, one after another. */
function deal() {
  const cards = [...document.querySelectorAll("#hand .card, #seats .backs > *")];
  cards.forEach((card, k) => {
    animate(card, [{ transform: "translateY(-40vh) scale(0.6)", opacity: 0 }, { transform: "none", opacity: 1 }],
      { delay: k * (motionMs / 12), fill: "backwards" });
  });
}

/** A finished trick leans towards the seat that took it and settles back (the table still shows it). */
function slideTrick(winner, you) {
  const trick = document.getElementById("trick");
  const seat = winner === you ? document.getElementById("you") : document.querySelector(`.seat[data-seat="${winner}"]`);
  if (!trick || !seat) return;
  const from = centre(trick);
  const to = centre(seat);
  const move = `translate(${(to.x - from.x) * 0.2}px, ${(to.y - from.y) * 0.2}px) scale(0.92)`;
  for (const card of trick.querySelectorAll(".card")) {
    animate(card, [{ transform: "none" }, { transform: move }], { delay: motionMs, direction: "alternate", iterations: 2 });
  }
}

/** The talon's cards turn face up. */
function flipTalon() {
  for (const card of document.querySelectorAll("#talon .card")) {
    animate(card, [{ transform: "rotateY(90deg)" }, { transform: "none" }]);
  }
}

/** Decorate the table just drawn for `view`; `before` is the view drawn before it (or null). */
export function animateView(view, before, you) {
  if (!motionMs || !before) return;
  if (view.hand_no !== before.hand_no && view.hand.length) deal();
  if (view.talon_shown && !before.talon_shown) flipTalon();
  const done = view.last_action?.trick;
  if (done && !view.trick.length && before.trick.length) slideTrick(done.winner, you);
}
