import * as api from "./bindings";
import type { AppView, BalancesView, ChartRange, GrantView, IpcError, QuoteView, VolumeView } from "./bindings";
import { h, replace } from "./dom";
import { historyChanged, isConfirming, trade, refreshTrading, setTradeContext } from "./trade";
import { listen } from "@tauri-apps/api/event";
import { invoicesChanged, receive, refreshReceive, setReceiveContext, tickCountdowns } from "./receive";
import { isPaying, pay, paymentsChanged, refreshPay, setPayContext } from "./pay";
import { refreshTax, setTaxContext, tax, taxSyncProgress } from "./tax";
import { refreshUnknowns, setUnknownsContext, unknownsBanner, unknownsScreen } from "./unknowns";
import { featureName, scopeName, scopeNames, setLanguage, t, type Language } from "./i18n";
import { exchangeProfileForm } from "./exchange_profile";
import { errorText, oneOf } from "./form";

type Screen = "overview" | "trade" | "receive" | "pay" | "tax" | "unknowns" | "connect" | "settings";

let app: AppView | null = null;
let balances: BalancesView | null = null;
let screen: Screen = "overview";
let showDeleted = false;
let message: { kind: "error" | "ok"; text: string } | null = null;
let busy = false;
let quote: QuoteView | null = null;
let quoteAmount = "";
let volume: VolumeView | null = null;
let chartRange: ChartRange = "1h";
let chartUrl: string | null = null;
let chartSamples = 0;
let volumeChartUrl: string | null = null;

const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;
const badge = document.getElementById("sandbox-badge")!;
const profileName = document.getElementById("profile-name")!;
const notice = document.getElementById("notice")!;

function isError(e: unknown): e is IpcError {
  return !!e && typeof e === "object" && "code" in e && "message" in e;
}

function fail(e: unknown): void {
  message = { kind: "error", text: errorText(e) };
  render();
}

let queue: Promise<void> = Promise.resolve();

/** Runs user actions one after another: a change made while another is in flight waits its turn. */
function act(f: () => Promise<AppView>, ok?: string): Promise<void> {
  queue = queue.then(() => run(f, ok));
  return queue;
}

async function run(f: () => Promise<AppView>, ok?: string): Promise<void> {
  busy = true;
  message = null;
  render();
  try {
    const before = app;
    app = await f();
    setLanguage(app.language as Language);
    if (ok) message = { kind: "ok", text: ok };
    await loadBalances();
    // Numbers and times arrive formatted: a change of language or unit fetches them again.
    if (before && (before.language !== app.language || before.unit !== app.unit)) {
      await Promise.all([loadVolume(), readQuote()]);
      refreshScreen(screen);
    }
  } catch (e) {
    fail(e);
  } finally {
    busy = false;
    render();
  }
}

/**
 * A render for background updates: skipped while the user confirms an order, since rebuilding the
 * screen would replace the button under the click. The data is kept; the next render shows it.
 */
/** The screens that show the price or the balances, and so are drawn again when either changes. */
const SHOWS_MARKET: ReadonlySet<Screen> = new Set<Screen>(["overview", "trade", "receive", "pay"]);

/**
 * Draws the screen again for a change the poller found, but only a screen that shows it: a
 * rebuild replaces every button, and a click whose press and release straddle one is lost (the
 * tax screen's Sync, pressed while the price moved, did nothing).
 */
function backgroundRender(): void {
  if (SHOWS_MARKET.has(screen) && !isConfirming() && !isPaying()) render();
}

/** What the balances poller last failed with, so its message goes once it reads again. */
let balancesProblem: string | null = null;

/** The app's view again, drawn at once: what a refusal just taught shows beside the form. */
async function reloadApp(): Promise<void> {
  try {
    app = await api.appState({});
    render();
  } catch (e) {
    fail(e);
  }
}

async function loadBalances(): Promise<void> {
  try {
    const next = await api.balances({});
    // A problem the poller reported is gone once it reads again.
    const solved = message?.kind === "error" && message.text === balancesProblem;
    if (solved) message = null;
    balancesProblem = null;
    if (solved || JSON.stringify(next) !== JSON.stringify(balances)) {
      balances = next;
      backgroundRender();
    }
  } catch (e) {
    // Said once: the poller meets the same problem every 15 s, and drawing the screen again each
    // time took clicks away (a Connect pressed while it was redrawn did nothing).
    const text = errorText(e);
    balancesProblem = text;
    if (message?.text !== text) {
      message = { kind: "error", text };
      backgroundRender();
    }
  }
}

