// Generated from src-tauri/src/ipc.rs by `cargo test -p nordlys -- --ignored write_bindings`. Do not edit.
import { invoke } from "@tauri-apps/api/core";

/** An exact amount in `U` as the exchange writes one (decimal text), as shown figures
 * carry it: branded, so a plain string does not pass for money. */
export type Exact<U extends "BTC" | "NOK" | "NOK/BTC"> = string & { readonly unit: U };

export type AccountArgs = { 
/**
 * Empty or none: the first listed, the one the window shows (never the exchange's
 * unnamed "default account").
 */
accountId: string | null, };

export type AccountIdentitiesView = { identities: Array<AccountIdentityView>, taxHistories: Array<TaxHistoryView>, };

export type AccountIdentityView = { 
/**
 * The store's identity, for the window's list.
 */
id: number, 
/**
 * `host[:port]` where it was last learned; empty for records from before identities.
 */
host: string, accounts: Array<IdentityAccountView>, 
/**
 * The profile's credential sees these accounts now.
 */
current: boolean, };

export type AccountView = { id: string, name: string, totalBtc: ShownBtc, availableBtc: ShownBtc, 
/**
 * What the available bitcoin would sell for now, at the bid; none without a quote (the
 * exchange states no value for it).
 */
availableNok: ShownNok | null, 
/**
 * The part of the total not available, named: what open sells (or a payment on its way)
 * hold; none when all of it is available.
 */
reserved: string | null, 
/**
 * What it would sell for now, at the bid.
 */
totalNok: ShownNok, deleted: boolean, };

export type AlertArgs = { 
/**
 * `None`: a new alert.
 */
id: number | null, watched: Watched, crossing: Crossing, level: string, 
/**
 * Percent of the level; empty for 0.5 %.
 */
hysteresis: string, };

export type AlertField = "level" | "hysteresis";

export type AlertIdArgs = { id: number, };

export type AlertProblemView = { field: AlertField, message: string, };

export type AlertView = { id: number, watched: Watched, crossing: Crossing, 
/**
 * What it watches for, in words: "The bank price to buy NOK 5,000.00 rises above …".
 */
said: string, 
/**
 * The level and hysteresis as plain numbers, to edit.
 */
level: string, hysteresis: string, 
/**
 * It fired (or the price was beyond it when it was made) and waits for the price to come back.
 */
waiting: boolean, };

export type AlertsView = { usualAmount: ShownNok, 
/**
 * The usual amount as a plain number, to edit.
 */
usualAmountTyped: string, alerts: Array<AlertView>, 
/**
 * Why an alert on open orders cannot be made on this connection; `None`: it can.
 */
openOrdersUnavailable: string | null, };

export type AppView = { profile: ProfileView, profiles: Array<ProfileView>, 
/**
 * The language in use.
 */
language: Locale, 
/**
 * `None`: follows the OS.
 */
languageSetting: Locale | null, unit: BtcUnit, 
/**
 * Light or dark; `None`: follows the OS.
 */
themeSetting: Theme | null, 
/**
 * Privacy mode: every amount arrives masked.
 */
privacy: boolean, 
/**
 * Every start begins in privacy mode.
 */
startHidden: boolean, 
/**
 * Closing the window keeps Nordlys in the tray; `None`: not asked yet.
 */
closeToTray: boolean | null, 
/**
 * Nordlys starts at login; `None`: it cannot on this desktop.
 */
startAtLogin: boolean | null, 
/**
 * Why the switch is off, in words, when it cannot start at login here.
 */
startAtLoginUnavailable: string | null, 
/**
 * The first run's welcome is to be shown: on the sandbox, until put away.
 */
welcome: boolean, 
/**
 * How long a request to the exchange may take, in seconds; the setting, else the default.
 */
requestTimeoutSecs: number, 
/**
 * The range the setting takes.
 */
requestTimeoutMinSecs: number, requestTimeoutMaxSecs: number, 
/**
 * The income tax rate the tax before a sale is worked at, in percent, as a plain decimal.
 */
incomeTaxPercent: string, 
/**
 * How lots are matched for the tax before a sale.
 */
taxMethod: Method, connection: ConnectionView, 
/**
 * A problem the user should know about (settings or keyring).
 */
notice: string | null, lock: LockView, 
/**
 * The exchanges Nordlys knows by name, to fill the exchange profile form with.
 */
presets: Array<PresetView>, };

export type BalancesView = { accounts: Array<AccountView>, totalBtc: ShownBtc, 
/**
 * The bitcoin accounts' worth.
 */
totalNok: ShownNok, 
/**
 * The bitcoin accounts' worth and the NOK account together; `None` when the NOK account
 * cannot be read (a total that leaves it out would not be one).
 */
grandTotalNok: ShownNok | null, 
/**
 * The exchange's default account, as learned from it; `None` when not known, and then the
 * first listed is the one a form shows (and sends from) when none is chosen.
 */
defaultAccount: string | null, 
/**
 * `None` with `fiatReason` when the credentials cannot read the fiat account.
 */
fiat: ShownNok | null, fiatReason: string | null, price: ShownPrice | null, 
/**
 * What the NOK values are at: "at the bid NOK …, <time>"; none when no quote could be read
 * and the values are the exchange's own.
 */
valuedAt: string | null, };

export type BitcoinAmountUnit = "btc" | "sats" | "nok";

export type BtcUnit = "btc" | "sats";

export type CancelOrderArgs = { orderId: string, 
/**
 * The user read the warning that an order whose outcome is still unknown, quiet for longer
 * than the quiet period, could be this one, and cancels anyway.
 */
anyway?: boolean, };

export type Capability = { allowed: boolean, reason: string | null, };

export type CardArgs = { 
/**
 * `null`: last year (or the first year of the history, when it began this year).
 */
year: number | null, method: Method, perAccount: boolean, };

export type CardEntryView = { id: string, 
/**
 * The account's name, for an entry per account.
 */
account: string | null, fields: Array<CardFieldView>, };

export type CardExportArgs = { card: CardArgs, format: CardFormat, };

export type CardField = "landkode" | "navn" | "kontonummer" | "antall" | "formuesverdi" | "gevinst" | "tap" | "annenKapitalinntekt" | "boersnavn";

