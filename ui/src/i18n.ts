// English and Norwegian Bokmål strings. Keys are the English meaning.
export type Language = "en" | "nb";

const nb: Record<string, string> = {
  Overview: "Oversikt",
  Connect: "Tilkobling",
  Settings: "Innstillinger",
  Sandbox: "Sandkasse",
  "Bitcoin accounts": "Bitcoin-kontoer",
  Account: "Konto",
  Total: "Totalt",
  Available: "Tilgjengelig",
  "Value (NOK)": "Verdi (NOK)",
  "Fiat account": "Fiat-konto",
  "Show deleted accounts": "Vis slettede kontoer",
  deleted: "slettet",
  Price: "Kurs",
  Loading: "Laster",
  "API key": "API-nøkkel",
  "API secret": "API-hemmelighet",
  "Save key": "Lagre nøkkel",
  "Paste the key and secret from the exchange's account settings. They are stored only in the system keyring.":
    "Lim inn nøkkelen og hemmeligheten fra kontoinnstillingene hos børsen. De lagres bare i systemets nøkkelring.",
  "Sign in with the exchange": "Logg inn hos børsen",
  "Connect in browser": "Koble til i nettleseren",
  "Waiting for the browser…": "Venter på nettleseren …",
  Disconnect: "Koble fra",
  "Reset demo": "Tilbakestill demo",
  "What this connection may do": "Hva denne tilkoblingen kan gjøre",
  Reading: "Lese",
  Trading: "Handel",
  Withdrawals: "Uttak",
  allowed: "tillatt",
  "Connected with OAuth. Granted:": "Tilkoblet med OAuth. Gitt tilgang til:",
  "Not connected with OAuth.": "Ikke tilkoblet med OAuth.",
  "Using the sandbox's demo key.": "Bruker sandkassens demonøkkel.",
  "Using your API key.": "Bruker API-nøkkelen din.",
  "Access expired or was revoked. Connect again.": "Tilgangen er utløpt eller trukket tilbake. Koble til på nytt.",
  Language: "Språk",
  "Follow the system": "Følg systemet",
  "Bitcoin unit": "Bitcoin-enhet",
  "Exchange profile": "Børsprofil",
  "Base URL": "Basisadresse",
  "Client id": "Klient-ID",
  "Save exchange": "Lagre børs",
  "Use this profile": "Bruk denne profilen",
  Active: "Aktiv",
  "Client registration is arranged with the operator; they give you the base URL and client id.":
    "Klientregistrering avtales med operatøren; de gir deg basisadresse og klient-ID.",
  Saved: "Lagret",
  "Play money: this is a simulated exchange on your computer.": "Lekepenger: dette er en simulert børs på din maskin.",
  Trade: "Handel",
  Bid: "Bud",
  Ask: "Tilbud",
  "Bank transfer": "Bankoverføring",
  Card: "Kort",
  Buy: "Kjøp",
  Sell: "Selg",
  "New order": "Ny ordre",
  Market: "Marked",
  Limit: "Grense",
  Amount: "Beløp",
  "Limit price (NOK per BTC)": "Grensepris (NOK per BTC)",
  "Review order": "Se over ordren",
  Confirm: "Bekreft",
  "Sending…": "Sender …",
  Back: "Tilbake",
  "Open orders": "Åpne ordrer",
  "No open orders.": "Ingen åpne ordrer.",
  Type: "Type",
  Direction: "Retning",
  Age: "Alder",
  Cancel: "Kanseller",
  "Confirm cancel": "Bekreft kansellering",
  "Recent orders": "Siste ordrer",
  "The order was placed.": "Ordren ble lagt inn.",
  "The order was not placed. Nothing was taken.": "Ordren ble ikke lagt inn. Ingenting ble trukket.",
  placed: "lagt inn",
  notPlaced: "ikke lagt inn",
  unknown: "ukjent utfall",
  rejected: "avvist",
  sending: "sendes",
  Today: "I dag",
  "Last 24 h": "Siste 24 t",
  "This month": "Denne måneden",
  "This year": "I år",
  "Exchange volume": "Volum på børsen",
  Buys: "Kjøp",
  Trades: "Handler",
  "Trade history": "Handelshistorikk",
  "No trades yet.": "Ingen handler ennå.",
  Time: "Tid",
  Fee: "Gebyr",
  All: "Alt",
  "Quote for (NOK)": "Pris for (NOK)",
  default: "standard",
  "Daily volume per market, last month": "Daglig volum per marked, siste måned",
};

let current: Language = "en";

export function setLanguage(l: Language): void {
  current = l;
  document.documentElement.lang = l === "nb" ? "nb" : "en";
}

export function t(key: string): string {
  return current === "nb" ? (nb[key] ?? key) : key;
}

export const scopeNames: Record<string, { en: string; nb: string }> = {
  "api:accounts:bitcoin:read": { en: "See balances and account names", nb: "Se saldo og kontonavn" },
  "api:trades:read": { en: "See executed trades", nb: "Se gjennomførte handler" },
  "api:tax:transactions:read": { en: "See tax transactions", nb: "Se skattetransaksjoner" },
  "api:deposits:lightning:read": { en: "See Lightning invoices", nb: "Se Lightning-fakturaer" },
  "api:deposits:lightning:write": { en: "Create Lightning invoices", nb: "Lage Lightning-fakturaer" },
};

export function scopeName(scope: string): string {
  return scopeNames[scope]?.[current] ?? scope;
}