function renderChrome(): void {
  if (!app) return;
  const sandbox = app.profile.kind === "sandbox";
  // An exchange on this machine is not the real one either: said as plainly as the sandbox.
  badge.hidden = !sandbox && !app.profile.local;
  badge.dataset.kind = sandbox ? "sandbox" : "local";
  badge.textContent = sandbox ? t("Sandbox") : t("Local");
  badge.title = sandbox
    ? t("Play money: this is a simulated exchange on your computer.")
    : t("An exchange on this computer (a test server), not the real exchange.");
  // A real exchange's host says which one this is; the sandbox's random local port says nothing
  // the badge does not (Connect still shows it).
  const host = h("span", { class: "muted host", "data-testid": "connected-host", title: t("Where requests go") }, app.connection.host);
  if (sandbox) profileName.replaceChildren(app.profile.name);
  else profileName.replaceChildren(app.profile.name, " ", host);
  notice.hidden = !app.notice;
  notice.textContent = app.notice ?? "";
  const tabs: [Screen, string][] = [
    ["overview", t("Overview")],
    ["trade", t("Trade")],
    ["receive", t("Receive")],
    ["pay", t("Pay")],
    ["tax", t("Tax")],
    ["unknowns", t("In doubt")],
    ["connect", t("Connect")],
    ["settings", t("Settings")],
  ];
  // Rebuilt only when it changes: a button replaced between press and release loses the click,
  // and renders come every few seconds (prices, a running sync).
  const key = JSON.stringify([screen, tabs]);
  if (key === navKey) return;
  navKey = key;
  replace(
    nav,
    ...tabs.map(([id, label]) =>
      h("button", { class: id === screen ? "tab active" : "tab", "data-testid": `nav-${id}`, onclick: () => go(id) }, label),
    ),
  );
}

let navKey = "";

function go(s: Screen): void {
  screen = s;
  message = null;
  render();
  refreshScreen(s);
}

/** Loads what `s` shows afresh: on arrival, and when the language or unit it is written in changes. */
function refreshScreen(s: Screen): void {
  if (s === "trade") void refreshTrading();
  if (s === "receive") void refreshReceive();
  if (s === "pay") void refreshPay();
  if (s === "tax") void refreshTax();
  if (s === "unknowns") void refreshUnknowns();
}

function messageLine(): Node | null {
  if (!message) return null;
  return h("p", { class: `message ${message.kind}`, "data-testid": `message-${message.kind}`, role: "status" }, message.text);
}

function sandboxTag(): Node | null {
  return balances?.sandbox ? h("span", { class: "badge sandbox small", "data-testid": "money-sandbox-badge" }, t("Sandbox")) : null;
}