export type CardFieldView = { field: CardField, 
/**
 * The schema's name (`formuesverdiForVirtuellEiendel`).
 */
schema: string, 
/**
 * The field's name on the tax return, in the user's language.
 */
label: string, 
/**
 * What the field holds; `null` when not computable (`refusal` says why).
 */
value: CardValue | null, 
/**
 * The rows the figure came from, by id.
 */
sources: Array<string>, refusal: RefusalView | null, };

export type CardFormat = "xml" | "attachmentPdf" | "attachmentCsv";

export type CardValue = { "kind": "text", text: string, } | { "kind": "figure", filed: ShownAmount, exact: ShownAmount, };

export type CardView = { 
/**
 * The years the card can be made for, newest first.
 */
years: Array<number>, year: number, method: Method, 
/**
 * The method's name, printed beside the gains.
 */
methodName: string, 
/**
 * The year has ended; the running year is computed as of now.
 */
complete: boolean, rateKind: RateKind, 
/**
 * The chosen rate; `null` when there is none.
 */
rate: ShownPrice | null, 
/**
 * Where the rate comes from, printed beside the wealth value; or why there is none.
 */
rateSource: string, offers: Array<RateOfferView>, 
/**
 * The figures Skatteetaten's rates were entered as, for the form.
 */
enteredNokPerBtc: string, enteredUsdPerBtc: string, enteredNokPerUsd: string, ruleSet: string, rowsSha256: string, rows: number, entries: Array<CardEntryView>, 
/**
 * The year's disposals and the lots they consumed, to the øre.
 */
disposals: Array<DisposalView>, deposits: Array<DepositCostView>, };

export type Change = "invoices" | "payments" | "unknowns" | "price" | "balances" | "market" | "history" | "lock" | "privacy" | "lockAsked" | "closeAsked" | "plans";

export type ChartPointView = { time: string, price: ShownPrice, 
/**
 * Where it is across the plot, 0 (left) to 1 (right).
 */
x: number, };

export type ChartRange = "1h" | "24h" | "7d" | "30d" | "all";

export type ChartSizeArgs = { width: number, height: number, dark: boolean, };

export type ChartView = { svg: string, samples: number, };

export type ChoiceView = { value: string, label: string, };

export type ConnectOauthArgs = { scopes: Array<string>, };

export type ConnectionView = { hasKey: boolean, keyIsDemo: boolean, trading: Capability, withdrawal: Capability, 
/**
 * Creating invoices: a key needs the exchange's Receive permission.
 */
receive: Capability, 
/**
 * The OAuth grant, when connected through OAuth.
 */
oauth: GrantView | null, 
/**
 * What each reading feature can do with these credentials, and what it needs when not.
 */
features: Array<FeatureView>, needsReconnect: boolean, 
/**
 * Where requests go, `host[:port]`, shown beside the connection state.
 */
host: string, 
/**
 * The keyring could not be read, or held a damaged entry, and what to do about it.
 */
secretProblem: string | null, };

export type CountriesView = { countries: Array<CountryView>, };

export type CountryView = { code: string, name: string, };

export type Crossing = "risesAbove" | "fallsBelow";

export type DepositCostArgs = { id: string, 
/**
 * `YYYY-MM-DD`, the day it was acquired (Oslo); empty with an empty cost to forget it.
 */
acquiredOn: string, 
/**
 * NOK as typed.
 */
costNok: string, };

export type DepositCostView = { id: string, time: string, btc: ShownBtc, 
/**
 * As entered, for the form: `2021-03-04` and the NOK figure; empty when not entered.
 */
acquiredOn: string, costNok: string, };

export type DestinationKind = "onchain" | "invoice" | "lightningAddress" | "lnurl";

export type Direction = "buy" | "sell";

export type DisposalKind = "sale" | "payment";

export type DisposalView = { id: string, time: string, kind: DisposalKind, btc: ShownBtc, proceeds: ShownNok, cost: ShownNok, 
/**
 * "gain NOK 100.00" or "loss NOK 231.57": a loss is called one, not a negative gain.
 */
result: string, lots: Array<LotView>, 
/**
 * BTC sold beyond what the history shows was bought; none when none.
 */
unmatched: ShownBtc | null, };

export type ErrorCode = "invalidInput" | "notPermitted" | "unauthenticated" | "network" | "outcomeUnknown" | "sameAsUnknown" | "sameAsRecent" | "mayBeUnknown" | "notReviewed" | "notConfirmed" | "server" | "keyring" | "storeKey" | "browser" | "timeout" | "rateLimited" | "nonceShared" | "declined" | "scopeRefused" | "reconnect" | "locked" | "passwordNeeded" | "otherAccounts" | "internal" | "fault";

export type EvidenceView = { at: string, 
/**
 * What was read, in words.
 */
read: string, 
/**
 * What it saw, in words.
 */
saw: string, 
/**
 * Whether this step ends a check (its conclusion, or the user's word).
 */
endsCheck: boolean, };

export type ExchangeProfileArgs = { baseUrl: string, clientId: string, 
/**
 * The operator's abbreviation in header names and key prefixes; `svc` when not given.
 */
operator?: string, 
/**
 * Where OAuth is served, when not under `baseUrl`.
 */
oauthBaseUrl?: string, 
/**
 * The scopes to ask for; every scope of 5.4 when not given.
 */
scopes?: Array<string>, 
/**
 * The lock's password, when a lock is set and the saved exchange's address changes.
 */
password?: LockPassword, };

export type ExportArgs = { kind: Report, 
/**
 * For `transactions`.
 */
filter: TaxFilterArgs, 
/**
 * For `gains`.
 */
method: Method, };

export type ExportView = { 
/**
 * Where the file went; none when the user closed the dialog.
 */
path: string | null, lines: number, bytes: number, 
/**
 * What the file leaves out and why (a card's figures that are not computable): said
 * beside "Saved", so a file that is not the whole return is never taken for one.
 */
leftOut?: string, };

export type Feature = "balances" | "nokBalance" | "depositAddresses" | "lightningInvoices" | "orderHistory" | "taxHistory";

export type FeatureView = { feature: Feature, allowed: boolean, 
/**
 * Why not, and what would allow it; or that only the exchange's first answer will tell.
 */
reason: string | null, };

