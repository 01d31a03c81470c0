// The pay screen: one destination field understood before anything is sent, the amount in BTC,
// sats or NOK, the travel-rule recipient for new destinations, a confirmation, the payment's
// status until it is settled, and the address book of saved recipients.
import * as api from "./bindings";
import type { AppView, BalancesView, BitcoinAmountUnit, CountryView, PayArgs, PayCheckView, PaymentResultView, PaymentsView, RecipientView, RecipientsView } from "./bindings";
import { h } from "./dom";
import { errorText, field, isNotReviewed, isNotPermitted, isSameAsUnknown, oneOf } from "./form";
import { t } from "./lib/i18n.svelte";
import { countdown } from "./legacy_countdown";

type Context = {
  app: AppView | null;
  balances: BalancesView | null;
  rerender: () => void;
  reloadBalances: () => Promise<void>;
  /** Reads the app's view again: what a refusal taught (a key without a permission) shows at once. */
  reloadApp: () => Promise<void>;
  /** Reads the unknown orders and payments again, for the banner. */
  refreshUnknowns: () => Promise<void>;
};

const UNITS: BitcoinAmountUnit[] = ["sats", "btc", "nok"];
const emptyRecipient = { fullName: "", country: "", address: "", nin: "", organisation: false, exchange: "", selfCustody: false };
const emptyForm = (): PayArgs => ({ destination: "", amount: "", unit: "sats", accountId: null, isPayment: false, description: "", recipient: { ...emptyRecipient }, saveRecipient: true, label: "" });

let ctx: Context = { app: null, balances: null, rerender: () => {}, reloadBalances: async () => {}, reloadApp: async () => {}, refreshUnknowns: async () => {} };
let form: PayArgs = emptyForm();
let checked: PayCheckView | null = null;
let confirming = false;
let checkedForm: PayArgs | null = null;
/** The last payment was refused because the same one is still unknown: offer a second confirmation. */
let doubt = false;
let sending = false;
let result: PaymentResultView | null = null;
let payments: PaymentsView | null = null;
let book: RecipientsView | null = null;
let countries: CountryView[] = [];
let editing: RecipientView | null = null;
let deleteArmed: string | null = null;
let error: string | null = null;
let checkTimer: number | undefined;

export function setPayContext(c: Context): void {
  ctx = c;
}

/** Whether the user is confirming or sending; background updates wait until it is over. */
export function isPaying(): boolean {
  return confirming || sending;
}


export async function refreshPay(): Promise<void> {
  try {
    if (countries.length === 0) countries = (await api.countries({})).countries;
    [payments, book] = await Promise.all([api.payments({}), api.recipients({})]);
  } catch (e) {
    error = errorText(e);
  }
  ctx.rerender();
}

function scheduleCheck(): void {
  window.clearTimeout(checkTimer);
  checkTimer = window.setTimeout(async () => {
    if (!form.destination.trim() && !form.amount.trim()) {
      checked = null;
      ctx.rerender();
      return;
    }
    const asked = form;
    try {
      const answer = await api.checkPayment(asked);
      // An answer for a form since changed is dropped: the next check is on its way.
      if (form === asked) {
        checked = answer;
        checkedForm = asked;
        error = null;
        // An invoice's payee node serves many people: a saved recipient only prefills the form.
        const saved = answer.needsRecipient ? answer.savedRecipient : null;
        if (saved && !form.recipient.fullName.trim() && !form.recipient.address.trim()) {
          setRecipient({ fullName: saved.fullName, country: saved.country, address: saved.address, nin: saved.nin, exchange: saved.exchange, selfCustody: saved.selfCustody });
        }
      }
    } catch (e) {
      error = errorText(e);
    }
    ctx.rerender();
  }, 200);
}

/** Whether the checks on screen are for the form as it is now: only then can it be confirmed. */
function checkIsCurrent(): boolean {
  return checked !== null && checkedForm === form;
}

function set(patch: Partial<PayArgs>): void {
  form = { ...form, ...patch };
  confirming = false;
  result = null;
  scheduleCheck();
}

function setRecipient(patch: Partial<PayArgs["recipient"]>): void {
  set({ recipient: { ...form.recipient, ...patch } });
}

/** The backend settled a payment or saw one end on its network: the list is read again. */
export async function paymentsChanged(): Promise<void> {
  try {
    payments = await api.payments({});
    if (result) {
      const mine = payments.payments.find((p) => p.journalId === result!.payment.journalId);
      if (mine) result = { ...result, payment: mine };
    }
    await ctx.reloadBalances();
  } catch {
    // Read again on the next change.
  }
  ctx.rerender();
}