function overview(): Node {
  // What stops the balances from coming is said, not hidden behind "Loading".
  if (!balances) return h("section", {}, secretProblemLine(), messageLine(), message ? null : h("p", { class: "muted" }, `${t("Loading")}…`));
  const rows = balances.accounts
    .filter((a) => showDeleted || !a.deleted)
    .map((a) =>
      h(
        "tr",
        { "data-testid": "account-row", "data-account-id": a.id, "data-total-btc": a.totalBtcRaw, class: a.deleted ? "deleted" : "" },
        h("td", {}, a.name, a.deleted ? h("span", { class: "tag" }, t("deleted")) : null),
        h("td", { class: "num" }, a.totalBtc),
        h("td", { class: "num" }, a.availableBtc),
        h("td", { class: "num" }, a.totalNok),
      ),
    );
  return h(
    "section",
    {},
    secretProblemLine(),
    h("div", { class: "cards" },
      h("div", { class: "card" }, h("div", { class: "label" }, t("Total"), " ", sandboxTag()), h("div", { class: "big", "data-testid": "total-btc" }, balances.totalBtc), h("div", { class: "muted" }, balances.totalNok)),
      h("div", { class: "card" }, h("div", { class: "label" }, t("Fiat account"), " ", sandboxTag()),
        balances.fiat
          ? h("div", { class: "big", "data-testid": "fiat", "data-raw": balances.fiatRaw ?? "" }, balances.fiat)
          : h("div", { class: "muted", "data-testid": "fiat-unavailable" }, balances.fiatReason ?? "—")),
      h("div", { class: "card" }, h("div", { class: "label" }, t("Price")), h("div", { class: "big", "data-testid": "price" }, quote?.price ?? balances.price ?? "—"), h("div", { class: "muted" }, quote ? `${t("Bid")} ${quote.bid} · ${t("Ask")} ${quote.ask}` : "BTC/NOK")),
    ),
    needsLine(),
    h("h2", {}, t("Bitcoin accounts"), " ", sandboxTag()),
    h("table", { class: "accounts" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Account")), h("th", { class: "num" }, t("Total")), h("th", { class: "num" }, t("Available")), h("th", { class: "num" }, t("Value (NOK)")))),
      h("tbody", {}, ...rows),
    ),
    priceChart(),
    volume ? volumeTable(volume) : null,
    h("label", { class: "toggle" },
      h("input", { type: "checkbox", "data-testid": "show-deleted", ...(showDeleted ? { checked: true } : {}), onchange: (e: Event) => { showDeleted = (e.target as HTMLInputElement).checked; render(); } }),
      " ", t("Show deleted accounts")),
  );
}

function volumeTable(v: VolumeView): Node {
  const rows: [string, typeof v.daily][] = [[t("Today"), v.daily], [t("Last 24 h"), v.last24h], [t("This month"), v.monthly], [t("This year"), v.yearly]];
  return h("div", {},
    h("h2", {}, t("Exchange volume")),
    h("table", { class: "accounts", "data-testid": "volume" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { class: "num" }, "NOK"), h("th", { class: "num" }, "BTC"), h("th", { class: "num" }, t("Buys")), h("th", { class: "num" }, t("Trades")))),
      h("tbody", {}, ...rows.map(([label, s]) =>
        h("tr", {}, h("td", {}, label), h("td", { class: "num" }, s.amountNok), h("td", { class: "num" }, s.amountBtc), h("td", { class: "num" }, s.buyPercentage), h("td", { class: "num" }, s.numberOfTrades))))),
    volumeChartUrl
      ? h("div", { class: "chart" }, h("h2", {}, t("Daily volume per market, last month")), h("img", { src: volumeChartUrl, alt: t("Daily volume per market, last month"), "data-testid": "volume-chart" }))
      : null);
}

function priceChart(): Node {
  const ranges: ChartRange[] = ["1h", "24h", "7d", "all"];
  return h("div", { class: "chart" },
    h("div", { class: "row" }, h("h2", {}, t("Price")), ...ranges.map((r) =>
      h("button", { class: r === chartRange ? "tab active" : "tab", "data-testid": `chart-${r}`, onclick: () => { chartRange = r; void loadChart(); } }, r === "all" ? t("All") : r))),
    chartUrl ? h("img", { src: chartUrl, alt: t("Price"), "data-testid": "price-chart", "data-samples": String(chartSamples) }) : h("p", { class: "muted" }, `${t("Loading")}…`));
}

async function loadChart(): Promise<void> {
  const width = Math.max(320, Math.min(1600, main.clientWidth - 40));
  const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  try {
    const chart = await api.priceChart({ range: chartRange, width, height: 260, dark });
    chartUrl = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(chart.svg)}`;
    chartSamples = chart.samples;
    if (screen === "overview") backgroundRender();
  } catch {
    chartUrl = null;
  }
}

/** Reads the price the watcher saw last (or the quote for the amount typed), for every screen. */
async function readQuote(): Promise<void> {
  try {
    const next = await api.quote({ amountNok: quoteAmount.trim() || null });
    if (JSON.stringify(next) !== JSON.stringify(quote)) {
      quote = next;
      backgroundRender();
    }
  } catch {
    // The balances poller reports connection problems; the price just stays as it was.
  }
}

async function loadVolume(): Promise<void> {
  try {
    volume = await api.volume({});
    const width = Math.max(320, Math.min(1600, main.clientWidth - 40));
    const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
    const chart = await api.volumeChart({ width, height: 240, dark });
    volumeChartUrl = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(chart.svg)}`;
    if (screen === "overview") backgroundRender();
  } catch {
    volume = null;
  }
}

/** The one scope the exchange grants third-party applications for now. */
const READ_SCOPE = "api:accounts:bitcoin:read";
/** Whether the last sign-in was refused for its scopes, so asking for balances alone is offered. */
let offerReadOnly = false;

function grantLine(g: GrantView | null): Node {
  if (!g) return h("p", { class: "muted", "data-testid": "oauth-none" }, t("Not connected with OAuth."));
  const granted = g.scopes
    ? [t("Connected with OAuth. Granted:"), " ", g.scopes.map(scopeName).join(", ")]
    : [t("Connected with OAuth. The exchange did not say what it granted: each feature finds out on first use.")];
  const refused = g.refused.length ? [" ", t("Refused since:"), " ", g.refused.map(scopeName).join(", ")] : [];
  return h("p", { "data-testid": "oauth-scopes" }, ...granted, ...refused);
}

