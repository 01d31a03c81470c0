// The window's session: the services that own what the screens share (the app and its lock, the
// market feed, the holdings, the unknown orders and payments, the screen and message line), the
// queue user actions run in, and the backend's events, each told to the services it invalidates.
// Screens read the services and never keep their own copy.
import type { AppView, Change, LockFormView, TaxSyncView } from "../bindings";
import { createSubscriber } from "svelte/reactivity";
import type { Backend } from "./backend";
import { errorText } from "./errors";
import { AppLock } from "./services/app_lock.svelte";
import { Doubts } from "./services/doubts.svelte";
import { Holdings } from "./services/holdings.svelte";
import { MarketFeed } from "./services/market.svelte";
import { Router, SCREENS } from "./services/router.svelte";

export { SCREENS, type Message, type Screen } from "./services/router.svelte";
export { svgUrl } from "./services/market.svelte";

type Listener<T> = (payload: T) => void;

/**
 * What the session tells the screens: the backend's changes, the figures formatted anew (a language,
 * unit or theme chosen), and the main column resized once resizing paused (charts drawn for it).
 */
type Told = Change | "reformatted" | "resized";

/** Changes no service reads: the screens that listen read them (`onChange`). */
type ForScreens = Extract<Change, "invoices" | "history" | "plans">;

/** Every change is read by a service or by the screens: a change the backend adds does not compile
 * until one of them says it reads it. */
type Placed =
  | (typeof AppLock.INVALIDATED_BY)[number]
  | (typeof Doubts.INVALIDATED_BY)[number]
  | (typeof Holdings.INVALIDATED_BY)[number]
  | (typeof MarketFeed.INVALIDATED_BY)[number]
  | ForScreens;

