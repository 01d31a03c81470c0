// What the Trade screen shows and keeps: the order form as typed and the check of it, the
// confirmation, the last order's outcome (followed until known), open orders, trades and the
// recent orders of the journal.
import type {
  JournalView,
  OpenOrdersView,
  OrderCheckView,
  OrderFormArgs,
  OrderResultView,
  TradesView,
} from "../bindings";
import { CheckedForm } from "../lib/checked_form.svelte";
import { errorText, hasCode } from "../lib/errors";
import { t } from "../lib/i18n.svelte";
import type { Session } from "../lib/session.svelte";

export class TradeState {
  /** The order as typed and checked: the order sent is always the one reviewed. */
  order: CheckedForm<OrderFormArgs, OrderCheckView>;
  confirming = $state(false);
  /** The last order was refused because the same one is still unknown: a second confirmation is offered. */
  doubt = $state(false);
  sending = $state(false);
  result = $state<OrderResultView | null>(null);
  /** What the screen could not read; said at the top, where what it lacks is. */
  error = $state<string | null>(null);
  /** Why the order just sent was refused; said where the confirmation was. */
  submitError = $state<string | null>(null);
  /** Why a cancel was refused; said by the open orders. */
  cancelError = $state<string | null>(null);
  /** An open order was just cancelled: said where the list is, and to screen readers. */
  cancelled = $state<string | null>(null);
  history = $state<TradesView | null>(null);
  orders = $state<OpenOrdersView | null>(null);
  journal = $state<JournalView | null>(null);
  /** The open order whose cancel waits for the user's second click. */
  cancelArmed = $state<string | null>(null);
  /** The open order whose cancel was held back by an unknown order quiet for long. */
  cancelDoubt = $state<string | null>(null);
  #resolveTimer: number | undefined;

  constructor(readonly session: Session) {
    this.order = new CheckedForm<OrderFormArgs, OrderCheckView>(
      { orderType: "market", direction: "buy", amount: "", price: null, accountId: null },
      (form) => (form.amount.trim() ? session.backend.checkOrder(form) : null),
      () => {},
      (e) => (this.submitError = errorText(e)),
    );
    session.onChange((change) => {
      if (change === "history" && session.router.screen === "trade") void this.historyChanged();
      if (change === "reformatted" && session.router.screen === "trade") void this.refresh();
    });
  }

  /** Back on the screen: what the last order or cancel did is old news, unless its outcome is
   * still unknown (that stays until it is settled). */
  arrived(): void {
    if (this.result?.outcome !== "unknown") this.result = null;
    this.cancelled = null;
    this.submitError = null;
    this.cancelError = null;
    void this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      [this.orders, this.journal] = await Promise.all([
        this.session.backend.openOrders({}),
        this.session.backend.resolveOrders({}),
      ]);
      this.history = await this.session.backend.tradeHistory({});
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /** Rows new to the history: a trade made elsewhere, or the fill of an open order. */
  async historyChanged(): Promise<void> {
    try {
      this.history = await this.session.backend.tradeHistory({});
    } catch {
      // The screen keeps what it showed; the next change reads it again.
    }
  }

  set(patch: Partial<OrderFormArgs>): void {
    this.order.change(patch);
    this.confirming = false;
    this.result = null;
    this.submitError = null;
  }

  /** A limit order starts from the price on the side it would rest on. */
  setWithPrice(patch: Partial<OrderFormArgs>): void {
    const form = { ...this.order.form, ...patch };
    const quote = this.session.market.quote;
    const price =
      form.orderType === "limit" && quote
        ? ((form.direction === "buy" ? quote.bid.exact : quote.ask.exact) ?? form.price)
        : form.price;
    this.set({ ...patch, price: form.orderType === "market" ? null : price });
  }

  /** After "unknown", the app keeps checking the account itself until it knows. */
  #followUnknown(): void {
    window.clearTimeout(this.#resolveTimer);
    this.#resolveTimer = window.setTimeout(async () => {
      try {
        this.journal = await this.session.backend.resolveOrders({});
        const latest = this.journal.entries[0];
        if (latest && latest.state !== "unknown" && latest.state !== "sending") {
          const placed = latest.state === "placed";
          this.result = {
            outcome: placed ? "placed" : "notPlaced",
            orderId: latest.orderId,
            tradeId: latest.tradeId,
            // Said as the backend words it: the window builds no outcome of its own.
            message: latest.outcome,
          };
          this.session.router.announce(this.result.message);
          await this.session.holdings.load();
          this.orders = await this.session.backend.openOrders({});
        } else {
          this.#followUnknown();
        }
      } catch (e) {
        this.error = errorText(e);
        this.#followUnknown();
      }
    }, 2000);
  }

  async submit(despiteUnknown = false): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    this.submitError = null;
    this.doubt = false;
    this.cancelled = null;
    const form = this.order.form;
    try {
      // Only the review's id goes: Rust places the order it checked, once its own dialog,
      // outside this window, was answered "Place order".
      const reviewed = this.order.checked?.reviewed ?? "";
      this.result = await this.session.backend.placeOrder(
        despiteUnknown ? { reviewed, despiteUnknown: true } : { reviewed },
      );
      this.session.router.announce(this.result.message);
      this.confirming = false;
      if (this.result.outcome === "unknown") this.#followUnknown();
      this.order.reset(this.result.outcome === "unknown" ? form : { ...form, amount: "" });
      // The form kept after an unknown outcome is checked again, so Review does not stay on
      // "Checking…"; sending it again still meets the same-as-unknown question.
      if (this.result.outcome === "unknown") this.order.recheck();
      await this.session.holdings.load();
      // A fill shows in the history at once.
      await this.refresh();
      void this.session.doubts.refresh();
    } catch (e) {
      this.submitError = errorText(e);
      // Cancelled in the dialog: the review stays open, to confirm again or go back.
      if (hasCode(e, "notConfirmed")) return;
      // Nothing stays armed after doubt: a second order needs a new review.
      this.confirming = false;
      this.doubt = hasCode(e, "sameAsUnknown");
      if (hasCode(e, "notPermitted")) void this.session.appLock.reload();
      // A review no longer held (sent, replaced, too old): checked again, for a new review.
      if (hasCode(e, "notReviewed")) this.order.recheck();
    } finally {
      this.sending = false;
    }
  }

  async cancel(id: string, anyway = false): Promise<void> {
    if (this.cancelArmed !== id && !anyway) {
      this.cancelArmed = id;
      return;
    }
    this.cancelArmed = null;
    this.cancelDoubt = null;
    this.cancelled = null;
    this.cancelError = null;
    try {
      this.orders = await this.session.backend.cancelOrder(anyway ? { orderId: id, anyway: true } : { orderId: id });
      this.result = null;
      this.cancelError = null;
      this.cancelled = t("The order was cancelled.");
      this.session.router.announce(this.cancelled);
      await this.session.holdings.load();
    } catch (e) {
      this.cancelError = errorText(e);
      // An unknown order quiet for long could be this one: the user may cancel anyway.
      if (hasCode(e, "mayBeUnknown")) this.cancelDoubt = id;
      this.orders = await this.session.backend.openOrders({}).catch(() => this.orders);
    }
  }
}
