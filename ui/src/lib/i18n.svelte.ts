// English and Norwegian Bokmål strings. Keys are the English meaning.
import type { Feature } from "../bindings";

export type Language = "en" | "nb";

const nb: Record<string, string> = {
  "1 order or payment has an unknown outcome. Do not send it again until it is settled.":
    "1 ordre eller betaling har ukjent utfall. Ikke send den på nytt før den er avklart.",
  "orders or payments have an unknown outcome. Do not send them again until they are settled.":
    "ordrer eller betalinger har ukjent utfall. Ikke send dem på nytt før de er avklart.",
  "See what Nordlys checked": "Se hva Nordlys har sjekket",
  "Something went wrong inside Nordlys:": "Noe gikk galt inne i Nordlys:",
  "In doubt": "Uavklart",
  "Orders and payments in doubt": "Uavklarte ordrer og betalinger",
  "Last checked": "Sist sjekket",
  Placed: "Lagt inn",
  Sent: "Sendt",
  "Not placed": "Ikke lagt inn",
  "Not sent": "Ikke sendt",
  Refused: "Avvist",
  "Outcome unknown": "Utfallet er ukjent",
  "it was not placed": "den ble ikke lagt inn",
  "it was not sent": "den ble ikke sendt",
  "I checked my exchange history:": "Jeg har sjekket historikken hos børsen:",
  "Nordlys checks the exchange once more, then records your answer. If it was in fact made, sending it again would pay twice.":
    "Nordlys sjekker børsen én gang til og lagrer så svaret ditt. Hvis den faktisk ble utført, betaler du to ganger om du sender på nytt.",
  "Yes:": "Ja:",
  "Cancel anyway": "Kanseller likevel",
  "Filled in from a saved recipient paid through the same Lightning node. One node serves many people: check that this is them.":
    "Fylt ut fra en lagret mottaker som er betalt gjennom den samme Lightning-noden. Én node betjener mange: sjekk at det er denne personen.",
  Order: "Ordre",
  "What Nordlys checked": "Hva Nordlys har sjekket",
  "No check has run yet.": "Ingen sjekk har kjørt ennå.",
  "When an answer from the exchange is lost, Nordlys never sends again. It checks the account until it finds evidence either way; until then the outcome is unknown.":
    "Når svaret fra børsen går tapt, sender Nordlys aldri på nytt. Den sjekker kontoen til den finner bevis den ene eller andre veien; til da er utfallet ukjent.",
  "Nothing is in doubt: every order and payment has a known outcome.":
    "Ingenting er uavklart: alle ordrer og betalinger har et kjent utfall.",
  "The same order may already have been placed. Place another one anyway?":
    "Den samme ordren kan allerede være lagt inn. Vil du likevel legge inn en til?",
  "Place another one": "Legg inn en til",
  "The same payment may already have been sent. Send another one anyway?":
    "Den samme betalingen kan allerede være sendt. Vil du likevel sende en til?",
  "Send another one": "Send en til",
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
  "Nordlys never sends an order or a withdrawal to find out what a key may do. Say it here, or leave it unknown: the exchange's first answer tells.":
    "Nordlys sender aldri en ordre eller et uttak for å finne ut hva en nøkkel kan gjøre. Si det her, eller la det stå ukjent: børsens første svar forteller det.",
  "Not known yet": "Ikke kjent ennå",
  "What this key may do": "Hva denne nøkkelen kan gjøre",
  Allowed: "Tillatt",
  "Not allowed": "Ikke tillatt",
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
  "API address": "API-adresse",
  "OAuth address": "OAuth-adresse",
  "the same as the API": "samme som API-et",
  "Abbreviation in header names and keys": "Forkortelse i headernavn og nøkler",
  "Access to ask for when signing in": "Tilgang å be om ved innlogging",
  "Nothing was saved: correct the marked fields.": "Ingenting ble lagret: rett feltene som er merket.",
  "The exchange will not grant all of that. It may grant access to see balances only.":
    "Børsen gir ikke all den tilgangen. Den kan gi tilgang til å se saldo.",
  "Ask only to see balances": "Be bare om å se saldo",
  "Connected with OAuth. The exchange did not say what it granted: each feature finds out on first use.":
    "Koblet til med OAuth. Børsen sa ikke hva den ga: hver funksjon finner det ut første gang den brukes.",
  "Refused since:": "Avvist siden:",
  "Nordlys could not start:": "Nordlys kunne ikke starte:",
  "Trying again…": "Prøver igjen …",
  pending: "venter",
  "Not final yet: the exchange may still change it": "Ikke endelig ennå: børsen kan fortsatt endre den",
  "Not with this connection:": "Ikke med denne tilkoblingen:",
  "An API key gives all of them.": "En API-nøkkel gir alle.",
  "Client id": "Klient-ID",
  "Save exchange": "Lagre børs",
  "Use this profile": "Bruk denne profilen",
  Active: "Aktiv",
  "Client registration is arranged with the operator; they give you the addresses, the abbreviation and the client id.":
    "Klientregistrering avtales med operatøren; de gir deg adressene, forkortelsen og klient-ID-en.",
  Saved: "Lagret",
  "Play money on a simulated exchange on this computer: nothing you do here is real.":
    "Lekepenger på en simulert børs på denne maskinen: ingenting du gjør her, er ekte.",
  "Connect your account": "Koble til kontoen din",
  "Play money: nothing you do here is real.": "Lekepenger: ingenting du gjør her, er ekte.",
  "A test server, not the real exchange.": "En testserver, ikke den ekte børsen.",
  request: "forespørsel",
  "new transaction stored": "ny transaksjon lagret",
  "Profile in use": "Profil i bruk",
  "Hide amounts": "Skjul beløp",
  "Show amounts": "Vis beløp",
  "Start with amounts hidden": "Start med beløp skjult",
  "Hide amounts on every screen with the eye in the header or Ctrl+Shift+H; Nordlys remembers it.":
    "Skjul beløp på alle skjermer med øyet øverst eller Ctrl+Shift+H; Nordlys husker det.",
  "Welcome to Nordlys": "Velkommen til Nordlys",
  "You are in the sandbox: a simulated exchange on your computer, with play money. Buy, sell, receive and pay as you would for real; nothing here touches a real account.":
    "Du er i sandkassen: en simulert børs på maskinen din, med lekepenger. Kjøp, selg, motta og betal som du ville gjort på ekte; ingenting her rører en ekte konto.",
  "When you are ready, connect your account at the exchange: sign in through your browser, or paste an API key. Your secrets stay in your system's keyring.":
    "Når du er klar, kobler du til kontoen din hos børsen: logg inn i nettleseren, eller lim inn en API-nøkkel. Hemmelighetene dine blir i systemets nøkkelring.",
  "Keep playing with play money": "Fortsett med lekepenger",
  "Gains and losses per year": "Gevinst og tap per år",
  "Price chart: the arrow keys read its points": "Kursgraf: piltastene leser punktene",
  "Point at the chart, or focus it and use the arrow keys, to read a price.":
    "Pek på grafen, eller flytt fokus dit og bruk piltastene, for å lese en kurs.",
  "Add your exchange as a profile: its address and, to sign in through the browser, the client id the operator gives.":
    "Legg til børsen din som en profil: adressen og, for innlogging i nettleseren, klient-ID-en operatøren gir deg.",
  "Add the exchange": "Legg til børsen",
  "Switch to it with the profile switcher at the top of the window.":
    "Bytt til den med profilvelgeren øverst i vinduet.",
  "Sign in through your browser to see your balances; or paste an API key you create in the exchange's account settings, which can also trade and pay if you allow it.":
    "Logg inn i nettleseren for å se saldoene dine; eller lim inn en API-nøkkel du lager i kontoinnstillingene hos børsen, som også kan handle og betale om du tillater det.",
  "Secrets and sign-in tokens are kept only in your system's keyring.":
    "Hemmeligheter og innloggingsnøkler lagres bare i systemets nøkkelring.",
  Local: "Lokal",
  "An exchange on this computer (a test server), not the real exchange.":
    "En børs på denne maskinen (en testserver), ikke den ekte børsen.",
  "Where requests go": "Hit går forespørslene",
  "Requests go to": "Forespørslene går til",
  Trade: "Handel",
  Bid: "Bud",
  Ask: "Tilbud",
  Quoted: "Notert",
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
  "No open orders. A limit order stays here until it is filled or you cancel it.":
    "Ingen åpne ordrer. En limitordre står her til den er fylt eller du kansellerer den.",
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
  "No trades yet. Your buys and sells appear here once filled.":
    "Ingen handler ennå. Kjøp og salg vises her når de er fylt.",
  "No payments yet. What you send appears here with its status on the network.":
    "Ingen betalinger ennå. Det du sender vises her med status i nettverket.",
  "No invoices yet. Create one above; it shows here until it is paid or expires.":
    "Ingen fakturaer ennå. Lag en over; den vises her til den er betalt eller utløper.",
  Time: "Tid",
  Fee: "Gebyr",
  All: "Alt",
  "Quote for (NOK)": "Pris for (NOK)",
  default: "standard",
  "Daily volume per market, last month": "Daglig volum per marked, siste måned",
  Receive: "Motta",
  Pay: "Betal",
  "Could not copy: select the text and copy it by hand.": "Kunne ikke kopiere: merk teksten og kopier den selv.",
  "QR code": "QR-kode",
  Copied: "Kopiert",
  Copy: "Kopier",
  expired: "utløpt",
  "Bitcoin or Lightning": "Bitcoin eller Lightning",
  "On-chain address": "On-chain-adresse",
  "Lightning address": "Lightning-adresse",
  "These always work, for any amount.": "Disse virker alltid, for alle beløp.",
  "This is your newest address. It changes after each deposit; older addresses stay valid.":
    "Dette er den nyeste adressen din. Den byttes etter hvert innskudd; eldre adresser virker fortsatt.",
  "Expires in": "Utløper om",
  Description: "Beskrivelse",
  "Private note": "Privat notat",
  "To account": "Til konto",
  "Standing destinations": "Faste mottaksadresser",
  "Lightning invoice": "Lightning-faktura",
  "Amount (empty: any amount)": "Beløp (tomt: valgfritt beløp)",
  Unit: "Enhet",
  "The exchange converts NOK to a fixed bitcoin amount when the invoice is made.":
    "Børsen regner om NOK til et fast bitcoin-beløp når fakturaen lages.",
  "Public description": "Offentlig beskrivelse",
  "It goes into the invoice as a hash: most wallets will not show it to the payer.":
    "Den legges i fakturaen som en hash: de fleste lommebøker viser den ikke til betaleren.",
  "Private note (only you see it)": "Privat notat (bare du ser det)",
  "Creating…": "Lager …",
  "Create invoice": "Lag faktura",
  "Recent invoices": "Siste fakturaer",
  Created: "Laget",
  Status: "Status",
  "Recipient (required by law for a new destination)": "Mottaker (lovpålagt for en ny mottaker-ID)",
  "The recipient is an organisation": "Mottakeren er en organisasjon",
  "Registered name": "Registrert navn",
  "Full name": "Fullt navn",
  Address: "Adresse",
  Country: "Land",
  "Organisation number (9 digits)": "Organisasjonsnummer (9 sifre)",
  "National identity number (if asked for)": "Fødselsnummer (hvis det kreves)",
  "Exchange (if it is an account at another exchange)": "Børs (hvis det er en konto hos en annen børs)",
  "A wallet the recipient controls themselves": "En lommebok mottakeren selv kontrollerer",
  "Save in the address book": "Lagre i adresseboken",
  "Name in the address book": "Navn i adresseboken",
  Reference: "Referanse",
  "No saved recipients yet: they are added when you pay a new destination.":
    "Ingen lagrede mottakere ennå: de legges til når du betaler til en ny mottaker.",
  Edit: "Rediger",
  Delete: "Slett",
  "Confirm delete": "Bekreft sletting",
  Save: "Lagre",
  "National identity or organisation number": "Fødsels- eller organisasjonsnummer",
  Exchange: "Børs",
  "Address, Lightning invoice, Lightning address or LNURL": "Adresse, Lightning-faktura, Lightning-adresse eller LNURL",
  To: "Til",
  "time left": "tid igjen",
  "Amount from the invoice": "Beløp fra fakturaen",
  "From account": "Fra konto",
  "This is a payment for goods or services (counts as a sale for tax)":
    "Dette er betaling for varer eller tjenester (regnes som salg i skattesammenheng)",
  "Description (for your records)": "Beskrivelse (for ditt eget bruk)",
  "Saved recipient": "Lagret mottaker",
  Locked: "Låst",
  "Request timeout (seconds)": "Tidsgrense for forespørsler (sekunder)",
  "How long Nordlys waits for the exchange before an order or payment counts as unknown and is checked again. A slow connection wants longer.":
    "Hvor lenge Nordlys venter på børsen før en ordre eller betaling regnes som ukjent og sjekkes igjen. En treg forbindelse trenger lenger tid.",
  "The system keyring is locked, so this recipient's details cannot be read. Unlock it and restart Nordlys, or enter them again when you pay.":
    "Systemets nøkkelring er låst, så denne mottakerens opplysninger kan ikke leses. Lås den opp og start Nordlys på nytt, eller fyll dem inn igjen når du betaler.",
  "A payment cannot be undone.": "En betaling kan ikke angres.",
  Send: "Send",
  "Review payment": "Se over betalingen",
  "Saved recipients": "Lagrede mottakere",
  "Recent payments": "Siste betalinger",
  Tax: "Skatt",
  "lines to": "linjer i",
  "new transactions stored": "nye transaksjoner lagret",
  requests: "forespørsler",
  "up to": "fram til",
  unreadable: "uleselige",
  "Not synced in this session": "Ikke synkronisert i denne økten",
  "Checking…": "Sjekker …",
  "Syncing…": "Synkroniserer…",
  "Up to date": "Oppdatert",
  "Cancelled; the next sync continues where this one stopped":
    "Avbrutt; neste synkronisering fortsetter der denne stoppet",
  Stopped: "Stoppet",
  "Sync tax history": "Synkroniser skattehistorikk",
  "Search notes": "Søk i notater",
  transactions: "transaksjoner",
  "Export CSV": "Eksporter CSV",
  Balance: "Saldo",
  Note: "Notat",
  "transactions from the exchange could not be read": "transaksjoner fra børsen kunne ikke leses",
  Deleted: "Slettet",
  "NOK account": "NOK-konto",
  "Your bitcoin at 31 December, for the wealth tax, rebuilt from the running balances of the transactions.":
    "Bitcoin-beholdningen din 31. desember, til formuesskatten, regnet ut fra saldoene i transaksjonene.",
  "so far": "hittil",
  Rate: "Kurs",
  "Your own rate, NOK per BTC": "Egen kurs, NOK per BTC",
  "Use this rate": "Bruk denne kursen",
  "Use the transactions' rate": "Bruk kursen fra transaksjonene",
  "Average cost": "Gjennomsnittskost",
  Method: "Metode",
  Year: "År",
  Disposals: "Realisasjoner",
  Proceeds: "Salgssum",
  Cost: "Kostpris",
  Gains: "Gevinster",
  Losses: "Tap",
  Net: "Netto",
  "Disposals and the lots they used": "Realisasjoner og partiene de brukte",
  Payment: "Betaling",
  Sale: "Salg",
  gain: "gevinst",
  cost: "kostpris",
  "without a known purchase": "uten kjent kjøp",
  for: "for",
  Transactions: "Transaksjoner",
  Screens: "Skjermbilder",
  Theme: "Utseende",
  Light: "Lyst",
  Dark: "Mørkt",
  "No transactions are stored yet. Sync the tax history to fetch them from the exchange.":
    "Ingen transaksjoner er lagret ennå. Synkroniser skattehistorikken for å hente dem fra børsen.",
  "No transactions match these filters.": "Ingen transaksjoner passer med disse filtrene.",
  "The tax history is up to date.": "Skattehistorikken er oppdatert.",
  Subtype: "Undertype",
  "Type an amount to check the order.": "Skriv inn et beløp for å sjekke ordren.",
  "Correct what is marked above.": "Rett det som er markert over.",
  "Type where to and how much to check the payment.": "Skriv inn mottaker og beløp for å sjekke betalingen.",
  Balances: "Saldoer",
  "Year end": "Årsslutt",
};

