//! The app lock: an optional password (its Argon2id hash in the OS keyring, user `app-lock`);
//! the app locks at start, after the idle time, from the tray, with Ctrl+L and the header's lock.
//! While locked the window is answered only the commands that show nothing of the user's money
//! (`admits`), and notifications say nothing but that something happened. A payment can ask for
//! the password again. The lock keeps eyes off the window; it encrypts nothing.

use std::time::{Duration, Instant};

use nordlys_core::app_lock::{self, IdleTimer, LockProblem, Moment};
use nordlys_core::format::Locale;
use nordlys_core::platform::secrets::{SecretError, SecretItem};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Answer, AppError, ErrorCode};
use crate::msg;
use crate::notices::Told;
use crate::present::{Present, Viewer};
use crate::profiles::AppState;
use crate::state::App;
use crate::vocabulary::Change;
use crate::wording::{self};
use crate::wording::{Bare, key};
use crate::{NoArgs, profile_views::AppView};

/// The keyring's "profile" of what belongs to the app, not to one profile.
const APP_WIDE: &str = "";
/// How long the password given for a payment allows one.
const PAYMENT_WINDOW: Duration = Duration::from_secs(120);
/// What a wrong password costs in waiting, so that guessing is slow.
const WRONG_WAIT: Duration = Duration::from_secs(1);

/// The commands a locked window may call: none of them shows an amount, an address or history.
pub const OPEN_WHILE_LOCKED: &[&str] = &[
    "app_state",
    "lock",
    "unlock",
    "still_here",
    "set_window_shown",
    "set_language",
    "set_theme",
    // Asked when the window is closed, locked or not; it shows nothing of the user's.
    "answer_close",
    // A store whose key is missing or wrong opens nothing to hide: the window that cannot start
    // offers these (a locked app cannot show its lock without its store).
    "restore_store_key",
    "start_fresh_store",
];

/// The lock's part of the app: its state, and the guesses at its password.
#[derive(Debug)]
pub struct LockPart {
    state: std::sync::Mutex<LockState>,
    /// One password guess at a time, and how many in a row were wrong: parallel guesses queue
    /// behind each other's wait, which doubles with each wrong one.
    guesses: tokio::sync::Mutex<u32>,
}

impl LockPart {
    pub(crate) fn new(state: LockState) -> Self {
        Self {
            state: std::sync::Mutex::new(state),
            guesses: tokio::sync::Mutex::new(0),
        }
    }
}

/// The lock as the app holds it.
#[derive(Debug)]
pub struct LockState {
    locked: bool,
    /// Why it cannot be unlocked now: the keyring could not be read at start.
    unreadable: Option<String>,
    idle: IdleTimer,
    /// The password was given for one payment (its reviewed fingerprint), until then.
    payment_allowed: Option<(String, Instant)>,
}

/// The lock's stored hash as the start reads it: the keyring is asked only when a lock was set,
/// so a start without one touches no keyring (which could stop it at an unlock prompt).
pub(crate) fn stored_at_start(
    secrets: &dyn nordlys_core::platform::secrets::SecretStore,
    lock_set: bool,
) -> Result<Option<String>, SecretError> {
    if lock_set {
        secrets.get(APP_WIDE, SecretItem::AppLock)
    } else {
        Ok(None)
    }
}

impl LockState {
    /// The lock at start: locked when a password is set, or when one was set and the keyring
    /// cannot tell.
    pub(crate) fn at_start(
        stored: &Result<Option<String>, SecretError>,
        was_set: bool,
        idle_minutes: u32,
    ) -> Self {
        let (locked, unreadable) = match stored {
            Ok(Some(_)) => (true, None),
            Ok(None) => (false, None),
            Err(e) => (was_set, was_set.then(|| e.to_string())),
        };
        Self {
            locked,
            unreadable,
            idle: IdleTimer::new(idle_minutes, Moment::now()),
            payment_allowed: None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LockView {
    /// A password is set.
    pub set: bool,
    pub locked: bool,
    /// Why it cannot be unlocked (the keyring could not be read), in words.
    pub why: Option<String>,
    pub idle_minutes: u32,
    /// A payment asks for the password again.
    pub before_payments: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum LockField {
    Password,
    Confirm,
    Current,
    IdleMinutes,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LockProblemView {
    pub field: LockField,
    pub message: String,
}

/// The answer to a lock form: its problems (nothing was changed when there are any) and the app.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LockFormView {
    pub problems: Vec<LockProblemView>,
    pub app: AppView,
}

/// Holds passwords: its `Debug` (in a log, a panic message, an error) shows none of them, and
/// they are wiped from memory when it is dropped.
#[derive(Clone, Default, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct NewPasswordArgs {
    pub password: String,
    pub confirm: String,
    /// The password in use, when one is set and is being changed.
    pub current: String,
}

impl std::fmt::Debug for NewPasswordArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewPasswordArgs")
            .field("password", &"[redacted]")
            .field("confirm", &"[redacted]")
            .field("current", &"[redacted]")
            .finish()
    }
}

/// Holds a password, shown by `Debug` as redacted and wiped when dropped.
#[derive(Clone, Default, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct PasswordArgs {
    pub password: String,
}