export type GainsArgs = { method: Method, };

export type GainsView = { method: string, years: Array<YearGainsView>, 
/**
 * The newest first, at most 500; the export has them all.
 */
disposals: Array<DisposalView>, notes: Array<string>, };

export type GrantView = { 
/**
 * What the exchange said it granted; `null` when it did not say (use tells).
 */
scopes: Array<string> | null, 
/**
 * Scopes the exchange has refused the token since.
 */
refused: Array<string>, };

export type HoldingView = { accountId: string, account: string, deleted: boolean, 
/**
 * Or why the year's holding is not computable, with no amount.
 */
balance: ShownBtc, value: ShownNok, };

export type HoldingsChartArgs = { width: number, height: number, dark: boolean, };

export type HoldingsChartView = { 
/**
 * Privacy mode: nothing is drawn or named (the chart's shape would tell the amounts).
 */
hidden: boolean, 
/**
 * Empty when hidden.
 */
svg: string, 
/**
 * The method the realised gains were worked out by, in words.
 */
method: string, 
/**
 * Oldest first; each a moment of the history, the last the holding now.
 */
readout: Array<HoldingsPointView>, plotLeft: number, plotRight: number, 
/**
 * Why the figures after some moment may still change; empty when none is pending.
 */
pending: string, };

export type HoldingsPointView = { time: string, 
/**
 * "—" with no amount when the moment's total is not known.
 */
total: ShownBtc, 
/**
 * Each account's holding, `name: amount`.
 */
accounts: Array<string>, 
/**
 * Its NOK value and the rate's source; empty when nothing valued it in this moment's column.
 */
value: string, 
/**
 * The gains and losses realised around this moment; empty when none.
 */
realised: string, 
/**
 * Where it is across the plot, 0 (left) to 1 (right).
 */
x: number, };

export type IdentityAccountView = { id: string, name: string, deleted: boolean, };

export type IdentityArgs = { identity: string, };

export type InvoiceArgs = { accountId: string | null, 
/**
 * As typed; empty for any amount.
 */
amount: string, unit: BitcoinAmountUnit, publicDescription: string, privateNote: string, };

export type InvoiceIdArgs = { id: string, };

export type InvoiceState = "unpaid" | "pending" | "paid" | "expired" | "canceled" | "other";

export type InvoiceView = { id: string, invoice: string, 
/**
 * Only for the invoice on screen, not in lists.
 */
qr: QrView | null, 
/**
 * As it was asked for: in NOK or sats when typed so, else in the unit the user prefers; or
 * "any amount" (words with no amount).
 */
amount: ShownAmount, 
/**
 * The same amount the other way, one figure only: the bitcoin of one asked for in NOK...
 */
alsoBtc: ShownBtc | null, 
/**
 * ...else what it is worth now at the bid (about).
 */
alsoNok: ShownNok | null, publicDescription: string, privateNote: string, status: InvoiceState, statusText: string, 
/**
 * RFC 3339, for the countdown.
 */
expiresAt: string, 
/**
 * When it was made, on the user's clock.
 */
createdAt: string, };

export type InvoicesView = { invoices: Array<InvoiceView>, };

export type IpcError = { code: ErrorCode, message: string, };

export type JournalEntryView = { id: string, state: JournalState, what: string, orderId: string | null, tradeId: string | null, 
/**
 * A settled entry's outcome, as an order's result says it; empty while it is not settled.
 */
outcome: string, };

export type JournalIdArgs = { journalId: number, };

export type JournalState = "sending" | "placed" | "rejected" | "unknown" | "notPlaced";

export type JournalView = { entries: Array<JournalEntryView>, };

export type KeepInTrayArgs = { keepInTray: boolean, };

export type Locale = "en" | "nb";

export type LockField = "password" | "confirm" | "current" | "idleMinutes";

export type LockFormView = { problems: Array<LockProblemView>, app: AppView, };

export type LockPassword = string;

export type LockProblemView = { field: LockField, message: string, };

export type LockSettingsArgs = { idleMinutes: string, beforePayments: boolean, 
/**
 * The lock's password: needed for a change that weakens the lock (a payment no longer
 * asking for it, a longer idle time), not for one that strengthens it.
 */
password: string | null, };

export type LockView = { 
/**
 * A password is set.
 */
set: boolean, locked: boolean, 
/**
 * Why it cannot be unlocked (the keyring could not be read), in words.
 */
why: string | null, idleMinutes: number, 
/**
 * A payment asks for the password again.
 */
beforePayments: boolean, };

export type LotView = { id: string, time: string, btc: ShownBtc, cost: ShownNok, };

export type MalformedView = { id: string, reason: string, };

export type Method = "fifo" | "average";

export type Missed = "skip" | "once";

export type MoneyKind = "order" | "withdrawal";

export type MoneyState = "sending" | "unknown" | "placed" | "notPlaced" | "sent" | "notSent" | "rejected";

export type NetworkStatus = "pending" | "completed" | "failed" | "other";

export type NewPasswordArgs = { password: string, confirm: string, 
/**
 * The password in use, when one is set and is being changed.
 */
current: string, };

export type NoArgs = Record<symbol, never>;

export type OpenOrderView = { orderId: string, 
/**
 * `None`: a type or direction this version does not know.
 */
orderType: OrderType | null, direction: Direction | null, amount: ShownAmount, 
/**
 * For a sell, what the bitcoin is worth at the bid; none for a buy (its amount is NOK) or
 * before the first price is read.
 */
amountNok: ShownNok | null, age: string, 
/**
 * The limit price, for an order Nordlys placed (its journal has it); the exchange's list
 * states none.
 */
price: ShownPrice | null, 
/**
 * The account it was placed from, for an order Nordlys placed with one named.
 */
accountId: string | null, };

export type OpenOrdersView = { orders: Array<OpenOrderView>, };

