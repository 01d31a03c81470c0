//! The commands the UI calls. Each takes the app handle and one argument struct, and returns a
//! view or an [`AppError`](crate::error::AppError); the logic lives in `nordlys-core` and
//! `nordlys-exchange`.

use std::time::Duration;

use nordlys_core::connection::ConnectionStatus;
use nordlys_core::platform::settings::{
    LearnedPermissions, Profile, ProfileKind, REQUEST_TIMEOUT_RANGE, Settings,
};
use nordlys_core::presets::ExchangePreset;
use nordlys_core::profile_form::{self, ExchangeProfileForm, ProfileProblems};
use nordlys_exchange::auth::Refusal;
use nordlys_exchange::models::{BitcoinAccount, PriceResponse, Scope};
use nordlys_exchange::{BaseUrl, Endpoint};
use nordlys_money::Nok;

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::msg;
use crate::profile_views::*;
use crate::state::{App, AppNotice, same_exchange};
use crate::wording::key;
use crate::wording::{self};

fn profile_form(args: &ExchangeProfileArgs) -> ExchangeProfileForm {
    ExchangeProfileForm {
        base_url: args.base_url.clone(),
        oauth_base_url: args.oauth_base_url.clone().unwrap_or_default(),
        operator: args.operator.clone().unwrap_or_default(),
        client_id: args.client_id.clone(),
        scopes: args
            .scopes
            .clone()
            .unwrap_or_else(|| Scope::KNOWN.iter().map(ToString::to_string).collect()),
    }
}

/// What is wrong with each field of the exchange profile form, for messages at the fields.
pub async fn check_exchange_profile(
    _app: &App,
    args: ExchangeProfileArgs,
) -> Answer<ProfileProblems> {
    Ok(profile_form::check(&profile_form(&args))
        .err()
        .unwrap_or_default())
}

/// Each reading feature, by the request it makes.
const FEATURES: [(Feature, Endpoint); 6] = [
    (Feature::Balances, Endpoint::BitcoinAccounts),
    (Feature::NokBalance, Endpoint::FiatAccount),
    (Feature::DepositAddresses, Endpoint::DepositDestinations),
    (Feature::LightningInvoices, Endpoint::CreateInvoice),
    (Feature::OrderHistory, Endpoint::ListOrders),
    (Feature::TaxHistory, Endpoint::TaxTransactions),
];

/// The app as the window shows it: the settings, the active profile's connection and what its
/// credentials may do, a notice, and the lock.
#[derive(Debug, Clone)]
pub struct AppState {
    pub settings: Settings,
    /// The active profile.
    pub profile: Profile,
    pub status: ConnectionStatus,
    /// Whether each reading feature's request is allowed (`Ok(false)`: unknown until used).
    pub features: Vec<(Feature, Result<bool, Refusal>)>,
    /// Whether invoices may be made, for a connection without a key.
    pub invoices: Result<bool, Refusal>,
    /// `host[:port]` of where requests go.
    pub host: String,
    pub notice: Option<AppNotice>,
    pub lock: crate::lock::LockStatus,
    /// Whether it starts at login; none where that cannot be read.
    pub start_at_login: Option<bool>,
}

pub(crate) async fn view(app: &App) -> Answer<AppState> {
    // A locked window's state, too, while its store waits for the unlock.
    let connection = app.connection().await?;
    let status = connection.status().await;
    // What the key's use has shown is kept for the next start.
    if status.has_key && !status.key_is_demo {
        let active = app.settings().active.clone();
        let changed = app.settings().profile_mut(&active).is_some_and(|p| {
            let was = p.key_permissions.replace(status.permissions);
            was != Some(status.permissions)
        });
        if changed {
            app.save_settings()?;
        }
    }
    let settings = app.settings().clone();
    let profile = settings
        .active_profile()
        .cloned()
        .ok_or_else(|| AppError::said(ErrorCode::Internal, key::NO_ACTIVE_PROFILE))?;
    let client = connection.client();
    Ok(AppState {
        profile,
        features: FEATURES
            .iter()
            .map(|(feature, endpoint)| (*feature, client.reach(*endpoint)))
            .collect(),
        invoices: client.reach(Endpoint::CreateInvoice),
        host: host(client.base_url()),
        notice: app
            .notice
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone(),
        lock: crate::lock::status(app),
        start_at_login: crate::background::starts_at_login(app),
        settings,
        status,
    })
}

/// `host[:port]` of where requests go.
fn host(base: &BaseUrl) -> String {
    let url = base.as_url();
    match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_owned(),
        (None, _) => base.to_string(),
    }
}

pub async fn app_state(app: &App, _args: NoArgs) -> Answer<AppState> {
    view(app).await
}

/// The overview's balances: the bitcoin accounts, the NOK account (or why it cannot be read) and
/// the quote their worth is taken at.
#[derive(Debug, Clone)]
pub struct Holdings {
    pub accounts: Vec<BitcoinAccount>,
    /// The exchange's default account, as learned from it.
    pub default_account: Option<String>,
    pub fiat: Result<Nok, AppError>,
    pub quote: Option<PriceResponse>,
}