async function submit(despiteUnknown = false): Promise<void> {
  if (sending) return;
  sending = true;
  error = null;
  doubt = false;
  ctx.rerender();
  try {
    // Sent as confirmed: the form the check was for (the app refuses any other), and for an
    // amount in NOK the BTC amount shown.
    const confirmed = form.unit === "nok" && checked?.amountBtcRaw ? { confirmedAmountBtc: checked.amountBtcRaw } : {};
    const reviewed = checked ? { reviewed: checked.reviewed } : {};
    result = await api.sendPayment({ ...form, ...confirmed, ...reviewed, ...(despiteUnknown ? { despiteUnknown: true } : {}) });
    confirming = false;
    form = { ...emptyForm(), unit: form.unit, accountId: form.accountId };
    checked = null;
    [payments, book] = await Promise.all([api.payments({}), api.recipients({})]);
    void ctx.refreshUnknowns();
    await ctx.reloadBalances();
  } catch (e) {
    error = errorText(e);
    confirming = false;
    doubt = isSameAsUnknown(e);
    if (isNotPermitted(e)) void ctx.reloadApp();
    // Refused as not the form reviewed: check the form as it is, for a new review.
    if (isNotReviewed(e)) scheduleCheck();
  } finally {
    sending = false;
    ctx.rerender();
  }
}


function countryPicker(value: string, onpick: (code: string) => void, id: string): HTMLSelectElement {
  return h("select", { "data-testid": id, onchange: (e: Event) => onpick((e.target as HTMLSelectElement).value) },
    h("option", { value: "" }, "—"),
    ...countries.map((c) => h("option", { value: c.code, ...(c.code === value ? { selected: true } : {}) }, `${c.name} (${c.code})`)));
}

function recipientForm(): Node {
  const r = form.recipient;
  const errors = checked?.recipientErrors;
  const text = (key: "fullName" | "address" | "nin" | "exchange", id: string) =>
    h("input", { "data-testid": id, value: r[key], oninput: (e: Event) => setRecipient({ [key]: (e.target as HTMLInputElement).value }) });
  const box = (key: "organisation" | "selfCustody", id: string) =>
    h("input", { type: "checkbox", "data-testid": id, ...(r[key] ? { checked: true } : {}), onchange: (e: Event) => setRecipient({ [key]: (e.target as HTMLInputElement).checked }) });
  return h("fieldset", { class: "stack recipient", "data-testid": "recipient-form" },
    h("legend", {}, t("Recipient (required by law for a new destination)")),
    h("label", { class: "toggle" }, box("organisation", "recipient-organisation"), " ", t("The recipient is an organisation")),
    field(r.organisation ? t("Registered name") : t("Full name"), text("fullName", "recipient-name"), errors?.fullName, "recipient-name"),
    field(t("Address"), text("address", "recipient-address"), errors?.address, "recipient-address"),
    field(t("Country"), countryPicker(r.country, (c) => setRecipient({ country: c }), "recipient-country"), errors?.country, "recipient-country"),
    field(r.organisation ? t("Organisation number (9 digits)") : t("National identity number (if asked for)"), text("nin", "recipient-nin"), errors?.nin, "recipient-nin"),
    field(t("Exchange (if it is an account at another exchange)"), text("exchange", "recipient-exchange"), null, "recipient-exchange"),
    h("label", { class: "toggle" }, box("selfCustody", "recipient-self-custody"), " ", t("A wallet the recipient controls themselves")),
    h("label", { class: "toggle" },
      h("input", { type: "checkbox", "data-testid": "save-recipient", ...(form.saveRecipient ? { checked: true } : {}), onchange: (e: Event) => { form.saveRecipient = (e.target as HTMLInputElement).checked; } }),
      " ", t("Save in the address book")),
    form.saveRecipient ? field(t("Name in the address book"), h("input", { "data-testid": "recipient-label", value: form.label, oninput: (e: Event) => { form.label = (e.target as HTMLInputElement).value; } }), null, "recipient-label") : null);
}

function paymentStatus(): Node | null {
  if (!result) return null;
  const p = result.payment;
  const bad = p.state === "unknown" || p.state === "sending" || p.status === "failed";
  return h("div", { class: `card payment-status ${bad ? "warn" : ""}`, "data-testid": "payment-status", "data-state": p.state, "data-status": p.status ?? "" },
    h("p", { class: `message ${bad ? "error" : "ok"}`, "data-testid": "payment-message" }, result.message),
    h("p", {}, h("strong", {}, p.amount), " → ", h("code", {}, p.destination)),
    h("p", { "data-testid": "payment-status-text" }, p.statusText),
    p.withdrawalId ? h("p", { class: "muted" }, `${t("Reference")}: ${p.withdrawalId}`) : null);
}