/** What the features this connection cannot use need, in one line under the balances. */
function needsLine(): Node | null {
  const missing = app?.connection.features.filter((f) => !f.allowed) ?? [];
  if (!missing.length) return null;
  return h("p", { class: "muted", "data-testid": "needs-key" },
    t("Not with this connection:"), " ", missing.map((f) => featureName(f.feature)).join(", "), ". ",
    t("An API key gives all of them."), " ",
    h("button", { class: "link", onclick: () => go("connect") }, t("Connect")));
}

/** The keyring let the profile down: what happened and what to do, on the overview and Connect. */
function secretProblemLine(): Node | null {
  const problem = app?.connection.secretProblem;
  return problem ? h("p", { class: "message error", "data-testid": "secret-problem" }, problem) : null;
}

function capabilityLine(label: string, c: { allowed: boolean; reason: string | null }, id: string): Node {
  return h("li", { "data-testid": `capability-${id}`, "data-allowed": String(c.allowed), class: c.allowed ? "ok" : "no" },
    h("strong", {}, label), ": ", c.allowed && !c.reason ? t("allowed") : (c.reason ?? ""));
}

function connect(): Node {
  if (!app) return h("p", {});
  const c = app.connection;
  const keyInput = h("input", { id: "api-key", "data-testid": "api-key", autocomplete: "off", spellcheck: "false", placeholder: `${app.profile.operator}/public/…` });
  const permission = (id: string): HTMLSelectElement =>
    h("select", { "data-testid": id },
      h("option", { value: "" }, t("Not known yet")),
      h("option", { value: "yes" }, t("Allowed")),
      h("option", { value: "no" }, t("Not allowed"))) as HTMLSelectElement;
  const mayTrade = permission("key-may-trade");
  const mayWithdraw = permission("key-may-withdraw");
  const secretInput = h("input", { id: "api-secret", "data-testid": "api-secret", type: "password", autocomplete: "off", spellcheck: "false", placeholder: `${app.profile.operator}/apisecret/…` });
  const asked = app.profile.scopes;
  const scopeBoxes = Object.keys(scopeNames).map((s) =>
    h("label", { class: "scope" }, h("input", { type: "checkbox", value: s, checked: asked.includes(s), "data-testid": `scope-${s}` }), " ", scopeName(s), " ", h("code", {}, s)),
  );
  return h(
    "section",
    { class: "connect" },
    messageLine(),
    c.needsReconnect ? h("p", { class: "message error", "data-testid": "reconnect" }, t("Access expired or was revoked. Connect again.")) : null,
    secretProblemLine(),
    h("p", { class: "muted", "data-testid": "connection-host" }, t("Requests go to"), " ", h("code", {}, c.host)),
    h("h2", {}, t("What this connection may do")),
    h("ul", { class: "capabilities" },
      ...c.features.map((f) => capabilityLine(featureName(f.feature), f, f.feature)),
      capabilityLine(t("Trading"), c.trading, "trading"),
      capabilityLine(t("Withdrawals"), c.withdrawal, "withdrawal"),
    ),
    h("p", { class: "muted", "data-testid": "key-source" }, c.hasKey ? (c.keyIsDemo ? t("Using the sandbox's demo key.") : t("Using your API key.")) : ""),
    grantLine(c.oauth),
    offerReadOnly
      ? h("p", { class: "message error", "data-testid": "offer-read-only" },
          t("The exchange will not grant all of that. It may grant access to see balances only."), " ",
          h("button", { "data-testid": "connect-oauth-read-only", disabled: busy, onclick: () => {
              offerReadOnly = false;
              void act(() => api.connectOauth({ scopes: [READ_SCOPE] }));
            } }, t("Ask only to see balances")))
      : null,
    h("h2", {}, t("API key")),
    h("p", { class: "muted" }, t("Paste the key and secret from the exchange's account settings. They are stored only in the system keyring.")),
    h("form", { class: "stack", onsubmit: (e: Event) => {
        e.preventDefault();
        const key = keyInput.value, secret = secretInput.value;
        secretInput.value = "";
        const said = (s: HTMLSelectElement): boolean | undefined => (s.value === "" ? undefined : s.value === "yes");
        void act(() => api.setApiKey({ key, secret, mayTrade: said(mayTrade), mayWithdraw: said(mayWithdraw) }), t("Saved"));
      } },
      h("label", {}, t("API key"), keyInput),
      h("label", {}, t("API secret"), secretInput),
      h("fieldset", { class: "permissions" },
        h("legend", {}, t("What this key may do")),
        h("p", { class: "muted" }, t("Nordlys never sends an order or a withdrawal to find out what a key may do. Say it here, or leave it unknown: the exchange's first answer tells.")),
        h("label", {}, t("Trading"), mayTrade),
        h("label", {}, t("Withdrawals"), mayWithdraw)),
      h("button", { type: "submit", "data-testid": "save-key", disabled: busy }, t("Save key")),
    ),
    h("h2", {}, t("Sign in with the exchange")),
    h("div", { class: "scopes" }, ...scopeBoxes),
    h("div", { class: "row" },
      h("button", { "data-testid": "connect-oauth", disabled: busy, onclick: () => {
          const scopes = scopeBoxes.map((l) => l.querySelector("input")!).filter((i) => i.checked).map((i) => i.value);
          offerReadOnly = false;
          void act(async () => {
            try {
              return await api.connectOauth({ scopes });
            } catch (e) {
              // Offered once: asking for balances alone is what the exchange may grant.
              offerReadOnly = isError(e) && e.code === "scopeRefused" && scopes.some((s) => s !== READ_SCOPE);
              throw e;
            }
          });
        } }, busy ? t("Waiting for the browser…") : t("Connect in browser")),
      h("button", { class: "danger", "data-testid": "disconnect", disabled: busy, onclick: () => void act(() => api.disconnect({})) }, t("Disconnect")),
      app.profile.kind === "sandbox"
        ? h("button", { "data-testid": "reset-demo", disabled: busy, onclick: () => void act(() => api.resetDemo({})) }, t("Reset demo"))
        : null,
    ),
  );
}

