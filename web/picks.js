/* The cards the player picks to part with after taking the talon (прикуп):
 * one to give to each opponent still without a card, or, with two players,
 * the discards still to lay away. It owns the choice until the player
 * confirms it, and turns it into the actions that send the cards. What is
 * still to part with is the view's (`parting`), and which cards may go its
 * legal actions; nothing here decides either. */
import { t } from "./i18n.js";

export class TalonPicks {
  constructor() {
    this.bySlot = new Map(); // seat (or discard slot) → card
  }

  clear() {
    this.bySlot.clear();
  }

  /** The slots still to fill, in the view's order: {seat, discard, card, label}. A
   * discard's slot is numbered among the discards left, as it has no receiver. */
  slots(view, names) {
    return (view.parting ?? []).map((to, k) => {
      const discard = to === null;
      const seat = discard ? k : to;
      const label = discard ? t("do.discard") : t("give.to", { name: names[to] });
      return { seat, discard, card: this.bySlot.get(seat) ?? null, label };
    });
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

/** The actions that send the picked cards of `slots`, in their order. */
export function partingActions(slots) {
  return slots.map((s) => (s.discard ? `discard ${s.card}` : `give ${s.card} ${s.seat}`));
}