export type OrderCheckView = { ok: boolean, amountError: string | null, priceError: string | null, warning: string | null, estimate: ShownAmount | null, 
/**
 * What the estimate is at: the ask (buying) or bid (selling) with the quote's time, or the
 * limit price.
 */
estimateBasis: string | null, summary: string | null, 
/**
 * For a sale: the gain or loss it would realise and the tax on it, before confirming.
 */
saleTax: SaleTaxView | null, 
/**
 * What there is to trade with: the NOK available to buy with, or the account's bitcoin
 * available to sell.
 */
available: ShownAmount | null, 
/**
 * The one-time id that places the order as this check read it; empty while it cannot be
 * placed.
 */
reviewed: string, };

export type OrderFormArgs = { orderType: OrderType, direction: Direction, amount: string, price: string | null, accountId: string | null, };

export type OrderOutcome = "placed" | "notPlaced" | "unknown";

export type OrderResultView = { outcome: OrderOutcome, orderId: string | null, tradeId: string | null, message: string, };

export type OrderType = "market" | "limit";

export type PasswordArgs = { password: string, };

export type PayArgs = { destination: string, amount: string, unit: BitcoinAmountUnit, accountId: string | null, isPayment: boolean, description: string, recipient: RecipientForm, 
/**
 * Remember the recipient in the address book after the payment is sent.
 */
saveRecipient: boolean, label: string, };

export type PayCheckView = { 
/**
 * Everything is valid: the send button may be enabled.
 */
ok: boolean, 
/**
 * The BTC amount that would be sent: for an amount typed in NOK, what the review holds and
 * sends (the form's value, not a figure shown; `estimate` shows it).
 */
amountBtc: string | null, destinationError: string | null, recognised: string | null, kind: DestinationKind | null, 
/**
 * For an invoice, RFC 3339, for the countdown.
 */
expiresAt: string | null, 
/**
 * An invoice's own amount.
 */
fixedAmount: ShownBtc | null, 
/**
 * A `bitcoin:` link's own amount and payee label, to fill in what the user has not typed
 * (a form's value: the link's exact amount, shown or not).
 */
linkAmountBtc: Exact<"BTC"> | null, linkLabel: string | null, amountError: string | null, 
/**
 * What the amount typed comes to in the other unit, about.
 */
estimate: ShownAmount | null, 
/**
 * The account's available bitcoin, and what it is worth at the bid (none without a price).
 */
available: ShownBtc, availableNok: ShownNok | null, needsRecipient: boolean, savedRecipient: RecipientView | null, recipientErrors: RecipientErrorsView, summary: Array<SummaryLine>, 
/**
 * The one-time id that sends the payment as this check read it; empty while it cannot be
 * sent.
 */
reviewed: string, 
/**
 * For a payment marked as one: the gain or loss it would realise and the tax on it.
 */
saleTax: SaleTaxView | null, };

export type PaymentInfoView = { "kind": "none" } | { "kind": "transfer", networkId: string, destination: string, } | { "kind": "bankAccount", account: string, } | { "kind": "unreadable", text: string, } | { "kind": "text", text: string, };

export type PaymentPasswordArgs = { password: string, 
/**
 * The reviewed payment's fingerprint, as its check gave it.
 */
reviewed: string, };

export type PaymentResultView = { payment: PaymentView, message: string, };

export type PaymentView = { journalId: string, 
/**
 * When it was sent, on the user's clock.
 */
sentAt: string, destination: string, amount: ShownBtc, 
/**
 * What it was worth: when it left, once the exchange lists it; until then now, at the bid.
 * None before either is known.
 */
worth: PaymentWorth | null, 
/**
 * The fee the exchange took, once it lists the payment.
 */
fee: ShownAmount | null, 
/**
 * What the app knows of the request.
 */
state: WithdrawalState, 
/**
 * The network's side, once sent.
 */
status: NetworkStatus | null, statusText: string, withdrawalId: string | null, 
/**
 * Its transaction id (on-chain) or payment hash (Lightning), once the exchange lists it
 * among the account's transactions; read from the stored rows, never looked up.
 */
networkId: string | null, };

export type PaymentWorth = { 
/**
 * About: at a rate, not what was paid.
 */
nok: ShownNok, when: WorthWhen, };

export type PaymentsView = { payments: Array<PaymentView>, };

export type PlaceOrderArgs = { 
/**
 * The `reviewed` id of the check the user confirmed.
 */
reviewed: string, 
/**
 * The user confirmed a second time that the same order may be sent although one like it
 * is still unknown.
 */
despiteUnknown?: boolean, };

export type PlanArgs = { 
/**
 * `None`: a new plan.
 */
id: number | null, kind: PlanKind, 
/**
 * NOK per run: the market buy's, or the ladder's total.
 */
amount: string, 
/**
 * A ladder's number of rungs (2–50) and step in percent; ignored for a market buy.
 */
rungs: string, step: string, 
/**
 * The bitcoin account bought into; empty: the default account.
 */
account: string, every: PlanPeriod, 
/**
 * `mon`…`sun` for a week, 1–31 for a month, empty for a day.
 */
on: string, 
/**
 * HH:MM, Oslo time.
 */
at: string, 
/**
 * Empty: no cap.
 */
maxPrice: string, missed: Missed, 
/**
 * The lock's password, when a lock is set and the plan is new or buys more than before.
 */
password?: LockPassword, };

export type PlanField = "amount" | "on" | "at" | "maxPrice" | "rungs" | "step";

export type PlanIdArgs = { id: number, };

export type PlanKind = "buy" | "ladder";

export type PlanPeriod = "day" | "week" | "month";

export type PlanProblemView = { field: PlanField, message: string, };

export type PlanRunView = { 
/**
 * The slot, Oslo time.
 */
slot: string, state: RunState, 
/**
 * Price paid and BTC bought, from the synced history; none until its rows are there.
 */
price: ShownPrice | null, btc: ShownBtc | null, 
/**
 * What shows the state: the order id, the exchange's refusal, why it was skipped.
 */
evidence: string, journalId: number | null, 
/**
 * A ladder run's limit buys, rung 1 first; empty for a market buy.
 */
rungs: Array<PlanRungView>, };

export type PlanRungView = { index: number, 
/**
 * The rung's limit price.
 */
price: ShownPrice | null, state: RunState, evidence: string, };

