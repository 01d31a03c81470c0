//! What the specification leaves open, as switches. The client must hold up under every reading,
//! so the sandbox offers each plausible one instead of quietly sharing the client's guesses.

use chrono::Duration;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;

/// Where a pending withdrawal's amount goes before it completes (2.2 says only that
/// `availableBtc` is "usable for trading or withdrawals").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawalHold {
    /// Held back from `availableBtc`; `totalBtc` falls when it completes.
    #[default]
    Available,
    /// Debited from `totalBtc` at once; a failed one is credited back.
    Total,
}

/// The shape of the body of a `/v1/` error. Our specification's notes show the gRPC gateway's;
/// the real service's clients have met others.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorStyle {
    /// `{"code": 3, "message": …, "details": []}`.
    #[default]
    Grpc,
    /// `{"code": "INVALID_ARGUMENT", "message": …, "details": []}`.
    String,
    /// `{"error": {"code": 3, "message": …}}`.
    Nested,
    /// The message alone, as plain text.
    Text,
    /// No body at all.
    None,
}

/// Which balance a tax row's `runningBalanceBtc` is (2.11 says only "running BTC balance").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum RunningBalance {
    /// The user's total BTC over all accounts after the row, as the operator describes it.
    #[default]
    Total,
    /// The balance of the row's own account after it (a fiat row: the total).
    Account,
}

/// How a successful `/v1/` answer writes a field whose value is its type's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyStyle {
    /// Left out, as a proto3-JSON service writes it: `""`, `0`, `false`, `[]`, an unset time or
    /// an empty object.
    #[default]
    Omit,
    /// Written, with `""` for an unset time.
    String,
    /// Written, with `null` for an unset time.
    Null,
}

/// Where a buy row's NOK fee is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BuyFee {
    /// Inside `outAmount` (the NOK spent, fee included), as the operator publishes it.
    #[default]
    Inside,
    /// Beside it: `outAmount` is what bought the bitcoin, `feeAmount` was paid on top.
    Outside,
}

/// How much NOK a buy takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BuySpend {
    /// The amount asked, in all (what rounding to whole satoshis leaves over is the house's).
    #[default]
    Amount,
    /// Only the NOK of the whole satoshis bought, and the fee: up to a satoshi's worth less than
    /// asked, per fill.
    Sats,
}

/// Which account an empty `accountId` means ("the default account"; neither the specification
/// nor the published document says which one that is, or names it in any answer).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum DefaultAccount {
    /// The first account listed that is not deleted.
    #[default]
    First,
    /// The last account listed that is not deleted: a client that takes "the first listed" for
    /// the default sends to another account than it shows.
    Last,
}

/// One reading of every behaviour the specification does not show. The JSON names are the
/// command-line switches in camelCase (`--no-note-echo` is `noNoteEcho`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Readings {
    /// Descriptions of orders and withdrawals are not copied into tax rows' `note`.
    pub no_note_echo: bool,
    /// New tax rows are listed only this many seconds after their `createTime`.
    pub tax_lag: u64,
    pub withdrawal_hold: WithdrawalHold,
    /// A buy's fee, in percent of its amount, reported inside `outAmount`.
    pub buy_fee_pct: Option<Decimal>,
    /// Market orders fill in this many trades (1: one trade).
    pub split_fills: u32,
    /// Those trades are made over this many seconds from the order, evenly apart (0: at once);
    /// each is listed once its `createTime` has come.
    pub fill_spread: u64,
    pub buy_spend: BuySpend,
    /// Limit orders fill this percentage at once at their price; the rest stays open.
    pub partial_fill: Option<Decimal>,
    /// Seconds the exchange's clock is ahead (negative: behind): every timestamp it writes and
    /// its `Date` header.
    pub clock_skew: i64,
    /// The shape of error bodies.
    pub error_style: ErrorStyle,
    /// A tax row is listed as pending (empty `finalizeTime`, no fee yet) for this many seconds
    /// after its `createTime`, then final with its fee: a row that changes after it was listed.
    pub pending_rows: u64,
    /// One tax row in three (chosen by its id) is listed only this many seconds after its
    /// `createTime`, the others at once: it arrives with a `createTime` before rows already listed.
    pub late_rows: u64,
    pub running_balance: RunningBalance,
    pub empty_style: EmptyStyle,
    pub buy_fee: BuyFee,
    pub default_account: DefaultAccount,
    /// At most this many `/v1/` requests a minute; the next are refused with 429.
    pub rate_limit_per_minute: Option<u32>,
}

impl Default for Readings {
    fn default() -> Self {
        Self {
            no_note_echo: false,
            tax_lag: 0,
            withdrawal_hold: WithdrawalHold::Available,
            buy_fee_pct: None,
            split_fills: 1,
            fill_spread: 0,
            buy_spend: BuySpend::Amount,
            partial_fill: None,
            clock_skew: 0,
            error_style: ErrorStyle::Grpc,
            pending_rows: 0,
            late_rows: 0,
            running_balance: RunningBalance::Total,
            empty_style: EmptyStyle::Omit,
            buy_fee: BuyFee::Inside,
            default_account: DefaultAccount::First,
            rate_limit_per_minute: None,
        }
    }
}

