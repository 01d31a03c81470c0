// What every form on every screen shares: a field with its own message, and an error's text.
import type { IpcError } from "./bindings";
import { h } from "./dom";
import { t } from "./lib/i18n.svelte";

/** `v` (a select's value) as one of `values`, the union the backend accepts; else `fallback`. */
export function oneOf<T extends string>(v: string, values: readonly T[], fallback: T): T {
  return (values as readonly string[]).includes(v) ? (v as T) : fallback;
}

/** The message of a command's error, or the thrown value as text. A fault of Nordlys itself
 * carries technical detail only; the frame around it is in the user's language. */
export function errorText(e: unknown): string {
  if (!(e && typeof e === "object" && "message" in e)) return String(e);
  const error = e as IpcError;
  return error.code === "fault" ? `${t("Something went wrong inside Nordlys:")} ${error.message}` : error.message;
}

function hasCode(e: unknown, code: IpcError["code"]): boolean {
  return !!e && typeof e === "object" && "code" in e && (e as IpcError).code === code;
}

/** Whether a refusal says the same order or payment is still unknown. */
export function isSameAsUnknown(e: unknown): boolean {
  return hasCode(e, "sameAsUnknown");
}

/** Whether the exchange (or the app, from what it learned) refused for want of a permission. */
export function isNotPermitted(e: unknown): boolean {
  return hasCode(e, "notPermitted");
}

/** Whether a refused cancel could concern an unknown order quiet for long (the user may go on). */
export function isMayBeUnknown(e: unknown): boolean {
  return hasCode(e, "mayBeUnknown");
}

/** Whether a refusal says what was sent is not what was reviewed. */
export function isNotReviewed(e: unknown): boolean {
  return hasCode(e, "notReviewed");
}

/** A labelled input with the problem to fix shown under it (`<id>-error` for tests). */
export function field(label: string, input: HTMLElement, problem: string | null | undefined, id: string): Node {
  return h("label", {}, label, input, problem ? h("span", { class: "field-error", "data-testid": `${id}-error` }, problem) : null);
}
