// The market as the window shows it: the quote (for the amount typed), the price chart, the
// exchange's volume and its chart, drawn for the main column's width in the window's theme.
import type { Change, ChartRange, PriceChartView, QuoteView, VolumeView } from "../../bindings";
import type { Backend } from "../backend";
import type { Router } from "./router.svelte";

/** An SVG drawn by the backend, as an image address the CSP allows (`img-src data:`). */
export function svgUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export class MarketFeed {
  quote = $state<QuoteView | null>(null);
  /** The NOK amount the quote is for; empty: the exchange's default. */
  quoteAmount = $state("");
  volume = $state<VolumeView | null>(null);
  volumeChart = $state<string | null>(null);
  /** A month on first start: the daily prices fill it before Nordlys has samples of its own. */
  chartRange = $state<ChartRange>("30d");
  priceChart = $state<(Omit<PriceChartView, "svg"> & { url: string }) | null>(null);
  #width = $state(960);
  #resizing = 0;
  /** When the price chart was last drawn: moving prices draw it again after `#chartStaleAfter`. */
  #chartDrawn = 0;
  /** The width the overview's charts were last drawn for. */
  #chartsWidth = 0;

  /** A price moved (the quote, and the chart once a pixel of it could have); the volume changed. */
  static readonly INVALIDATED_BY = ["price", "market"] as const satisfies readonly Change[];

  constructor(
    private readonly backend: Backend,
    private readonly router: Router,
    /** Whether the window is dark now. */
    private readonly dark: () => boolean,
    /** Told when the charts were drawn again for a new width. */
    private readonly resized: () => void,
  ) {}

  /** The width the main column has for charts, in CSS pixels. */
  get width(): number {
    return this.#width;
  }

  /** A new width has the charts drawn again for it once the user stops resizing for 250 ms. */
  set width(width: number) {
    this.#width = width;
    window.clearTimeout(this.#resizing);
    this.#resizing = window.setTimeout(() => void this.#redrawForWidth(), 250);
  }

  /** Charts drawn for another width are drawn again (stretched, their text would be too big). */
  async #redrawForWidth(): Promise<void> {
    if (this.#chartWidth() === this.#chartsWidth) return;
    await Promise.all([this.priceChart ? this.loadChart() : null, this.volumeChart ? this.#drawVolumeChart() : null]);
    this.resized();
  }

  changed(change: Change): void {
    if (change === "market") {
      void this.loadVolume();
      return;
    }
    void this.readQuote();
    // Drawing the chart on every price move is most of the idle CPU; one still collecting its
    // first prices is drawn as soon as it has a line to show.
    if (
      this.router.screen === "overview" &&
      ((this.priceChart?.samples ?? 0) < 2 || Date.now() - this.#chartDrawn >= this.#chartStaleAfter())
    ) {
      void this.loadChart();
    }
  }

  /** Numbers arrive formatted: a new language, unit or privacy mode reads them all again. */
  reformat(): Promise<unknown> {
    return Promise.all([this.loadVolume(), this.readQuote(), this.loadChart()]);
  }

  /** The charts are drawn in the theme's colours. */
  redraw(): Promise<unknown> {
    return Promise.all([this.#drawVolumeChart(), this.loadChart()]);
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

  /** A chart `height` pixels high as wide as the main column, in the window's theme. */
  chartSize(height: number) {
    return { width: this.#chartWidth(), height, dark: this.dark() };
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

  forget(): void {
    this.quote = null;
    this.volume = null;
    this.volumeChart = null;
    this.priceChart = null;
  }
}