impl std::fmt::Debug for PasswordArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasswordArgs")
            .field("password", &"[redacted]")
            .finish()
    }
}

#[derive(Clone, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct LockSettingsArgs {
    pub idle_minutes: String,
    pub before_payments: bool,
    /// The lock's password: needed for a change that weakens the lock (a payment no longer
    /// asking for it, a longer idle time), not for one that strengthens it.
    #[serde(default)]
    pub password: Option<String>,
}

impl std::fmt::Debug for LockSettingsArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LockSettingsArgs")
            .field("idle_minutes", &self.idle_minutes)
            .field("before_payments", &self.before_payments)
            .field("password", &self.password.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

impl App {
    fn lock_state(&self) -> std::sync::MutexGuard<'_, LockState> {
        self.lock
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn is_locked(&self) -> bool {
        self.lock_state().locked
    }

    /// Tells the user `told` in a notification, worded as the window reads now; while locked it
    /// says only that Nordlys has news, not what.
    pub fn tell(&self, told: Told) {
        let told = if self.is_locked() {
            Told::WhileLocked {
                opens: told.opens(),
            }
        } else {
            told
        };
        self.desktop.notify(&told.present(&self.viewer()));
    }
}

/// Refuses `command` while the app is locked, unless it shows nothing of the user's money.
pub fn admit(app: &App, command: &str) -> Answer<()> {
    if app.is_locked() && !OPEN_WHILE_LOCKED.contains(&command) {
        return Err(AppError::said(ErrorCode::Locked, key::APP_LOCKED));
    }
    Ok(())
}

/// The lock as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockStatus {
    /// A password is set.
    pub set: bool,
    pub locked: bool,
    /// Why it cannot be unlocked: the keyring could not be read (the keyring's words).
    pub unreadable: Option<String>,
    pub idle_minutes: u32,
    /// A payment asks for the password again.
    pub before_payments: bool,
}

pub(crate) fn status(app: &App) -> LockStatus {
    let (set, idle_minutes, before_payments) = {
        let s = app.settings();
        (s.lock_set, s.lock_idle_minutes(), s.lock_before_payments())
    };
    let state = app.lock_state();
    LockStatus {
        set,
        locked: state.locked,
        unreadable: state.unreadable.clone(),
        idle_minutes,
        before_payments,
    }
}

/// The lock as the window shows it.
pub(crate) fn lock_view(s: &LockStatus, locale: Locale) -> LockView {
    LockView {
        set: s.set,
        locked: s.locked,
        why: s
            .unreadable
            .as_ref()
            .map(|e| msg!(LOCK_KEYRING_UNREADABLE { detail: e.clone() }).render(locale)),
        idle_minutes: s.idle_minutes,
        before_payments: s.before_payments,
    }
}

fn stored_hash(app: &App) -> Answer<Option<String>> {
    app.secrets
        .get(APP_WIDE, SecretItem::AppLock)
        .map_err(AppError::of)
}

