//! `nordlys-sandbox [--port P] [--seed N] [--state FILE] [readings…]`: serves the simulated
//! exchange on 127.0.0.1 and prints one JSON line with its address, API keys and OAuth clients.
//! The readings (`--no-note-echo`, `--tax-lag`, …) are described in the crate docs;
//! `--operator ABBR` serves another operator's header names and key prefixes; `--oauth-port P`
//! serves OAuth on a second port, and `--oauth-scopes`, `--oauth-invalid-scope` and
//! `--oauth-omit-scope` narrow what it grants.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use nordlys_sandbox::world::{
    BuyFee, BuySpend, DefaultAccount, EmptyStyle, ErrorStyle, Readings, RunningBalance,
    WithdrawalHold,
};
use rust_decimal::Decimal;

#[derive(Debug, Parser)]
#[command(
    name = "nordlys-sandbox",
    version,
    about = "A simulated bitcoin exchange on 127.0.0.1, for trying Nordlys and for tests"
)]
struct Args {
    /// Port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Seed of the simulated world: the same seed gives the same world.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep the world in this file across restarts.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Lifetime of access tokens in seconds.
    #[arg(long)]
    token_ttl: Option<i64>,
    /// Descriptions of orders and withdrawals do not reach the tax rows' `note`.
    #[arg(long)]
    no_note_echo: bool,
    /// New tax rows are listed only SECONDS after they were created.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    tax_lag: u64,
    /// Tax rows are listed as pending (no finalizeTime, no fee yet) for SECONDS after they were
    /// created, then final with their fee (5 when given without a value).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0,
        num_args = 0..=1,
        default_missing_value = "5"
    )]
    pending_rows: u64,
    /// One tax row in three is listed only SECONDS after it was created, the others at once: it
    /// arrives with a createTime before rows already listed.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    late_rows: u64,
    /// A pending withdrawal is held back from availableBtc, or debited from totalBtc at once.
    #[arg(long, value_enum, default_value_t = Hold::Available)]
    withdrawal_hold: Hold,
    /// A buy's fee is P percent of its amount, reported inside outAmount.
    #[arg(long, value_name = "P")]
    buy_fee_pct: Option<Decimal>,
    /// Market orders fill in N trades.
    #[arg(long, value_name = "N", default_value_t = 1)]
    split_fills: u32,
    /// Those N trades are made over SECONDS from the order, evenly apart (0: at the same instant).
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    fill_spread: u64,
    /// What a buy takes: the amount asked in all (default), or only the NOK of the whole
    /// satoshis bought and the fee.
    #[arg(long, value_enum, default_value_t = BuySpend::Amount)]
    buy_spend: BuySpend,
    /// Limit orders fill P percent at once; the rest stays open.
    #[arg(long, value_name = "P")]
    partial_fill: Option<Decimal>,
    /// The exchange's clock runs SECONDS ahead (negative: behind).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0,
        allow_hyphen_values = true
    )]
    clock_skew: i64,
    /// The shape of error bodies: the gateway's numeric code (default), its name, nested under
    /// "error", the message as plain text, or no body.
    #[arg(long, value_enum, default_value_t = Style::Grpc)]
    error_style: Style,
    /// Which balance a tax row's `runningBalanceBtc` is: the user's total over all accounts
    /// (default, as the operator describes it) or the row's own account's.
    #[arg(long, value_enum, default_value_t = RunningBalance::Total)]
    running_balance: RunningBalance,
    /// How answers write a field whose value is the default: left out (default, as a
    /// proto3-JSON service does), written with `""` for an unset time, or with `null`.
    #[arg(long, value_enum, default_value_t = EmptyStyle::Omit)]
    empty_style: EmptyStyle,
    /// Where a buy row's NOK fee is: inside `outAmount` (default, as published) or beside it.
    #[arg(long, value_enum, default_value_t = BuyFee::Inside)]
    buy_fee: BuyFee,
    /// Which account an empty `accountId` means: the first listed (default) or the last; the
    /// published document does not say.
    #[arg(long, value_enum, default_value_t = DefaultAccount::First)]
    default_account: DefaultAccount,
    /// At most N API requests a minute (`N/min`); the next are answered 429 with
    /// `Retry-After`, as the exchange rate-limits.
    #[arg(long, value_name = "N/min", value_parser = per_minute)]
    rate_limit: Option<u32>,
    /// Serve as operator ABBR: header names `x-ABBR-api-…`, keys `ABBR/public/…`, secrets
    /// `ABBR/apisecret/…` (1–16 lower-case letters or digits; the specification writes `svc`).
    #[arg(long, value_name = "ABBR")]
    operator: Option<String>,
    /// Serve OAuth on this second port (0 picks a free one) and not on the API's; the start-up
    /// line's `oauthBaseUrl` says where.
    #[arg(long, value_name = "P")]
    oauth_port: Option<u16>,
    /// The token `/sandbox/` requests carry in `x-sandbox-token` (default: a random one); the
    /// start-up line's `controlToken` says it either way.
    #[arg(long, value_name = "TOKEN")]
    control_token: Option<String>,
    /// Grant at most these scopes (space-separated): a request for more is narrowed silently,
    /// and the token response's `scope` says what was granted.
    #[arg(long, value_name = "SCOPES")]
    oauth_scopes: Option<String>,
    /// Refuse a request for a scope it does not grant with `invalid_scope` instead of narrowing
    /// it (without --oauth-scopes, only api:accounts:bitcoin:read is granted).
    #[arg(long)]
    oauth_invalid_scope: bool,
    /// Token responses leave out `scope`.
    #[arg(long)]
    oauth_omit_scope: bool,
    /// A refresh keeps the refresh token, and its answer carries none.
    #[arg(long)]
    oauth_keep_refresh: bool,
    /// Every API answer waits this long (an exchange at a distance; 0: none, at most 60,000).
    #[arg(long, value_name = "MS", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    latency_ms: u64,
}

