// What the Tax screen shows and keeps: the sync of the tax history, the transaction list read in
// blocks as it is scrolled, its filters, the balances, the year-end and gains reports, exports.
import { SvelteMap } from "svelte/reactivity";
import type {
  GainsView,
  HoldingsChartView,
  Method,
  Report,
  TaxBalancesView,
  TaxFacetsView,
  TaxFilterArgs,
  TaxRowView,
  TaxSyncView,
  YearEndsView,
} from "../bindings";
import { errorText } from "../lib/errors";
import { t, tn } from "../lib/i18n.svelte";
import { svgUrl, type Session } from "../lib/session.svelte";

export type Section = "transactions" | "balances" | "yearEnd" | "gains" | "holdings" | "card";

/** The holdings chart with its drawing as an image address. */
export type HoldingsChart = Omit<HoldingsChartView, "svg"> & { url: string };

/** Rows fetched at once; a list keeps at most `KEPT_BLOCKS` of them. */
export const BLOCK = 200;
const KEPT_BLOCKS = 40;

/** What the end of a sync is called, for the announcement. */
function syncEnded(view: TaxSyncView): string {
  if (view.state === "complete") return t("The tax history is up to date.");
  if (view.state === "cancelled") return t("Cancelled; the next sync continues where this one stopped");
  return view.message || t("Stopped");
}

export class TaxState {
  section = $state<Section>("transactions");
  sync = $state<TaxSyncView | null>(null);
  facets = $state<TaxFacetsView | null>(null);
  filter = $state.raw<TaxFilterArgs>({ year: null, accountId: null, txType: null, subType: null, search: "" });
  /** How many rows the list has, as the backend last said. */
  total = $state(0);
  /** Counts the lists: a block asked for by an earlier list is dropped, and a new list starts at the top. */
  generation = $state(0);
  blocks = new SvelteMap<number, TaxRowView[]>();
  /** Where the list is scrolled to, kept while another screen is shown. */
  scrollTop = $state(0);
  balances = $state<TaxBalancesView | null>(null);
  includeDeleted = $state(false);
  yearEnds = $state<YearEndsView | null>(null);
  /** The year-end rates being typed, by year. */
  rates = $state<Record<number, string>>({});
  /** Why a year's rate typed was refused, said beside that year's rate field. */
  rateProblems = $state<Record<number, string | null>>({});
  gains = $state<GainsView | null>(null);
  holdings = $state<HoldingsChart | null>(null);
  method = $state<Method>("fifo");
  error = $state<string | null>(null);
  exported = $state<string | null>(null);
  /** Counts the backend's word on the sync: an answer asked for before the latest word is stale. */
  #told = 0;
  /** The user started the sync, or opened the screen while it ran: its end reloads the section once. */
  #following = false;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping of requests in flight, not shown
  #loading = new Set<number>();

  constructor(readonly session: Session) {
    session.onTaxSync((view) => this.#heard(view));
    session.onChange((change) => {
      if (change === "reformatted" && session.router.screen === "tax") void this.refresh(true);
      // The holdings chart is drawn for the column's width too.
      if (change === "resized" && session.router.screen === "tax" && this.section === "holdings")
        void this.refresh(true);
    });
  }

  /**
   * The backend tells how the sync stands at each page and at its end. A sync the user follows
   * reloads the section once when it ends; one running in the background (after an order or a
   * payment) only updates the progress, so a list the user has scrolled stays where it is.
   */
  #heard(view: TaxSyncView): void {
    this.#told += 1;
    if (this.sync?.state === "running" && view.state !== "running") this.session.router.announce(syncEnded(view));
    this.sync = view;
    if (view.state !== "running" && this.#following) {
      this.#following = false;
      this.#reload().catch((e: unknown) => (this.error = errorText(e)));
    }
  }

  /**
   * Reads the sync's state and the section again. On arriving at the screen (`keepPlace`) the list
   * is read again where the user left it; a new section or filter starts at the top.
   */
  async refresh(keepPlace = false): Promise<void> {
    this.error = null;
    try {
      const asked = this.#told;
      const now = await this.session.backend.taxSyncStatus({});
      if (asked === this.#told) this.sync = now;
      // A sync the user started while this status was on its way is still followed: the stale
      // answer must not make its end go unnoticed (the list stayed empty after a first sync).
      this.#following ||= this.sync?.state === "running";
      await this.#reload(keepPlace);
    } catch (e) {
      this.error = errorText(e);
    }
  }

  show(section: Section): void {
    this.section = section;
    // Drawn for the window as it was: a chart from another size or theme is not shown meanwhile.
    if (section === "holdings") this.holdings = null;
    void this.refresh();
  }

  async #reload(keepPlace = false): Promise<void> {
    if (this.section === "transactions") {
      this.facets = await this.session.backend.taxFacets({});
      if (keepPlace) await this.#readAgain();
      else await this.#resetList();
    } else if (this.section === "balances") {
      this.balances = await this.session.backend.taxBalances({ includeDeleted: this.includeDeleted });
    } else if (this.section === "yearEnd") {
      this.yearEnds = await this.session.backend.yearEndReport({});
    } else if (this.section === "gains") {
      this.gains = await this.session.backend.gainsReport({ method: this.method });
    } else if (this.section === "holdings") {
      const { svg, ...rest } = await this.session.backend.holdingsChart(this.session.market.chartSize(440));
      this.holdings = { url: svg ? svgUrl(svg) : "", ...rest };
    }
  }

