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
  SaveRecipientArgs,
} from "../bindings";
import { CheckedForm } from "../lib/checked_form.svelte";
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
  /** The payment as typed and checked: a payment is confirmed only as checked. */
  payment: CheckedForm<PayArgs, PayCheckView>;
  confirming = $state(false);
  /** The last payment was refused because the same one is still unknown: a second confirmation is offered. */
  doubt = $state(false);
  /** The last payment was refused because the same one went through within a day: what the app said, and a second confirmation. */
  recent = $state<string | null>(null);
  sending = $state(false);
  result = $state<PaymentResultView | null>(null);
  payments = $state<PaymentsView | null>(null);
  book = $state<RecipientsView | null>(null);
  countries = $state.raw<CountryView[]>([]);
  /** The saved recipient being edited, as typed. */
  editing = $state<SaveRecipientArgs | null>(null);
  deleteArmed = $state<string | null>(null);
  /** What the screen could not read; said at the top. */
  error = $state<string | null>(null);
  /** Why the payment just sent, or its check, was refused; said where the confirmation was. */
  submitError = $state<string | null>(null);
  /** Why a change to the address book was refused; said by the address book. */
  bookError = $state<string | null>(null);
  /** The lock's password, typed in the confirmation when the lock asks for it before payments. */
  lockPassword = $state("");
  /** Why the lock's password did not allow the payment, said at the password field. */
  passwordProblem = $state<string | null>(null);

  constructor(readonly session: Session) {
    this.payment = new CheckedForm<PayArgs, PayCheckView>(
      emptyPayForm(),
      (form) => (form.destination.trim() || form.amount.trim() ? session.backend.checkPayment(form) : null),
      (answer, form) => this.#checked(answer, form),
      (e) => (this.submitError = errorText(e)),
    );
    session.onChange((change) => {
      if (change === "payments") void this.paymentsChanged();
      if (change === "reformatted" && session.router.screen === "pay") void this.refresh();
    });
  }

  async refresh(): Promise<void> {
    try {
      if (this.countries.length === 0) this.countries = (await this.session.backend.countries({})).countries;
      await this.#readLists();
    } catch (e) {
      this.error = errorText(e);
    }
  }

  /** The recent payments and the address book; the last payment's card as the list has it now. */
  async #readLists(): Promise<void> {
    [this.payments, this.book] = await Promise.all([
      this.session.backend.payments({}),
      this.session.backend.recipients({}),
    ]);
    // Written again as the list is: hidden amounts stay hidden, a new language is spoken.
    const result = this.result;
    const mine = result && this.payments.payments.find((p) => p.journalId === result.payment.journalId);
    if (result && mine) this.result = { ...result, payment: mine };
  }

  set(patch: Partial<PayArgs>): void {
    this.payment.change(patch);
    this.confirming = false;
    this.result = null;
    this.submitError = null;
  }

  setRecipient(patch: Partial<RecipientForm>): void {
    this.set({ recipient: { ...this.payment.form.recipient, ...patch } });
  }

  /** The `bitcoin:` link whose amount and label were filled in: once, so a cleared field stays clear. */
  #filledFrom = "";

  #checked(answer: PayCheckView, form: PayArgs): void {
    this.submitError = null;
    // A `bitcoin:` link's amount and payee label fill what was not typed.
    if (form.destination !== this.#filledFrom && (answer.linkAmountBtc || answer.linkLabel)) {
      this.#filledFrom = form.destination;
      const patch: Partial<PayArgs> = {};
      if (answer.linkAmountBtc && !form.amount.trim())
        Object.assign(patch, { amount: answer.linkAmountBtc, unit: "btc" });
      if (answer.linkLabel && !form.label.trim()) patch.label = answer.linkLabel;
      if (Object.keys(patch).length > 0) this.set(patch);
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
        if (mine.status !== result.payment.status && mine.status !== "pending")
          this.session.router.announce(mine.statusText);
        this.result = { ...result, payment: mine };
      }
      await this.session.holdings.load();
    } catch {
      // Read again on the next change.
    }
  }

  /** The lock asks for its password before a payment. */
  get asksPassword(): boolean {
    const lock = this.session.appLock.app?.lock;
    return !!lock && lock.set && lock.beforePayments;
  }

  async submit(despiteUnknown = false, despiteRecent = false): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    this.submitError = null;
    this.doubt = false;
    this.recent = null;
    const form = this.payment.form;
    const checked = this.payment.checked;
    try {
      if (this.asksPassword) {
        // Nothing is sent until the password is right: the app allows this one payment for it.
        const answer = await this.session.backend.allowPayment({
          password: this.lockPassword,
          reviewed: checked?.reviewed ?? "",
        });
        if (answer.problems.length > 0) {
          // The confirmation stays open: the password is typed again where it was typed.
          this.passwordProblem = answer.problems[0].message;
          return;
        }
        this.passwordProblem = null;
      }
      // Only the review's id goes: Rust sends the payment it checked, once its own dialog,
      // outside this window, was answered "Send".
      const result = await this.session.backend.sendPayment({
        reviewed: checked?.reviewed ?? "",
        ...(despiteUnknown ? { despiteUnknown: true } : {}),
        ...(despiteRecent ? { despiteRecent: true } : {}),
      });
      this.result = result;
      this.lockPassword = "";
      this.session.router.announce(result.message);
      this.confirming = false;
      this.payment.reset({ ...emptyPayForm(), unit: form.unit, accountId: form.accountId });
      await this.#readLists();
      void this.session.doubts.refresh();
      await this.session.holdings.load();
    } catch (e) {
      if (hasCode(e, "passwordNeeded")) {
        this.passwordProblem = errorText(e);
        return;
      }
      // Cancelled in the dialog: the review stays open, to confirm again or go back.
      if (hasCode(e, "notConfirmed")) {
        this.submitError = errorText(e);
        return;
      }
      this.confirming = false;
      this.doubt = hasCode(e, "sameAsUnknown");
      if (hasCode(e, "sameAsRecent")) this.recent = errorText(e);
      else this.submitError = errorText(e);
      if (hasCode(e, "notPermitted")) void this.session.appLock.reload();
      // Refused as not the form reviewed: check the form as it is, for a new review.
      if (hasCode(e, "notReviewed")) this.payment.recheck();
    } finally {
      this.sending = false;
    }
  }

  /** Opens `saved` in the editor; one whose details are locked starts from empty ones. */
  edit(saved: RecipientView): void {
    const { identity, destination, label } = saved;
    const details = saved.details ?? {
      fullName: "",
      country: "",
      address: "",
      nin: "",
      exchange: "",
      selfCustody: false,
    };
    this.editing = { identity, destination, label, details: { ...details } };
  }

  async saveEdited(): Promise<void> {
    if (!this.editing) return;
    try {
      this.book = await this.session.backend.saveRecipient(this.editing);
      this.editing = null;
      this.bookError = null;
    } catch (e) {
      this.bookError = errorText(e);
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
      this.bookError = null;
    } catch (e) {
      this.bookError = errorText(e);
    }
  }
}
