// The tax screen: sync of the tax history with progress and cancel, the virtualised transaction
// list with filters and search, balances, the year-end report and the gains report, and exports.
import * as api from "./bindings";
import type {
  GainsView,
  Method,
  Report,
  TaxBalancesView,
  TaxFacetsView,
  TaxFilterArgs,
  TaxRowView,
  TaxSyncView,
  YearEndsView,
} from "./bindings";
import { h } from "./dom";
import { errorText, oneOf } from "./form";
import { t } from "./lib/i18n.svelte";

type Section = "transactions" | "balances" | "yearEnd" | "gains";

const ROW_HEIGHT = 30;
const BLOCK = 200;
const VISIBLE = 24;

let rerender: () => void = () => {};
let section: Section = "transactions";
let sync: TaxSyncView | null = null;
/** Counts the backend's word on the sync: an answer asked for before the latest word is stale. */
let told = 0;
/** The user started the sync, or opened the screen while it ran: its end reloads the list once. */
let following = false;
let facets: TaxFacetsView | null = null;
let filter: TaxFilterArgs = { year: null, accountId: null, txType: null, subType: null, search: "" };
let total = 0;
let generation = 0;
const blocks = new Map<number, TaxRowView[]>();
const loading = new Set<number>();
let balances: TaxBalancesView | null = null;
let includeDeleted = false;
let yearEnds: YearEndsView | null = null;
let rates: Record<number, string> = {};
let gains: GainsView | null = null;
let method: Method = "fifo";
let error: string | null = null;
let exported: string | null = null;
let searchTimer: number | undefined;

// The list lives outside the screen's rebuilds, so its scroll position survives them.
const viewport = h("div", { class: "tax-viewport", "data-testid": "tax-list" });
const spacer = h("div", { class: "tax-spacer" });
const window_ = h("div", { class: "tax-window" });
spacer.append(window_);
viewport.append(spacer);
viewport.addEventListener("scroll", () => drawRows());

export function setTaxContext(r: () => void): void {
  rerender = r;
}

export async function refreshTax(): Promise<void> {
  error = null;
  try {
    const asked = told;
    const now = await api.taxSyncStatus({});
    if (asked === told) sync = now;
    following = sync?.state === "running";
    await reload();
  } catch (e) {
    error = errorText(e);
  }
  rerender();
}

async function reload(): Promise<void> {
  if (section === "transactions") {
    facets = await api.taxFacets({});
    await resetList();
  } else if (section === "balances") {
    balances = await api.taxBalances({ includeDeleted });
  } else if (section === "yearEnd") {
    yearEnds = await api.yearEndReport({});
  } else {
    gains = await api.gainsReport({ method });
  }
}

async function resetList(): Promise<void> {
  generation += 1;
  blocks.clear();
  loading.clear();
  viewport.scrollTop = 0;
  await loadBlock(0);
  drawRows();
}

/**
 * Fetches the block of rows at `start`. True only when it stored a block of the current list: a
 * caller draws again only then (drawing again after a call that returned at once, because the
 * block was already on its way, asked for it again, a loop of microtasks that never yielded to the
 * answer it waited for).
 */
async function loadBlock(start: number): Promise<boolean> {
  if (blocks.has(start) || loading.has(start)) return false;
  const mine = generation;
  loading.add(start);
  try {
    const page = await api.taxRows({ filter, offset: start, limit: BLOCK });
    if (mine !== generation) return false;
    if (page.total !== null) total = page.total;
    blocks.set(start, page.rows);
    // A long scroll leaves many blocks behind; keep the memory of the list bounded.
    if (blocks.size > 40) {
      const far = [...blocks.keys()].sort((a, b) => Math.abs(b - start) - Math.abs(a - start))[0];
      blocks.delete(far);
    }
    return true;
  } catch (e) {
    // Shown once, and not asked for again until the list is reloaded.
    error = errorText(e);
    if (mine === generation) blocks.set(start, []);
    rerender();
    return false;
  } finally {
    loading.delete(start);
  }
}

function rowAt(i: number): TaxRowView | undefined {
  const start = Math.floor(i / BLOCK) * BLOCK;
  return blocks.get(start)?.[i - start];
}

