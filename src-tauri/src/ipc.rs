//! The typed IPC surface: one list of use cases gives a one-line command for each, the Tauri
//! handler, and the TypeScript bindings the UI imports (`ui/src/bindings.ts`, generated, checked
//! in; a test fails when it is stale).

use nordlys_application::App;
use nordlys_application::NoArgs;
use nordlys_application::account_identities::*;
use nordlys_application::alert_views::*;
use nordlys_application::background::*;
use nordlys_application::card_views::*;
use nordlys_application::error::IpcError;
use nordlys_application::holdings_chart::*;
use nordlys_application::lock::*;
use nordlys_application::pay_views::*;
use nordlys_application::plan_views::*;
use nordlys_application::present::Presented;
use nordlys_application::profile_views::*;
use nordlys_application::receive_views::*;
use nordlys_application::store_key::*;
use nordlys_application::tax_views::*;
use nordlys_application::trade_views::*;
use nordlys_application::unknown_views::*;
use nordlys_application::watcher::WindowShownArgs;
#[cfg(test)]
use ts_rs::{TS, TypeVisitor};

/// A money command's turn, taken before its use case runs and held until it has answered: a
/// profile switch waits for it (`App::money_turn`).
macro_rules! turn {
    (money, $app:ident) => {
        &$app.money_turn().await
    };
}

macro_rules! ipc_commands {
    ($($(#[$kind:ident])? $module:ident :: $name:ident : $args:ty => $ret:ty;)*) => {
        /// Names of every command, as the UI calls them.
        #[cfg(test)]
        const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        /// Each use case as the command the window calls: the app's state and one argument.
        mod command {
            use super::*;
            $(
                #[tauri::command]
                pub async fn $name(app: tauri::State<'_, App>, args: $args) -> Result<$ret, IpcError> {
                    let answer = async {
                        nordlys_application::lock::admit(&app, stringify!($name))?;
                        let outcome =
                            nordlys_application::$module::$name(&app, $(turn!($kind, app),)? args)
                                .await?;
                        // The one place a use case's facts become its view.
                        let view: $ret = Presented::presented(outcome, &app.viewer())?;
                        Ok::<_, nordlys_application::error::AppError>(view)
                    };
                    // The one place an error is worded: in the user's language, as it answers.
                    answer.await.map_err(|e| e.present(&app.viewer()))
                }
            )*
        }

        /// Every command, for any runtime: the real window's, or the mock one the soak test drives.
        pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(command::$name),*]
        }

        /// Every type the commands take or return, declared once each, then the error type.
        #[cfg(test)]
        fn bound_types() -> Vec<String> {
            let mut declarations = Declarations::default();
            $(
                declarations.visit::<$args>();
                declarations.visit::<$ret>();
            )*
            declarations.visit::<IpcError>();
            declarations.visit::<nordlys_application::watcher::Change>();
            declarations.visit::<nordlys_application::vocabulary::Screen>();
            declarations.by_name.into_values().collect()
        }

        #[cfg(test)]
        fn command_functions() -> String {
            let mut out = String::new();
            $(
                out.push_str(&format!(
                    "export function {}(args: {}): Promise<{}> {{\n  return call(\"{}\", args);\n}}\n\n",
                    camel(stringify!($name)),
                    <$args as TS>::name(&Default::default()),
                    <$ret as TS>::name(&Default::default()),
                    stringify!($name),
                ));
            )*
            out
        }
    };
}