pub async fn balances(app: &App, _args: NoArgs) -> Answer<Holdings> {
    let connection = app.session().await?.connection;
    let client = connection.client();
    // Three reads at once, none signed (no nonce to keep in order): the overview waits for one
    // round trip to the exchange, not three.
    let (accounts, fiat, quote) = tokio::join!(
        client.bitcoin_accounts(true),
        client.fiat_account(),
        client.price(None)
    );
    let accounts = accounts.map_err(AppError::of)?.accounts;
    let default_account = crate::shown_account::default_of(app, client, &accounts)
        .await
        .map(|id| id.to_string());
    Ok(Holdings {
        accounts,
        default_account,
        fiat: fiat.map(|f| f.available_nok).map_err(AppError::of),
        quote: quote.ok(),
    })
}

pub async fn set_api_key(app: &App, args: SetApiKeyArgs) -> Answer<AppState> {
    let connection = app.session().await?.connection;
    let stated = LearnedPermissions {
        trading: args.may_trade,
        withdrawal: args.may_withdraw,
        receive: None,
    };
    let learned = connection
        .set_api_key(&args.key, &args.secret, stated)
        .await
        .map_err(AppError::of)?;
    let active = app.settings().active.clone();
    if let Some(p) = app.settings().profile_mut(&active) {
        p.key_permissions = Some(learned);
    }
    app.save_settings()?;
    tell_unresolved_elsewhere(app).await?;
    view(app).await
}

/// After a new credential: its accounts are learned afresh, and unresolved requests sent from
/// other accounts are told, since this credential cannot check them.
async fn tell_unresolved_elsewhere(app: &App) -> Answer<()> {
    let session = app.session().await?;
    let client = session.connection.client();
    let mut here = nordlys_core::evidence::origin_of(client);
    here.identity = nordlys_core::account_identity::learn(client, &session.store)
        .await
        .ok()
        .and_then(|l| l.identity);
    let count = nordlys_core::account_identity::unresolved_elsewhere(&session.store, &here)?;
    if count > 0 {
        *app.notice
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(crate::state::AppNotice::UnresolvedElsewhere { count });
    }
    Ok(())
}

/// How long the browser sign-in may take: 5 minutes; debug builds let tests shorten it
/// (`NORDLYS_OAUTH_TIMEOUT_SECS`, 1 s to an hour).
fn oauth_timeout() -> Duration {
    let asked = crate::test_hooks::number("NORDLYS_OAUTH_TIMEOUT_SECS", 1..=3600);
    Duration::from_secs(asked.unwrap_or(300))
}

pub async fn connect_oauth(app: &App, args: ConnectOauthArgs) -> Answer<AppState> {
    let scopes: Vec<Scope> = args
        .scopes
        .iter()
        .map(|s| Scope::from(s.as_str()))
        .collect();
    if scopes.is_empty() || scopes.iter().any(|s| !s.is_known()) {
        return Err(AppError::said(ErrorCode::InvalidInput, key::CHOOSE_A_SCOPE));
    }
    // The settings' guard is let go before the locale is read (it takes the settings again).
    let active = app.settings().active_profile().map(|p| p.kind.clone());
    let client_id = match active {
        Some(kind @ ProfileKind::Exchange { .. }) => match kind.oauth_client_id() {
            Some(id) => id.to_owned(),
            // Nothing to sign in as: the operator has not issued a client id.
            None => {
                return Err(AppError::said(
                    ErrorCode::InvalidInput,
                    key::OAUTH_NEEDS_CLIENT_ID,
                ));
            }
        },
        _ => "nordlys-desktop".to_owned(),
    };
    let connection = app.session().await?.connection;
    connection
        .connect_oauth(
            &client_id,
            &scopes,
            |url| {
                app.desktop
                    .open_url(url.as_str())
                    .map_err(|e| e.to_string())
            },
            oauth_timeout(),
            // The page the browser shows after signing in, worded as the window is now.
            wording::loopback_pages(app.viewer().locale()),
        )
        .await
        .map_err(AppError::of)?;
    tell_unresolved_elsewhere(app).await?;
    view(app).await
}

pub async fn disconnect(app: &App, _args: NoArgs) -> Answer<AppState> {
    let connection = app.session().await?.connection;
    let revoked = connection.disconnect().await;
    let active = app.settings().active.clone();
    if let Some(p) = app.settings().profile_mut(&active) {
        p.key_permissions = None;
    }
    app.save_settings()?;
    revoked.map_err(AppError::of)?;
    view(app).await
}

pub async fn reset_demo(app: &App, _args: NoArgs) -> Answer<AppState> {
    app.reset_sandbox().await?;
    view(app).await
}

pub async fn set_language(app: &App, args: SetLanguageArgs) -> Answer<AppState> {
    app.settings().language = args.language;
    app.save_settings()?;
    view(app).await
}