export type PlanView = { id: number, 
/**
 * "NOK 500.00 every Monday at 07:00".
 */
said: string, paused: boolean, 
/**
 * When it runs next (Oslo time); none while paused.
 */
nextRun: string | null, 
/**
 * Newest first.
 */
runs: Array<PlanRunView>, 
/**
 * BTC bought by its runs, as far as the synced history shows them.
 */
bought: ShownBtc, 
/**
 * What those cost in NOK, fees included.
 */
cost: ShownNok, averagePrice: ShownPrice | null, 
/**
 * Their worth at the bid less their cost; none without a recent price or any buy seen.
 */
result: ShownNok | null, resultNegative: boolean, 
/**
 * Some of its runs placed limit buys: their fills count above only when the history names
 * their order (a tax row carries no order id), so the window says so.
 */
limitFillsMayBeMissing: boolean, 
/**
 * The fields as stored, to edit.
 */
form: PlanArgs, };

export type PlansView = { plans: Array<PlanView>, };

export type PresetView = { id: string, name: string, baseUrl: string, oauthBaseUrl: string, operator: string, 
/**
 * `null` until the operator issues Nordlys one: the profile then connects with an API key only.
 */
clientId: string | null, organisationName: string, organisationNumber: string, organisationAddress: string, };

export type PriceChartArgs = { range: ChartRange, width: number, height: number, dark: boolean, };

export type PriceChartView = { svg: string, 
/**
 * Nordlys' own samples in the range.
 */
samples: number, 
/**
 * Daily prices from the exchange's volume and the user's transactions in the range.
 */
daily: number, 
/**
 * What a pointer or the arrow keys over the chart name, oldest first.
 */
readout: Array<ChartPointView>, 
/**
 * Where the plot lies across the image, as fractions of its width.
 */
plotLeft: number, plotRight: number, };

export type ProfileProblemsView = { baseUrl: string | null, oauthBaseUrl: string | null, operator: string | null, clientId: string | null, scopes: string | null, };

export type ProfileType = "sandbox" | "exchange";

export type ProfileView = { id: string, name: string, kind: ProfileType, baseUrl: string, 
/**
 * `null` for the sandbox and for an exchange with no client id issued (API key only).
 */
clientId: string | null, 
/**
 * The known exchange this profile reaches, by `PresetView.id`.
 */
preset: string | null, 
/**
 * The operator's abbreviation (`svc` for the sandbox).
 */
operator: string, 
/**
 * Where OAuth is served; empty when under `baseUrl`.
 */
oauthBaseUrl: string, 
/**
 * The scopes asked for when connecting through OAuth.
 */
scopes: Array<string>, 
/**
 * An exchange profile whose exchange runs on this machine (a test server, a second sandbox).
 */
local: boolean, };

export type QrView = { text: string, uri: string, svg: string, };

export type QuoteArgs = { 
/**
 * NOK to quote for, as typed; none for the exchange's default (5000).
 */
amountNok: string | null, };

export type QuoteView = { 
/**
 * The NOK amount this quote is for, formatted; none for the default.
 */
forAmount: ShownNok | null, price: ShownPrice, 
/**
 * Exact unless hidden: a limit order starts from the price on its side.
 */
bid: ShownPrice, ask: ShownPrice, cardBuy: ShownPrice, cardSell: ShownPrice, bankBuy: ShownPrice, bankSell: ShownPrice, 
/**
 * When the exchange quoted it, on the user's clock, to the second.
 */
quotedAt: string, };

export type RateKind = "none" | "nokPerBtc" | "viaUsd" | "lastTransaction" | "sample";

export type RateOfferView = { kind: RateKind, 
/**
 * The rate; `null` when this source has none for the year.
 */
rate: ShownPrice | null, 
/**
 * Where it comes from, or why it has none.
 */
source: string, };

export type RawRowView = { id: string, 
/**
 * The row's JSON as the exchange sent it.
 */
raw: string, };

export type RawRowsView = { rows: Array<RawRowView>, };

export type ReceiveView = { onchain: QrView, lightningAddress: QrView, lnurl: QrView, 
/**
 * Address and LNURL in one BIP21 code, when the address is bech32.
 */
unified: QrView | null, };

export type RecipientDetails = { fullName: string, country: string, address: string, nin: string, exchange: string, selfCustody: boolean, };

export type RecipientErrorsView = { fullName: string | null, country: string | null, address: string | null, nin: string | null, };

export type RecipientForm = { fullName: string, country: string, address: string, 
/**
 * National identity number, or the organisation number when `organisation` is set.
 */
nin: string, organisation: boolean, exchange: string, selfCustody: boolean, };

export type RecipientView = { identity: string, destination: string, label: string, 
/**
 * Absent while they are sealed and the keyring cannot open them: only the label is known.
 */
details: RecipientDetails | null, };

export type RecipientsView = { recipients: Array<RecipientView>, };

export type RefusalKind = "noRateChosen" | "noRateInHistory" | "noPriceSample" | "ratesOutOfRange" | "pending" | "unknownType" | "malformed" | "soldMoreThanBought" | "balanceContradicted" | "amountsOverflow" | "unknownValue" | "notSynced";

export type RefusalView = { why: RefusalKind, reason: string, fix: string, };

export type Report = "transactions" | "yearEnd" | "gains";

export type RestoreStoreKeyArgs = { 
/**
 * The key as backed up: 64 hexadecimal digits, in groups of four or not.
 */
key: string, };

export type RowIdsArgs = { ids: Array<string>, };

export type RunState = "skipped" | "held" | "sending" | "unknown" | "placed" | "notPlaced" | "rejected";

export type SaleTaxView = { 
/**
 * "Gain NOK 100 000,00 by FIFO", or the loss.
 */
gain: string | null, 
/**
 * "Tax at 22 %: NOK 22 000,00", or the reduction a loss gives.
 */
tax: string | null, lots: Array<LotView>, refusal: RefusalView | null, };

export type SaveAlertView = { 
/**
 * Empty when the alert was kept; otherwise nothing was.
 */
problems: Array<AlertProblemView>, alerts: AlertsView, };

export type SavePlanView = { 
/**
 * Empty when the plan was kept; otherwise nothing was.
 */
problems: Array<PlanProblemView>, 
/**
 * Kept, but more than the NOK available now.
 */
warning: string | null, plans: PlansView, };

