// The app's own state (settings, profiles, the lock) and what the lock asks of the window.
import type { AppView, Change, IpcError } from "../../bindings";
import type { Backend } from "../backend";
import { errorText, isIpcError } from "../errors";
import { setLanguage, tf } from "../i18n.svelte";
import type { Router } from "./router.svelte";

export class AppLock {
  app = $state<AppView | null>(null);
  /** Why the app's state could not be read at start, while it cannot: the window offers what
   * mends a store whose key is missing or wrong. */
  startFailure = $state<IpcError | null>(null);
  /** The form that sets the lock's password is open (the lock was asked for before one was set). */
  lockSetup = $state(false);
  /** The window was closed for the first time: it asks whether Nordlys stays in the tray. */
  closeAsked = $state(false);
  /** When the backend was last told the user is here (the idle lock counts from it). */
  #toldHere = 0;
  /** Ends the wait of `loadUntilAnswered` between tries. */
  #wake: (() => void) | null = null;

  /** The lock changed or was asked for, the window was closed, privacy was switched (the tray). */
  static readonly INVALIDATED_BY = ["lock", "lockAsked", "closeAsked", "privacy"] as const satisfies readonly Change[];

  constructor(
    private readonly backend: Backend,
    private readonly router: Router,
  ) {}

  /** The app is locked: nothing of the user's is read or shown. */
  get locked(): boolean {
    return this.app?.lock.locked ?? false;
  }

  /** Whether the window is dark: as chosen in Settings, else as the OS says. */
  get dark(): boolean {
    const chosen = this.app?.themeSetting;
    if (chosen) return chosen === "dark";
    return window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
  }

  /** Takes the app's view a command answered with. */
  took(app: AppView): void {
    this.app = app;
    this.startFailure = null;
    this.#wake?.();
    setLanguage(app.language);
  }

  /** The app's view again: what a refusal just taught shows beside the form. */
  async reload(): Promise<void> {
    try {
      this.took(await this.backend.appState({}));
    } catch (e) {
      this.router.fail(e);
    }
  }

  /**
   * Reads the app's state until it answers. A failure (the keyring not ready yet, say) is shown
   * with what failed and tried again every 3 s.
   */
  async loadUntilAnswered(): Promise<void> {
    for (;;) {
      try {
        this.took(await this.backend.appState({}));
        if (this.router.message?.kind === "error") this.router.message = null;
        return;
      } catch (e) {
        this.startFailure = isIpcError(e) ? e : null;
        this.router.message = {
          kind: "error",
          text: tf("Nordlys could not start: {reason} Trying again…", { reason: errorText(e) }),
        };
        // Or sooner, when the state is read elsewhere (the key put back).
        await new Promise<void>((done) => {
          this.#wake = done;
          window.setTimeout(done, 3_000);
        });
        this.#wake = null;
      }
    }
  }

  /** Tells the backend the user is here, at most every 15 s: the idle lock counts from then. */
  stillHere(): void {
    if (!this.app?.lock.set || this.locked || Date.now() - this.#toldHere < 15_000) return;
    this.#toldHere = Date.now();
    void this.backend.stillHere({}).catch(() => {
      // The next activity tells it again.
      this.#toldHere = 0;
    });
  }
}
