// The balances of every account, valued at the bid, and the accounts a form can pick.
import type { BalancesView, Change } from "../../bindings";
import type { Backend } from "../backend";
import { distinct } from "../distinct";
import { errorText } from "../errors";
import type { Router } from "./router.svelte";

/**
 * How long the holdings' NOK value stands while prices move. The price card shows every move; the
 * value of each account is read again once a minute, not at each price: each reading draws the
 * cards and the table again.
 */
const VALUED_FOR_MS = 60_000;

export class Holdings {
  balances = $state<BalancesView | null>(null);
  /** When the balances were last read: moving prices value them again after `VALUED_FOR_MS`. */
  #valued = 0;
  /** What the balances poller last failed with, so its message goes once it reads again. */
  #problem: string | null = null;

  /** The holdings changed; a moving price values them again at a slower pace. */
  static readonly INVALIDATED_BY = ["balances", "price"] as const satisfies readonly Change[];

  constructor(
    private readonly backend: Backend,
    private readonly router: Router,
  ) {}

  /** Accounts the user can pick for an order, an invoice or a payment. */
  get liveAccounts() {
    return distinct(this.balances?.accounts ?? [], (a) => a.id).filter((a) => !a.deleted);
  }

  /** The account a form shows when none is chosen, as the backend sends from it: the exchange's
   * default when learned, else the first listed. */
  get shownAccountId(): string | undefined {
    const live = this.liveAccounts;
    return live.find((a) => a.id === this.balances?.defaultAccount)?.id ?? live[0]?.id;
  }

  /** What `change` makes it read, unless a user action is in flight (it reads after it). */
  changed(change: Change, busy: boolean): void {
    if (busy) return;
    // The watcher tells when the holdings change; their NOK value follows the price at a slower
    // pace, each reading saying the bid and time it was valued at.
    if (change === "balances" || Date.now() - this.#valued >= VALUED_FOR_MS) void this.load();
  }

  async load(): Promise<void> {
    this.#valued = Date.now();
    const router = this.router;
    try {
      const next = await this.backend.balances({});
      // A problem the poller reported is gone once it reads again.
      if (router.message?.kind === "error" && router.message.text === this.#problem) router.message = null;
      this.#problem = null;
      if (JSON.stringify(next) !== JSON.stringify(this.balances)) this.balances = next;
    } catch (e) {
      // Said once: the poller meets the same problem every 15 s.
      const text = errorText(e);
      this.#problem = text;
      if (router.message?.text !== text) router.message = { kind: "error", text };
    }
  }

  forget(): void {
    this.balances = null;
  }
}
