// The trade screen: quote, order form with live checks, confirmation, outcome, open orders.
import * as api from "./bindings";
import type { AppView, BalancesView, JournalView, OpenOrdersView, OrderCheckView, OrderFormArgs, OrderResultView, QuoteView, TradesView } from "./bindings";
import { h } from "./dom";
import { errorText, field, isMayBeUnknown, isNotPermitted, isSameAsUnknown } from "./form";
import { t } from "./lib/i18n.svelte";

type Context = {
  app: AppView | null;
  balances: BalancesView | null;
  quote: QuoteView | null;
  quoteAmount: string;
  setQuoteAmount: (amount: string) => void;
  rerender: () => void;
  reloadBalances: () => Promise<void>;
  /** Reads the app's view again: what a refusal taught (a key without a permission) shows at once. */
  reloadApp: () => Promise<void>;
  /** Reads the unknown orders and payments again, for the banner. */
  refreshUnknowns: () => Promise<void>;
};

let ctx: Context = { app: null, balances: null, quote: null, quoteAmount: "", setQuoteAmount: () => {}, rerender: () => {}, reloadBalances: async () => {}, reloadApp: async () => {}, refreshUnknowns: async () => {} };
let quoteTimer: number | undefined;
let history: TradesView | null = null;
let orders: OpenOrdersView | null = null;
let journal: JournalView | null = null;
let form: OrderFormArgs = { orderType: "market", direction: "buy", amount: "", price: null, accountId: null };
let checked: OrderCheckView | null = null;
let confirming = false;
/** The open order whose cancel was held back by an unknown order quiet for long. */
let cancelDoubt: string | null = null;
/** The last order was refused because the same one is still unknown: offer a second confirmation. */
let doubt = false;
let sending = false;
let result: OrderResultView | null = null;
let error: string | null = null;
let cancelArmed: string | null = null;
let checkTimer: number | undefined;
/** The form `checked` was computed for; the order sent is always the one reviewed. */
let checkedForm: OrderFormArgs | null = null;
let resolveTimer: number | undefined;

/** Whether the user is in the confirmation step; background updates wait until it is over. */
export function isConfirming(): boolean {
  return confirming || sending;
}

export function setTradeContext(c: Context): void {
  ctx = c;
}


/** Rows new to the history: a trade made elsewhere, or the fill of an open order. */
export async function historyChanged(): Promise<void> {
  try {
    history = await api.tradeHistory({});
    ctx.rerender();
  } catch {
    // The screen keeps what it showed; the next change reads it again.
  }
}

export async function refreshTrading(): Promise<void> {
  try {
    [orders, journal] = await Promise.all([api.openOrders({}), api.resolveOrders({})]);
    ctx.rerender();
    history = await api.tradeHistory({});
  } catch (e) {
    error = errorText(e);
  }
  ctx.rerender();
}

function scheduleCheck(): void {
  window.clearTimeout(checkTimer);
  checkTimer = window.setTimeout(async () => {
    if (!form.amount.trim()) {
      checked = null;
      ctx.rerender();
      return;
    }
    const asked = form;
    try {
      const answer = await api.checkOrder(asked);
      // An answer for a form since changed is dropped: the next check is on its way.
      if (form === asked) {
        checked = answer;
        checkedForm = asked;
      }
    } catch (e) {
      error = errorText(e);
    }
    ctx.rerender();
  }, 200);
}

/** Whether the checks on screen are for the form as it is now: only then can it be reviewed. */
function checkIsCurrent(): boolean {
  return checked !== null && checkedForm === form;
}

function set(patch: Partial<OrderFormArgs>): void {
  form = { ...form, ...patch };
  confirming = false;
  result = null;
  scheduleCheck();
}

function prefillPrice(): void {
  const quote = ctx.quote;
  if (form.orderType === "limit" && quote) {
    set({ price: form.direction === "buy" ? quote.bidRaw : quote.askRaw });
  }
}

/** After "unknown", the app keeps checking the account itself until it knows. */
function followUnknown(): void {
  window.clearTimeout(resolveTimer);
  resolveTimer = window.setTimeout(async () => {
    try {
      journal = await api.resolveOrders({});
      const latest = journal.entries[0];
      if (latest && latest.state !== "unknown" && latest.state !== "sending") {
        result = {
          outcome: latest.state === "placed" ? "placed" : "notPlaced",
          orderId: latest.orderId,
          tradeId: latest.tradeId,
          message: latest.state === "placed" ? t("The order was placed.") : t("The order was not placed. Nothing was taken."),
        };
        await ctx.reloadBalances();
        orders = await api.openOrders({});
      } else {
        followUnknown();
      }
    } catch (e) {
      error = errorText(e);
      followUnknown();
    }
    ctx.rerender();
  }, 2000);
}

