// The receive screen: standing destinations with QR codes, Lightning invoices with live status
// and expiry countdown, and the recent invoices.
import * as api from "./bindings";
import type { BalancesView, BitcoinAmountUnit, InvoiceView, InvoicesView, QrView, ReceiveView } from "./bindings";
import { h } from "./dom";
import { errorText, oneOf } from "./form";
import { t } from "./lib/i18n.svelte";

type Context = {
  balances: BalancesView | null;
  rerender: () => void;
  reloadBalances: () => Promise<void>;
};

type Standing = "unified" | "onchain" | "lightningAddress" | "lnurl";

let ctx: Context = { balances: null, rerender: () => {}, reloadBalances: async () => {} };
let accountId: string | null = null;
let destinations: ReceiveView | null = null;
let shown: Standing = "unified";
let invoice: InvoiceView | null = null;
let recent: InvoicesView | null = null;
const UNITS: BitcoinAmountUnit[] = ["sats", "btc", "nok"];
let form: { amount: string; unit: BitcoinAmountUnit; publicDescription: string; privateNote: string } = { amount: "", unit: "sats", publicDescription: "", privateNote: "" };
let error: string | null = null;
let creating = false;
let copied: string | null = null;

export function setReceiveContext(c: Context): void {
  ctx = c;
}


export async function refreshReceive(): Promise<void> {
  error = null;
  try {
    destinations = await api.receiveDestinations({ accountId });
    if (!destinations.unified && shown === "unified") shown = "onchain";
    ctx.rerender();
    recent = await api.recentInvoices({});
  } catch (e) {
    error = errorText(e);
  }
  ctx.rerender();
}

function svgUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

async function copy(text: string, id: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    copied = id;
  } catch {
    copied = null;
    error = t("Could not copy: select the text and copy it by hand.");
  }
  ctx.rerender();
}

function qrBlock(q: QrView, id: string): Node {
  return h("div", { class: "qr-block", "data-testid": `qr-${id}` },
    h("img", { class: "qr", src: svgUrl(q.svg), alt: t("QR code"), "data-testid": `qr-image-${id}`, "data-uri": q.uri }),
    h("div", { class: "qr-text" },
      h("code", { class: "copyable", "data-testid": `text-${id}` }, q.text),
      h("button", { type: "button", "data-testid": `copy-${id}`, onclick: () => void copy(q.text, id) }, copied === id ? t("Copied") : t("Copy"))));
}

