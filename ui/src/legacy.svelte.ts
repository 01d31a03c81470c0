// The screens not yet moved to components, drawn by their old modules into a host element while
// the move goes on, screen by screen. Removed once the last one has moved.
import type { Session } from "./lib/session.svelte";
import { historyChanged, isConfirming, trade, refreshTrading, setTradeContext } from "./trade";

export type LegacyScreen = "trade";

export function isLegacy(s: string): s is LegacyScreen {
  return s === "trade";
}

/** Counts the old modules' requests to be drawn again. */
export const redraws = $state({ count: 0 });

function rerender(): void {
  redraws.count += 1;
}

/** Whether the user is confirming an order: background updates wait until it is over. */
export function holdingStill(): boolean {
  return isConfirming();
}

export function draw(screen: LegacyScreen, session: Session): Node {
  setTradeContext({
    app: session.app,
    balances: session.balances,
    quote: session.quote,
    quoteAmount: session.quoteAmount,
    setQuoteAmount: (a: string) => session.setQuoteAmount(a),
    rerender,
    reloadBalances: () => session.loadBalances(),
    reloadApp: () => session.reloadApp(),
    refreshUnknowns: () => session.refreshUnknowns(),
  });
  const screens: Record<LegacyScreen, () => Node> = { trade };
  return screens[screen]();
}

/** Loads what `s` shows afresh: on arrival, and when the language or unit it is written in changes. */
export function refreshScreen(s: LegacyScreen): void {
  if (s === "trade") void refreshTrading();
}

/** The old modules' share of the backend's events, for as long as the window lives. */
export function attachLegacy(session: Session): void {
  session.onChange((change) => {
    switch (change) {
      case "history":
        if (session.screen === "trade") void historyChanged();
        break;
      case "reformatted":
        if (isLegacy(session.screen)) refreshScreen(session.screen);
        break;
      default:
        break;
    }
  });
}
