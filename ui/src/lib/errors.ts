// An error from a command, as the window shows it and acts on it.
import type { ErrorCode, IpcError } from "../bindings";
import { tf } from "./i18n.svelte";

export function isIpcError(e: unknown): e is IpcError {
  return !!e && typeof e === "object" && "code" in e && "message" in e;
}

/** The message of a command's error, or the thrown value as text. A fault of Nordlys itself
 * carries technical detail only; the frame around it is in the user's language. */
export function errorText(e: unknown): string {
  if (!isIpcError(e)) return String(e);
  return e.code === "fault" ? tf("Something went wrong inside Nordlys: {reason}", { reason: e.message }) : e.message;
}

/** Whether `e` is a command's error with `code` (a same-as-unknown refusal, a missing permission…). */
export function hasCode(e: unknown, code: ErrorCode): boolean {
  return isIpcError(e) && e.code === code;
}

/** `v` (a select's value) as one of `values`, the union the backend accepts; else `fallback`. */
export function oneOf<T extends string>(v: string, values: readonly T[], fallback: T): T {
  return (values as readonly string[]).includes(v) ? (v as T) : fallback;
}