/** Seconds left until `iso`, as "9:41" or "1 h 2 min". */
export function countdown(iso: string): string {
  const left = Math.max(0, Math.floor((Date.parse(iso) - Date.now()) / 1000));
  if (left === 0) return t("expired");
  if (left >= 3600) return `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** Updates every countdown on screen once a second without rebuilding the screen. */
export function tickCountdowns(): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-expires-at]")) {
    el.textContent = countdown(el.dataset.expiresAt ?? "");
  }
}

function isOpen(i: InvoiceView): boolean {
  return i.status === "unpaid" || i.status === "pending";
}

/** The backend saw an invoice change (paid, expired…): the one on screen and the list are read again. */
export async function invoicesChanged(): Promise<void> {
  try {
    if (invoice) {
      const next = await api.invoiceStatus({ id: invoice.id });
      if (next.status === "paid" && invoice.status !== "paid") await ctx.reloadBalances();
      invoice = next;
    }
    recent = await api.recentInvoices({});
  } catch {
    // Read again on the next change; the last known status stays on screen.
  }
  ctx.rerender();
}

async function create(): Promise<void> {
  if (creating) return;
  creating = true;
  error = null;
  ctx.rerender();
  try {
    invoice = await api.createInvoice({ accountId, ...form });
    recent = await api.recentInvoices({});
  } catch (e) {
    error = errorText(e);
  } finally {
    creating = false;
    ctx.rerender();
  }
}

function standingSection(d: ReceiveView): Node {
  const options: [Standing, string, QrView | null][] = [
    ["unified", t("Bitcoin or Lightning"), d.unified],
    ["onchain", t("On-chain address"), d.onchain],
    ["lightningAddress", t("Lightning address"), d.lightningAddress],
    ["lnurl", "LNURL-pay", d.lnurl],
  ];
  const current = options.find((o) => o[0] === shown && o[2]) ?? options[1];
  return h("div", {},
    h("p", { class: "muted" }, t("These always work, for any amount.")),
    h("div", { class: "row" }, ...options.filter((o) => o[2]).map(([id, label]) =>
      h("button", { class: id === current[0] ? "tab active" : "tab", "data-testid": `standing-${id}`, onclick: () => { shown = id; ctx.rerender(); } }, label))),
    current[2] ? qrBlock(current[2], current[0]) : null,
    current[0] === "onchain" || current[0] === "unified"
      ? h("p", { class: "muted", "data-testid": "address-note" }, t("This is your newest address. It changes after each deposit; older addresses stay valid."))
      : null);
}

function invoiceCard(i: InvoiceView): Node {
  return h("div", { class: "card invoice", "data-testid": "invoice", "data-status": i.status, "data-invoice-id": i.id },
    h("div", { class: "row" },
      h("strong", { "data-testid": "invoice-amount" }, i.amount), " ",
      i.amountNok ? h("span", { class: "muted" }, i.amountNok) : null, " ",
      i.requested ? h("span", { class: "muted" }, `(${i.requested})`) : null),
    h("p", { class: `status ${i.status}`, "data-testid": "invoice-status" }, i.statusText),
    isOpen(i) ? h("p", { class: "muted" }, t("Expires in"), " ", h("span", { "data-testid": "invoice-countdown", "data-expires-at": i.expiresAt }, countdown(i.expiresAt))) : null,
    i.qr && isOpen(i) ? qrBlock(i.qr, "invoice") : null,
    i.publicDescription ? h("p", {}, t("Description"), ": ", i.publicDescription) : null,
    i.privateNote ? h("p", { class: "muted" }, t("Private note"), ": ", i.privateNote) : null);
}

export function receive(): Node {
  const accounts = (ctx.balances?.accounts ?? []).filter((a) => !a.deleted);
  const account = h("select", { "data-testid": "receive-account", onchange: (e: Event) => { accountId = (e.target as HTMLSelectElement).value || null; void refreshReceive(); } },
    ...accounts.map((a) => h("option", { value: a.id, ...(accountId === a.id ? { selected: true } : {}) }, a.name)));
  const input = (key: "amount" | "publicDescription" | "privateNote", attrs: Record<string, string> = {}) =>
    h("input", { "data-testid": `invoice-${key}`, value: form[key], ...attrs, oninput: (e: Event) => { form[key] = (e.target as HTMLInputElement).value; } });
  const unit = h("select", { "data-testid": "invoice-unit", onchange: (e: Event) => { form.unit = oneOf((e.target as HTMLSelectElement).value, UNITS, "sats"); } },
    ...[["sats", "sats"], ["btc", "BTC"], ["nok", "NOK"]].map(([v, label]) => h("option", { value: v, ...(form.unit === v ? { selected: true } : {}) }, label)));
  return h("section", { class: "receive" },
    error ? h("p", { class: "message error", "data-testid": "receive-error" }, error) : null,
    accounts.length > 1 ? h("label", {}, t("To account"), account) : null,
    h("h2", {}, t("Standing destinations"), " ", ctx.balances?.sandbox ? h("span", { class: "badge sandbox small" }, t("Sandbox")) : null),
    destinations ? standingSection(destinations) : h("p", { class: "muted" }, `${t("Loading")}…`),
    h("h2", {}, t("Lightning invoice")),
    h("form", { class: "stack", onsubmit: (e: Event) => { e.preventDefault(); void create(); } },
      h("div", { class: "row" }, h("label", {}, t("Amount (empty: any amount)"), input("amount", { inputmode: "decimal" })), h("label", {}, t("Unit"), unit)),
      form.unit === "nok" ? h("p", { class: "muted" }, t("The exchange converts NOK to a fixed bitcoin amount when the invoice is made.")) : null,
      h("label", {}, t("Public description"), input("publicDescription")),
      h("p", { class: "muted" }, t("It goes into the invoice as a hash: most wallets will not show it to the payer.")),
      h("label", {}, t("Private note (only you see it)"), input("privateNote")),
      h("button", { type: "submit", "data-testid": "create-invoice", disabled: creating }, creating ? t("Creating…") : t("Create invoice"))),
    invoice ? invoiceCard(invoice) : null,
    recent && recent.invoices.length > 0
      ? h("div", {}, h("h2", {}, t("Recent invoices")),
          h("table", { class: "accounts", "data-testid": "recent-invoices" },
            h("thead", {}, h("tr", {}, h("th", {}, t("Created")), h("th", { class: "num" }, t("Amount")), h("th", {}, t("Description")), h("th", {}, t("Status")))),
            h("tbody", {}, ...recent.invoices.map((i) =>
              h("tr", { "data-testid": "recent-invoice", "data-status": i.status },
                h("td", {}, i.createdAt),
                h("td", { class: "num" }, i.amount),
                h("td", {}, i.publicDescription || i.privateNote),
                h("td", {}, i.statusText))))))
      : null);
}