export type SaveRecipientArgs = { identity: string, destination: string, label: string, details: RecipientDetails, };

export type Screen = "overview" | "trade" | "receive" | "pay" | "tax" | "unknowns" | "connect" | "settings";

export type SealStoreKeyArgs = { password: LockPassword | null, 
/**
 * Sealed under the lock's password, or kept in the keyring as it is.
 */
sealed: boolean, };

export type SendPaymentArgs = { 
/**
 * The `reviewed` id of the check the user confirmed.
 */
reviewed: string, 
/**
 * The user confirmed a second time that the same payment may be sent although one like it
 * is still unknown.
 */
despiteUnknown?: boolean, 
/**
 * The user was told the same payment went through within the last day, and pays again.
 */
despiteRecent?: boolean, };

export type SetApiKeyArgs = { key: string, secret: string, 
/**
 * What the user says the key may do; unknown until used when not said.
 */
mayTrade?: boolean, mayWithdraw?: boolean, };

export type SetLanguageArgs = { 
/**
 * None to follow the OS.
 */
language: Locale | null, };

export type SetPrivacyArgs = { hidden: boolean, };

export type SetRequestTimeoutArgs = { 
/**
 * `None`: back to the default.
 */
seconds: number | null, };

export type SetStartHiddenArgs = { startHidden: boolean, };

export type SetTaxRulesArgs = { 
/**
 * Percent as typed, 0 to 100.
 */
incomeTaxPercent: string, taxMethod: Method, };

export type SetThemeArgs = { 
/**
 * None to follow the OS.
 */
theme: Theme | null, };

export type SetUnitArgs = { unit: BtcUnit, };

export type SettlePlacedArgs = { journalId: number, orderId: string | null, };

export type ShownAmount = { text: string, exact: { unit: "BTC", amount: Exact<"BTC"> } | { unit: "NOK", amount: Exact<"NOK"> } | null, };

export type ShownBtc = { text: string, exact: Exact<"BTC"> | null, };

export type ShownNok = { text: string, exact: Exact<"NOK"> | null, };

export type ShownPrice = { text: string, exact: Exact<"NOK/BTC"> | null, };

export type StartAtLoginArgs = { startAtLogin: boolean, };

export type StoreKeyArgs = { 
/**
 * The lock's password, when a lock is set.
 */
password: LockPassword | null, };

export type StoreKeyView = { "kind": "key", groups: string, } | { "kind": "inMemory" };

export type StoreMended = { 
/**
 * Where the store no key opened was kept, when a fresh one started.
 */
setAside: string | null, };

export type StoreSeal = "keyring" | "sealed" | "inMemory";

export type SummaryLine = { label: string, value: string, };

export type SwitchProfileArgs = { id: string, };

export type SyncState = "idle" | "running" | "complete" | "cancelled" | "failed";

export type TaxBalanceView = { id: string, name: string, balance: ShownBtc, 
/**
 * Empty unless the account is deleted.
 */
deleted: string, };

export type TaxBalancesArgs = { includeDeleted: boolean, };

export type TaxBalancesView = { fiat: ShownNok, accounts: Array<TaxBalanceView>, totalBtc: ShownBtc, };

export type TaxFacetsView = { years: Array<number>, accounts: Array<ChoiceView>, types: Array<ChoiceView>, subTypes: Array<ChoiceView>, 
/**
 * Rows the exchange sent that could not be read, with their ids.
 */
malformed: Array<MalformedView>, stored: number, };

export type TaxFilterArgs = { year: number | null, accountId: string | null, txType: string | null, subType: string | null, search: string, };

export type TaxHistoryView = { 
/**
 * The set-aside history's number; none for the one in use: with `inUse`, its key.
 */
aside: number | null, 
/**
 * The history the tax screens show; the others were set aside, and are kept.
 */
inUse: boolean, 
/**
 * Whose it is, by account ids; empty before its first sync with known accounts.
 */
accountIds: Array<string>, rows: number, 
/**
 * When it was set aside, as the user reads times.
 */
setAsideAt: string | null, };

export type TaxRowView = { id: string, 
/**
 * Oslo time, `2025-01-02 10:00`.
 */
time: string, account: string, accountDeleted: boolean, 
/**
 * In words for known kinds, the API's value as it is for unknown ones.
 */
kind: string, 
/**
 * In words, as `kind`; empty for none.
 */
subType: string, 
/**
 * BTC in minus BTC out, signed; none when no BTC moved.
 */
btc: ShownBtc | null, 
/**
 * NOK in minus NOK out, signed; none when no NOK moved.
 */
nok: ShownNok | null, 
/**
 * None when the row states none, or a zero fee.
 */
fee: ShownAmount | null, rate: ShownPrice | null, 
/**
 * The account's balance after the row; none when the amounts cannot tell.
 */
runningBalance: ShownBtc | null, note: string, 
/**
 * `paymentInfo` as sent.
 */
paymentInfo: string, 
/**
 * What `paymentInfo` says, read by the row's kind.
 */
payment: PaymentInfoView, isPayment: boolean, 
/**
 * No `finalizeTime` yet: the row may still change.
 */
pending: boolean, };

export type TaxRowsArgs = { filter: TaxFilterArgs, offset: number, 
/**
 * At most 500.
 */
limit: number, };

export type TaxRowsView = { 
/**
 * Rows matching the filter, all of them, for the list's scroll height; given with the block
 * at offset 0 only.
 */
total: number | null, offset: number, rows: Array<TaxRowView>, };

export type TaxSyncView = { state: SyncState, requests: number, received: number, stored: number, malformed: number, 
/**
 * 0–1000: the share of the time from the first transaction to now already covered.
 */
permille: number, 
/**
 * The date reached, for "synced up to …".
 */
reached: string, 
/**
 * Why a sync failed, or a short summary of one that ended.
 */
message: string, 
/**
 * What kind of failure it was (`otherAccounts` offers to set the history aside).
 */
failure: ErrorCode | null, };

export type Theme = "light" | "dark";

export type TradeView = { id: string, time: string, direction: Direction, account: string, btc: ShownBtc | null, nok: ShownNok | null, price: ShownPrice | null, fee: ShownAmount | null, };

export type TradesView = { trades: Array<TradeView>, };