/// Whether `password` is the lock's. Guesses are taken one at a time (parallel ones wait their
/// turn), and a wrong one holds the turn for a wait that doubles with each wrong guess in a row,
/// up to [`LONGEST_WRONG_WAIT`]: 12 wrong guesses take over a minute, 100 over 45 minutes.
async fn is_the_password(app: &App, password: &str) -> Answer<bool> {
    let Some(phc) = stored_hash(app)? else {
        return Ok(false);
    };
    let mut wrong_in_a_row = app.lock.guesses.lock().await;
    let password = zeroize::Zeroizing::new(password.to_owned());
    let right = tokio::task::spawn_blocking(move || app_lock::verify_password(&phc, &password))
        .await
        .map_err(AppError::fault)?
        .map_err(AppError::fault)?;
    if right {
        *wrong_in_a_row = 0;
    } else {
        *wrong_in_a_row = wrong_in_a_row.saturating_add(1);
        tokio::time::sleep(wrong_wait(*wrong_in_a_row)).await;
    }
    Ok(right)
}

/// The longest a wrong guess holds the next one back.
const LONGEST_WRONG_WAIT: Duration = Duration::from_secs(30);

/// How long the `n`th wrong guess in a row holds the next one back.
fn wrong_wait(n: u32) -> Duration {
    WRONG_WAIT
        .saturating_mul(1_u32.checked_shl(n.saturating_sub(1)).unwrap_or(u32::MAX))
        .min(LONGEST_WRONG_WAIT)
}

/// Why a lock form changed nothing, at a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockRefusal {
    Problem(LockProblem),
    /// Nothing typed: asked for, not counted as a wrong guess.
    Missing,
    Wrong,
    /// Loosening the lock takes its password.
    NeededToLoosen,
}

/// A lock form's answer: why it changed nothing, field by field (none: it was done), and the app.
#[derive(Debug, Clone)]
pub struct LockForm {
    pub problems: Vec<(LockField, LockRefusal)>,
    pub app: AppState,
}

impl Present for LockForm {
    type View = LockFormView;

    fn present(self, viewer: &Viewer) -> LockFormView {
        let locale = viewer.locale();
        LockFormView {
            problems: self
                .problems
                .iter()
                .map(|(field, why)| LockProblemView {
                    field: *field,
                    message: wording::say(
                        match why {
                            LockRefusal::Problem(LockProblem::TooShort) => key::LOCK_PASSWORD_SHORT,
                            LockRefusal::Problem(LockProblem::Mismatch) => {
                                key::LOCK_PASSWORD_MISMATCH
                            }
                            LockRefusal::Problem(LockProblem::IdleRange) => key::LOCK_IDLE_RANGE,
                            LockRefusal::Missing => key::LOCK_PASSWORD_MISSING,
                            LockRefusal::Wrong => key::LOCK_PASSWORD_WRONG,
                            LockRefusal::NeededToLoosen => key::LOCK_PASSWORD_TO_WEAKEN,
                        },
                        locale,
                    ),
                })
                .collect(),
            app: self.app.present(viewer),
        }
    }
}

fn problem(field: LockField, p: LockProblem) -> (LockField, LockRefusal) {
    (field, LockRefusal::Problem(p))
}

fn missing(field: LockField) -> (LockField, LockRefusal) {
    (field, LockRefusal::Missing)
}

fn wrong(field: LockField) -> (LockField, LockRefusal) {
    (field, LockRefusal::Wrong)
}

async fn answer(app: &App, problems: Vec<(LockField, LockRefusal)>) -> Answer<LockForm> {
    Ok(LockForm {
        problems,
        app: crate::profiles::app_state(app, NoArgs {}).await?,
    })
}

/// Locks now; with no password set there is nothing to lock with, and nothing changes.
pub fn lock_now(app: &App) {
    if !app.settings().lock_set {
        return;
    }
    let mut state = app.lock_state();
    if !state.locked {
        state.locked = true;
        state.payment_allowed = None;
        drop(state);
        app.desktop.changed(Change::Lock);
    }
}

pub async fn lock(app: &App, _args: NoArgs) -> Answer<AppState> {
    lock_now(app);
    crate::profiles::app_state(app, NoArgs {}).await
}

