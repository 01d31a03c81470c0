// English and Norwegian Bokmål strings. Keys are the English meaning.
import type { Feature } from "../bindings";

export type Language = "en" | "nb";

const nb = {
  // Sentences with `{name}` filled in (`tf`), and plural forms picked by the language's rules (`tn`).
  "{n} order or payment has an unknown outcome. Do not send it again until it is settled.":
    "{n} ordre eller betaling har ukjent utfall. Ikke send den på nytt før den er avklart.",
  "{n} orders or payments have an unknown outcome. Do not send them again until they are settled.":
    "{n} ordrer eller betalinger har ukjent utfall. Ikke send dem på nytt før de er avklart.",
  "Something went wrong inside Nordlys: {reason}": "Noe gikk galt inne i Nordlys: {reason}",
  "Nordlys could not start: {reason} Trying again…": "Nordlys kunne ikke starte: {reason} Prøver igjen …",
  "Tax history set aside {time}": "Skattehistorikk lagt til side {time}",
  transactions: "transaksjoner",
  rows: "rader",
  "{n} transaction": "{n} transaksjon",
  "{n} transactions": "{n} transaksjoner",
  "{n} new transaction stored": "{n} ny transaksjon lagret",
  "{n} new transactions stored": "{n} nye transaksjoner lagret",
  "{n} request": "{n} forespørsel",
  "{n} requests": "{n} forespørsler",
  "up to {date}": "fram til {date}",
  "{n} unreadable": "{n} uleselige",
  "{n} row": "{n} rad",
  "{n} rows": "{n} rader",
  "Saved {n} line to {path}": "Lagret {n} linje i {path}",
  "Saved {n} lines to {path}": "Lagret {n} linjer i {path}",
  "Saved to {path}": "Lagret i {path}",
  "{btc} without a known purchase": "{btc} uten kjent kjøp",
  "See what Nordlys checked": "Se hva Nordlys har sjekket",
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
  "I see it on the exchange: it was placed": "Jeg ser den hos børsen: den ble lagt inn",
  "Nordlys checks the exchange once more, then records the order as placed; nothing is sent. If it is still open, give its order number: a plan can then cancel it when it re-ladders.":
    "Nordlys sjekker børsen én gang til og lagrer så ordren som lagt inn; ingenting sendes. Er den fortsatt åpen, oppgi ordrenummeret: en plan kan da kansellere den når stigen legges på nytt.",
  "Order number, if still open": "Ordrenummer, hvis den fortsatt er åpen",
  "Yes: it was placed": "Ja: den ble lagt inn",
  "Pay again": "Betal igjen",
  "Cancel anyway": "Kanseller likevel",
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
  "Receiving (creating invoices)": "Motta (lage fakturaer)",
  "The account's balance after the row, from the amounts": "Kontoens saldo etter raden, regnet fra beløpene",
  "Not in the form the exchange publishes: shown as it came": "Ikke på formen børsen beskriver: vist slik den kom",
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
  pending: "venter",
  "Not final yet: the exchange may still change it": "Ikke endelig ennå: børsen kan fortsatt endre den",
  "Not with this connection:": "Ikke med denne tilkoblingen:",
  "An API key gives all of them.": "En API-nøkkel gir alle.",
  "Client id": "Klient-ID",
  "Save exchange": "Lagre børs",
  "Use this profile": "Bruk denne profilen",
  Active: "Aktiv",
  "Accounts and histories": "Kontoer og historikk",
  "Orders, payments, plans, recipients and the tax history are kept for the accounts they were made for, and are checked or run only with a key that sees those accounts.":
    "Ordrer, betalinger, planer, mottakere og skattehistorikken lagres for kontoene de ble laget for, og sjekkes eller kjøres bare med en nøkkel som ser de kontoene.",
  "This key": "Denne nøkkelen",
  "Some orders or payments are still unknown. They are checked only with a key that sees the accounts they were sent from: a key of other accounts cannot settle them, and they are never sent again.":
    "Noen ordrer eller betalinger er fortsatt ukjente. De sjekkes bare med en nøkkel som ser kontoene de ble sendt fra: en nøkkel for andre kontoer kan ikke avgjøre dem, og de sendes aldri på nytt.",
  "The lock's password, for a new or larger plan": "Låsens passord, for en ny eller større plan",
  "The lock's password, to change the exchange's address": "Låsens passord, for å endre børsens adresse",
  "The lock's password, to remove or weaken the lock": "Låsens passord, for å fjerne eller svekke låsen",
  "None yet: they are learned when the key is first used.": "Ingen ennå: de læres første gang nøkkelen brukes.",
  "Tax history in use": "Skattehistorikk i bruk",
  "Set this history aside and start a fresh one": "Legg denne historikken til side og start en ny",
  Saved: "Lagret",
  "Play money on a simulated exchange on this computer: nothing you do here is real.":
    "Lekepenger på en simulert børs på denne maskinen: ingenting du gjør her, er ekte.",
  "Connect your account": "Koble til kontoen din",
  "Play money: nothing you do here is real.": "Lekepenger: ingenting du gjør her, er ekte.",
  "A test server, not the real exchange.": "En testserver, ikke den ekte børsen.",
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
  "Limit price": "Grensepris",
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
  "The order was cancelled.": "Ordren ble kansellert.",
  placed: "lagt inn",
  "outcome unknown": "ukjent utfall",
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
  "All years": "Alle år",
  "All accounts": "Alle kontoer",
  "All types": "Alle typer",
  "All subtypes": "Alle undertyper",
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
  "The exchange cannot cancel an invoice; it can be paid until it expires.":
    "Børsen kan ikke kansellere en faktura; den kan betales til den utløper.",
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
  "Transaction id": "Transaksjons-ID",
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
  "Check the payment in Nordlys's own dialog, then press Send there.":
    "Sjekk betalingen i Nordlys' eget vindu, og trykk Send der.",
  "Nordlys shows the payment once more in a dialog of its own: only its Send sends.":
    "Nordlys viser betalingen en gang til i et eget vindu: bare Send der sender.",
  "Check the order in Nordlys's own dialog, then press Place order there.":
    "Sjekk ordren i Nordlys' eget vindu, og trykk Legg inn ordren der.",
  "Nordlys shows the order once more in a dialog of its own: only its Place order places it.":
    "Nordlys viser ordren en gang til i et eget vindu: bare Legg inn ordren der legger den inn.",
  Send: "Send",
  "Review payment": "Se over betalingen",
  "Saved recipients": "Lagrede mottakere",
  "Recent payments": "Siste betalinger",
  Tax: "Skatt",
  "Not synced in this session": "Ikke synkronisert i denne økten",
  "Checking…": "Sjekker …",
  "Syncing…": "Synkroniserer…",
  "Up to date": "Oppdatert",
  "Cancelled; the next sync continues where this one stopped":
    "Avbrutt; neste synkronisering fortsetter der denne stoppet",
  Stopped: "Stoppet",
  "Sync tax history": "Synkroniser skattehistorikk",
  "Search notes": "Søk i notater",
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
  "Tax return": "Skattemelding",
  "Income year": "Inntektsår",
  "One entry per account": "Én post per konto",
  "The year has ended.": "Året er slutt.",
  "The year has not ended: the figures are as of now.": "Året er ikke slutt: tallene gjelder per nå.",
  "Rule set": "Regelsett",
  "Year-end rate": "Kurs ved årsslutt",
  "Skatteetaten's rate, NOK per BTC": "Skatteetatens kurs, NOK per BTC",
  "USD per BTC": "USD per BTC",
  "NOK per USD": "NOK per USD",
  Use: "Bruk",
  "Nordlys' own sample": "Nordlys' egen kursmåling",
  "Last market rate in your history": "Siste markedskurs i historikken din",
  Bitcoin: "Bitcoin",
  "Bitcoin at this exchange": "Bitcoin på denne børsen",
  "Not computable": "Kan ikke beregnes",
  "Export XML": "Eksporter XML",
  "Attachment (PDF)": "Vedlegg (PDF)",
  "Attachment (CSV)": "Vedlegg (CSV)",
  "Deposits from outside the exchange": "Innskudd fra utenfor børsen",
  "The exchange does not know what these cost you. Enter when you acquired them and what you paid; it stays on this computer and goes into the attachment as entered by you.":
    "Børsen vet ikke hva disse kostet deg. Legg inn når du anskaffet dem og hva du betalte; det blir på denne maskinen og går inn i vedlegget som lagt inn av deg.",
  "Acquired on": "Anskaffet",
  "Cost in NOK": "Kostpris i NOK",
  "Tax on this sale": "Skatt på dette salget",
  "Lots this sale would use": "Partier dette salget vil bruke",
  "Income tax rate (%)": "Inntektsskattesats (%)",
  "Lots sold first": "Partier som selges først",
  "The sell ticket and the payment form show the tax a sale would cost at this rate and method, before you confirm.":
    "Salgsskjemaet og betalingsskjemaet viser hva et salg koster i skatt med denne satsen og metoden, før du bekrefter.",
  "Skatteetaten, NOK per BTC": "Skatteetaten, NOK per BTC",
  "Skatteetaten, in USD": "Skatteetaten, i USD",
  "Over time": "Over tid",
  "Hidden in privacy mode: the chart would tell your amounts.":
    "Skjult i privat modus: grafen ville vist beløpene dine.",
  "The bitcoin you held per account and in total, exactly as the running balances of your transactions say; below, what it was worth in NOK. Realised gains and losses are marked, worked out by":
    "Bitcoin du hadde per konto og totalt, nøyaktig slik de løpende saldoene i transaksjonene dine viser; under, hva den var verdt i NOK. Realiserte gevinster og tap er markert, beregnet etter",
  "Holdings over time": "Beholdning over tid",
  "Holdings chart: the arrow keys read its points": "Beholdningsgraf: piltastene leser punktene",
  Latest: "Siste",
  "Mid price": "Midtkurs",
  "Bank price to buy": "Bankpris for kjøp",
  "Bank price to sell": "Bankpris for salg",
  "Card price to buy": "Kortpris for kjøp",
  "Card price to sell": "Kortpris for salg",
  "Spread (ask − bid)": "Spread (salgskurs − kjøpskurs)",
  "Price alerts": "Prisvarsler",
  "Checked against each price Nordlys reads while it runs; each fires once as the price crosses its level.":
    "Sjekkes mot hver pris Nordlys leser mens den kjører; hvert varsel kommer én gang når prisen krysser nivået.",
  "waits for the price to come back": "venter på at prisen kommer tilbake",
  "No alerts yet.": "Ingen varsler ennå.",
  "rises above": "stiger over",
  "falls below": "faller under",
  "Level, NOK": "Nivå, NOK",
  "Alert again once the price has moved back by, % (0.5 if empty)":
    "Varsle igjen når kursen har gått tilbake med, % (0,5 hvis tom)",
  "Add alert": "Legg til varsel",
  "Save alert": "Lagre varsel",
  "Usual amount, NOK (bank and card prices are for it)": "Vanlig beløp, NOK (bank- og kortprisene gjelder det)",
  Remove: "Fjern",
  "Lock Nordlys": "Lås Nordlys",
  "Choose a password for the lock. Nordlys then locks at start, after the idle time and with Ctrl+L.":
    "Velg et passord for låsen. Nordlys låses da ved start, etter tiden uten aktivitet og med Ctrl+L.",
  "The lock hides Nordlys from people at your screen; your data is encrypted with its own key either way.":
    "Låsen skjuler Nordlys for folk ved skjermen din; dataene dine er kryptert med sin egen nøkkel uansett.",
  "Your data's key": "Nøkkelen til dataene dine",
  "Seal the key under the lock's password": "Forsegl nøkkelen med låsens passord",
  "Sealed, the key in the keyring opens only with the lock's password: a copy of your disk and of your keyring is then not enough. Your data opens when you unlock Nordlys, and nordlys-cli can no longer open it, so scheduled buys run by nordlys-cli plans run-due stop for this profile. Forget the password and the key is lost with it, unless you backed the key up above.":
    "Forseglet åpnes nøkkelen i nøkkelringen bare med låsens passord: en kopi av disken og nøkkelringen din er da ikke nok. Dataene dine åpnes når du låser opp Nordlys, og nordlys-cli kan ikke lenger åpne dem, så faste kjøp som nordlys-cli plans run-due kjører, stopper for denne profilen. Glemmer du passordet, er nøkkelen tapt med det, med mindre du har tatt vare på nøkkelen over.",
  "The key is sealed under the lock's password.": "Nøkkelen er forseglet med låsens passord.",
  "The key is kept in the system keyring, not sealed.": "Nøkkelen ligger i systemets nøkkelring, ikke forseglet.",
  "Set a lock first: the key is sealed under its password.":
    "Sett en lås først: nøkkelen forsegles med passordet dens.",
  "Stop sealing the key": "Slutt å forsegle nøkkelen",
  "Seal the key": "Forsegl nøkkelen",
  "Your local data does not open": "De lokale dataene dine åpnes ikke",
  "Put back the key you backed up": "Legg tilbake nøkkelen du tok vare på",
  "The key (64 characters, spaces allowed)": "Nøkkelen (64 tegn, mellomrom er lov)",
  "Put the key back": "Legg nøkkelen tilbake",
  "Or start a fresh store": "Eller start et nytt lager",
  "The old file is kept aside, untouched, and opens again with its key if you find it later. The fresh store starts empty: the journal's evidence for any payment whose outcome is unknown stays in the old file.":
    "Den gamle filen legges til side, urørt, og åpnes igjen med nøkkelen sin hvis du finner den senere. Det nye lageret starter tomt: journalens bevis for betalinger med ukjent utfall blir liggende i den gamle filen.",
  "Keep the old file aside and start fresh": "Legg den gamle filen til side og start på nytt",
  "Start a fresh store…": "Start et nytt lager …",
  "The old file was kept at {path}.": "Den gamle filen ligger i {path}.",
  "Your local data (journal, tax history, payments, plans, recipients) is encrypted with a key kept in the system keyring. Keep a copy somewhere safe: lost, the key takes your data with it, and with the journal the evidence for any payment whose outcome is unknown.":
    "De lokale dataene dine (journal, skattehistorikk, betalinger, planer, mottakere) er kryptert med en nøkkel i systemets nøkkelring. Ta vare på en kopi et trygt sted: mister du nøkkelen, mister du dataene, og med journalen beviset for betalinger med ukjent utfall.",
  "Write it down or keep it in a password manager, then hide it. nordlys-cli store import-key puts it back.":
    "Skriv den ned eller legg den i en passordbehandler, og skjul den. nordlys-cli store import-key legger den tilbake.",
  "Hide the key": "Skjul nøkkelen",
  "Show the key": "Vis nøkkelen",
  "The sandbox keeps its play money in memory here (no keyring is running): there is no key to keep.":
    "Sandkassen holder lekepengene i minnet her (ingen nøkkelring kjører): det finnes ingen nøkkel å ta vare på.",
  "New password": "Nytt passord",
  "The same again": "Det samme en gang til",
  "Set and lock": "Sett og lås",
  "Nordlys is locked": "Nordlys er låst",
  Password: "Passord",
  Unlock: "Lås opp",
  "App lock": "Applås",
  "Nordlys locks at start, after the idle time, with Ctrl+L and with the lock in the header.":
    "Nordlys låses ved start, etter tiden uten aktivitet, med Ctrl+L og med låsen øverst.",
  "No lock is set. The lock in the header (Ctrl+L) sets one.": "Ingen lås er satt. Låsen øverst (Ctrl+L) setter en.",
  "Lock after this many idle minutes (1–240)": "Lås etter så mange minutter uten aktivitet (1–240)",
  "Ask for the password before each payment": "Spør om passordet før hver betaling",
  "Remove the lock": "Fjern låsen",
  "The lock's password": "Låsens passord",
  "Keep Nordlys running in the tray?": "Skal Nordlys fortsette i systemstatusfeltet?",
  "In the tray, Nordlys goes on watching: price alerts, arriving money and the lock. Open it again from the tray icon. You can change this in Settings.":
    "I systemstatusfeltet følger Nordlys med videre: prisvarsler, innkommende penger og låsen. Åpne den igjen fra ikonet. Du kan endre dette i Innstillinger.",
  "Keep in the tray": "Fortsett i statusfeltet",
  "Quit when closed": "Avslutt når vinduet lukkes",
  "Keep Nordlys running in the tray when its window closes":
    "La Nordlys fortsette i systemstatusfeltet når vinduet lukkes",
  "Start Nordlys when I log in": "Start Nordlys når jeg logger inn",
  "Price alerts, arriving money and recurring buys are followed only while Nordlys runs.":
    "Prisvarsler, innkommende penger og faste kjøp følges bare mens Nordlys kjører.",
  "My open limit order near the market": "Min åpne limitordre nær markedet",
  "Within, % of the market": "Innenfor, % av markedet",
  "An alert on open orders follows the limit orders placed in Nordlys, read once a minute.":
    "Et varsel om åpne ordrer følger limitordrene lagt inn i Nordlys, lest én gang i minuttet.",
  Display: "Visning",
  "Tray and login": "Statusfelt og innlogging",
  "Connection to the exchange": "Forbindelsen til børsen",
  skipped: "hoppet over",
  held: "holdt tilbake",
  "not placed": "ikke lagt inn",
  refused: "avvist",
  "Recurring buys": "Faste kjøp",
  "Recurring buys and ladders": "Faste kjøp og stiger",
  "Each run": "Hver gang",
  "Limit buys count here once the exchange's history names their order, which it may not do; Trade history lists every fill.":
    "Limitkjøp telles med her når børsens historikk navngir ordren deres, noe den kanskje ikke gjør; Handelshistorikk viser alle fyllinger.",
  "the default account": "standardkontoen",
  "buys at market": "kjøpes det til markedspris",
  "places limit buys below the ask": "legges det inn limitkjøp under tilbudskursen",
  "Total per run, NOK": "Totalt hver gang, kr",
  "Rungs (2–50)": "Trinn (2–50)",
  "Step below the ask, %": "Steg under tilbudskursen, %",
  "Rung 1 is priced one step below the ask, rung 2 two steps, and so on, each rounded down to whole kroner; the total is split evenly. Each run first cancels the previous run's rungs still open, and waits while any of them is unknown.":
    "Trinn 1 prises ett steg under tilbudskursen, trinn 2 to steg, og så videre, hver rundet ned til hele kroner; totalen deles likt. Hver gang kanselleres først de forrige trinnene som fortsatt er åpne, og planen venter mens noen av dem er ukjente.",
  "Plans run only while Nordlys, or its command-line tool, is running: a time missed while neither runs is skipped, or run once later if you choose so. Each time is bought once, never twice.":
    "Planer kjører bare mens Nordlys, eller kommandolinjeverktøyet, kjører: et tidspunkt som går tapt mens ingen av dem kjører, hoppes over, eller kjøres én gang senere om du velger det. Hvert tidspunkt kjøpes én gang, aldri to.",
  paused: "på pause",
  "Next run": "Neste kjøp",
  "Oslo time": "norsk tid",
  Bought: "Kjøpt",
  Sold: "Solgt",
  "Amounts are hidden, and an invoice carries its amount.": "Beløp er skjult, og en faktura bærer beløpet sitt.",
  "Show the invoice": "Vis fakturaen",
  "An estimate. The tax return's card files a value only at Skatteetaten's rate, entered below or on the card.":
    "Et anslag. Skattemeldingskortet fører opp en verdi bare med Skatteetatens kurs, oppgitt nedenfor eller på kortet.",
  "when sent": "da den ble sendt",
  now: "nå",
  "Average price": "Snittpris",
  "Result so far at the bid": "Resultat så langt til kjøpskurs",
  Resume: "Fortsett",
  Pause: "Sett på pause",
  Evidence: "Belegg",
  "No recurring buys yet.": "Ingen faste kjøp ennå.",
  "Amount, NOK": "Beløp, kr",
  Every: "Hver",
  day: "dag",
  week: "uke",
  month: "måned",
  On: "På",
  "Day of the month": "Dag i måneden",
  "At (Oslo time)": "Kl. (norsk tid)",
  "Skip when the price is above, NOK (optional)": "Hopp over når prisen er over, kr (valgfritt)",
  "A time missed": "Et tapt tidspunkt",
  "is skipped": "hoppes over",
  "runs once when Nordlys is back": "kjøres én gang når Nordlys er tilbake",
  "Add plan": "Legg til plan",
  "Save plan": "Lagre plan",
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
  cost: "kostpris",
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
  "Your exchange": "Din børs",
  "Org. no.": "Org.nr.",
  "Signing in through the browser needs a client id the exchange issues to Nordlys; until it has, you connect with an API key.":
    "Innlogging i nettleseren krever en klient-ID som børsen gir Nordlys; til da kobler du til med en API-nøkkel.",
  "The details, for those who need them": "Detaljene, for den som trenger dem",
  "Another exchange: the details from its operator": "En annen børs: detaljene fra operatøren",
  "Pick your exchange by name. For another exchange, its operator gives the details.":
    "Velg børsen din ved navn. For en annen børs gir operatøren detaljene.",
  "Add your exchange in Settings: pick it by name.": "Legg til børsen din under Innstillinger: velg den ved navn.",
  "This exchange has not issued Nordlys a client id for signing in through the browser yet. Connect with an API key above.":
    "Denne børsen har ikke gitt Nordlys en klient-ID for innlogging i nettleseren ennå. Koble til med en API-nøkkel ovenfor.",
  "What the card was worked from": "Hva kortet er regnet ut fra",
  Show: "Vis",
  "Type a whole number of seconds, or leave it empty for the default.":
    "Skriv et helt antall sekunder, eller la feltet stå tomt for standardverdien.",
} as const satisfies Record<string, string>;