function addressBook(): Node {
  if (!book || book.recipients.length === 0) return h("p", { class: "muted", "data-testid": "address-book-empty" }, t("No saved recipients yet: they are added when you pay a new destination."));
  return h("ul", { class: "address-book", "data-testid": "address-book" }, ...book.recipients.map((r) =>
    editing?.identity === r.identity
      ? h("li", { class: "stack" }, recipientEditor(editing))
      : h("li", { "data-testid": "saved-recipient", "data-identity": r.identity },
          h("strong", {}, r.label || r.destination), " ",
          r.locked
            ? h("span", { class: "badge", "data-testid": "recipient-locked", title: t("The system keyring is locked, so this recipient's details cannot be read. Unlock it and restart Nordlys, or enter them again when you pay.") }, t("Locked"))
            : h("span", { class: "muted" }, `${r.fullName}${r.country ? ` (${r.country})` : ""}`),
          " ",
          h("code", {}, r.destination), " ",
          h("button", { type: "button", "data-testid": `pay-to-${r.identity}`, onclick: () => { set({ destination: r.destination }); window.scrollTo(0, 0); } }, t("Pay")),
          h("button", { type: "button", onclick: () => { editing = { ...r }; ctx.rerender(); } }, t("Edit")),
          h("button", { type: "button", class: "danger", onclick: () => void remove(r.identity) }, deleteArmed === r.identity ? t("Confirm delete") : t("Delete")))));
}

function recipientEditor(r: RecipientView): Node {
  const input = (key: "label" | "fullName" | "address" | "nin" | "exchange", label: string) =>
    h("label", {}, label, h("input", { value: r[key], oninput: (e: Event) => { r[key] = (e.target as HTMLInputElement).value; } }));
  return h("form", { class: "stack", "data-testid": "recipient-editor", onsubmit: async (e: Event) => {
      e.preventDefault();
      try {
        book = await api.saveRecipient(r);
        editing = null;
        error = null;
      } catch (err) {
        error = errorText(err);
      }
      ctx.rerender();
    } },
    input("label", t("Name in the address book")), input("fullName", t("Full name")), input("address", t("Address")),
    h("label", {}, t("Country"), countryPicker(r.country, (c) => { r.country = c; }, "editor-country")),
    input("nin", t("National identity or organisation number")), input("exchange", t("Exchange")),
    h("div", { class: "row" }, h("button", { type: "submit" }, t("Save")), h("button", { type: "button", onclick: () => { editing = null; ctx.rerender(); } }, t("Back"))));
}

async function remove(identity: string): Promise<void> {
  if (deleteArmed !== identity) {
    deleteArmed = identity;
    ctx.rerender();
    return;
  }
  deleteArmed = null;
  try {
    book = await api.deleteRecipient({ identity });
  } catch (e) {
    error = errorText(e);
  }
  ctx.rerender();
}