ipc_commands! {
    background::answer_close: KeepInTrayArgs => NoArgs;
    background::set_close_to_tray: KeepInTrayArgs => AppView;
    background::set_start_at_login: StartAtLoginArgs => AppView;
    profiles::app_state: NoArgs => AppView;
    profiles::balances: NoArgs => BalancesView;
    profiles::set_api_key: SetApiKeyArgs => AppView;
    profiles::connect_oauth: ConnectOauthArgs => AppView;
    profiles::disconnect: NoArgs => AppView;
    profiles::reset_demo: NoArgs => AppView;
    profiles::set_language: SetLanguageArgs => AppView;
    profiles::set_unit: SetUnitArgs => AppView;
    profiles::set_theme: SetThemeArgs => AppView;
    profiles::set_privacy: SetPrivacyArgs => AppView;
    lock::lock: NoArgs => AppView;
    store_key::store_key: StoreKeyArgs => StoreKeyView;
    store_key::store_seal: NoArgs => StoreSeal;
    store_key::seal_store_key: SealStoreKeyArgs => StoreSeal;
    store_key::restore_store_key: RestoreStoreKeyArgs => StoreMended;
    store_key::start_fresh_store: NoArgs => StoreMended;
    lock::unlock: PasswordArgs => LockFormView;
    lock::set_lock_password: NewPasswordArgs => LockFormView;
    lock::remove_lock: PasswordArgs => LockFormView;
    lock::set_lock_settings: LockSettingsArgs => LockFormView;
    lock::still_here: NoArgs => NoArgs;
    lock::allow_payment: PaymentPasswordArgs => LockFormView;
    watcher::set_window_shown: WindowShownArgs => NoArgs;
    profiles::set_start_hidden: SetStartHiddenArgs => AppView;
    profiles::dismiss_welcome: NoArgs => AppView;
    profiles::set_request_timeout: SetRequestTimeoutArgs => AppView;
    profiles::set_tax_rules: SetTaxRulesArgs => AppView;
    profiles::check_exchange_profile: ExchangeProfileArgs => ProfileProblemsView;
    profiles::save_exchange_profile: ExchangeProfileArgs => AppView;
    profiles::switch_profile: SwitchProfileArgs => AppView;
    account_identities::account_identities: NoArgs => AccountIdentitiesView;
    account_identities::set_tax_history_aside: NoArgs => AccountIdentitiesView;
    trading::quote: QuoteArgs => QuoteView;
    trading::check_order: OrderFormArgs => OrderCheckView;
    #[money]
    trading::place_order: PlaceOrderArgs => OrderResultView;
    trading::resolve_orders: NoArgs => JournalView;
    trading::open_orders: NoArgs => OpenOrdersView;
    #[money]
    trading::cancel_order: CancelOrderArgs => OpenOrdersView;
    market::volume: NoArgs => VolumeView;
    market::trade_history: NoArgs => TradesView;
    market::price_chart: PriceChartArgs => PriceChartView;
    market::volume_chart: ChartSizeArgs => ChartView;
    holdings_chart::holdings_chart: HoldingsChartArgs => HoldingsChartView;
    alerts::alerts: NoArgs => AlertsView;
    alerts::save_alert: AlertArgs => SaveAlertView;
    alerts::remove_alert: AlertIdArgs => AlertsView;
    alerts::set_usual_amount: UsualAmountArgs => AlertsView;
    plans::plans: NoArgs => PlansView;
    plans::save_plan: PlanArgs => SavePlanView;
    plans::pause_plan: PlanIdArgs => PlansView;
    plans::resume_plan: PlanIdArgs => PlansView;
    plans::remove_plan: PlanIdArgs => PlansView;
    receive::receive_destinations: AccountArgs => ReceiveView;
    receive::create_invoice: InvoiceArgs => InvoiceView;
    receive::invoice_status: InvoiceIdArgs => InvoiceView;
    receive::recent_invoices: NoArgs => InvoicesView;
    pay::check_payment: PayArgs => PayCheckView;
    #[money]
    pay::send_payment: SendPaymentArgs => PaymentResultView;
    pay::payments: NoArgs => PaymentsView;
    pay::recipients: NoArgs => RecipientsView;
    pay::save_recipient: SaveRecipientArgs => RecipientsView;
    pay::delete_recipient: IdentityArgs => RecipientsView;
    pay::countries: NoArgs => CountriesView;
    tax::start_tax_sync: NoArgs => TaxSyncView;
    tax::tax_sync_status: NoArgs => TaxSyncView;
    tax::cancel_tax_sync: NoArgs => TaxSyncView;
    tax::tax_rows: TaxRowsArgs => TaxRowsView;
    tax::tax_facets: NoArgs => TaxFacetsView;
    tax::tax_balances: TaxBalancesArgs => TaxBalancesView;
    tax::year_end_report: NoArgs => YearEndsView;
    card::set_year_end_choice: YearEndChoiceArgs => NoArgs;
    tax::gains_report: GainsArgs => GainsView;
    tax::export_csv: ExportArgs => ExportView;
    card::tax_card: CardArgs => CardView;
    card::set_deposit_cost: DepositCostArgs => NoArgs;
    card::tax_rows_as_sent: RowIdsArgs => RawRowsView;
    card::export_card: CardExportArgs => ExportView;
    unknowns::unknowns: NoArgs => UnknownsView;
    #[money]
    unknowns::settle_unknown: JournalIdArgs => UnknownsView;
    #[money]
    unknowns::settle_unknown_placed: SettlePlacedArgs => UnknownsView;
}