pub async fn set_unit(app: &App, args: SetUnitArgs) -> Answer<AppState> {
    app.settings().unit = args.unit;
    app.save_settings()?;
    view(app).await
}

/// Light, dark, or as the OS says: the window follows it at once and remembers it.
pub async fn set_theme(app: &App, args: SetThemeArgs) -> Answer<AppState> {
    app.settings().theme = args.theme;
    app.save_settings()?;
    view(app).await
}

/// Privacy mode on or off: every amount is written again, masked or shown.
pub async fn set_privacy(app: &App, args: SetPrivacyArgs) -> Answer<AppState> {
    app.settings().privacy = args.hidden;
    app.save_settings()?;
    view(app).await
}

/// Puts the first run's welcome away for good.
pub async fn dismiss_welcome(app: &App, _args: NoArgs) -> Answer<AppState> {
    app.settings().welcomed = true;
    app.save_settings()?;
    view(app).await
}

/// Whether every start begins with amounts hidden.
pub async fn set_start_hidden(app: &App, args: SetStartHiddenArgs) -> Answer<AppState> {
    app.settings().start_hidden = args.start_hidden;
    app.save_settings()?;
    view(app).await
}

/// How long a request may take before its outcome is "unknown": a slow connection wants longer.
/// The connection is opened again with it; nothing in flight is cut short.
pub async fn set_tax_rules(app: &App, args: SetTaxRulesArgs) -> Answer<AppState> {
    let typed = &args.income_tax_percent;
    let percent = match nordlys_core::amount_input::parse_rate(typed, app.input_locale()) {
        Ok(p) if p <= rust_decimal::Decimal::ONE_HUNDRED => p,
        Err(nordlys_core::amount_input::AmountInputError::Zero) => rust_decimal::Decimal::ZERO,
        _ => {
            return Err(AppError::new(
                ErrorCode::InvalidInput,
                msg!(TAX_RATE_RANGE {
                    typed: args.income_tax_percent.trim().to_owned()
                }),
            ));
        }
    };
    {
        let mut s = app.settings();
        s.income_tax_percent = Some(nordlys_money::Percent::new(percent));
        s.tax_method = Some(args.tax_method);
    }
    app.save_settings()?;
    view(app).await
}

pub async fn set_request_timeout(app: &App, args: SetRequestTimeoutArgs) -> Answer<AppState> {
    let seconds = args.seconds.map(u64::from);
    if let Some(s) = seconds
        && !REQUEST_TIMEOUT_RANGE.contains(&s)
    {
        let (min, max) = (REQUEST_TIMEOUT_RANGE.start(), REQUEST_TIMEOUT_RANGE.end());
        return Err(AppError::new(
            ErrorCode::InvalidInput,
            msg!(REQUEST_TIMEOUT_RANGE {
                min: min.to_string(),
                max: max.to_string()
            }),
        ));
    }
    app.settings().request_timeout_secs = seconds;
    app.save_settings()?;
    let in_force = app.settings().request_timeout_secs();
    app.set_request_timeout(in_force);
    app.reopen_session().await;
    view(app).await
}

pub async fn save_exchange_profile(app: &App, args: ExchangeProfileArgs) -> Answer<AppState> {
    // Nothing is saved unless every field is right.
    let kind = profile_form::check(&profile_form(&args)).map_err(|p| {
        let all = wording::profile_problems(&p)
            .into_iter()
            .flatten()
            .collect();
        AppError::all(ErrorCode::InvalidInput, all, key::PROFILE_FORM_WRONG)
    })?;
    // Another exchange: what was stored for the old one is revoked and forgotten first, so
    // nothing entered for one host is ever sent to another.
    let before = app.settings().profile("exchange").cloned();
    let changed = before.as_ref().is_some_and(|b| b.kind != kind);
    if changed {
        crate::lock::require_password(app, args.password.as_ref()).await?;
    }
    if let Some(before) = &before
        && !same_exchange(&before.kind, &kind)
    {
        app.forget_secrets(before).await;
    }
    {
        // Named by the exchange when Nordlys knows it, so the profile switcher says which.
        let name = ExchangePreset::of(&kind)
            .map_or("Exchange", |p| p.name)
            .to_owned();
        let mut settings = app.settings();
        match settings.profile_mut("exchange") {
            // A changed exchange is a different account: what was learned no longer holds.
            Some(p) if p.kind != kind => {
                p.kind = kind;
                p.name = name;
                p.key_permissions = None;
            }
            Some(_) => {}
            None => settings.profiles.push(Profile {
                id: "exchange".into(),
                name,
                kind,
                key_permissions: None,
            }),
        }
    }
    app.save_settings()?;
    if changed {
        app.reopen_session().await;
    }
    view(app).await
}

pub async fn switch_profile(app: &App, args: SwitchProfileArgs) -> Answer<AppState> {
    app.switch_profile(&args.id).await?;
    crate::tax::forget_sync(app);
    view(app).await
}
