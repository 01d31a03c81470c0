//! The commands the UI calls. Each takes the app handle and one argument struct, and returns a
//! view or an [`IpcError`]; the logic lives in `nordlys-core` and `nordlys-exchange`.

use std::time::Duration;

use nordlys_core::format::{self, Locale};
use nordlys_core::profile_form::{self, ExchangeProfileForm, ProfileProblems, asked_scopes};
use nordlys_core::secrets::SecretError;
use nordlys_core::settings::{LearnedPermissions, Profile, ProfileKind, REQUEST_TIMEOUT_RANGE};
use nordlys_exchange::auth::Refusal;
use nordlys_exchange::models::Scope;
use nordlys_exchange::{BaseUrl, Endpoint, Operator};
use rust_decimal::Decimal;

use crate::error::{Answer, ErrorCode, IpcError};
use crate::state::{App, Timing, same_exchange};
use crate::views::*;
use crate::vocabulary::ProfileType;

fn profile_view(p: &Profile) -> ProfileView {
    let scopes = asked_scopes(&p.kind)
        .iter()
        .map(ToString::to_string)
        .collect();
    let (kind, base_url, client_id, operator, oauth_base_url) = match &p.kind {
        ProfileKind::Sandbox => (
            ProfileType::Sandbox,
            String::new(),
            None,
            Operator::SPEC.to_owned(),
            String::new(),
        ),
        ProfileKind::Exchange {
            base_url,
            client_id,
            operator,
            oauth_base_url,
            ..
        } => (
            ProfileType::Exchange,
            base_url.clone(),
            Some(client_id.clone()),
            operator.clone(),
            oauth_base_url.clone().unwrap_or_default(),
        ),
    };
    let local = matches!(p.kind, ProfileKind::Exchange { .. })
        && BaseUrl::parse(&base_url).is_ok_and(|b| b.is_loopback());
    ProfileView {
        id: p.id.clone(),
        name: p.name.clone(),
        kind,
        base_url,
        client_id,
        operator,
        oauth_base_url,
        scopes,
        local,
    }
}

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

fn problems_view(p: &ProfileProblems) -> ProfileProblemsView {
    ProfileProblemsView {
        base_url: p.base_url.as_ref().map(ToString::to_string),
        oauth_base_url: p.oauth_base_url.as_ref().map(ToString::to_string),
        operator: p.operator.as_ref().map(ToString::to_string),
        client_id: p.client_id.as_ref().map(ToString::to_string),
        scopes: p.scopes.as_ref().map(ToString::to_string),
    }
}

/// What is wrong with each field of the exchange profile form, for messages at the fields.
pub async fn check_exchange_profile(
    _app: &App,
    args: ExchangeProfileArgs,
) -> Answer<ProfileProblemsView> {
    Ok(match profile_form::check(&profile_form(&args)) {
        Ok(_) => ProfileProblemsView::default(),
        Err(p) => problems_view(&p),
    })
}