#[cfg(test)]
fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Collects the declaration of every type a command takes or returns, and of the types those
/// hold, once each, by name (ts-rs visits a type's fields in no fixed order): the bindings need
/// no list of their own.
#[cfg(test)]
#[derive(Default)]
struct Declarations {
    seen: std::collections::HashSet<std::any::TypeId>,
    by_name: std::collections::BTreeMap<String, String>,
}

#[cfg(test)]
impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Types with no file of their own (strings, numbers, Option, Vec) are not declared;
        // what they wrap may be.
        if T::output_path().is_some() {
            if !self.seen.insert(std::any::TypeId::of::<T>()) {
                return;
            }
            let cfg = Default::default();
            let decl = format!("export {}\n\n", T::decl(&cfg));
            // Two Rust types of one name would be one TypeScript type: the second is kept
            // beside the first, so the bindings declare the name twice and a test fails.
            let name = T::ident(&cfg);
            let key = if self.by_name.contains_key(&name) {
                format!("{name}~{}", self.by_name.len())
            } else {
                name
            };
            self.by_name.insert(key, decl);
        }
        T::visit_dependencies(self);
    }
}

/// The whole bindings file.
#[cfg(test)]
fn typescript() -> String {
    let mut out = String::from(
        "// Generated from src-tauri/src/ipc.rs by `cargo test -p nordlys -- --ignored write_bindings`. Do not edit.\n\
         import { invoke } from \"@tauri-apps/api/core\";\n\n\
         /** An exact amount in `U` as the exchange writes one (decimal text), as shown figures\n\
         \x20* carry it: branded, so a plain string does not pass for money. */\n\
         export type Exact<U extends \"BTC\" | \"NOK\" | \"NOK/BTC\"> = string & { readonly unit: U };\n\n",
    );
    for d in bound_types() {
        out.push_str(&d);
    }
    out.push_str(
        "/** Every command fails with an IpcError; anything else is wrapped as `internal`. */\n\
         async function call<T>(command: string, args: unknown): Promise<T> {\n\
         \x20 try {\n\
         \x20   return await invoke<T>(command, { args });\n\
         \x20 } catch (e) {\n\
         \x20   if (e && typeof e === \"object\" && \"code\" in e && \"message\" in e) throw e as IpcError;\n\
         \x20   throw { code: \"internal\", message: String(e) } satisfies IpcError;\n\
         \x20 }\n\
         }\n\n",
    );
    out.push_str(&command_functions());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BINDINGS: &str = "../ui/src/bindings.ts";

    #[test]
    fn checked_in_bindings_are_current() {
        let on_disk = std::fs::read_to_string(BINDINGS).unwrap_or_default();
        assert!(
            on_disk == typescript(),
            "ui/src/bindings.ts is stale: run `cargo test -p nordlys -- --ignored write_bindings`"
        );
    }

    /// The build script reads the same list this file's macro expands, and the capability it
    /// wrote allows each command, and nothing else.
    #[test]
    fn the_build_and_the_capability_follow_the_command_list() {
        let read = crate::command_list::command_names(include_str!("ipc.rs"));
        assert_eq!(
            read, COMMANDS,
            "build.rs reads another list than ipc_commands!"
        );
        let on_disk = include_str!("../capabilities/main.json");
        assert_eq!(
            on_disk,
            crate::command_list::capability(COMMANDS),
            "capabilities/main.json is not the one build.rs writes: build again"
        );
    }

    /// What a locked window may call are commands that exist.
    #[test]
    fn the_commands_open_while_locked_are_commands() {
        for name in nordlys_application::lock::OPEN_WHILE_LOCKED {
            assert!(COMMANDS.contains(name), "{name} is no command");
        }
    }

    /// Every type a command takes or returns is declared once in the bindings: without it the UI
    /// would not compile against them.
    #[test]
    fn every_bound_type_is_declared_once() {
        let bindings = typescript();
        let declared: Vec<&str> = bindings
            .lines()
            .filter_map(|l| l.strip_prefix("export type "))
            .filter_map(|l| l.split([' ', '<']).next())
            .collect();
        let mut unique = declared.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), declared.len(), "declared twice: {declared:?}");
        for needed in [
            "OrderFormArgs",
            "OrderResultView",
            "OrderOutcome",
            "TaxRowView",
            "IpcError",
            "ErrorCode",
        ] {
            assert!(declared.contains(&needed), "{needed} is not declared");
        }
    }

    #[test]
    #[ignore = "writes ui/src/bindings.ts"]
    fn write_bindings() {
        std::fs::write(BINDINGS, typescript()).unwrap();
    }
}
