/* Game transfer: owns the Export and Import dialogs — the game as text to
 * copy or download (the engine's save, with the rules, seed and every move),
 * and the box a saved game's text is pasted into. Loading it is the page's.
 */
import { openDialog } from "./dialogs.js";
import { t } from "./i18n.js";

/** Show a game's text, to copy or download. */
export function exportDialog(text) {
  const box = document.createElement("div");
  const p = document.createElement("p");
  p.textContent = t("export.text");
  const area = document.createElement("textarea");
  area.id = "export-text";
  area.readOnly = true;
  area.rows = 8;
  area.value = text;
  area.setAttribute("aria-label", t("export.title"));
  box.append(p, area);
  return openDialog({
    title: t("export.title"),
    body: box,
    name: "export",
    wide: true,
    onOpen: (dialog) => {
      const row = dialog.querySelector(".dialog-buttons");
      const copy = document.createElement("button");
      copy.type = "button";
      copy.className = "btn";
      copy.textContent = t("export.copy");
      copy.addEventListener("click", async () => {
        area.select();
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          document.execCommand?.("copy");
        }
        copy.textContent = t("export.copied");
      });
      const download = document.createElement("a");
      download.className = "btn";
      download.textContent = t("export.download");
      download.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      download.download = `thousand-${new Date().toISOString().slice(0, 10)}.json`;
      row.prepend(copy, download);
    },
  });
}

/** Ask for a game's text; resolves with it, or null when cancelled or empty. */
export async function importDialog() {
  const box = document.createElement("div");
  const p = document.createElement("p");
  p.textContent = t("import.text");
  const area = document.createElement("textarea");
  area.id = "import-text";
  area.rows = 8;
  area.setAttribute("aria-label", t("import.title"));
  box.append(p, area);
  const choice = await openDialog({
    title: t("import.title"),
    body: box,
    name: "import",
    wide: true,
    buttons: [
      { label: t("cancel"), value: null },
      { label: t("import"), value: "import", primary: true },
    ],
  });
  return choice === "import" && area.value.trim() ? area.value : null;
}
