// What the whole window shares: the app's view, the balances, the price, the exchange's volume,
// the unknown orders and payments, the screen shown and the one message line. Fed by the backend's
// events; screens read it and never keep their own copy.
import type {
  AppView,
  LockFormView,
  BalancesView,
  Change,
  ChartRange,
  PriceChartView,
  QuoteView,
  TaxSyncView,
  UnknownsView,
  VolumeView,
} from "../bindings";
import { createSubscriber } from "svelte/reactivity";
import type { Backend } from "./backend";
import { distinct } from "./distinct";
import { errorText } from "./errors";
import { setLanguage, tf } from "./i18n.svelte";

/**
 * How long the holdings' NOK value stands while prices move. The price card shows every move; the
 * value of each account is read again once a minute, not at each price: each reading draws the
 * cards and the table again.
 */
const VALUED_FOR_MS = 60_000;

export const SCREENS = ["overview", "trade", "receive", "pay", "tax", "unknowns", "connect", "settings"] as const;
export type Screen = (typeof SCREENS)[number];

export type Message = { kind: "error" | "ok"; text: string };

/** An SVG drawn by the backend, as an image address the CSP allows (`img-src data:`). */
export function svgUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

type Listener<T> = (payload: T) => void;

/**
 * What the session tells the screens: the backend's changes, the figures formatted anew (a language,
 * unit or theme chosen), and the main column resized once resizing paused (charts drawn for it).
 */
type Told = Change | "reformatted" | "resized";

export class Session {
  app = $state<AppView | null>(null);
  balances = $state<BalancesView | null>(null);
  quote = $state<QuoteView | null>(null);
  /** The NOK amount the quote is for; empty: the exchange's default. */
  quoteAmount = $state("");
  volume = $state<VolumeView | null>(null);
  volumeChart = $state<string | null>(null);
  /** A month on first start: the daily prices fill it before Nordlys has samples of its own. */
  chartRange = $state<ChartRange>("30d");
  priceChart = $state<(Omit<PriceChartView, "svg"> & { url: string }) | null>(null);
  unknowns = $state<UnknownsView | null>(null);
  screen = $state<Screen>("overview");
  message = $state<Message | null>(null);
  busy = $state(false);
  #width = $state(960);
  #resizing = 0;
  /** What a screen reader announces: an order placed, a payment completed, a sync finished. */
  announcement = $state("");
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
  /** The form that sets the lock's password is open (the lock was asked for before one was set). */
  lockSetup = $state(false);
  /** The window was closed for the first time: it asks whether Nordlys stays in the tray. */
  closeAsked = $state(false);

  /** When the backend was last told the user is here (the idle lock counts from it). */
  #toldHere = 0;

  /** What the balances poller last failed with, so its message goes once it reads again. */
  #balancesProblem: string | null = null;
  #queue: Promise<void> = Promise.resolve();
  /** When the price chart was last drawn: moving prices draw it again after `#chartStaleAfter`. */
  #chartDrawn = 0;
  /** The width the overview's charts were last drawn for. */
  #chartsWidth = 0;
  /** When the balances were last read: moving prices value them again after `VALUED_FOR_MS`. */
  #valued = 0;
  // Bookkeeping, not state on screen: plain sets.
  /* eslint-disable svelte/prefer-svelte-reactivity */
  /** Changes told while the window was hidden, read when it is shown again. */
  #missed = new Set<Change>();
  #changeListeners = new Set<Listener<Told>>();
  #taxListeners = new Set<Listener<TaxSyncView>>();
  #kept = new Map<unknown, unknown>();
  /* eslint-enable svelte/prefer-svelte-reactivity */

  constructor(readonly backend: Backend) {}

  /** The window's clock: read in a template or an effect, it moves each second. */
  get now(): number {
    this.#ticking();
    return Date.now();
  }

  /** The width the main column has for charts, in CSS pixels. */
  get width(): number {
    return this.#width;
  }

