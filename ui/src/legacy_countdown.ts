// The countdown of the Pay screen's old module, until it moves to components.
import { t } from "./lib/i18n.svelte";

/** Seconds left until `iso`, as "9:41" or "1 h 2 min". */
export function countdown(iso: string): string {
  const left = Math.max(0, Math.floor((Date.parse(iso) - Date.now()) / 1000));
  if (left === 0) return t("expired");
  if (left >= 3600) return `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** Updates every countdown the old modules drew, once a second, without drawing them again. */
export function tickCountdowns(): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-expires-at]:not([data-live])")) {
    el.textContent = countdown(el.dataset.expiresAt ?? "");
  }
}