/// The longest lag or skew the sandbox accepts: a day.
const MAX_SECONDS: u64 = 86_400;

impl Readings {
    /// Refuses a reading no exchange could have.
    pub fn check(&self) -> Result<(), ApiError> {
        if self.tax_lag > MAX_SECONDS
            || self.pending_rows > MAX_SECONDS
            || self.late_rows > MAX_SECONDS
            || self.clock_skew.unsigned_abs() > MAX_SECONDS
            || self.fill_spread > MAX_SECONDS
        {
            return Err(ApiError::invalid(
                "taxLag, pendingRows, lateRows, clockSkew and fillSpread are at most 86400 seconds",
            ));
        }
        if self.rate_limit_per_minute == Some(0) {
            return Err(ApiError::invalid("rateLimitPerMinute must be at least 1"));
        }
        if !(1..=20).contains(&self.split_fills) {
            return Err(ApiError::invalid("splitFills must be from 1 to 20"));
        }
        let percent = |p: Option<Decimal>, name: &str| match p {
            Some(p) if p <= Decimal::ZERO || p >= Decimal::ONE_HUNDRED => Err(ApiError::invalid(
                format!("{name} must be a percentage above 0 and below 100"),
            )),
            _ => Ok(()),
        };
        percent(self.buy_fee_pct, "buyFeePct")?;
        percent(self.partial_fill, "partialFill")
    }

    pub fn skew(&self) -> Duration {
        Duration::seconds(self.clock_skew)
    }

    /// Whether the row `id` created at `created` is not listed yet at `now` under the late-rows
    /// reading.
    pub fn is_late(
        &self,
        id: &str,
        created: chrono::DateTime<chrono::Utc>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> bool {
        let chosen = id
            .bytes()
            .fold(0_u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
            % 3
            == 0;
        chosen
            && self.late_rows > 0
            && now - created < Duration::seconds(i64::try_from(self.late_rows).unwrap_or(0))
    }

    /// Whether a row created at `created` is still pending at `now` under the pending-rows
    /// reading.
    pub fn is_pending(
        &self,
        created: chrono::DateTime<chrono::Utc>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> bool {
        self.pending_rows > 0
            && now - created < Duration::seconds(i64::try_from(self.pending_rows).unwrap_or(0))
    }

    /// Applies the fields present in `patch` (a JSON object of the same names) to these.
    pub fn patched(&self, patch: &serde_json::Value) -> Result<Self, ApiError> {
        let serde_json::Value::Object(fields) = patch else {
            return Err(ApiError::invalid("the readings must be a JSON object"));
        };
        let mut whole =
            serde_json::to_value(self).map_err(|e| ApiError::internal(format!("readings: {e}")))?;
        if let serde_json::Value::Object(current) = &mut whole {
            for (k, v) in fields {
                current.insert(k.clone(), v.clone());
            }
        }
        let next: Self = serde_json::from_value(whole)
            .map_err(|e| ApiError::invalid(format!("invalid readings: {e}")))?;
        next.check()?;
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_changes_only_what_it_names_and_bad_values_are_refused() {
        let r = Readings::default()
            .patched(&serde_json::json!({ "noNoteEcho": true, "withdrawalHold": "total" }))
            .unwrap();
        assert!(r.no_note_echo);
        assert_eq!(r.withdrawal_hold, WithdrawalHold::Total);
        assert_eq!(r.split_fills, 1);
        let r = r
            .patched(&serde_json::json!({ "runningBalance": "account", "emptyStyle": "null", "buyFee": "outside" }))
            .unwrap();
        assert_eq!(r.running_balance, RunningBalance::Account);
        assert_eq!(r.empty_style, EmptyStyle::Null);
        assert_eq!(r.buy_fee, BuyFee::Outside);
        let r = r
            .patched(&serde_json::json!({ "defaultAccount": "last" }))
            .unwrap();
        assert_eq!(r.default_account, DefaultAccount::Last);
        let r = r
            .patched(&serde_json::json!({ "fillSpread": 60, "buySpend": "sats" }))
            .unwrap();
        assert_eq!((r.fill_spread, r.buy_spend), (60, BuySpend::Sats));
        for bad in [
            serde_json::json!({ "fillSpread": 86_401 }),
            serde_json::json!({ "fillSpread": -1 }),
            serde_json::json!({ "buySpend": "all" }),
            serde_json::json!({ "splitFills": 0 }),
            serde_json::json!({ "partialFill": 100 }),
            serde_json::json!({ "buyFeePct": -1 }),
            serde_json::json!({ "clockSkew": 100000 }),
            serde_json::json!({ "noSuchThing": 1 }),
            serde_json::json!({ "withdrawalHold": "sometimes" }),
            serde_json::json!({ "runningBalance": "both" }),
            serde_json::json!({ "emptyStyle": "" }),
            serde_json::json!({ "buyFee": 1 }),
            serde_json::json!({ "defaultAccount": "middle" }),
            serde_json::json!([1]),
        ] {
            assert!(r.patched(&bad).is_err(), "{bad}");
        }
    }
}
