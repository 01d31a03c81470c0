// What the sandbox profile's views look like, for component tests.
import type { AppView, BalancesView, QuoteView } from "../bindings";

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

export function balancesView(price = "1 000 000,00 NOK"): BalancesView {
  return {
    accounts: [
      {
        id: "a1",
        name: "Main",
        totalBtc: { text: "0.50000000 BTC", exact: "0.5" },
        availableBtc: "0.40000000 BTC",
        availableNok: "400 000,00 NOK",
        reserved: "0.10000000 BTC reserved by open sells or a payment on its way",
        totalNok: "500 000,00 NOK",
        deleted: false,
      },
      {
        id: "a2",
        name: "Savings",
        totalBtc: { text: "0.10000000 BTC", exact: "0.1" },
        availableBtc: "0.10000000 BTC",
        availableNok: "100 000,00 NOK",
        reserved: null,
        totalNok: "100 000,00 NOK",
        deleted: false,
      },
    ],
    totalBtc: "0.60000000 BTC",
    totalNok: "600 000,00 NOK",
    grandTotalNok: "610 000,00 NOK",
    defaultAccount: null,
    fiat: { text: "10 000,00 NOK", exact: "10000" },
    fiatReason: null,
    price,
    valuedAt: "at the bid, NOK 999,000.00, 2026-11-24 07:03:12",
  };
}

export function quoteView(price = "1 000 000,00"): QuoteView {
  return {
    forAmount: null,
    price,
    bid: { text: "999 000,00", exact: "999000" },
    ask: { text: "1 001 000,00", exact: "1001000" },
    cardBuy: "1 010 000,00",
    cardSell: "990 000,00",
    bankBuy: "1 002 000,00",
    bankSell: "998 000,00",
    quotedAt: "12:00:00",
  };
}