export type UnknownEntryView = { journalId: number, kind: MoneyKind, state: MoneyState, sentAt: string, summary: string, 
/**
 * Still unknown (the user may settle it).
 */
open: boolean, evidence: Array<EvidenceView>, };

export type UnknownsView = { 
/**
 * How many are still unknown.
 */
unresolved: number, 
/**
 * The unknown ones and those settled in the last day after a lost answer, newest first.
 */
entries: Array<UnknownEntryView>, };

export type UsualAmountArgs = { amount: string, };

export type VolumeStatsView = { amountNok: ShownNok, amountBtc: ShownBtc, buyPercentage: string, numberOfTrades: string, };

export type VolumeView = { daily: VolumeStatsView, monthly: VolumeStatsView, yearly: VolumeStatsView, last24h: VolumeStatsView, };

export type Watched = "mid" | "bankBuy" | "bankSell" | "cardBuy" | "cardSell" | "spread" | "openOrder";

export type WindowShownArgs = { shown: boolean, };

export type WithdrawalState = "sending" | "sent" | "rejected" | "unknown" | "notSent";

export type WorthWhen = "sent" | "now";

export type YearEndChoiceArgs = { year: number, kind: RateKind, 
/**
 * For `nokPerBtc`, as typed.
 */
nokPerBtc: string, 
/**
 * For `viaUsd`, as typed.
 */
usdPerBtc: string, nokPerUsd: string, };

export type YearEndView = { year: number, 
/**
 * False for the current year: its figures are "so far".
 */
complete: boolean, 
/**
 * "—" with no amount when the year has no rate.
 */
rate: ShownPrice, rateSource: string, 
/**
 * The rate was entered by the user; it can be removed again.
 */
entered: boolean, accounts: Array<HoldingView>, totalBtc: ShownBtc, totalNok: ShownNok, 
/**
 * "not computable: pending since …" when a pending row touches the figures (then they say
 * so too); `null` otherwise.
 */
notComputable: string | null, };

export type YearEndsView = { years: Array<YearEndView>, };

export type YearGainsView = { year: number, disposals: number, 
/**
 * Each, or why the year is not computable, with no amount.
 */
proceeds: ShownNok, cost: ShownNok, gains: ShownNok, losses: ShownNok, net: ShownNok, 
/**
 * "not computable: pending since …" when a pending row touches the figures (then they say
 * so too); `null` otherwise.
 */
notComputable: string | null, };

/** Every command fails with an IpcError; anything else is wrapped as `internal`. */
async function call<T>(command: string, args: unknown): Promise<T> {
  try {
    return await invoke<T>(command, { args });
  } catch (e) {
    if (e && typeof e === "object" && "code" in e && "message" in e) throw e as IpcError;
    throw { code: "internal", message: String(e) } satisfies IpcError;
  }
}

export function answerClose(args: KeepInTrayArgs): Promise<NoArgs> {
  return call("answer_close", args);
}

export function setCloseToTray(args: KeepInTrayArgs): Promise<AppView> {
  return call("set_close_to_tray", args);
}

export function setStartAtLogin(args: StartAtLoginArgs): Promise<AppView> {
  return call("set_start_at_login", args);
}

export function appState(args: NoArgs): Promise<AppView> {
  return call("app_state", args);
}

export function balances(args: NoArgs): Promise<BalancesView> {
  return call("balances", args);
}

export function setApiKey(args: SetApiKeyArgs): Promise<AppView> {
  return call("set_api_key", args);
}

export function connectOauth(args: ConnectOauthArgs): Promise<AppView> {
  return call("connect_oauth", args);
}

export function disconnect(args: NoArgs): Promise<AppView> {
  return call("disconnect", args);
}

export function resetDemo(args: NoArgs): Promise<AppView> {
  return call("reset_demo", args);
}

export function setLanguage(args: SetLanguageArgs): Promise<AppView> {
  return call("set_language", args);
}

export function setUnit(args: SetUnitArgs): Promise<AppView> {
  return call("set_unit", args);
}

export function setTheme(args: SetThemeArgs): Promise<AppView> {
  return call("set_theme", args);
}

export function setPrivacy(args: SetPrivacyArgs): Promise<AppView> {
  return call("set_privacy", args);
}

export function lock(args: NoArgs): Promise<AppView> {
  return call("lock", args);
}

export function storeKey(args: StoreKeyArgs): Promise<StoreKeyView> {
  return call("store_key", args);
}

export function storeSeal(args: NoArgs): Promise<StoreSeal> {
  return call("store_seal", args);
}

export function sealStoreKey(args: SealStoreKeyArgs): Promise<StoreSeal> {
  return call("seal_store_key", args);
}

export function restoreStoreKey(args: RestoreStoreKeyArgs): Promise<StoreMended> {
  return call("restore_store_key", args);
}

export function startFreshStore(args: NoArgs): Promise<StoreMended> {
  return call("start_fresh_store", args);
}

export function unlock(args: PasswordArgs): Promise<LockFormView> {
  return call("unlock", args);
}

export function setLockPassword(args: NewPasswordArgs): Promise<LockFormView> {
  return call("set_lock_password", args);
}

export function removeLock(args: PasswordArgs): Promise<LockFormView> {
  return call("remove_lock", args);
}

export function setLockSettings(args: LockSettingsArgs): Promise<LockFormView> {
  return call("set_lock_settings", args);
}

export function stillHere(args: NoArgs): Promise<NoArgs> {
  return call("still_here", args);
}

export function allowPayment(args: PaymentPasswordArgs): Promise<LockFormView> {
  return call("allow_payment", args);
}

export function setWindowShown(args: WindowShownArgs): Promise<NoArgs> {
  return call("set_window_shown", args);
}

export function setStartHidden(args: SetStartHiddenArgs): Promise<AppView> {
  return call("set_start_hidden", args);
}

export function dismissWelcome(args: NoArgs): Promise<AppView> {
  return call("dismiss_welcome", args);
}

export function setRequestTimeout(args: SetRequestTimeoutArgs): Promise<AppView> {
  return call("set_request_timeout", args);
}

export function setTaxRules(args: SetTaxRulesArgs): Promise<AppView> {
  return call("set_tax_rules", args);
}