/** The language in use: reactive, so every text a component shows follows a change at once. */
const language = $state<{ current: Language }>({ current: "en" });

export function setLanguage(l: Language): void {
  language.current = l;
  document.documentElement.lang = l === "nb" ? "nb" : "en";
}

/** Whether `key` has its Norwegian words (a test reads every key the window uses). */
export function hasNorwegian(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(nb, key);
}

export function t(key: string): string {
  return language.current === "nb" ? (nb[key] ?? key) : key;
}

export const scopeNames: Record<string, { en: string; nb: string }> = {
  "api:accounts:bitcoin:read": { en: "See balances and account names", nb: "Se saldo og kontonavn" },
  "api:trades:read": { en: "See executed trades", nb: "Se gjennomførte handler" },
  "api:tax:transactions:read": { en: "See tax transactions", nb: "Se skattetransaksjoner" },
  "api:deposits:lightning:read": { en: "See Lightning invoices", nb: "Se Lightning-fakturaer" },
  "api:deposits:lightning:write": { en: "Create Lightning invoices", nb: "Lage Lightning-fakturaer" },
};

const featureNames: Record<Feature, { en: string; nb: string }> = {
  balances: { en: "Balances", nb: "Saldo" },
  nokBalance: { en: "NOK balance", nb: "NOK-saldo" },
  depositAddresses: { en: "Deposit addresses", nb: "Innskuddsadresser" },
  lightningInvoices: { en: "Lightning invoices", nb: "Lightning-fakturaer" },
  orderHistory: { en: "Orders", nb: "Ordrer" },
  taxHistory: { en: "Tax history", nb: "Skattehistorikk" },
};

export function featureName(feature: Feature): string {
  return featureNames[feature][language.current];
}

export function scopeName(scope: string): string {
  return scopeNames[scope]?.[language.current] ?? scope;
}