export function pay(): Node {
  const app = ctx.app;
  if (!app) return h("p", {});
  const allowed = app.connection.withdrawal;
  const accounts = (ctx.balances?.accounts ?? []).filter((a) => !a.deleted);
  const c = checked;
  const destination = h("textarea", { "data-testid": "pay-destination", rows: "2", spellcheck: "false", placeholder: t("Address, Lightning invoice, Lightning address or LNURL"), oninput: (e: Event) => set({ destination: (e.target as HTMLTextAreaElement).value }) });
  destination.value = form.destination;
  const amount = h("input", { "data-testid": "pay-amount", inputmode: "decimal", value: form.amount, oninput: (e: Event) => set({ amount: (e.target as HTMLInputElement).value }) });
  const unit = h("select", { "data-testid": "pay-unit", onchange: (e: Event) => set({ unit: oneOf((e.target as HTMLSelectElement).value, UNITS, "sats") }) },
    ...[["sats", "sats"], ["btc", "BTC"], ["nok", "NOK"]].map(([v, label]) => h("option", { value: v, ...(form.unit === v ? { selected: true } : {}) }, label)));
  const account = h("select", { "data-testid": "pay-account", onchange: (e: Event) => set({ accountId: (e.target as HTMLSelectElement).value || null }) },
    ...accounts.map((a) => h("option", { value: a.id, ...(form.accountId === a.id ? { selected: true } : {}) }, `${a.name} — ${a.availableBtc}`)));
  const description = h("input", { "data-testid": "pay-description", value: form.description, oninput: (e: Event) => set({ description: (e.target as HTMLInputElement).value }) });
  return h("section", { class: "pay" },
    !allowed.allowed ? h("p", { class: "message error", "data-testid": "pay-disabled" }, allowed.reason ?? "") : null,
    error ? h("p", { class: "message error", "data-testid": "pay-error" }, error) : null,
    doubt
      ? h("div", { class: "confirm", "data-testid": "pay-doubt" },
          h("p", { class: "warning" }, t("The same payment may already have been sent. Send another one anyway?")),
          h("div", { class: "row" },
            h("button", { type: "button", "data-testid": "pay-despite-unknown", disabled: sending, onclick: () => void submit(true) }, t("Send another one")),
            h("button", { type: "button", disabled: sending, onclick: () => { doubt = false; ctx.rerender(); } }, t("Back"))))
      : null,
    paymentStatus(),
    h("h2", {}, t("Pay"), " ", ctx.balances?.sandbox ? h("span", { class: "badge sandbox small" }, t("Sandbox")) : null),
    h("div", { class: "stack" },
      field(t("To"), destination, c?.destinationError, "pay-destination"),
      c?.recognised
        ? h("p", { class: "recognised", "data-testid": "pay-recognised", "data-kind": c.kind ?? "" }, c.recognised,
            c.expiresAt ? h("span", { class: "muted" }, " · ", t("time left"), " ", h("span", { "data-expires-at": c.expiresAt }, countdown(c.expiresAt))) : null)
        : null,
      c?.fixedAmount
        ? h("p", { "data-testid": "pay-fixed-amount" }, t("Amount from the invoice"), ": ", h("strong", {}, c.fixedAmount), " ", c.estimate ?? "")
        : h("div", { class: "row" }, field(t("Amount"), amount, c?.amountError, "pay-amount"), h("label", {}, t("Unit"), unit)),
      !c?.fixedAmount && c?.estimate ? h("p", { class: "muted", "data-testid": "pay-estimate" }, c.estimate) : null,
      c?.fixedAmount && c.amountError ? h("span", { class: "field-error", "data-testid": "pay-amount-error" }, c.amountError) : null,
      field(t("From account"), account, null, "pay-account"),
      c ? h("p", { class: "muted", "data-testid": "pay-available" }, `${t("Available")}: ${c.available}`) : null,
      h("label", { class: "toggle" },
        h("input", { type: "checkbox", "data-testid": "pay-is-payment", ...(form.isPayment ? { checked: true } : {}), onchange: (e: Event) => set({ isPayment: (e.target as HTMLInputElement).checked }) }),
        " ", t("This is a payment for goods or services (counts as a sale for tax)")),
      field(t("Description (for your records)"), description, null, "pay-description"),
      c?.savedRecipient && c.needsRecipient
        ? h("p", { class: "muted", "data-testid": "pay-prefilled-recipient" }, t("Filled in from a saved recipient paid through the same Lightning node. One node serves many people: check that this is them."))
        : null,
      c?.savedRecipient && !c.needsRecipient
        ? h("p", { class: "muted", "data-testid": "pay-saved-recipient" }, t("Saved recipient"), ": ", `${c.savedRecipient.fullName}${c.savedRecipient.country ? ` (${c.savedRecipient.country})` : ""}`)
        : null,
      c?.needsRecipient ? recipientForm() : null,
      confirming && c?.ok && checkIsCurrent()
        ? h("div", { class: "confirm", "data-testid": "pay-confirmation" },
            h("table", { class: "summary" }, h("tbody", {}, ...c.summary.map((l) => h("tr", {}, h("th", {}, l.label), h("td", {}, l.value))))),
            h("p", { class: "warning" }, t("A payment cannot be undone.")),
            h("div", { class: "row" },
              h("button", { type: "button", "data-testid": "pay-confirm", disabled: sending, onclick: () => void submit() }, sending ? t("Sending…") : t("Send")),
              h("button", { type: "button", disabled: sending, onclick: () => { confirming = false; ctx.rerender(); } }, t("Back"))))
        : h("button", { type: "button", "data-testid": "pay-review", disabled: !allowed.allowed || !c?.ok || !checkIsCurrent() || sending, onclick: () => { confirming = true; ctx.rerender(); } }, t("Review payment"))),
    h("h2", {}, t("Saved recipients")),
    addressBook(),
    payments && payments.payments.length > 0
      ? h("div", {}, h("h2", {}, t("Recent payments")),
          h("table", { class: "accounts", "data-testid": "payments" },
            h("thead", {}, h("tr", {}, h("th", {}, t("Time")), h("th", { class: "num" }, t("Amount")), h("th", {}, t("To")), h("th", {}, t("Status")))),
            h("tbody", {}, ...payments.payments.map((p) =>
              h("tr", { "data-testid": "payment-row", "data-state": p.state, "data-status": p.status ?? "" },
                h("td", {}, p.sentAt), h("td", { class: "num" }, p.amount),
                h("td", {}, h("code", {}, p.destination.length > 40 ? `${p.destination.slice(0, 24)}…${p.destination.slice(-8)}` : p.destination)),
                h("td", {}, p.statusText))))))
      : null);
}
