//! What crosses IPC, in the UI's own camelCase shapes. Domain types stay behind; no secret is in
//! anything sent to the webview.

use nordlys_core::format::{BtcUnit, Locale};
use nordlys_core::store::JournalState;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::vocabulary::{Direction, MoneyState, OrderOutcome, OrderType, ProfileType};

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
pub struct NoArgs {}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProfileView {
    pub id: String,
    pub name: String,
    pub kind: ProfileType,
    pub base_url: String,
    pub client_id: Option<String>,
    /// The operator's abbreviation (`svc` for the sandbox).
    pub operator: String,
    /// Where OAuth is served; empty when under `baseUrl`.
    pub oauth_base_url: String,
    /// The scopes asked for when connecting through OAuth.
    pub scopes: Vec<String>,
    /// An exchange profile whose exchange runs on this machine (a test server, a second sandbox).
    pub local: bool,
}

/// Whether an action is possible, and why not.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Capability {
    pub allowed: bool,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionView {
    pub has_key: bool,
    pub key_is_demo: bool,
    pub trading: Capability,
    pub withdrawal: Capability,
    /// The OAuth grant, when connected through OAuth.
    pub oauth: Option<GrantView>,
    /// What each reading feature can do with these credentials, and what it needs when not.
    pub features: Vec<FeatureView>,
    pub needs_reconnect: bool,
    /// Where requests go, `host[:port]`, shown beside the connection state.
    pub host: String,
    /// The keyring could not be read, or held a damaged entry, and what to do about it.
    pub secret_problem: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GrantView {
    /// What the exchange said it granted; `null` when it did not say (use tells).
    pub scopes: Option<Vec<String>>,
    /// Scopes the exchange has refused the token since.
    pub refused: Vec<String>,
}

/// A feature that reads from the exchange, by the credential it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Feature {
    Balances,
    NokBalance,
    DepositAddresses,
    LightningInvoices,
    OrderHistory,
    TaxHistory,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FeatureView {
    pub feature: Feature,
    pub allowed: bool,
    /// Why not, and what would allow it; or that only the exchange's first answer will tell.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppView {
    pub profile: ProfileView,
    pub profiles: Vec<ProfileView>,
    /// The language in use.
    pub language: Locale,
    /// `None`: follows the OS.
    pub language_setting: Option<Locale>,
    pub unit: BtcUnit,
    /// How long a request to the exchange may take, in seconds; the setting, else the default.
    pub request_timeout_secs: u32,
    /// The range the setting takes.
    pub request_timeout_min_secs: u32,
    pub request_timeout_max_secs: u32,
    pub connection: ConnectionView,
    /// A problem the user should know about (settings or keyring).
    pub notice: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    pub id: String,
    pub name: String,
    pub total_btc: String,
    pub available_btc: String,
    pub total_nok: String,
    /// The exact decimal, for tests and copy.
    pub total_btc_raw: String,
    pub deleted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BalancesView {
    pub sandbox: bool,
    pub accounts: Vec<AccountView>,
    pub total_btc: String,
    pub total_nok: String,
    /// `None` with `fiatReason` when the credentials cannot read the fiat account.
    pub fiat: Option<String>,
    pub fiat_raw: Option<String>,
    pub fiat_reason: Option<String>,
    pub price: Option<String>,
}

/// Holds a secret: its `Debug` (in a log, a panic message, an error) shows neither key nor secret.
/// Wiped from memory when dropped: the secret passes through here on its way to the keyring.
#[derive(Clone, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct SetApiKeyArgs {
    pub key: String,
    pub secret: String,
    /// What the user says the key may do; unknown until used when not said.
    #[serde(default)]
    #[ts(optional)]
    #[zeroize(skip)]
    pub may_trade: Option<bool>,
    #[serde(default)]
    #[ts(optional)]
    #[zeroize(skip)]
    pub may_withdraw: Option<bool>,
}

impl std::fmt::Debug for SetApiKeyArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetApiKeyArgs")
            .field("key", &"[redacted]")
            .field("secret", &"[redacted]")
            .field("may_trade", &self.may_trade)
            .field("may_withdraw", &self.may_withdraw)
            .finish()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ConnectOauthArgs {
    pub scopes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetLanguageArgs {
    /// None to follow the OS.
    pub language: Option<Locale>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetUnitArgs {
    pub unit: BtcUnit,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetRequestTimeoutArgs {
    /// `None`: back to the default.
    pub seconds: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeProfileArgs {
    pub base_url: String,
    pub client_id: String,
    /// The operator's abbreviation in header names and key prefixes; `svc` when not given.
    #[serde(default)]
    #[ts(optional)]
    pub operator: Option<String>,
    /// Where OAuth is served, when not under `baseUrl`.
    #[serde(default)]
    #[ts(optional)]
    pub oauth_base_url: Option<String>,
    /// The scopes to ask for; every scope of 5.4 when not given.
    #[serde(default)]
    #[ts(optional)]
    pub scopes: Option<Vec<String>>,
}

/// What is wrong with each field of the exchange profile form; all `null` when it can be saved.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProfileProblemsView {
    pub base_url: Option<String>,
    pub oauth_base_url: Option<String>,
    pub operator: Option<String>,
    pub client_id: Option<String>,
    pub scopes: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SwitchProfileArgs {
    pub id: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteArgs {
    /// NOK to quote for, as typed; none for the exchange's default (5000).
    pub amount_nok: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteView {
    /// The NOK amount this quote is for, formatted; none for the default.
    pub for_amount: Option<String>,
    pub price: String,
    pub bid: String,
    pub ask: String,
    pub card_buy: String,
    pub card_sell: String,
    pub bank_buy: String,
    pub bank_sell: String,
    /// Plain decimals, to pre-fill a limit price.
    pub bid_raw: String,
    pub ask_raw: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderFormArgs {
    pub order_type: OrderType,
    pub direction: Direction,
    pub amount: String,
    pub price: Option<String>,
    pub account_id: Option<String>,
    /// The user confirmed a second time that the same order may be sent although one like it
    /// is still unknown.
    #[serde(default)]
    #[ts(optional)]
    pub despite_unknown: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderCheckView {
    pub ok: bool,
    pub amount_error: Option<String>,
    pub price_error: Option<String>,
    pub warning: Option<String>,
    pub estimate: Option<String>,
    pub summary: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderResultView {
    pub outcome: OrderOutcome,
    pub order_id: Option<String>,
    pub trade_id: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OpenOrderView {
    pub order_id: String,
    /// `None`: a type or direction this version does not know.
    pub order_type: Option<OrderType>,
    pub direction: Option<Direction>,
    pub amount: String,
    pub age: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OpenOrdersView {
    pub orders: Vec<OpenOrderView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CancelOrderArgs {
    pub order_id: String,
    /// The user read the warning that an order whose outcome is still unknown, quiet for longer
    /// than the quiet period, could be this one, and cancels anyway.
    #[serde(default)]
    #[ts(optional)]
    pub anyway: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntryView {
    pub id: String,
    pub state: JournalState,
    pub what: String,
    pub note: String,
    pub order_id: Option<String>,
    pub trade_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalView {
    pub entries: Vec<JournalEntryView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VolumeStatsView {
    pub amount_nok: String,
    pub amount_btc: String,
    pub buy_percentage: String,
    pub number_of_trades: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VolumeView {
    pub daily: VolumeStatsView,
    pub monthly: VolumeStatsView,
    pub yearly: VolumeStatsView,
    pub last24h: VolumeStatsView,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TradeView {
    pub id: String,
    pub time: String,
    pub direction: Direction,
    pub account: String,
    pub btc: String,
    pub nok: String,
    pub price: String,
    pub fee: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TradesView {
    pub trades: Vec<TradeView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PriceChartArgs {
    /// `1h`, `24h`, `7d` or `all`.
    pub range: String,
    pub width: u32,
    pub height: u32,
    pub dark: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChartView {
    pub svg: String,
    pub samples: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChartSizeArgs {
    pub width: u32,
    pub height: u32,
    pub dark: bool,
}

/// Which journal an entry is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum MoneyKind {
    Order,
    Withdrawal,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalIdArgs {
    #[ts(type = "number")]
    pub journal_id: i64,
}

/// One read a check made, and what it showed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvidenceView {
    pub at: String,
    pub read: String,
    pub saw: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownEntryView {
    #[ts(type = "number")]
    pub journal_id: i64,
    pub kind: MoneyKind,
    pub state: MoneyState,
    pub sent_at: String,
    pub summary: String,
    /// Still unknown (the user may settle it).
    pub open: bool,
    pub evidence: Vec<EvidenceView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownsView {
    /// How many are still unknown.
    pub unresolved: u32,
    /// The unknown ones and those settled in the last day after a lost answer, newest first.
    pub entries: Vec<UnknownEntryView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_entry_never_shows_its_secret_in_debug() {
        let args = SetApiKeyArgs {
            key: "svc/public/abc123".into(),
            // Put together here: not a secret-looking literal in the code.
            secret: ["svc", "apisecret", "topsecret"].join("/"),
            may_trade: Some(true),
            may_withdraw: None,
        };
        let shown = format!("{args:?} {args:#?}");
        assert!(
            !shown.contains("abc123") && !shown.contains("topsecret"),
            "{shown}"
        );
        assert!(shown.contains("[redacted]"));
    }
}
