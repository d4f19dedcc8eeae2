/* Dialogs: owns modal windows (native <dialog>, so focus stays inside and
 * Escape closes) — confirmations, messages, and any panel another module
 * fills (settings, score sheet, summary, replay).
 */
import { t } from "./i18n.js";

let counter = 0;

/**
 * Open a modal dialog. `body` is a Node (or text); `buttons` are
 * [{label, value, primary?}]. Resolves with the value of the button pressed,
 * or null when closed with Escape. `onOpen(dialog)` runs once it is shown.
 */
export function openDialog({ title, body, buttons = [{ label: t("close"), value: null, primary: true }], name = "", wide = false, onOpen }) {
  const dialog = document.createElement("dialog");
  const id = `dialog-title-${++counter}`;
  dialog.className = `panel${wide ? " wide" : ""}`;
  if (name) dialog.dataset.dialog = name;
  dialog.setAttribute("aria-labelledby", id);
  const heading = document.createElement("h2");
  heading.id = id;
  heading.textContent = title;
  const content = document.createElement("div");
  content.className = "dialog-body";
  content.append(typeof body === "string" ? paragraph(body) : body);
  const row = document.createElement("div");
  row.className = "dialog-buttons";
  dialog.append(heading, content, row);
  return new Promise((resolve) => {
    let result = null;
    for (const { label, value, primary, danger } of buttons) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `btn${primary ? " primary" : ""}${danger ? " danger" : ""}`;
      button.textContent = label;
      button.dataset.value = String(value);
      button.addEventListener("click", () => {
        result = value;
        dialog.close();
      });
      row.append(button);
    }
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
    (row.querySelector(".primary") ?? row.querySelector("button"))?.focus();
    onOpen?.(dialog);
  });
}

export function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

/** Ask yes or no; resolves true for yes. */
export async function confirmDialog(text, { yes = t("ok"), title = t("confirm"), name = "confirm" } = {}) {
  const answer = await openDialog({
    title,
    body: text,
    name,
    buttons: [
      { label: t("cancel"), value: false },
      { label: yes, value: true, primary: true },
    ],
  });
  return answer === true;
}

export function messageDialog(title, text, name = "message") {
  return openDialog({ title, body: text, name, buttons: [{ label: t("ok"), value: true, primary: true }] });
}

/** Close every open dialog (a new game starts, a view replaces the old one). */
export function closeAll() {
  for (const d of document.querySelectorAll("dialog[open]")) d.close();
}
