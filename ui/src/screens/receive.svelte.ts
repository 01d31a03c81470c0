// What the Receive screen shows and keeps: standing destinations, the invoice made last with its
// live status, the recent invoices and the invoice form as typed.
import type { BitcoinAmountUnit, InvoiceView, InvoicesView, ReceiveView } from "../bindings";
import { errorText, hasCode } from "../lib/errors";
import type { Session } from "../lib/session.svelte";

export type Standing = "unified" | "onchain" | "lightningAddress" | "lnurl";

export class ReceiveState {
  accountId = $state<string | null>(null);
  destinations = $state<ReceiveView | null>(null);
  shown = $state<Standing>("unified");
  invoice = $state<InvoiceView | null>(null);
  recent = $state<InvoicesView | null>(null);
  form = $state<{ amount: string; unit: BitcoinAmountUnit; publicDescription: string; privateNote: string }>({
    amount: "",
    unit: "sats",
    publicDescription: "",
    privateNote: "",
  });
  /** What stopped loading the screen (destinations, the list). */
  error = $state<string | null>(null);
  /** What stopped the invoice asked for: at the amount field when the amount was the problem,
   * else under the button. Either way the invoice made before is no longer shown. */
  refused = $state<{ atAmount: boolean; text: string } | null>(null);
  creating = $state(false);

  constructor(readonly session: Session) {
    session.onChange((change) => {
      if (change === "invoices") void this.invoicesChanged();
      if (change === "reformatted" && session.router.screen === "receive") void this.refresh();
    });
  }

  async refresh(): Promise<void> {
    this.error = null;
    try {
      this.destinations = await this.session.backend.receiveDestinations({ accountId: this.accountId });
      if (!this.destinations.unified && this.shown === "unified") this.shown = "onchain";
      this.recent = await this.session.backend.recentInvoices({});
      // The invoice on screen, written again: hidden amounts stay hidden, a new language is spoken.
      if (this.invoice) this.invoice = await this.session.backend.invoiceStatus({ id: this.invoice.id });
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /** Shows an earlier invoice again, with its QR code while it can still be paid. */
  async reopen(id: string): Promise<void> {
    try {
      this.invoice = await this.session.backend.invoiceStatus({ id });
      this.refused = null;
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /** The amount as typed; a refusal about the amount before it no longer applies. */
  typeAmount(amount: string): void {
    this.form.amount = amount;
    if (this.refused?.atAmount) this.refused = null;
  }

  pickAccount(id: string | null): void {
    this.accountId = id;
    void this.refresh();
  }

  /** The backend saw an invoice change (paid, expired…): the one on screen and the list are read again. */
  async invoicesChanged(): Promise<void> {
    try {
      if (this.invoice) {
        const next = await this.session.backend.invoiceStatus({ id: this.invoice.id });
        if (next.status === "paid" && this.invoice.status !== "paid") {
          this.session.router.announce(next.statusText);
          await this.session.holdings.load();
        }
        this.invoice = next;
      }
      this.recent = await this.session.backend.recentInvoices({});
    } catch {
      // Read again on the next change; the last known status stays on screen.
    }
  }

  async create(): Promise<void> {
    if (this.creating) return;
    this.creating = true;
    this.refused = null;
    try {
      this.invoice = await this.session.backend.createInvoice({ accountId: this.accountId, ...this.form });
      this.recent = await this.session.backend.recentInvoices({});
    } catch (e) {
      // The invoice made before is not what was asked for now: it must not be handed out by mistake.
      this.invoice = null;
      this.refused = { atAmount: hasCode(e, "invalidInput"), text: errorText(e) };
    } finally {
      this.creating = false;
    }
  }
}

export function isOpen(i: InvoiceView): boolean {
  return i.status === "unpaid" || i.status === "pending";
}
