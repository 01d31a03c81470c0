// Which screen is shown, the one message line, and what a screen reader is told.
import { errorText } from "../errors";

export const SCREENS = ["overview", "trade", "receive", "pay", "tax", "unknowns", "connect", "settings"] as const;
export type Screen = (typeof SCREENS)[number];

export type Message = { kind: "error" | "ok"; text: string };

export class Router {
  screen = $state<Screen>("overview");
  message = $state<Message | null>(null);
  /** What a screen reader announces: an order placed, a payment completed, a sync finished. */
  announcement = $state("");

  go(screen: Screen): void {
    this.screen = screen;
    this.message = null;
  }

  fail(e: unknown): void {
    this.message = { kind: "error", text: errorText(e) };
  }

  /** Says `text` through the live region, even when it is what was said last. */
  announce(text: string): void {
    this.announcement = "";
    queueMicrotask(() => (this.announcement = text));
  }
}
