// What the sandbox profile's views look like, for component tests.
import type { AppView, BalancesView, Exact, QuoteView, ShownAmount, ShownBtc, ShownNok, ShownPrice } from "../bindings";

/** Figures as the backend sends them: words, and the exact amount behind them (none: hidden). */
export const btc = (text: string, exact: string | null = null): ShownBtc => ({
  text,
  exact: exact as Exact<"BTC"> | null,
});
export const nok = (text: string, exact: string | null = null): ShownNok => ({
  text,
  exact: exact as Exact<"NOK"> | null,
});
export const price = (text: string, exact: string | null = null): ShownPrice => ({
  text,
  exact: exact as Exact<"NOK/BTC"> | null,
});
/** An amount of either unit: bitcoin when `unit` says so, else kroner. */
export const amount = (text: string, exact: string | null = null, unit: "BTC" | "NOK" = "NOK"): ShownAmount => ({
  text,
  exact:
    exact === null
      ? null
      : unit === "BTC"
        ? { unit, amount: exact as Exact<"BTC"> }
        : { unit, amount: exact as Exact<"NOK"> },
});

/** A known exchange as the backend offers it; no client id issued. */
export const BARE_BITCOIN = {
  id: "bare-bitcoin",
  name: "Bare Bitcoin",
  baseUrl: "https://api.bb.no",
  oauthBaseUrl: "https://barebitcoin.no",
  operator: "bb",
  clientId: null,
  organisationName: "Bare Bitcoin AS",
  organisationNumber: "927 393 204",
  organisationAddress: "Biskop Gunnerus' gate 14A, 0185 Oslo",
};

export function appView(change: Partial<AppView> = {}): AppView {
  const profile = {
    id: "sandbox",
    name: "Sandbox",
    kind: "sandbox" as const,
    baseUrl: "http://127.0.0.1:1",
    clientId: null,
    preset: null,
    operator: "svc",
    oauthBaseUrl: "",
    scopes: ["api:accounts:bitcoin:read"],
    local: true,
  };
  return {
    profile,
    profiles: [profile],
    language: "en",
    languageSetting: null,
    unit: "btc",
    themeSetting: null,
    privacy: false,
    startHidden: false,
    closeToTray: null,
    startAtLogin: false,
    startAtLoginUnavailable: null,
    welcome: false,
    requestTimeoutSecs: 30,
    requestTimeoutMinSecs: 5,
    requestTimeoutMaxSecs: 600,
    incomeTaxPercent: "22",
    taxMethod: "fifo",
    connection: {
      hasKey: true,
      keyIsDemo: true,
      trading: { allowed: true, reason: null },
      withdrawal: { allowed: true, reason: null },
      receive: { allowed: true, reason: null },
      oauth: null,
      features: [{ feature: "balances", allowed: true, reason: null }],
      needsReconnect: false,
      host: "127.0.0.1:1",
      secretProblem: null,
    },
    notice: null,
    lock: { set: false, locked: false, why: null, idleMinutes: 15, beforePayments: true },
    presets: [BARE_BITCOIN],
    ...change,
  };
}

export function balancesView(shownPrice = "1 000 000,00 NOK"): BalancesView {
  return {
    accounts: [
      {
        id: "a1",
        name: "Main",
        totalBtc: btc("0.50000000 BTC", "0.5"),
        availableBtc: btc("0.40000000 BTC", "0.4"),
        availableNok: nok("400 000,00 NOK", "400000"),
        reserved: "0.10000000 BTC reserved by open sells or a payment on its way",
        totalNok: nok("500 000,00 NOK", "500000"),
        deleted: false,
      },
      {
        id: "a2",
        name: "Savings",
        totalBtc: btc("0.10000000 BTC", "0.1"),
        availableBtc: btc("0.10000000 BTC", "0.1"),
        availableNok: nok("100 000,00 NOK", "100000"),
        reserved: null,
        totalNok: nok("100 000,00 NOK", "100000"),
        deleted: false,
      },
    ],
    totalBtc: btc("0.60000000 BTC", "0.6"),
    totalNok: nok("600 000,00 NOK", "600000"),
    grandTotalNok: nok("610 000,00 NOK", "610000"),
    defaultAccount: null,
    fiat: nok("10 000,00 NOK", "10000"),
    fiatReason: null,
    price: price(shownPrice),
    valuedAt: "at the bid, NOK 999,000.00, 2026-11-24 07:03:12",
  };
}

export function quoteView(shownPrice = "1 000 000,00"): QuoteView {
  return {
    forAmount: null,
    price: price(shownPrice),
    bid: price("999 000,00", "999000"),
    ask: price("1 001 000,00", "1001000"),
    cardBuy: price("1 010 000,00"),
    cardSell: price("990 000,00"),
    bankBuy: price("1 002 000,00"),
    bankSell: price("998 000,00"),
    quotedAt: "12:00:00",
  };
}