/// Sets (or changes) the password, then locks: the form that sets it is the lock's first use.
pub async fn set_lock_password(app: &App, mut args: NewPasswordArgs) -> Answer<LockForm> {
    let mut problems = vec![];
    if let Err(p) = app_lock::check_new_password(&args.password, &args.confirm) {
        let field = match p {
            LockProblem::Mismatch => LockField::Confirm,
            _ => LockField::Password,
        };
        problems.push(problem(field, p));
    }
    if app.settings().lock_set
        && stored_hash(app)?.is_some()
        && !is_the_password(app, &args.current).await?
    {
        problems.push(wrong(LockField::Current));
    }
    if !problems.is_empty() {
        return answer(app, problems).await;
    }
    let password = zeroize::Zeroizing::new(std::mem::take(&mut args.password));
    // Keys sealed under the old password are sealed under the new one before the lock takes it.
    crate::store_key::reseal_keys(app, &args.current, &password).await?;
    let phc = tokio::task::spawn_blocking(move || app_lock::hash_password(&password))
        .await
        .map_err(AppError::fault)?
        .map_err(AppError::fault)?;
    app.secrets
        .set(APP_WIDE, SecretItem::AppLock, &phc)
        .map_err(AppError::of)?;
    app.settings().lock_set = true;
    app.save_settings()?;
    lock_now(app);
    answer(app, vec![]).await
}

pub async fn unlock(app: &App, args: PasswordArgs) -> Answer<LockForm> {
    if args.password.is_empty() {
        return answer(app, vec![missing(LockField::Password)]).await;
    }
    if !is_the_password(app, &args.password).await? {
        return answer(app, vec![wrong(LockField::Password)]).await;
    }
    crate::store_key::open_sealed_keys(app, &args.password).await;
    {
        let mut state = app.lock_state();
        state.locked = false;
        state.unreadable = None;
        state.idle.seen(Moment::now());
    }
    app.desktop.changed(Change::Lock);
    answer(app, vec![]).await
}

/// Removes the lock, given its password.
pub async fn remove_lock(app: &App, args: PasswordArgs) -> Answer<LockForm> {
    if args.password.is_empty() {
        return answer(app, vec![missing(LockField::Current)]).await;
    }
    if !is_the_password(app, &args.password).await? {
        return answer(app, vec![wrong(LockField::Current)]).await;
    }
    crate::store_key::unseal_keys(app, &args.password).await?;
    app.secrets
        .delete(APP_WIDE, SecretItem::AppLock)
        .map_err(AppError::of)?;
    app.settings().lock_set = false;
    app.save_settings()?;
    app.lock_state().locked = false;
    answer(app, vec![]).await
}

pub async fn set_lock_settings(app: &App, args: LockSettingsArgs) -> Answer<LockForm> {
    let minutes = match app_lock::parse_idle_minutes(&args.idle_minutes) {
        Ok(m) => m,
        Err(p) => return answer(app, vec![problem(LockField::IdleMinutes, p)]).await,
    };
    // Someone at an unlocked, unattended window must not loosen what guards the money.
    let weakens = {
        let s = app.settings();
        s.lock_set
            && ((s.lock_before_payments() && !args.before_payments)
                || minutes > s.lock_idle_minutes())
    };
    if weakens {
        let given = args.password.as_deref().unwrap_or_default();
        if given.is_empty() {
            let needed = (LockField::Current, LockRefusal::NeededToLoosen);
            return answer(app, vec![needed]).await;
        }
        if !is_the_password(app, given).await? {
            return answer(app, vec![wrong(LockField::Current)]).await;
        }
    }
    {
        let mut s = app.settings();
        s.lock_idle_minutes = Some(minutes);
        s.lock_before_payments = Some(args.before_payments);
    }
    app.save_settings()?;
    app.lock_state().idle.set_minutes(minutes);
    answer(app, vec![]).await
}

/// The user is at the window: the idle time counts from now.
pub async fn still_here(app: &App, _args: NoArgs) -> Answer<NoArgs> {
    app.lock_state().idle.seen(Moment::now());
    Ok(NoArgs {})
}

/// The lock's password as a form sends it with a change it guards: never printed, wiped when
/// dropped.
#[derive(Clone, Default, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
pub struct LockPassword(pub String);

impl std::fmt::Debug for LockPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// A change that loosens what guards the money (a plan made or enlarged, the exchange's
/// address changed) needs the lock's password when a lock is set: someone at an unlocked,
/// unattended window cannot make it.
pub(crate) async fn require_password(app: &App, given: Option<&LockPassword>) -> Answer<()> {
    require_password_for(app, given, key::LOCK_PASSWORD_FOR_CHANGE).await
}