fn capability(known: Option<bool>, has_key: bool, what: &str, locale: Locale) -> Capability {
    let (allowed, reason) = match (has_key, known, locale) {
        (_, Some(true), _) => (true, None),
        (false, _, Locale::En) => (
            false,
            Some(format!(
                "{what} needs an API key with that permission; OAuth access cannot do it"
            )),
        ),
        (false, _, Locale::Nb) => (
            false,
            Some(format!(
                "{what} krever en API-nøkkel med den tillatelsen; OAuth-tilgang kan ikke brukes"
            )),
        ),
        (true, Some(false), Locale::En) => (
            false,
            Some(format!("this API key does not have the {what} permission")),
        ),
        (true, Some(false), Locale::Nb) => (
            false,
            Some(format!("denne API-nøkkelen mangler tillatelsen {what}")),
        ),
        // Unknown until used: nothing is sent to find out, and the first refusal teaches it.
        (true, None, Locale::En) => (
            true,
            Some("not known until first used: the exchange says whether this key may".into()),
        ),
        (true, None, Locale::Nb) => (
            true,
            Some("ukjent til den brukes første gang: børsen sier om nøkkelen har lov".into()),
        ),
    };
    Capability { allowed, reason }
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

fn feature_view(feature: Feature, reach: Result<bool, Refusal>, locale: Locale) -> FeatureView {
    let (allowed, reason) = match (reach, locale) {
        (Ok(true), _) => (true, None),
        (Ok(false), Locale::En) => (
            true,
            Some("not known until first used: the exchange's answer tells".to_owned()),
        ),
        (Ok(false), Locale::Nb) => (
            true,
            Some("ukjent til den brukes første gang: børsens svar viser det".to_owned()),
        ),
        (Err(refusal), Locale::En) => (false, Some(refusal.to_string())),
        (Err(refusal), Locale::Nb) => (false, Some(refusal_nb(&refusal))),
    };
    FeatureView {
        feature,
        allowed,
        reason,
    }
}

/// A refusal in Norwegian: what the feature needs.
fn refusal_nb(refusal: &Refusal) -> String {
    match refusal {
        Refusal::MissingScope { scope, .. } => {
            format!("krever en API-nøkkel eller OAuth-tilgangen `{scope}`, som ikke ble gitt")
        }
        Refusal::NoCredentials { .. } | Refusal::NeedsKey { .. } => {
            "krever en API-nøkkel; OAuth-tilgang kan ikke brukes".to_owned()
        }
        Refusal::TokenExpired { .. } => "tilgangen er utløpt; koble til på nytt".to_owned(),
        other => other.to_string(),
    }
}

async fn view(app: &App) -> Answer<AppView> {
    let locale = app.locale();
    let connection = app.session().await?.connection;
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
        .ok_or_else(|| IpcError::new(ErrorCode::Internal, "no active profile"))?;
    let (trade_word, send_word) = match locale {
        Locale::En => ("trading", "withdrawal"),
        Locale::Nb => ("handel", "uttak"),
    };
    Ok(AppView {
        profile: profile_view(profile),
        profiles: settings.profiles.iter().map(profile_view).collect(),
        language: locale,
        language_setting: settings.language,
        unit: settings.unit,
        request_timeout_secs: u32::try_from(settings.request_timeout_secs()).unwrap_or(u32::MAX),
        request_timeout_min_secs: u32::try_from(*REQUEST_TIMEOUT_RANGE.start()).unwrap_or(0),
        request_timeout_max_secs: u32::try_from(*REQUEST_TIMEOUT_RANGE.end()).unwrap_or(u32::MAX),
        connection: ConnectionView {
            has_key: status.has_key,
            key_is_demo: status.key_is_demo,
            trading: capability(
                status.permissions.trading,
                status.has_key,
                trade_word,
                locale,
            ),
            withdrawal: capability(
                status.permissions.withdrawal,
                status.has_key,
                send_word,
                locale,
            ),
            oauth: status.grant.map(|g| GrantView {
                scopes: g
                    .scopes
                    .map(|s| s.iter().map(ToString::to_string).collect()),
                refused: g.refused.iter().map(ToString::to_string).collect(),
            }),
            features: FEATURES
                .iter()
                .map(|(feature, endpoint)| {
                    feature_view(*feature, connection.client().reach(*endpoint), locale)
                })
                .collect(),
            needs_reconnect: status.needs_reconnect,
            host: host(connection.client().base_url()),
            secret_problem: status.secret_problem.map(|p| secret_problem(&p, locale)),
        },
        notice: app
            .notice
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone(),
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

/// What the user reads when the keyring let the profile down, and what to do.
fn secret_problem(problem: &SecretError, locale: Locale) -> String {
    match (problem, locale) {
        (SecretError::Unavailable(_), Locale::En) => "The system keyring is locked or not \
            running, so saved keys and sign-ins cannot be read. Unlock it (your desktop's \
            \"Passwords and Keys\" or keyring prompt), then restart Nordlys."
            .to_owned(),
        (SecretError::Unavailable(_), Locale::Nb) => "Systemets nøkkelring er låst eller kjører \
            ikke, så lagrede nøkler og pålogginger kan ikke leses. Lås den opp (\"Passord og \
            nøkler\" eller nøkkelring-spørsmålet på skrivebordet), og start Nordlys på nytt."
            .to_owned(),
        (_, Locale::En) => "A saved key or sign-in was damaged and is not used. Disconnect to \
            clear it, then connect again."
            .to_owned(),
        (_, Locale::Nb) => "En lagret nøkkel eller pålogging var skadet og brukes ikke. Koble \
            fra for å fjerne den, og koble til på nytt."
            .to_owned(),
    }
}

pub async fn app_state(app: &App, _args: NoArgs) -> Answer<AppView> {
    view(app).await
}

pub async fn balances(app: &App, _args: NoArgs) -> Answer<BalancesView> {
    let connection = app.session().await?.connection;
    let client = connection.client();
    let locale = app.locale();
    let unit = app.settings().unit;
    let sandbox = matches!(
        app.settings().active_profile().map(|p| &p.kind),
        Some(ProfileKind::Sandbox)
    );
    let accounts = client.bitcoin_accounts(true).await?;
    let (fiat, fiat_raw, fiat_reason) = match client.fiat_account().await {
        Ok(f) => (
            Some(format::nok(f.available_nok, locale)),
            Some(f.available_nok.to_string()),
            None,
        ),
        Err(e) => (None, None, Some(IpcError::from(e).message)),
    };
    let price = client
        .price(None)
        .await
        .ok()
        .map(|p| format::nok(p.price, locale));
    let live: Vec<_> = accounts
        .accounts
        .iter()
        .filter(|a| !a.is_deleted())
        .collect();
    let total_btc: Decimal = live.iter().map(|a| a.total_btc).sum();
    let total_nok: Decimal = live.iter().map(|a| a.total_nok).sum();
    Ok(BalancesView {
        sandbox,
        accounts: accounts
            .accounts
            .iter()
            .map(|a| AccountView {
                id: a.id.to_string(),
                name: a.name.clone(),
                total_btc: format::btc(a.total_btc, unit, locale),
                available_btc: format::btc(a.available_btc, unit, locale),
                total_nok: format::nok(a.total_nok, locale),
                total_btc_raw: a.total_btc.normalize().to_string(),
                deleted: a.is_deleted(),
            })
            .collect(),
        total_btc: format::btc(total_btc, unit, locale),
        total_nok: format::nok(total_nok, locale),
        fiat,
        fiat_raw,
        fiat_reason,
        price,
    })
}

pub async fn set_api_key(app: &App, args: SetApiKeyArgs) -> Answer<AppView> {
    let connection = app.session().await?.connection;
    let stated = LearnedPermissions {
        trading: args.may_trade,
        withdrawal: args.may_withdraw,
    };
    let learned = connection
        .set_api_key(&args.key, &args.secret, stated)
        .await?;
    let active = app.settings().active.clone();
    if let Some(p) = app.settings().profile_mut(&active) {
        p.key_permissions = Some(learned);
    }
    app.save_settings()?;
    view(app).await
}

/// How long the browser sign-in may take: 5 minutes; debug builds let tests shorten it
/// (`NORDLYS_OAUTH_TIMEOUT_SECS`, 1 s to an hour).
fn oauth_timeout() -> Duration {
    let asked = crate::test_hooks::number("NORDLYS_OAUTH_TIMEOUT_SECS", 1..=3600);
    Duration::from_secs(asked.unwrap_or(300))
}

pub async fn connect_oauth(app: &App, args: ConnectOauthArgs) -> Answer<AppView> {
    let scopes: Vec<Scope> = args
        .scopes
        .iter()
        .map(|s| Scope::from(s.as_str()))
        .collect();
    if scopes.is_empty() || scopes.iter().any(|s| !s.is_known()) {
        return Err(IpcError::new(
            ErrorCode::InvalidInput,
            "choose at least one of the known scopes",
        ));
    }
    let client_id = match app.settings().active_profile().map(|p| p.kind.clone()) {
        Some(ProfileKind::Exchange { client_id, .. }) => client_id,
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
        )
        .await?;
    view(app).await
}

pub async fn disconnect(app: &App, _args: NoArgs) -> Answer<AppView> {
    let connection = app.session().await?.connection;
    let revoked = connection.disconnect().await;
    let active = app.settings().active.clone();
    if let Some(p) = app.settings().profile_mut(&active) {
        p.key_permissions = None;
    }
    app.save_settings()?;
    revoked?;
    view(app).await
}

pub async fn reset_demo(app: &App, _args: NoArgs) -> Answer<AppView> {
    app.reset_sandbox().await?;
    view(app).await
}

pub async fn set_language(app: &App, args: SetLanguageArgs) -> Answer<AppView> {
    app.settings().language = args.language;
    app.save_settings()?;
    view(app).await
}

pub async fn set_unit(app: &App, args: SetUnitArgs) -> Answer<AppView> {
    app.settings().unit = args.unit;
    app.save_settings()?;
    view(app).await
}

/// How long a request may take before its outcome is "unknown": a slow connection wants longer.
/// The connection is opened again with it; nothing in flight is cut short.
pub async fn set_request_timeout(app: &App, args: SetRequestTimeoutArgs) -> Answer<AppView> {
    let seconds = args.seconds.map(u64::from);
    if let Some(s) = seconds
        && !REQUEST_TIMEOUT_RANGE.contains(&s)
    {
        let (min, max) = (REQUEST_TIMEOUT_RANGE.start(), REQUEST_TIMEOUT_RANGE.end());
        return Err(IpcError::new(
            ErrorCode::InvalidInput,
            match app.locale() {
                Locale::En => format!("the request timeout must be {min} to {max} seconds"),
                Locale::Nb => format!("tidsgrensen må være {min} til {max} sekunder"),
            },
        ));
    }
    app.settings().request_timeout_secs = seconds;
    app.save_settings()?;
    let in_force = app.settings().request_timeout_secs();
    app.set_timing(Timing {
        request_timeout_secs: in_force,
        ..app.timing()
    });
    app.reopen_session().await;
    view(app).await
}

pub async fn save_exchange_profile(app: &App, args: ExchangeProfileArgs) -> Answer<AppView> {
    // Nothing is saved unless every field is right.
    let kind = profile_form::check(&profile_form(&args)).map_err(|p| {
        let v = problems_view(&p);
        let all: Vec<String> = [
            v.base_url,
            v.oauth_base_url,
            v.operator,
            v.client_id,
            v.scopes,
        ]
        .into_iter()
        .flatten()
        .collect();
        IpcError::new(ErrorCode::InvalidInput, all.join("; "))
    })?;
    // Another exchange: what was stored for the old one is revoked and forgotten first, so
    // nothing entered for one host is ever sent to another.
    let before = app.settings().profile("exchange").cloned();
    let changed = before.as_ref().is_some_and(|b| b.kind != kind);
    if let Some(before) = &before
        && !same_exchange(&before.kind, &kind)
    {
        app.forget_secrets(before).await;
    }
    {
        let mut settings = app.settings();
        match settings.profile_mut("exchange") {
            // A changed exchange is a different account: what was learned no longer holds.
            Some(p) if p.kind != kind => {
                p.kind = kind;
                p.key_permissions = None;
            }
            Some(_) => {}
            None => settings.profiles.push(Profile {
                id: "exchange".into(),
                name: "Exchange".into(),
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

pub async fn switch_profile(app: &App, args: SwitchProfileArgs) -> Answer<AppView> {
    app.switch_profile(&args.id).await?;
    crate::tax::forget_sync(app);
    view(app).await
}
