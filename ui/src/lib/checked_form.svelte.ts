// A form the backend checks as it is typed: each change is checked after a short pause, an
// answer for a form since changed is dropped, and a check is used only for the form it was made
// for. The Trade and Pay forms, whose Review and Confirm act on the form as checked.

/** How long typing pauses before the form is checked. */
const PAUSE_MS = 200;

export class CheckedForm<F extends object, C> {
  /** The form as typed; replaced whole on each change, so a check knows which form it was for. */
  form: F = $state.raw() as F;
  checked = $state.raw<C | null>(null);
  /** The form `checked` was for. */
  #checkedFor = $state.raw<F | null>(null);
  #timer: number | undefined;

  /**
   * `ask` checks a form, or says there is nothing to check yet (`null`); `answered` hears each
   * answer kept, `failed` each check that could not be made.
   */
  constructor(
    initial: F,
    private readonly ask: (form: F) => Promise<C> | null,
    private readonly answered: (answer: C, form: F) => void,
    private readonly failed: (e: unknown) => void,
  ) {
    this.form = initial;
  }

  /** Whether the check on screen is for the form as it is now: only then can it be reviewed. */
  get current(): boolean {
    return this.checked !== null && this.#checkedFor === this.form;
  }

  change(patch: Partial<F>): void {
    this.form = { ...this.form, ...patch };
    this.recheck();
  }

  /** Checks the form as it is, after the pause. */
  recheck(): void {
    window.clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => void this.#check(), PAUSE_MS);
  }

  /** Starts again from `form`, with no check. */
  reset(form: F): void {
    this.form = form;
    this.checked = null;
  }

  async #check(): Promise<void> {
    const asked = this.form;
    const answer = this.ask(asked);
    if (answer === null) {
      this.checked = null;
      return;
    }
    try {
      const checked = await answer;
      // The next check is on its way for the form as it is now.
      if (this.form !== asked) return;
      this.checked = checked;
      this.#checkedFor = asked;
      this.answered(checked, asked);
    } catch (e) {
      this.failed(e);
    }
  }
}