/** Draws only the rows in view; fetches the blocks they are in when missing. */
function drawRows(): void {
  spacer.style.height = `${Math.max(total, 1) * ROW_HEIGHT}px`;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - 4);
  const last = Math.min(total, first + VISIBLE + 8);
  window_.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
  const rows: Node[] = [];
  const missing = new Set<number>();
  for (let i = first; i < last; i++) {
    const r = rowAt(i);
    const block = Math.floor(i / BLOCK) * BLOCK;
    // A block already here but short (loaded while the sync was still adding rows) is not asked
    // for again: loading it would return at once and draw again, a loop that never yields.
    if (!r && !blocks.has(block)) missing.add(block);
    rows.push(r ? rowNode(r, i) : h("div", { class: "tax-row pending" }, "…"));
  }
  window_.replaceChildren(...rows);
  for (const start of missing) {
    void loadBlock(start).then((stored) => {
      if (stored) drawRows();
    });
  }
}

function rowNode(r: TaxRowView, i: number): Node {
  return h(
    "div",
    { class: r.isPayment ? "tax-row payment" : "tax-row", "data-testid": "tax-row", "data-index": String(i), "data-id": r.id },
    h("span", {}, r.time),
    h("span", { class: r.accountDeleted ? "deleted" : "", title: r.account }, r.account),
    h("span", { title: r.subType }, r.kind, r.pending ? h("span", { class: "tag", "data-testid": "tax-pending", title: t("Not final yet: the exchange may still change it") }, t("pending")) : null),
    h("span", { class: "num" }, r.btc),
    h("span", { class: "num" }, r.nok),
    h("span", { class: "num" }, r.fee),
    h("span", { class: "num", "data-testid": "tax-running" }, r.runningBalance),
    h("span", { class: "note", title: r.note || r.paymentInfo }, r.note || r.paymentInfo),
  );
}

/**
 * The backend tells how the sync stands at each page and at its end. A sync the user follows
 * reloads the section once when it ends; one running in the background (after an order or a
 * payment) only updates the progress, so a list the user has scrolled stays where it is.
 */
export function taxSyncProgress(view: TaxSyncView, shown: boolean): void {
  told += 1;
  sync = view;
  if (view.state !== "running" && following) {
    following = false;
    void reload()
      .catch((e: unknown) => {
        error = errorText(e);
      })
      .then(() => {
        if (shown) rerender();
      });
  }
  // Another screen is not drawn again for it: the Tax screen reads the state when it opens.
  if (shown) rerender();
}

async function startSync(): Promise<void> {
  error = null;
  following = true;
  const asked = told;
  try {
    const answer = await api.startTaxSync({});
    // Word that came while asking is newer than the answer.
    if (asked === told) sync = answer;
  } catch (e) {
    error = errorText(e);
  }
  rerender();
}

async function cancelSync(): Promise<void> {
  const asked = told;
  const answer = await api.cancelTaxSync({});
  if (asked === told) sync = answer;
  rerender();
}

function setFilter(change: Partial<TaxFilterArgs>): void {
  filter = { ...filter, ...change };
  exported = null;
  void resetList().then(rerender);
}

async function exportCsv(kind: Report): Promise<void> {
  error = null;
  exported = null;
  try {
    const done = await api.exportCsv({ kind, filter, method });
    exported = done.path ? `${t("Saved")} ${done.lines} ${t("lines to")} ${done.path}` : null;
  } catch (e) {
    error = errorText(e);
  }
  rerender();
}

function syncBar(): Node {
  const running = sync?.state === "running";
  const counts = sync
    ? `${sync.stored} ${t("new transactions stored")} · ${sync.requests} ${t("requests")}${sync.reached ? ` · ${t("up to")} ${sync.reached}` : ""}${sync.malformed ? ` · ${sync.malformed} ${t("unreadable")}` : ""}`
    : "";
  const state: Record<string, string> = {
    loading: t("Checking…"),
    idle: t("Not synced in this session"),
    running: t("Syncing…"),
    complete: t("Up to date"),
    cancelled: t("Cancelled; the next sync continues where this one stopped"),
    failed: t("Stopped"),
  };
  return h(
    "div",
    { class: "tax-sync card" },
    running
      ? h("button", { "data-testid": "tax-cancel", onclick: () => void cancelSync() }, t("Cancel"))
      : h("button", { class: "primary", "data-testid": "tax-sync", onclick: () => void startSync() }, t("Sync tax history")),
    h("progress", { max: "1000", value: String(sync?.permille ?? 0), "data-testid": "tax-progress" }),
    h("span", { "data-testid": "tax-sync-state", "data-state": sync?.state ?? "loading" }, state[sync?.state ?? "loading"] ?? sync?.state ?? ""),
    h("span", { class: "muted", "data-testid": "tax-sync-counts" }, counts),
    sync?.message ? h("p", { class: "message error", "data-testid": "tax-sync-error" }, sync.message) : null,
  );
}

