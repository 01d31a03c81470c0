// A figure as the backend shows it: its words (unit, language and privacy mode applied) and the
// exact amount behind them, a branded decimal string, none when hidden or when the words stand
// in for a figure ("not computable", a dash).
import type { ShownAmount, ShownBtc, ShownNok, ShownPrice } from "../bindings";

export type Shown = ShownBtc | ShownNok | ShownPrice | ShownAmount;

/** The exact decimal behind a figure, of whichever unit; none when hidden or not a figure. */
export function exactOf(shown: Shown | null | undefined): string | null {
  const exact = shown?.exact;
  if (exact === null || exact === undefined) return null;
  return typeof exact === "string" ? exact : exact.amount;
}
