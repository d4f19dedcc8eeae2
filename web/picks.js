/* The cards the player picks to part with after taking the talon (прикуп):
 * one to give to each opponent still without a card, or, with two players,
 * the discards still to lay away. It owns the choice until the player
 * confirms it, and turns it into the actions that send the cards. Which
 * cards may go is the view's legal actions; nothing here decides it. */
import { t } from "./i18n.js";

export class TalonPicks {
  constructor() {
    this.bySlot = new Map(); // seat (or discard slot) → card
  }

  clear() {
    this.bySlot.clear();
  }

  /** The slots still to fill, the seat after yours first: {seat, card, label}. */
  slots(view, you, names) {
    if (view.players === 2) {
      const left = 2 - (view.discarded?.length ?? 0);
      return [0, 1].slice(0, left).map((k) => ({ seat: k, card: this.bySlot.get(k) ?? null, label: t("do.discard") }));
    }
    const given = new Set((view.given ?? []).map(([, to]) => to));
    const n = view.players;
    return [...view.active]
      .sort((a, b) => ((a - you + n) % n) - ((b - you + n) % n))
      .filter((s) => s !== you && !given.has(s))
      .map((s) => ({ seat: s, card: this.bySlot.get(s) ?? null, label: t("give.to", { name: names[s] }) }));
  }

  /** A card clicked: taken back if it was picked, else put in the first empty slot (or the last). */
  toggle(card, slots) {
    if ([...this.bySlot.values()].includes(card)) {
      this.unpick(card);
      return;
    }
    const empty = slots.find((s) => !s.card) ?? slots[slots.length - 1];
    if (empty) this.bySlot.set(empty.seat, card);
  }

  /** A card dragged onto a slot: it goes there, from wherever it was. False if no such slot. */
  drop(card, seat, slots) {
    if (!slots.some((s) => s.seat === seat)) return false;
    this.unpick(card);
    this.bySlot.set(seat, card);
    return true;
  }

  unpick(card) {
    for (const [seat, c] of this.bySlot) if (c === card) this.bySlot.delete(seat);
  }
}

/** The actions that send the picked cards of ``slots``, in their order. */
export function partingActions(view, slots) {
  return slots.map((s) => (view.players === 2 ? `discard ${s.card}` : `give ${s.card} ${s.seat}`));
}