function settings(): Node {
  if (!app) return h("p", {});
  const lang = h("select", { "data-testid": "language", onchange: (e: Event) => {
      const v = (e.target as HTMLSelectElement).value;
      void act(() => api.setLanguage({ language: v === "en" || v === "nb" ? v : null }));
    } },
    h("option", { value: "auto", ...(app.languageSetting === null ? { selected: true } : {}) }, t("Follow the system")),
    h("option", { value: "en", ...(app.languageSetting === "en" ? { selected: true } : {}) }, "English"),
    h("option", { value: "nb", ...(app.languageSetting === "nb" ? { selected: true } : {}) }, "Norsk bokmål"),
  );
  const unit = h("select", { "data-testid": "unit", onchange: (e: Event) => void act(() => api.setUnit({ unit: oneOf((e.target as HTMLSelectElement).value, ["btc", "sats"], "btc") })) },
    h("option", { value: "btc", ...(app.unit === "btc" ? { selected: true } : {}) }, "BTC"),
    h("option", { value: "sats", ...(app.unit === "sats" ? { selected: true } : {}) }, "sats"),
  );
  const timeout = h("input", {
    type: "number", inputmode: "numeric", "data-testid": "request-timeout",
    min: String(app.requestTimeoutMinSecs), max: String(app.requestTimeoutMaxSecs), step: "1",
    value: String(app.requestTimeoutSecs),
    onchange: (e: Event) => {
      // Empty means the default; anything else goes to the app, which says what range it takes.
      const v = (e.target as HTMLInputElement).value.trim();
      const n = Number(v);
      const seconds = v === "" || !Number.isFinite(n) ? null : Math.min(Math.max(0, Math.round(n)), 1_000_000);
      void act(() => api.setRequestTimeout({ seconds }), t("Saved"));
    },
  });
  return h(
    "section",
    { class: "settings" },
    messageLine(),
    h("label", {}, t("Language"), lang),
    h("label", {}, t("Bitcoin unit"), unit),
    h("label", {}, t("Request timeout (seconds)"), timeout),
    h("p", { class: "muted" }, t("How long Nordlys waits for the exchange before an order or payment counts as unknown and is checked again. A slow connection wants longer.")),
    h("h2", {}, t("Exchange profile")),
    h("p", { class: "muted" }, t("Client registration is arranged with the operator; they give you the addresses, the abbreviation and the client id.")),
    exchangeProfileForm(app, (f) => act(f, t("Saved"))),
    h("ul", { class: "profiles" },
      ...app.profiles.map((p) =>
        h("li", {}, p.name, " ", p.id === app!.profile.id
          ? h("span", { class: "tag" }, t("Active"))
          : h("button", { "data-testid": `use-profile-${p.id}`, onclick: () => void act(() => api.switchProfile({ id: p.id })) }, t("Use this profile"))),
      ),
    ),
  );
}

