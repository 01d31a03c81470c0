// What the tax return's card shows and keeps: the card of a year, the rate's source being
// chosen, deposits' costs being typed, the rows behind a figure, and the card's exports.
import type { CardFormat, CardView, Method, RateKind, RawRowView } from "../bindings";
import { errorText } from "../lib/errors";
import { tf } from "../lib/i18n.svelte";
import type { Session } from "../lib/session.svelte";

export class CardState {
  card = $state<CardView | null>(null);
  /** `null` until the backend names the year it chose (last year). */
  year = $state<number | null>(null);
  method = $state<Method>("fifo");
  perAccount = $state(false);
  /** The source being chosen, and the rates typed for it. */
  kind = $state<RateKind>("none");
  nokPerBtc = $state("");
  usdPerBtc = $state("");
  nokPerUsd = $state("");
  /** Deposits' costs as typed, by deposit id. */
  costs = $state<Record<string, { acquiredOn: string; costNok: string }>>({});
  /** The rows behind the figure opened, by `entry/field`. */
  opened = $state<string | null>(null);
  rows = $state<RawRowView[]>([]);
  error = $state<string | null>(null);
  /** Why the rate's source chosen was refused, said in the rate's box. */
  rateProblem = $state<string | null>(null);
  /** Why a deposit's cost typed was refused, said at that deposit. */
  costProblems = $state<Record<string, string | null>>({});
  exported = $state<string | null>(null);
  /** What the exported file left out (figures not computable), said beside "Saved". */
  leftOut = $state<string | null>(null);

  constructor(readonly session: Session) {}

  async load(): Promise<void> {
    this.error = null;
    try {
      const card = await this.session.backend.taxCard({
        year: this.year,
        method: this.method,
        perAccount: this.perAccount,
      });
      this.card = card;
      this.year = card.year;
      this.kind = card.rateKind;
      this.nokPerBtc = card.enteredNokPerBtc;
      this.usdPerBtc = card.enteredUsdPerBtc;
      this.nokPerUsd = card.enteredNokPerUsd;
      this.costs = Object.fromEntries(
        card.deposits.map((d) => [d.id, { acquiredOn: d.acquiredOn, costNok: d.costNok }]),
      );
    } catch (e) {
      this.error = errorText(e);
    }
  }

  pick(change: { year?: number; method?: Method; perAccount?: boolean }): void {
    if (change.year !== undefined) this.year = change.year;
    if (change.method !== undefined) this.method = change.method;
    if (change.perAccount !== undefined) this.perAccount = change.perAccount;
    this.opened = null;
    void this.load();
  }

  /** Keeps the source chosen (and its typed rates) for the year, then reads the card again. */
  async chooseRate(kind: RateKind): Promise<void> {
    if (this.year === null) return;
    this.rateProblem = null;
    try {
      await this.session.backend.setYearEndChoice({
        year: this.year,
        kind,
        nokPerBtc: this.nokPerBtc,
        usdPerBtc: this.usdPerBtc,
        nokPerUsd: this.nokPerUsd,
      });
      await this.load();
    } catch (e) {
      this.rateProblem = errorText(e);
    }
  }

  async saveCost(id: string): Promise<void> {
    this.costProblems[id] = null;
    const typed = this.costs[id] ?? { acquiredOn: "", costNok: "" };
    try {
      await this.session.backend.setDepositCost({ id, ...typed });
      await this.load();
    } catch (e) {
      this.costProblems[id] = errorText(e);
    }
  }

  /** Shows the rows `ids` as the exchange sent them, or hides them when they are showing. */
  async toggleRows(key: string, ids: string[]): Promise<void> {
    if (this.opened === key) {
      this.opened = null;
      return;
    }
    try {
      this.rows = (await this.session.backend.taxRowsAsSent({ ids })).rows;
      this.opened = key;
    } catch (e) {
      this.error = errorText(e);
    }
  }

  async export(format: CardFormat): Promise<void> {
    this.error = null;
    this.exported = null;
    this.leftOut = null;
    try {
      const done = await this.session.backend.exportCard({
        card: { year: this.year, method: this.method, perAccount: this.perAccount },
        format,
      });
      this.exported = done.path ? tf("Saved to {path}", { path: done.path }) : null;
      this.leftOut = done.path ? (done.leftOut ?? null) : null;
    } catch (e) {
      this.error = errorText(e);
    }
  }
}