export class Session {
  readonly router = new Router();
  readonly appLock: AppLock;
  readonly market: MarketFeed;
  readonly holdings: Holdings;
  readonly doubts: Doubts;
  busy = $state(false);
  /**
   * Ticks each second while something shown reads `now` (a countdown), and not at all otherwise:
   * a window left on the overview is not woken every second for nothing.
   */
  #ticking = createSubscriber((tick) => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") tick();
    }, 1_000);
    return () => window.clearInterval(timer);
  });
  #queue: Promise<void> = Promise.resolve();
  // Bookkeeping, not state on screen: plain sets.
  /* eslint-disable svelte/prefer-svelte-reactivity */
  /** Changes told while the window was hidden, read when it is shown again. */
  #missed = new Set<Change>();
  #changeListeners = new Set<Listener<Told>>();
  #taxListeners = new Set<Listener<TaxSyncView>>();
  #kept = new Map<unknown, unknown>();
  /* eslint-enable svelte/prefer-svelte-reactivity */

  constructor(readonly backend: Backend) {
    this.appLock = new AppLock(backend, this.router);
    this.market = new MarketFeed(
      backend,
      this.router,
      () => this.appLock.dark,
      () => this.#tell("resized"),
    );
    this.holdings = new Holdings(backend, this.router);
    this.doubts = new Doubts(backend);
  }

  /** The app's view, as the app-lock service holds it. */
  get app(): AppView | null {
    return this.appLock.app;
  }

  /** The window's clock: read in a template or an effect, it moves each second. */
  get now(): number {
    this.#ticking();
    return Date.now();
  }

  /**
   * The state of a screen, made once in this session: it outlives the screen's component, so a
   * form half filled in is there when the user comes back, and the backend's events reach it
   * while another screen is shown.
   */
  keep<T>(make: new (session: Session) => T): T {
    const found = this.#kept.get(make) as T | undefined;
    if (found) return found;
    const made = new make(this);
    this.#kept.set(make, made);
    return made;
  }

  /** Runs user actions one after another: a change made while another is in flight waits its turn. */
  act(f: () => Promise<AppView>, ok?: string): Promise<void> {
    this.#queue = this.#queue.then(() => this.#run(f, ok));
    return this.#queue;
  }

  /** Like `act`, for a change made at one field: what stopped it is returned, to be shown at
   * that field, and the message line is left alone. Null when it was saved. */
  async actAt(f: () => Promise<AppView>): Promise<string | null> {
    let problem: string | null = null;
    const run = () =>
      this.#run(f, undefined, (e) => {
        problem = errorText(e);
      });
    this.#queue = this.#queue.then(run);
    await this.#queue;
    return problem;
  }

  async #run(
    f: () => Promise<AppView>,
    ok?: string,
    failed: (e: unknown) => void = (e) => this.router.fail(e),
  ): Promise<void> {
    const router = this.router;
    this.busy = true;
    router.message = null;
    try {
      const before = this.app;
      const app = await f();
      this.appLock.took(app);
      if (ok) router.message = { kind: "ok", text: ok };
      await this.holdings.load();
      // Numbers and times arrive formatted: a change of language, unit or privacy mode fetches them again.
      if (before && (before.language !== app.language || before.unit !== app.unit || before.privacy !== app.privacy)) {
        await this.market.reformat();
        this.#tell("reformatted");
      } else if (before && before.themeSetting !== app.themeSetting) {
        // The charts are drawn in the theme's colours; a screen's own (the holdings) with them.
        await this.market.redraw();
        this.#tell("reformatted");
      }
    } catch (e) {
      failed(e);
    } finally {
      this.busy = false;
    }
  }

  /** Hides every amount, or shows them again; remembered by the backend. */
  togglePrivacy(): Promise<void> {
    const hidden = !(this.app?.privacy ?? false);
    return this.act(() => this.backend.setPrivacy({ hidden }));
  }

  /**
   * Ctrl+1…Ctrl+8 open the screens in the navigation's order, Ctrl+Shift+H hides or shows
   * amounts, Ctrl+L locks; true when `e` was one of them.
   */
  shortcut(e: KeyboardEvent): boolean {
    if (!e.ctrlKey || e.altKey || e.metaKey) return false;
    if (!e.shiftKey && e.key.toLowerCase() === "l") {
      if (!this.appLock.locked) void this.lockNow();
      return true;
    }
    if (this.appLock.locked) return false;
    if (e.shiftKey) {
      if (e.key.toLowerCase() !== "h") return false;
      void this.togglePrivacy();
      return true;
    }
    const n = Number(e.key);
    if (!Number.isInteger(n) || n < 1 || n > SCREENS.length) return false;
    this.router.go(SCREENS[n - 1]);
    return true;
  }

  /** Locks the app (Ctrl+L, the header's lock); with no password set yet, asks for one first. */
  lockNow(): Promise<void> {
    if (!this.app?.lock.set) {
      this.appLock.lockSetup = true;
      return Promise.resolve();
    }
    return this.act(async () => {
      const app = await this.backend.lock({});
      this.#forget();
      return app;
    });
  }

  /** Applies the answer of a lock form; true when it had no problems. */
  async lockAnswered(answer: LockFormView): Promise<boolean> {
    const wasLocked = this.appLock.locked;
    this.appLock.app = answer.app;
    if (answer.problems.length > 0) return false;
    this.appLock.lockSetup = false;
    await this.#followLock(wasLocked);
    return true;
  }

  /** The lock changed in the backend (idle time, tray, a payment's password): follows it. */
  async #lockChanged(): Promise<void> {
    const wasLocked = this.appLock.locked;
    await this.appLock.reload();
    await this.#followLock(wasLocked);
  }

  /** Locked now: every figure goes; unlocked after being locked: every screen reads again. */
  async #followLock(wasLocked: boolean): Promise<void> {
    if (this.appLock.locked) this.#forget();
    else if (wasLocked) await this.#loadAll();
  }

  /** Drops every figure the window holds, and each screen's state: a locked window keeps none. */
  #forget(): void {
    this.holdings.forget();
    this.market.forget();
    this.doubts.forget();
    // The screens' states go, and what they listened with: made afresh after unlocking.
    this.#kept.clear();
    this.#changeListeners.clear();
    this.#taxListeners.clear();
    this.#missed.clear();
    this.router.message = null;
  }

  /** Reads what every screen shows. */
  async #loadAll(): Promise<void> {
    await this.holdings.load();
    await this.market.readQuote();
    void this.doubts.refresh();
    void this.market.loadChart();
    void this.market.loadVolume();
  }

  /** `f` runs on each change the backend tells while the window is shown; returns its removal. */
  onChange(f: Listener<Told>): () => void {
    this.#changeListeners.add(f);
    return () => this.#changeListeners.delete(f);
  }

  onTaxSync(f: Listener<TaxSyncView>): () => void {
    this.#taxListeners.add(f);
    return () => this.#taxListeners.delete(f);
  }

  #tell(change: Told): void {
    for (const f of this.#changeListeners) f(change);
  }

  /** Tells a change to each service it invalidates, then to the screens that listen. */
  #readAgain(change: Change): void {
    const placed: Placed = change;
    if ((Doubts.INVALIDATED_BY as readonly Change[]).includes(placed)) void this.doubts.refresh();
    if ((Holdings.INVALIDATED_BY as readonly Change[]).includes(placed)) this.holdings.changed(placed, this.busy);
    if ((MarketFeed.INVALIDATED_BY as readonly Change[]).includes(placed)) this.market.changed(placed);
    // Privacy switched from the tray: every figure is read again, masked or not. The lock's
    // other changes are taken where the event arrives.
    if (placed === "privacy") void this.act(() => this.backend.appState({}));
    this.#tell(placed);
  }

  /**
   * Follows the backend's events and loads what every screen shows. A hidden window reads
   * nothing until it is shown.
   */
  async start(): Promise<void> {
    document.addEventListener("visibilitychange", () => {
      // The watcher looks less often at what no one sees.
      const shown = document.visibilityState === "visible";
      void this.backend.setWindowShown({ shown }).catch(() => {
        // Told again at the next change of visibility.
      });
      if (!shown || this.appLock.locked) return;
      for (const change of this.#missed) this.#readAgain(change);
      this.#missed.clear();
    });
    // Asked for at once, with the app's state: each is a round trip to the backend.
    await Promise.all([
      this.appLock.loadUntilAnswered(),
      // A notification was clicked: the window shows what it was about.
      this.backend.listen("open", (screen) => this.router.go(screen)),
      this.backend.listen("taxSync", (view) => {
        for (const f of this.#taxListeners) f(view);
      }),
      this.backend.listen("changed", (change) => {
        if (change === "lock") void this.#lockChanged();
        // The tray asked to lock before a password was set: the window asks for one.
        else if (change === "lockAsked") this.appLock.lockSetup = true;
        else if (change === "closeAsked") this.appLock.closeAsked = true;
        // A locked window reads nothing; unlocking reads it all.
        else if (this.appLock.locked) return;
        else if (document.visibilityState === "visible") this.#readAgain(change);
        else this.#missed.add(change);
      }),
    ]);
    if (!this.appLock.locked) await this.#loadAll();
  }
}
