// What the Pay screen shows and keeps: the payment form as typed and the check of it, the
// confirmation, the last payment's status, the recent payments and the address book.
import type {
  CountryView,
  PayArgs,
  PayCheckView,
  PaymentResultView,
  PaymentsView,
  RecipientForm,
  RecipientView,
  RecipientsView,
} from "../bindings";
import { errorText, hasCode } from "../lib/errors";
import type { Session } from "../lib/session.svelte";

const emptyRecipient = (): RecipientForm => ({
  fullName: "",
  country: "",
  address: "",
  nin: "",
  organisation: false,
  exchange: "",
  selfCustody: false,
});

export const emptyPayForm = (): PayArgs => ({
  destination: "",
  amount: "",
  unit: "sats",
  accountId: null,
  isPayment: false,
  description: "",
  recipient: emptyRecipient(),
  saveRecipient: true,
  label: "",
});

export class PayState {
  /** The form as typed; replaced whole on each change, so a check knows which form it was for. */
  form = $state.raw<PayArgs>(emptyPayForm());
  checked = $state.raw<PayCheckView | null>(null);
  /** The form `checked` was for: a payment is confirmed only as checked. */
  checkedForm = $state.raw<PayArgs | null>(null);
  confirming = $state(false);
  /** The last payment was refused because the same one is still unknown: a second confirmation is offered. */
  doubt = $state(false);
  sending = $state(false);
  result = $state<PaymentResultView | null>(null);
  payments = $state<PaymentsView | null>(null);
  book = $state<RecipientsView | null>(null);
  countries = $state.raw<CountryView[]>([]);
  /** The saved recipient being edited, as typed. */
  editing = $state<RecipientView | null>(null);
  deleteArmed = $state<string | null>(null);
  error = $state<string | null>(null);
  #checkTimer: number | undefined;

  constructor(readonly session: Session) {
    session.onChange((change) => {
      if (change === "payments") void this.paymentsChanged();
      if (change === "reformatted" && session.screen === "pay") void this.refresh();
    });
  }

  /** Whether the checks on screen are for the form as it is now: only then can it be confirmed. */
  get checkIsCurrent(): boolean {
    return this.checked !== null && this.checkedForm === this.form;
  }

  async refresh(): Promise<void> {
    try {
      if (this.countries.length === 0) this.countries = (await this.session.backend.countries({})).countries;
      [this.payments, this.book] = await Promise.all([
        this.session.backend.payments({}),
        this.session.backend.recipients({}),
      ]);
    } catch (e) {
      this.error = errorText(e);
    }
  }

  set(patch: Partial<PayArgs>): void {
    this.form = { ...this.form, ...patch };
    this.confirming = false;
    this.result = null;
    this.#scheduleCheck();
  }

  setRecipient(patch: Partial<RecipientForm>): void {
    this.set({ recipient: { ...this.form.recipient, ...patch } });
  }

  #scheduleCheck(): void {
    window.clearTimeout(this.#checkTimer);
    this.#checkTimer = window.setTimeout(() => void this.#check(), 200);
  }

  async #check(): Promise<void> {
    const asked = this.form;
    if (!asked.destination.trim() && !asked.amount.trim()) {
      this.checked = null;
      return;
    }
    try {
      const answer = await this.session.backend.checkPayment(asked);
      // An answer for a form since changed is dropped: the next check is on its way.
      if (this.form !== asked) return;
      this.checked = answer;
      this.checkedForm = asked;
      this.error = null;
      // An invoice's payee node serves many people: a saved recipient only prefills the form.
      const saved = answer.needsRecipient ? answer.savedRecipient : null;
      if (saved && !asked.recipient.fullName.trim() && !asked.recipient.address.trim()) {
        const { fullName, country, address, nin, exchange, selfCustody } = saved;
        this.setRecipient({ fullName, country, address, nin, exchange, selfCustody });
      }
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /** The backend settled a payment or saw one end on its network: the list is read again. */
  async paymentsChanged(): Promise<void> {
    try {
      this.payments = await this.session.backend.payments({});
      const result = this.result;
      const mine = result && this.payments.payments.find((p) => p.journalId === result.payment.journalId);
      if (result && mine) {
        // A payment that ended on its network is said, once.
        if (mine.status !== result.payment.status && mine.status !== "pending") this.session.announce(mine.statusText);
        this.result = { ...result, payment: mine };
      }
      await this.session.loadBalances();
    } catch {
      // Read again on the next change.
    }
  }

  async submit(despiteUnknown = false): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    this.error = null;
    this.doubt = false;
    const form = this.form;
    const checked = this.checked;
    try {
      // Sent as confirmed: the form the check was for (the app refuses any other), and for an
      // amount in NOK the BTC amount shown.
      const confirmed =
        form.unit === "nok" && checked?.amountBtcRaw ? { confirmedAmountBtc: checked.amountBtcRaw } : {};
      const reviewed = checked ? { reviewed: checked.reviewed } : {};
      const result = await this.session.backend.sendPayment({
        ...form,
        ...confirmed,
        ...reviewed,
        ...(despiteUnknown ? { despiteUnknown: true } : {}),
      });
      this.result = result;
      this.session.announce(result.message);
      this.confirming = false;
      this.form = { ...emptyPayForm(), unit: form.unit, accountId: form.accountId };
      this.checked = null;
      [this.payments, this.book] = await Promise.all([
        this.session.backend.payments({}),
        this.session.backend.recipients({}),
      ]);
      void this.session.refreshUnknowns();
      await this.session.loadBalances();
    } catch (e) {
      this.error = errorText(e);
      this.confirming = false;
      this.doubt = hasCode(e, "sameAsUnknown");
      if (hasCode(e, "notPermitted")) void this.session.reloadApp();
      // Refused as not the form reviewed: check the form as it is, for a new review.
      if (hasCode(e, "notReviewed")) this.#scheduleCheck();
    } finally {
      this.sending = false;
    }
  }

  async saveEdited(): Promise<void> {
    if (!this.editing) return;
    try {
      this.book = await this.session.backend.saveRecipient(this.editing);
      this.editing = null;
      this.error = null;
    } catch (e) {
      this.error = errorText(e);
    }
  }

  async remove(identity: string): Promise<void> {
    if (this.deleteArmed !== identity) {
      this.deleteArmed = identity;
      return;
    }
    this.deleteArmed = null;
    try {
      this.book = await this.session.backend.deleteRecipient({ identity });
    } catch (e) {
      this.error = errorText(e);
    }
  }
}