async function submit(despiteUnknown = false): Promise<void> {
  if (sending) return;
  sending = true;
  error = null;
  doubt = false;
  ctx.rerender();
  try {
    result = await api.placeOrder(despiteUnknown ? { ...form, despiteUnknown: true } : form);
    confirming = false;
    if (result.outcome === "unknown") followUnknown();
    else form = { ...form, amount: "" };
    checked = null;
    await ctx.reloadBalances();
    [orders, journal] = await Promise.all([api.openOrders({}), api.resolveOrders({})]);
    // A fill shows in the history at once (it stayed as it was until the screen was left).
    history = await api.tradeHistory({});
    void ctx.refreshUnknowns();
  } catch (e) {
    error = errorText(e);
    // Nothing stays armed after doubt: a second order needs a new review.
    confirming = false;
    doubt = isSameAsUnknown(e);
    if (isNotPermitted(e)) void ctx.reloadApp();
  } finally {
    sending = false;
    ctx.rerender();
  }
}

async function cancel(id: string, anyway = false): Promise<void> {
  if (cancelArmed !== id && !anyway) {
    cancelArmed = id;
    ctx.rerender();
    return;
  }
  cancelArmed = null;
  cancelDoubt = null;
  try {
    orders = await api.cancelOrder(anyway ? { orderId: id, anyway: true } : { orderId: id });
    result = null;
    error = null;
    await ctx.reloadBalances();
  } catch (e) {
    error = errorText(e);
    // An unknown order quiet for long could be this one: the user may cancel anyway.
    if (isMayBeUnknown(e)) cancelDoubt = id;
    orders = await api.openOrders({}).catch(() => orders);
  }
  ctx.rerender();
}