/** Every sentence and word the window says itself, by its English words: a key that is not in
 * the catalog (misspelt, or without its Norwegian) does not type-check. */
export type UiKey = keyof typeof nb;

/** The language in use: reactive, so every text a component shows follows a change at once. */
const language = $state<{ current: Language }>({ current: "en" });

export function setLanguage(l: Language): void {
  language.current = l;
  document.documentElement.lang = l === "nb" ? "nb" : "en";
}

export function t(key: UiKey): string {
  return language.current === "nb" ? nb[key] : key;
}

/** `key` in the language, each `{name}` replaced by `args[name]`: a sentence is one key, never
 * built from fragments. */
export function tf(key: UiKey, args: Record<string, string | number>): string {
  return t(key).replace(/\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
}

/** The form the language's plural rules pick for `n` (`{n}` filled in, and any `args`). */
export function tn(n: number, forms: { one: UiKey; other: UiKey }, args: Record<string, string | number> = {}): string {
  const rule = new Intl.PluralRules(language.current === "nb" ? "nb" : "en").select(n);
  return tf(rule === "one" ? forms.one : forms.other, { ...args, n });
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

/** The name of the weekday `index` (0 is Monday) in the language, from the platform's own
 * calendar data rather than a second copy of the backend's words. */
export function weekdayName(index: number): string {
  // 1 January 2024 was a Monday; noon UTC is that day everywhere.
  const day = Date.UTC(2024, 0, 1 + index, 12);
  return new Intl.DateTimeFormat(language.current, { weekday: "long", timeZone: "UTC" }).format(day);
}

export function featureName(feature: Feature): string {
  return featureNames[feature][language.current];
}

export function scopeName(scope: string): string {
  return scopeNames[scope]?.[language.current] ?? scope;
}