function render(): void {
  // Rebuilding the screen must not take the field the user is typing in away: refocus it after.
  const active = document.activeElement;
  const typing = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
  const focused = typing && main.contains(active) ? active.getAttribute("data-testid") : null;
  const caret = typing ? [active.selectionStart, active.selectionEnd] : null;
  draw();
  if (focused) {
    const again = main.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[data-testid="${focused}"]`);
    again?.focus();
    if (again && caret && caret[0] !== null && caret[1] !== null) {
      try {
        again.setSelectionRange(caret[0], caret[1]);
      } catch {
        // Not every input type has a caret.
      }
    }
  }
}

function draw(): void {
  setTradeContext({
    app,
    balances,
    quote,
    quoteAmount,
    setQuoteAmount: (a: string) => { quoteAmount = a; void readQuote(); },
    rerender: render,
    reloadBalances: loadBalances,
    reloadApp,
  });
  setReceiveContext({ balances, rerender: render, reloadBalances: loadBalances });
  setPayContext({ app, balances, rerender: render, reloadBalances: loadBalances, reloadApp });
  setTaxContext(render);
  setUnknownsContext(render);
  renderChrome();
  const screens: Record<Screen, () => Node> = { overview, trade, receive, pay, tax, unknowns: unknownsScreen, connect, settings };
  const body = screens[screen]();
  const banner = unknownsBanner(() => go("unknowns"));
  replace(main, ...(banner ? [banner, body] : [body]));
}

/**
 * Reads the app's state until it answers. A failure (the keyring not ready yet, say) is shown
 * with what failed and tried again every 3 s: it left the window at "Loading…" for good.
 */
async function loadApp(): Promise<void> {
  for (;;) {
    try {
      app = await api.appState({});
      setLanguage(app.language as Language);
      if (message?.kind === "error") message = null;
      render();
      return;
    } catch (e) {
      message = { kind: "error", text: `${t("Nordlys could not start:")} ${errorText(e)} ${t("Trying again…")}` };
      render();
      await new Promise((done) => window.setTimeout(done, 3_000));
    }
  }
}

/** When the price chart was last drawn: it is drawn again at most every 30 s. */
let chartDrawn = 0;

/** What each change from the watcher makes the window read again. */
function readAgain(change: api.Change): void {
  switch (change) {
    case "invoices":
      void invoicesChanged();
      break;
    case "payments":
      void paymentsChanged();
      void refreshUnknowns();
      break;
    case "unknowns":
      void refreshUnknowns();
      break;
    case "price":
      void readQuote();
      // Drawing the chart on every price move is most of the idle CPU; one still collecting
      // its first prices is drawn as soon as it has a line to show.
      if (screen === "overview" && (chartSamples < 2 || Date.now() - chartDrawn >= 30_000)) {
        chartDrawn = Date.now();
        void loadChart();
      }
      break;
    case "balances":
      if (!busy) void loadBalances();
      break;
    case "market":
      void loadVolume();
      break;
    case "history":
      if (screen === "trade") void historyChanged();
      break;
  }
}

/** Changes told while the window was hidden, read when it is shown again. */
const missed = new Set<api.Change>();

/**
 * The backend tells what changed (its watcher is the app's one poller) and how the tax sync
 * stands; the screens showing it read it again. A hidden window reads nothing until it is shown.
 */
async function followChanges(): Promise<void> {
  await listen<api.TaxSyncView>("taxSync", (event) => taxSyncProgress(event.payload, screen === "tax"));
  await listen<api.Change>("changed", (event) => {
    if (document.visibilityState === "visible") readAgain(event.payload);
    else missed.add(event.payload);
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    for (const change of missed) readAgain(change);
    missed.clear();
  });
}

async function start(): Promise<void> {
  await followChanges();
  await loadApp();
  await loadBalances();
  await readQuote();
  void refreshUnknowns();
  chartDrawn = Date.now();
  void loadChart();
  void loadVolume();
  // The countdowns of open invoices and quotes tick on the window's own clock.
  setInterval(() => {
    if (document.visibilityState === "visible") tickCountdowns();
  }, 1_000);
}

void start();