  async #resetList(): Promise<void> {
    this.generation += 1;
    this.blocks.clear();
    this.#loading.clear();
    await this.loadBlock(0);
  }

  /** The same list read afresh, drawn where it is scrolled to. */
  async #readAgain(): Promise<void> {
    this.blocks.clear();
    await this.loadBlock(0);
  }

  setFilter(change: Partial<TaxFilterArgs>): void {
    this.filter = { ...this.filter, ...change };
    this.exported = null;
    void this.#resetList();
  }

  rowAt(i: number): TaxRowView | undefined {
    const start = Math.floor(i / BLOCK) * BLOCK;
    return this.blocks.get(start)?.[i - start];
  }

  /** Fetches the blocks rows `first` to `last` are in, when missing. */
  need(first: number, last: number): void {
    for (let start = Math.floor(first / BLOCK) * BLOCK; start < last; start += BLOCK) void this.loadBlock(start);
  }

  /**
   * Fetches the block of rows at `start`, unless it is here or on its way. A block here but short
   * (loaded while the sync was still adding rows) is not asked for again.
   */
  async loadBlock(start: number): Promise<void> {
    if (this.blocks.has(start) || this.#loading.has(start)) return;
    const mine = this.generation;
    this.#loading.add(start);
    try {
      const page = await this.session.backend.taxRows({ filter: this.filter, offset: start, limit: BLOCK });
      if (mine !== this.generation) return;
      if (page.total !== null) this.total = page.total;
      this.blocks.set(start, page.rows);
      // A long scroll leaves many blocks behind; keep the memory of the list bounded.
      if (this.blocks.size > KEPT_BLOCKS) {
        const far = [...this.blocks.keys()].sort((a, b) => Math.abs(b - start) - Math.abs(a - start))[0];
        this.blocks.delete(far);
      }
    } catch (e) {
      // Shown once, and not asked for again until the list is reloaded.
      this.error = errorText(e);
      if (mine === this.generation) this.blocks.set(start, []);
    } finally {
      this.#loading.delete(start);
    }
  }

  async startSync(): Promise<void> {
    this.error = null;
    this.#following = true;
    const asked = this.#told;
    try {
      const answer = await this.session.backend.startTaxSync({});
      // Word that came while asking is newer than the answer.
      if (asked === this.#told) this.sync = answer;
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /** Sets the history of other accounts aside (it is kept, and listed in Settings) and syncs
   * a fresh one for the accounts the key sees. */
  async startAfresh(): Promise<void> {
    this.error = null;
    try {
      await this.session.backend.setTaxHistoryAside({});
    } catch (e) {
      this.error = errorText(e);
      return;
    }
    await this.startSync();
  }

  async cancelSync(): Promise<void> {
    const asked = this.#told;
    try {
      const answer = await this.session.backend.cancelTaxSync({});
      if (asked === this.#told) this.sync = answer;
    } catch (e) {
      this.error = errorText(e);
    }
  }

  async exportCsv(kind: Report): Promise<void> {
    this.error = null;
    this.exported = null;
    try {
      const done = await this.session.backend.exportCsv({ kind, filter: this.filter, method: this.method });
      this.exported = done.path
        ? tn(done.lines, { one: "Saved {n} line to {path}", other: "Saved {n} lines to {path}" }, { path: done.path })
        : null;
    } catch (e) {
      this.error = errorText(e);
    }
  }

  async saveRate(year: number, rate: string): Promise<void> {
    this.error = null;
    this.rateProblems[year] = null;
    try {
      await this.session.backend.setYearEndChoice({
        year,
        kind: rate ? "nokPerBtc" : "none",
        nokPerBtc: rate,
        usdPerBtc: "",
        nokPerUsd: "",
      });
      this.yearEnds = await this.session.backend.yearEndReport({});
      this.rates = Object.fromEntries(Object.entries(this.rates).filter(([typed]) => Number(typed) !== year));
    } catch (e) {
      this.rateProblems[year] = errorText(e);
    }
  }
}