  /** A new width has the charts drawn again for it once the user stops resizing for 250 ms. */
  set width(width: number) {
    this.#width = width;
    window.clearTimeout(this.#resizing);
    this.#resizing = window.setTimeout(() => void this.#resized(), 250);
  }

  /** Charts drawn for another width are drawn again (stretched, their text would be too big). */
  async #resized(): Promise<void> {
    if (this.#chartWidth() === this.#chartsWidth) return;
    await Promise.all([this.priceChart ? this.loadChart() : null, this.volumeChart ? this.#drawVolumeChart() : null]);
    this.#tell("resized");
  }

  /** Accounts the user can pick for an order, an invoice or a payment. */
  get liveAccounts() {
    return distinct(this.balances?.accounts ?? [], (a) => a.id).filter((a) => !a.deleted);
  }

  /** The account a form shows when none is chosen, as the backend sends from it: the exchange's
   * default when learned, else the first listed. */
  get shownAccountId(): string | undefined {
    const live = this.liveAccounts;
    return live.find((a) => a.id === this.balances?.defaultAccount)?.id ?? live[0]?.id;
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
    failed: (e: unknown) => void = (e) => this.fail(e),
  ): Promise<void> {
    this.busy = true;
    this.message = null;
    try {
      const before = this.app;
      const app = await f();
      this.app = app;
      setLanguage(app.language);
      if (ok) this.message = { kind: "ok", text: ok };
      await this.loadBalances();
      // Numbers and times arrive formatted: a change of language, unit or privacy mode fetches them again.
      if (before && (before.language !== app.language || before.unit !== app.unit || before.privacy !== app.privacy)) {
        await Promise.all([this.loadVolume(), this.readQuote(), this.loadChart()]);
        this.#tell("reformatted");
      } else if (before && before.themeSetting !== app.themeSetting) {
        // The charts are drawn in the theme's colours; a screen's own (the holdings) with them.
        await Promise.all([this.#drawVolumeChart(), this.loadChart()]);
        this.#tell("reformatted");
      }
    } catch (e) {
      failed(e);
    } finally {
      this.busy = false;
    }
  }

  /** Says `text` through the live region, even when it is what was said last. */
  announce(text: string): void {
    this.announcement = "";
    queueMicrotask(() => (this.announcement = text));
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
      if (!this.locked) void this.lockNow();
      return true;
    }
    if (this.locked) return false;
    if (e.shiftKey) {
      if (e.key.toLowerCase() !== "h") return false;
      void this.togglePrivacy();
      return true;
    }
    const n = Number(e.key);
    if (!Number.isInteger(n) || n < 1 || n > SCREENS.length) return false;
    this.go(SCREENS[n - 1]);
    return true;
  }

  /** The app is locked: nothing of the user's is read or shown. */
  get locked(): boolean {
    return this.app?.lock.locked ?? false;
  }

  /** Locks the app (Ctrl+L, the header's lock); with no password set yet, asks for one first. */
  lockNow(): Promise<void> {
    if (!this.app?.lock.set) {
      this.lockSetup = true;
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
    const wasLocked = this.locked;
    this.app = answer.app;
    if (answer.problems.length > 0) return false;
    this.lockSetup = false;
    await this.#followLock(wasLocked);
    return true;
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

  /** The lock changed in the backend (idle time, tray, a payment's password): follows it. */
  async #lockChanged(): Promise<void> {
    const wasLocked = this.locked;
    await this.reloadApp();
    await this.#followLock(wasLocked);
  }

  /** Locked now: every figure goes; unlocked after being locked: every screen reads again. */
  async #followLock(wasLocked: boolean): Promise<void> {
    if (this.locked) this.#forget();
    else if (wasLocked) await this.#loadAll();
  }

  /** Drops every figure the window holds, and each screen's state: a locked window keeps none. */
  #forget(): void {
    this.balances = null;
    this.quote = null;
    this.volume = null;
    this.volumeChart = null;
    this.priceChart = null;
    this.unknowns = null;
    // The screens' states go, and what they listened with: made afresh after unlocking.
    this.#kept.clear();
    this.#changeListeners.clear();
    this.#taxListeners.clear();
    this.#missed.clear();
    this.message = null;
  }

  /** Reads what every screen shows. */
  async #loadAll(): Promise<void> {
    await this.loadBalances();
    await this.readQuote();
    void this.refreshUnknowns();
    void this.loadChart();
    void this.loadVolume();
  }

  fail(e: unknown): void {
    this.message = { kind: "error", text: errorText(e) };
  }

  go(screen: Screen): void {
    this.screen = screen;
    this.message = null;
  }

  /** The app's view again: what a refusal just taught shows beside the form. */
  async reloadApp(): Promise<void> {
    try {
      this.app = await this.backend.appState({});
    } catch (e) {
      this.fail(e);
    }
  }

  async loadBalances(): Promise<void> {
    this.#valued = Date.now();
    try {
      const next = await this.backend.balances({});
      // A problem the poller reported is gone once it reads again.
      if (this.message?.kind === "error" && this.message.text === this.#balancesProblem) this.message = null;
      this.#balancesProblem = null;
      if (JSON.stringify(next) !== JSON.stringify(this.balances)) this.balances = next;
    } catch (e) {
      // Said once: the poller meets the same problem every 15 s.
      const text = errorText(e);
      this.#balancesProblem = text;
      if (this.message?.text !== text) this.message = { kind: "error", text };
    }
  }

  /** Reads the price the watcher saw last (or the quote for the amount typed), for every screen. */
  async readQuote(): Promise<void> {
    try {
      const next = await this.backend.quote({ amountNok: this.quoteAmount.trim() || null });
      if (JSON.stringify(next) !== JSON.stringify(this.quote)) this.quote = next;
    } catch {
      // The balances poller reports connection problems; the price just stays as it was.
    }
  }

  setQuoteAmount(amount: string): void {
    this.quoteAmount = amount;
    void this.readQuote();
  }

  /** Whether the window is dark: as chosen in Settings, else as the OS says. */
  get dark(): boolean {
    const chosen = this.app?.themeSetting;
    if (chosen) return chosen === "dark";
    return window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
  }

  /** A chart `height` pixels high as wide as the main column, in the window's theme. */
  chartSize(height: number) {
    return { width: this.#chartWidth(), height, dark: this.dark };
  }

  #chartWidth(): number {
    return Math.max(320, Math.min(1600, Math.round(this.width)));
  }

  /**
   * Milliseconds a drawn price chart stands while prices move: about the time one pixel of it
   * spans, at least 30 s and at most 10 min. Sooner, a new price adds less than a pixel of time, and
   * each drawing is a whole image for the backend to draw and WebKit to decode and paint (a month
   * spans 43 min a pixel).
   */
  #chartStaleAfter(): number {
    const spans: Record<ChartRange, number> = {
      "1h": 3_600,
      "24h": 86_400,
      "7d": 604_800,
      "30d": 2_592_000,
      all: Infinity,
    };
    const perPixel = (spans[this.chartRange] * 1000) / this.#chartWidth();
    return Math.min(600_000, Math.max(30_000, perPixel));
  }

  async loadChart(): Promise<void> {
    this.#chartDrawn = Date.now();
    this.#chartsWidth = this.#chartWidth();
    try {
      const chart = await this.backend.priceChart({ range: this.chartRange, ...this.chartSize(260) });
      const { svg, ...rest } = chart;
      this.priceChart = { url: svgUrl(svg), ...rest };
    } catch {
      this.priceChart = null;
    }
  }

  showRange(range: ChartRange): void {
    this.chartRange = range;
    void this.loadChart();
  }

  async loadVolume(): Promise<void> {
    try {
      this.volume = await this.backend.volume({});
      await this.#drawVolumeChart();
    } catch {
      this.volume = null;
    }
  }

  /** Draws the volume per market; one that cannot be drawn leaves the last drawing. */
  async #drawVolumeChart(): Promise<void> {
    this.#chartsWidth = this.#chartWidth();
    try {
      const chart = await this.backend.volumeChart(this.chartSize(240));
      this.volumeChart = svgUrl(chart.svg);
    } catch {
      // The table above it still shows the volume.
    }
  }

  /** Reads the list; the backend first checks every unknown entry against the exchange again. */
  async refreshUnknowns(): Promise<void> {
    try {
      const next = await this.backend.unknowns({});
      if (JSON.stringify(next) !== JSON.stringify(this.unknowns)) this.unknowns = next;
    } catch {
      // Tried again on the next change.
    }
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

  /** What each change from the watcher makes the window read again. */
  #readAgain(change: Change): void {
    switch (change) {
      case "payments":
      case "unknowns":
        void this.refreshUnknowns();
        break;
      case "price":
        void this.readQuote();
        // The watcher tells when the holdings change; their NOK value follows the price at a
        // slower pace, each reading saying the bid and time it was valued at.
        if (Date.now() - this.#valued >= VALUED_FOR_MS && !this.busy) void this.loadBalances();
        // Drawing the chart on every price move is most of the idle CPU; one still collecting
        // its first prices is drawn as soon as it has a line to show.
        if (
          this.screen === "overview" &&
          ((this.priceChart?.samples ?? 0) < 2 || Date.now() - this.#chartDrawn >= this.#chartStaleAfter())
        ) {
          void this.loadChart();
        }
        break;
      case "balances":
        if (!this.busy) void this.loadBalances();
        break;
      case "market":
        void this.loadVolume();
        break;
      case "privacy":
        // Switched from the tray: every figure is read again, masked or not.
        void this.act(() => this.backend.appState({}));
        break;
      // The lock's are taken where the event arrives; the rest by the screens that listen for
      // them (`onChange`).
      case "invoices":
      case "history":
      case "lock":
      case "lockAsked":
      case "closeAsked":
      case "plans":
        break;
      default:
        change satisfies never;
    }
    this.#tell(change);
  }

  /**
   * Reads the app's state until it answers. A failure (the keyring not ready yet, say) is shown
   * with what failed and tried again every 3 s.
   */
  async #loadApp(): Promise<void> {
    for (;;) {
      try {
        const app = await this.backend.appState({});
        this.app = app;
        setLanguage(app.language);
        if (this.message?.kind === "error") this.message = null;
        return;
      } catch (e) {
        this.message = {
          kind: "error",
          text: tf("Nordlys could not start: {reason} Trying again…", { reason: errorText(e) }),
        };
        await new Promise((done) => window.setTimeout(done, 3_000));
      }
    }
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
      if (!shown || this.locked) return;
      for (const change of this.#missed) this.#readAgain(change);
      this.#missed.clear();
    });
    // Asked for at once, with the app's state: each is a round trip to the backend.
    await Promise.all([
      this.#loadApp(),
      // A notification was clicked: the window shows what it was about.
      this.backend.listen("open", (screen) => this.go(screen)),
      this.backend.listen("taxSync", (view) => {
        for (const f of this.#taxListeners) f(view);
      }),
      this.backend.listen("changed", (change) => {
        if (change === "lock") void this.#lockChanged();
        // The tray asked to lock before a password was set: the window asks for one.
        else if (change === "lockAsked") this.lockSetup = true;
        else if (change === "closeAsked") this.closeAsked = true;
        // A locked window reads nothing; unlocking reads it all.
        else if (this.locked) return;
        else if (document.visibilityState === "visible") this.#readAgain(change);
        else this.#missed.add(change);
      }),
    ]);
    if (!this.locked) await this.#loadAll();
  }
}