/// As [`require_password`], asking for it with `asks` when none was given.
pub(crate) async fn require_password_for(
    app: &App,
    given: Option<&LockPassword>,
    asks: Bare,
) -> Answer<()> {
    if !app.settings().lock_set {
        return Ok(());
    }
    let given = given.map(|p| p.0.as_str()).unwrap_or_default();
    if given.is_empty() {
        return Err(AppError::said(ErrorCode::PasswordNeeded, asks));
    }
    if !is_the_password(app, given).await? {
        return Err(AppError::said(
            ErrorCode::PasswordNeeded,
            key::LOCK_PASSWORD_WRONG,
        ));
    }
    Ok(())
}

/// The lock's password, given for the one payment the user reviewed.
#[derive(Clone, Default, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPasswordArgs {
    pub password: String,
    /// The reviewed payment's fingerprint, as its check gave it.
    pub reviewed: String,
}

impl std::fmt::Debug for PaymentPasswordArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentPasswordArgs")
            .field("password", &"[redacted]")
            .field("reviewed", &self.reviewed)
            .finish()
    }
}

/// The password given for the payment about to be sent: allows that one payment (the one
/// reviewed, by its fingerprint), within two minutes.
pub async fn allow_payment(app: &App, args: PaymentPasswordArgs) -> Answer<LockForm> {
    if args.password.is_empty() {
        return answer(app, vec![missing(LockField::Password)]).await;
    }
    if !is_the_password(app, &args.password).await? {
        return answer(app, vec![wrong(LockField::Password)]).await;
    }
    app.lock_state().payment_allowed =
        Some((args.reviewed.clone(), Instant::now() + PAYMENT_WINDOW));
    answer(app, vec![]).await
}

/// Before the payment reviewed as `reviewed` is sent: when the lock asks for its password
/// before payments, the password must have been given for this one (and is then used up, also
/// when it was given for another).
pub(crate) fn take_payment_allowance(app: &App, reviewed: &str) -> Answer<()> {
    let asks = {
        let s = app.settings();
        s.lock_set && s.lock_before_payments()
    };
    if !asks {
        return Ok(());
    }
    let mut state = app.lock_state();
    match state.payment_allowed.take() {
        Some((allowed, until)) if allowed == reviewed && Instant::now() < until => Ok(()),
        _ => Err(AppError::said(
            ErrorCode::PasswordNeeded,
            key::LOCK_PAYMENT_PASSWORD,
        )),
    }
}

/// Locks the app when the user has been away for the idle time; told to the window.
pub fn lock_when_idle(app: &App) {
    let due = app.lock_state().idle.is_due(Moment::now());
    if due {
        lock_now(app);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_start_the_app_is_locked_when_a_password_is_set_or_the_keyring_cannot_say() {
        let set = LockState::at_start(&Ok(Some("$argon2id$…".into())), true, 15);
        assert!(set.locked && set.unreadable.is_none());
        let deleted = LockState::at_start(&Ok(None), true, 15);
        assert!(
            !deleted.locked,
            "deleting the keyring entry removes the lock"
        );
        let unreadable = LockState::at_start(
            &Err(SecretError::Unavailable("locked collection".into())),
            true,
            15,
        );
        assert!(unreadable.locked);
        assert!(
            unreadable
                .unreadable
                .as_deref()
                .is_some_and(|w| w.contains("locked collection"))
        );
        let never = LockState::at_start(&Err(SecretError::Unavailable("x".into())), false, 15);
        assert!(!never.locked, "no lock was ever set");
    }

    #[test]
    fn a_lock_password_never_shows_in_debug_output() {
        let new = NewPasswordArgs {
            password: "hunter2-new".into(),
            confirm: "hunter2-new".into(),
            current: "hunter2-old".into(),
        };
        let shown = format!(
            "{new:?} {:?}",
            PasswordArgs {
                password: "hunter2-now".into()
            }
        );
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("redacted"), "{shown}");
    }

    #[test]
    fn each_wrong_guess_in_a_row_waits_twice_as_long_up_to_the_longest() {
        let waits: Vec<u64> = (1..=7).map(|n| wrong_wait(n).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(wrong_wait(u32::MAX), LONGEST_WRONG_WAIT);
    }
}