/// `N/min` (or a bare `N`), N at least 1.
fn per_minute(text: &str) -> Result<u32, String> {
    let n = text.strip_suffix("/min").unwrap_or(text).trim();
    match n.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "`{text}` is not N/min with N a whole number from 1"
        )),
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Style {
    Grpc,
    String,
    Nested,
    Text,
    None,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Hold {
    Available,
    Total,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let readings = Readings {
        no_note_echo: args.no_note_echo,
        tax_lag: args.tax_lag,
        pending_rows: args.pending_rows,
        late_rows: args.late_rows,
        withdrawal_hold: match args.withdrawal_hold {
            Hold::Available => WithdrawalHold::Available,
            Hold::Total => WithdrawalHold::Total,
        },
        buy_fee_pct: args.buy_fee_pct,
        split_fills: args.split_fills,
        fill_spread: args.fill_spread,
        buy_spend: args.buy_spend,
        partial_fill: args.partial_fill,
        clock_skew: args.clock_skew,
        error_style: match args.error_style {
            Style::Grpc => ErrorStyle::Grpc,
            Style::String => ErrorStyle::String,
            Style::Nested => ErrorStyle::Nested,
            Style::Text => ErrorStyle::Text,
            Style::None => ErrorStyle::None,
        },
        running_balance: args.running_balance,
        empty_style: args.empty_style,
        buy_fee: args.buy_fee,
        default_account: args.default_account,
        rate_limit_per_minute: args.rate_limit,
    };
    if let Some(op) = args.operator.as_deref()
        && !nordlys_sandbox::world::is_operator(op)
    {
        eprintln!(
            "nordlys-sandbox: --operator must be 1 to 16 lower-case letters or digits; got `{op}`"
        );
        return ExitCode::from(2);
    }
    if let Err(e) = readings.check() {
        eprintln!("nordlys-sandbox: {}", e.message);
        return ExitCode::from(2);
    }
    let grants = nordlys_sandbox::GrantPolicy {
        scopes: args
            .oauth_scopes
            .map(|s| s.split_whitespace().map(str::to_owned).collect()),
        invalid_scope: args.oauth_invalid_scope,
        omit_scope: args.oauth_omit_scope,
        keep_refresh: args.oauth_keep_refresh,
    };
    if let Err(e) = grants.check() {
        eprintln!("nordlys-sandbox: --oauth-scopes: {e}");
        return ExitCode::from(2);
    }
    let config = nordlys_sandbox::SandboxConfig {
        port: args.port,
        seed: args.seed,
        state_file: args.state,
        token_ttl_seconds: args.token_ttl,
        readings,
        operator: args.operator,
        oauth_port: args.oauth_port,
        grants,
        control_token: args.control_token,
        latency_ms: args.latency_ms,
    };
    let sandbox = match nordlys_sandbox::start(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("nordlys-sandbox: {e}");
            return ExitCode::FAILURE;
        }
    };
    let line = serde_json::to_string(&sandbox.info).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        return ExitCode::FAILURE;
    }
    drop(out);
    let _ = tokio::signal::ctrl_c().await;
    sandbox.shutdown().await;
    ExitCode::SUCCESS
}