function select(id: string, value: string | null, choices: [string, string][], onchange: (v: string | null) => void): HTMLSelectElement {
  const s = h("select", { "data-testid": id, onchange: (e: Event) => onchange((e.target as HTMLSelectElement).value || null) },
    h("option", { value: "" }, t("All")),
    ...choices.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
  return s;
}

function transactions(): Node {
  const f = facets;
  const search = h("input", {
    type: "search",
    placeholder: t("Search notes"),
    value: filter.search,
    "data-testid": "tax-search",
    oninput: (e: Event) => {
      const v = (e.target as HTMLInputElement).value;
      window.clearTimeout(searchTimer);
      searchTimer = window.setTimeout(() => setFilter({ search: v }), 250);
    },
  });
  const filters = h(
    "div",
    { class: "tax-filters" },
    select("tax-year", filter.year === null ? null : String(filter.year), (f?.years ?? []).map((y) => [String(y), String(y)]), (v) => setFilter({ year: v === null ? null : Number(v) })),
    select("tax-account", filter.accountId, (f?.accounts ?? []).map((a) => [a.value, a.label]), (v) => setFilter({ accountId: v })),
    select("tax-type", filter.txType, (f?.types ?? []).map((c) => [c.value, c.label]), (v) => setFilter({ txType: v })),
    select("tax-subtype", filter.subType, (f?.subTypes ?? []).map((s) => [s, s || "—"]), (v) => setFilter({ subType: v })),
    search,
    h("span", { class: "muted", "data-testid": "tax-count", "data-total": String(total) }, `${total} ${t("transactions")}`),
    h("button", { "data-testid": "tax-export", onclick: () => void exportCsv("transactions") }, t("Export CSV")),
  );
  const head = h("div", { class: "tax-row head" },
    ...[t("Time"), t("Account"), t("Type")].map((c) => h("span", {}, c)),
    // Figures are right-aligned, and so are their headings.
    ...["BTC", "NOK", t("Fee"), t("Balance")].map((c) => h("span", { class: "num" }, c)),
    h("span", {}, t("Note")));
  const malformed = f && f.malformed.length
    ? h("details", { class: "message error", "data-testid": "tax-malformed" },
        h("summary", {}, `${f.malformed.length} ${t("transactions from the exchange could not be read")}`),
        h("ul", {}, ...f.malformed.map((m) => h("li", {}, `${m.id || "?"}: ${m.reason}`))))
    : null;
  return h("div", {}, filters, malformed, head, viewport);
}

function balancesSection(): Node {
  if (!balances) return h("p", { class: "muted" }, `${t("Loading")}…`);
  return h("div", {},
    h("label", { class: "inline" },
      h("input", { type: "checkbox", checked: includeDeleted, "data-testid": "tax-include-deleted", onchange: (e: Event) => {
        includeDeleted = (e.target as HTMLInputElement).checked;
        void refreshTax();
      } }),
      t("Show deleted accounts")),
    h("table", { class: "accounts", "data-testid": "tax-balances" },
      h("tr", {}, h("th", {}, t("Account")), h("th", { class: "num" }, t("Balance")), h("th", {}, t("Deleted"))),
      ...balances.accounts.map((a) => h("tr", { class: a.deleted ? "deleted" : "" },
        h("td", {}, a.name), h("td", { class: "num" }, a.balance), h("td", {}, a.deleted))),
      h("tr", { class: "total" }, h("td", {}, t("Total")), h("td", { class: "num" }, balances.totalBtc), h("td", {}, "")),
      h("tr", {}, h("td", {}, t("NOK account")), h("td", { class: "num", "data-testid": "tax-fiat" }, balances.fiat), h("td", {}, ""))));
}

async function saveRate(year: number): Promise<void> {
  error = null;
  try {
    yearEnds = await api.setYearEndRate({ year, rate: rates[year] ?? "" });
    delete rates[year];
  } catch (e) {
    error = errorText(e);
  }
  rerender();
}

function yearEndSection(): Node {
  if (!yearEnds) return h("p", { class: "muted" }, `${t("Loading")}…`);
  return h("div", {},
    h("p", { class: "muted" }, t("Your bitcoin at 31 December, for the wealth tax, rebuilt from the running balances of the transactions.")),
    h("button", { "data-testid": "tax-export-year-end", onclick: () => void exportCsv("yearEnd") }, t("Export CSV")),
    ...yearEnds.years.map((y) => h("section", { class: "card year", "data-testid": "year-end", "data-year": String(y.year) },
      h("h3", {}, `${y.year}${y.complete ? "" : ` (${t("so far")})`}`),
      h("p", {}, `${t("Rate")}: `, h("strong", { "data-testid": "year-end-rate" }, y.rate), ` — ${y.rateSource}`),
      h("table", { class: "accounts" },
        ...y.accounts.map((a) => h("tr", { class: a.deleted ? "deleted" : "" },
          h("td", {}, a.account), h("td", { class: "num" }, a.balance), h("td", { class: "num" }, a.value))),
        h("tr", { class: "total" }, h("td", {}, t("Total")),
          h("td", { class: "num", "data-testid": "year-end-btc" }, y.totalBtc),
          h("td", { class: "num", "data-testid": "year-end-nok" }, y.totalNok))),
      h("div", { class: "inline" },
        h("input", { placeholder: t("Your own rate, NOK per BTC"), value: rates[y.year] ?? "", "data-testid": "year-end-rate-input",
          oninput: (e: Event) => { rates[y.year] = (e.target as HTMLInputElement).value; } }),
        h("button", { "data-testid": "year-end-rate-save", onclick: () => void saveRate(y.year) }, t("Use this rate")),
        y.entered ? h("button", { onclick: () => { rates[y.year] = ""; void saveRate(y.year); } }, t("Use the transactions' rate")) : null))));
}

function gainsSection(): Node {
  if (!gains) return h("p", { class: "muted" }, `${t("Loading")}…`);
  const g = gains;
  return h("div", {},
    h("div", { class: "inline" },
      select("gains-method", method, [["fifo", "FIFO"], ["average", t("Average cost")]], (v) => { method = oneOf(v ?? "", ["fifo", "average"], "fifo"); void refreshTax(); }),
      h("button", { "data-testid": "tax-export-gains", onclick: () => void exportCsv("gains") }, t("Export CSV"))),
    h("p", { "data-testid": "gains-method-name" }, `${t("Method")}: ${g.method}`),
    h("table", { class: "accounts", "data-testid": "gains-years" },
      h("tr", {}, ...[t("Year"), t("Disposals"), t("Proceeds"), t("Cost"), t("Gains"), t("Losses"), t("Net")].map((c) => h("th", {}, c))),
      ...g.years.map((y) => h("tr", { "data-year": String(y.year) },
        h("td", {}, String(y.year)), h("td", { class: "num" }, String(y.disposals)), h("td", { class: "num" }, y.proceeds),
        h("td", { class: "num" }, y.cost), h("td", { class: "num" }, y.gains), h("td", { class: "num" }, y.losses),
        h("td", { class: "num", "data-testid": "gains-net" }, y.net)))),
    h("ul", { class: "muted" }, ...g.notes.map((n) => h("li", {}, n))),
    h("h3", {}, t("Disposals and the lots they used")),
    ...g.disposals.map((d) => h("details", { class: "disposal", "data-testid": "disposal" },
      h("summary", {}, `${d.time} · ${d.kind === "payment" ? t("Payment") : t("Sale")} ${d.btc} · ${t("gain")} ${d.gain}`),
      h("p", {}, `${t("Proceeds")} ${d.proceeds} − ${t("cost")} ${d.cost}${d.unmatched ? ` · ${d.unmatched} ${t("without a known purchase")}` : ""}`),
      h("ul", {}, ...d.lots.map((l) => h("li", {}, `${l.id} ${l.time}: ${l.btc} ${t("for")} ${l.cost}`))))));
}

export function tax(): Node {
  const sections: [Section, string][] = [
    ["transactions", t("Transactions")],
    ["balances", t("Balances")],
    ["yearEnd", t("Year end")],
    ["gains", t("Gains")],
  ];
  const bodies: Record<Section, () => Node> = {
    transactions,
    balances: balancesSection,
    yearEnd: yearEndSection,
    gains: gainsSection,
  };
  const node = h("div", { class: "tax" },
    syncBar(),
    h("div", { class: "tabs" }, ...sections.map(([id, label]) =>
      h("button", { class: id === section ? "tab active" : "tab", "data-testid": `tax-section-${id}`, onclick: () => { section = id; void refreshTax(); } }, label))),
    error ? h("p", { class: "message error", "data-testid": "tax-error" }, error) : null,
    exported ? h("p", { class: "message ok", "data-testid": "tax-export-result" }, exported) : null,
    bodies[section](),
  );
  // Moving the list into the new tree detaches it for a moment, which resets its scroll position:
  // put back the one it had. Not when the list was reset since (a new filter starts at the top),
  // nor when the user scrolled in between (restoring any change undid their scroll).
  const top = viewport.scrollTop;
  const shown = generation;
  requestAnimationFrame(() => {
    if (shown === generation && viewport.scrollTop === 0 && top !== 0) viewport.scrollTop = top;
    drawRows();
  });
  return node;
}