export function checkExchangeProfile(args: ExchangeProfileArgs): Promise<ProfileProblemsView> {
  return call("check_exchange_profile", args);
}

export function saveExchangeProfile(args: ExchangeProfileArgs): Promise<AppView> {
  return call("save_exchange_profile", args);
}

export function switchProfile(args: SwitchProfileArgs): Promise<AppView> {
  return call("switch_profile", args);
}

export function accountIdentities(args: NoArgs): Promise<AccountIdentitiesView> {
  return call("account_identities", args);
}

export function setTaxHistoryAside(args: NoArgs): Promise<AccountIdentitiesView> {
  return call("set_tax_history_aside", args);
}

export function quote(args: QuoteArgs): Promise<QuoteView> {
  return call("quote", args);
}

export function checkOrder(args: OrderFormArgs): Promise<OrderCheckView> {
  return call("check_order", args);
}

export function placeOrder(args: PlaceOrderArgs): Promise<OrderResultView> {
  return call("place_order", args);
}

export function resolveOrders(args: NoArgs): Promise<JournalView> {
  return call("resolve_orders", args);
}

export function openOrders(args: NoArgs): Promise<OpenOrdersView> {
  return call("open_orders", args);
}

export function cancelOrder(args: CancelOrderArgs): Promise<OpenOrdersView> {
  return call("cancel_order", args);
}

export function volume(args: NoArgs): Promise<VolumeView> {
  return call("volume", args);
}

export function tradeHistory(args: NoArgs): Promise<TradesView> {
  return call("trade_history", args);
}

export function priceChart(args: PriceChartArgs): Promise<PriceChartView> {
  return call("price_chart", args);
}

export function volumeChart(args: ChartSizeArgs): Promise<ChartView> {
  return call("volume_chart", args);
}

export function holdingsChart(args: HoldingsChartArgs): Promise<HoldingsChartView> {
  return call("holdings_chart", args);
}

export function alerts(args: NoArgs): Promise<AlertsView> {
  return call("alerts", args);
}

export function saveAlert(args: AlertArgs): Promise<SaveAlertView> {
  return call("save_alert", args);
}

export function removeAlert(args: AlertIdArgs): Promise<AlertsView> {
  return call("remove_alert", args);
}

export function setUsualAmount(args: UsualAmountArgs): Promise<AlertsView> {
  return call("set_usual_amount", args);
}

export function plans(args: NoArgs): Promise<PlansView> {
  return call("plans", args);
}

export function savePlan(args: PlanArgs): Promise<SavePlanView> {
  return call("save_plan", args);
}

export function pausePlan(args: PlanIdArgs): Promise<PlansView> {
  return call("pause_plan", args);
}

export function resumePlan(args: PlanIdArgs): Promise<PlansView> {
  return call("resume_plan", args);
}

export function removePlan(args: PlanIdArgs): Promise<PlansView> {
  return call("remove_plan", args);
}

export function receiveDestinations(args: AccountArgs): Promise<ReceiveView> {
  return call("receive_destinations", args);
}

export function createInvoice(args: InvoiceArgs): Promise<InvoiceView> {
  return call("create_invoice", args);
}

export function invoiceStatus(args: InvoiceIdArgs): Promise<InvoiceView> {
  return call("invoice_status", args);
}

export function recentInvoices(args: NoArgs): Promise<InvoicesView> {
  return call("recent_invoices", args);
}

export function checkPayment(args: PayArgs): Promise<PayCheckView> {
  return call("check_payment", args);
}

export function sendPayment(args: SendPaymentArgs): Promise<PaymentResultView> {
  return call("send_payment", args);
}

export function payments(args: NoArgs): Promise<PaymentsView> {
  return call("payments", args);
}

export function recipients(args: NoArgs): Promise<RecipientsView> {
  return call("recipients", args);
}

export function saveRecipient(args: SaveRecipientArgs): Promise<RecipientsView> {
  return call("save_recipient", args);
}

export function deleteRecipient(args: IdentityArgs): Promise<RecipientsView> {
  return call("delete_recipient", args);
}

export function countries(args: NoArgs): Promise<CountriesView> {
  return call("countries", args);
}

export function startTaxSync(args: NoArgs): Promise<TaxSyncView> {
  return call("start_tax_sync", args);
}

export function taxSyncStatus(args: NoArgs): Promise<TaxSyncView> {
  return call("tax_sync_status", args);
}

export function cancelTaxSync(args: NoArgs): Promise<TaxSyncView> {
  return call("cancel_tax_sync", args);
}

export function taxRows(args: TaxRowsArgs): Promise<TaxRowsView> {
  return call("tax_rows", args);
}

export function taxFacets(args: NoArgs): Promise<TaxFacetsView> {
  return call("tax_facets", args);
}

export function taxBalances(args: TaxBalancesArgs): Promise<TaxBalancesView> {
  return call("tax_balances", args);
}

export function yearEndReport(args: NoArgs): Promise<YearEndsView> {
  return call("year_end_report", args);
}

export function setYearEndChoice(args: YearEndChoiceArgs): Promise<NoArgs> {
  return call("set_year_end_choice", args);
}

export function gainsReport(args: GainsArgs): Promise<GainsView> {
  return call("gains_report", args);
}

export function exportCsv(args: ExportArgs): Promise<ExportView> {
  return call("export_csv", args);
}

export function taxCard(args: CardArgs): Promise<CardView> {
  return call("tax_card", args);
}

export function setDepositCost(args: DepositCostArgs): Promise<NoArgs> {
  return call("set_deposit_cost", args);
}

export function taxRowsAsSent(args: RowIdsArgs): Promise<RawRowsView> {
  return call("tax_rows_as_sent", args);
}

export function exportCard(args: CardExportArgs): Promise<ExportView> {
  return call("export_card", args);
}

export function unknowns(args: NoArgs): Promise<UnknownsView> {
  return call("unknowns", args);
}

export function settleUnknown(args: JournalIdArgs): Promise<UnknownsView> {
  return call("settle_unknown", args);
}

export function settleUnknownPlaced(args: SettlePlacedArgs): Promise<UnknownsView> {
  return call("settle_unknown_placed", args);
}