export function trade(): Node {
  const app = ctx.app;
  if (!app) return h("p", {});
  const trading = app.connection.trading;
  const accounts = (ctx.balances?.accounts ?? []).filter((a) => !a.deleted);
  const unit = form.direction === "buy" ? "NOK" : "BTC";
  const radio = (name: string, value: string, label: string, current: string, onpick: () => void) =>
    h("label", { class: "choice" }, h("input", { type: "radio", name, value, "data-testid": `${name}-${value}`, ...(current === value ? { checked: true } : {}), onchange: onpick }), " ", label);
  const amount = h("input", { "data-testid": "order-amount", inputmode: "decimal", value: form.amount, oninput: (e: Event) => set({ amount: (e.target as HTMLInputElement).value }) });
  const price = h("input", { "data-testid": "order-price", inputmode: "decimal", value: form.price ?? "", oninput: (e: Event) => set({ price: (e.target as HTMLInputElement).value }) });
  const account = h("select", { "data-testid": "order-account", onchange: (e: Event) => set({ accountId: (e.target as HTMLSelectElement).value || null }) },
    ...accounts.map((a) => h("option", { value: a.id, ...(form.accountId === a.id ? { selected: true } : {}) }, `${a.name} — ${a.availableBtc}`)));
  const quote = ctx.quote;
  const quoteFor = h("input", { "data-testid": "quote-amount", inputmode: "decimal", placeholder: "5000", value: ctx.quoteAmount, oninput: (e: Event) => {
    const v = (e.target as HTMLInputElement).value;
    window.clearTimeout(quoteTimer);
    quoteTimer = window.setTimeout(() => ctx.setQuoteAmount(v), 300);
  } });
  const quoteCard = quote
    ? h("div", { class: "cards" },
        h("div", { class: "card" }, h("label", {}, t("Quote for (NOK)"), quoteFor), h("div", { class: "muted", "data-testid": "quote-for" }, quote.forAmount ?? `${t("default")} 5 000`)),
        h("div", { class: "card" }, h("div", { class: "label" }, t("Bid"), " / ", t("Ask")), h("div", { class: "big quote", "data-testid": "quote" }, h("div", {}, quote.bid), h("div", {}, quote.ask))),
        h("div", { class: "card" }, h("div", { class: "label" }, t("Bank transfer")), h("div", {}, `${t("Buy")} ${quote.bankBuy}`), h("div", {}, `${t("Sell")} ${quote.bankSell}`)),
        h("div", { class: "card" }, h("div", { class: "label" }, t("Card")), h("div", {}, `${t("Buy")} ${quote.cardBuy}`), h("div", {}, `${t("Sell")} ${quote.cardSell}`)))
    : null;
  return h(
    "section",
    { class: "trade" },
    quoteCard,
    !trading.allowed ? h("p", { class: "message error", "data-testid": "trading-disabled" }, trading.reason ?? "") : null,
    error ? h("p", { class: "message error", "data-testid": "trade-error" }, error) : null,
    cancelDoubt
      ? h("div", { class: "row" },
          h("button", { type: "button", "data-testid": `cancel-anyway-${cancelDoubt}`, onclick: () => void cancel(cancelDoubt ?? "", true) }, t("Cancel anyway")),
          h("button", { type: "button", onclick: () => { cancelDoubt = null; error = null; ctx.rerender(); } }, t("Back")))
      : null,
    doubt
      ? h("div", { class: "confirm", "data-testid": "order-doubt" },
          h("p", { class: "warning" }, t("The same order may already have been placed. Place another one anyway?")),
          h("div", { class: "row" },
            h("button", { type: "button", "data-testid": "order-despite-unknown", disabled: sending, onclick: () => void submit(true) }, t("Place another one")),
            h("button", { type: "button", disabled: sending, onclick: () => { doubt = false; ctx.rerender(); } }, t("Back"))))
      : null,
    result ? h("p", { class: `message ${result.outcome === "unknown" ? "error" : "ok"}`, "data-testid": `order-${result.outcome}` }, result.message) : null,
    h("h2", {}, t("New order"), " ", ctx.balances?.sandbox ? h("span", { class: "badge sandbox small" }, t("Sandbox")) : null),
    h("div", { class: "row" },
      radio("type", "market", t("Market"), form.orderType, () => set({ orderType: "market", price: null })),
      radio("type", "limit", t("Limit"), form.orderType, () => { set({ orderType: "limit" }); prefillPrice(); }),
      radio("direction", "buy", t("Buy"), form.direction, () => { set({ direction: "buy" }); prefillPrice(); }),
      radio("direction", "sell", t("Sell"), form.direction, () => { set({ direction: "sell" }); prefillPrice(); })),
    h("div", { class: "stack" },
      field(`${t("Amount")} (${unit})`, amount, checked?.amountError, "order-amount"),
      form.orderType === "limit" ? field(t("Limit price (NOK per BTC)"), price, checked?.priceError, "order-price") : null,
      form.direction === "sell" || accounts.length > 1 ? field(t("Account"), account, null, "order-account") : null,
      checked?.estimate ? h("p", { class: "muted", "data-testid": "order-estimate" }, `≈ ${checked.estimate}`) : null,
      checked?.warning ? h("p", { class: "warning", "data-testid": "order-warning" }, checked.warning) : null,
      confirming && checkIsCurrent() && checked?.summary
        ? h("div", { class: "confirm" },
            h("p", { "data-testid": "order-summary" }, checked.summary),
            h("div", { class: "row" },
              h("button", { type: "button", "data-testid": "order-confirm", disabled: sending, onclick: () => void submit() }, sending ? t("Sending…") : t("Confirm")),
              h("button", { type: "button", disabled: sending, onclick: () => { confirming = false; ctx.rerender(); } }, t("Back"))))
        : h("button", { type: "button", "data-testid": "order-review", disabled: !trading.allowed || !checkIsCurrent() || !checked?.ok || sending, onclick: () => { confirming = true; ctx.rerender(); } }, t("Review order")),
    ),
    h("h2", {}, t("Open orders")),
    orders && orders.orders.length > 0
      ? h("table", { class: "accounts" },
          h("thead", {}, h("tr", {}, h("th", {}, t("Type")), h("th", {}, t("Direction")), h("th", { class: "num" }, t("Amount")), h("th", {}, t("Age")), h("th", {}))),
          h("tbody", {}, ...orders.orders.map((o) =>
            h("tr", { "data-testid": "open-order", "data-order-id": o.orderId },
              h("td", {}, t(o.orderType === "limit" ? "Limit" : "Market")),
              h("td", {}, t(o.direction === "buy" ? "Buy" : "Sell")),
              h("td", { class: "num" }, o.amount),
              h("td", {}, o.age),
              h("td", {}, h("button", { class: "danger", "data-testid": `cancel-${o.orderId}`, disabled: !trading.allowed, onclick: () => void cancel(o.orderId) },
                cancelArmed === o.orderId ? t("Confirm cancel") : t("Cancel")))))))
      : h("p", { class: "muted", "data-testid": "no-open-orders" }, t("No open orders.")),
    history
      ? h("div", {}, h("h2", {}, t("Trade history")),
          history.trades.length === 0
            ? h("p", { class: "muted" }, t("No trades yet."))
            : h("table", { class: "accounts", "data-testid": "trade-history" },
                h("thead", {}, h("tr", {}, h("th", {}, t("Time")), h("th", {}, t("Direction")), h("th", {}, t("Account")), h("th", { class: "num" }, "BTC"), h("th", { class: "num" }, "NOK"), h("th", { class: "num" }, t("Price")), h("th", { class: "num" }, t("Fee")))),
                h("tbody", {}, ...history.trades.slice(0, 50).map((tr) =>
                  h("tr", { "data-testid": "trade-row" }, h("td", {}, tr.time), h("td", {}, t(tr.direction === "buy" ? "Buy" : "Sell")), h("td", {}, tr.account),
                    h("td", { class: "num" }, tr.btc), h("td", { class: "num" }, tr.nok), h("td", { class: "num" }, tr.price), h("td", { class: "num" }, tr.fee))))))
      : null,
    journal && journal.entries.length > 0
      ? h("div", {}, h("h2", {}, t("Recent orders")),
          h("ul", { class: "journal" }, ...journal.entries.slice(0, 8).map((e) =>
            h("li", { "data-testid": "journal-entry", "data-state": e.state }, `${e.what} — ${t(e.state)}`))))
      : null,
  );
}
