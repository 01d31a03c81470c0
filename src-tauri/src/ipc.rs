//! The typed IPC surface: one list of use cases gives a one-line command for each, the Tauri
//! handler, and the TypeScript bindings the UI imports (`ui/src/bindings.ts`, generated, checked
//! in; a test fails when it is stale).

use nordlys_application::App;
use nordlys_application::error::{ErrorCode, IpcError};
use nordlys_application::payment_views::*;
use nordlys_application::tax_views::*;
use nordlys_application::views::*;
use nordlys_application::vocabulary::*;
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::format::{BtcUnit, Locale};
use nordlys_core::store::{JournalState, WithdrawalState};
use nordlys_core::tax::gains::{DisposalKind, Method};
use ts_rs::TS;

macro_rules! ipc_commands {
    ($($module:ident :: $name:ident : $args:ty => $ret:ty;)*) => {
        /// Names of every command, as the UI calls them.
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        /// Each use case as the command the window calls: the app's state and one argument.
        mod command {
            use super::*;
            $(
                #[tauri::command]
                pub async fn $name(app: tauri::State<'_, App>, args: $args) -> Result<$ret, IpcError> {
                    nordlys_application::$module::$name(&app, args).await
                }
            )*
        }

        /// Every command, for any runtime: the real window's, or the mock one the soak test drives.
        pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(command::$name),*]
        }

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
    profiles::app_state: NoArgs => AppView;
    profiles::balances: NoArgs => BalancesView;
    profiles::set_api_key: SetApiKeyArgs => AppView;
    profiles::connect_oauth: ConnectOauthArgs => AppView;
    profiles::disconnect: NoArgs => AppView;
    profiles::reset_demo: NoArgs => AppView;
    profiles::set_language: SetLanguageArgs => AppView;
    profiles::set_unit: SetUnitArgs => AppView;
    profiles::set_request_timeout: SetRequestTimeoutArgs => AppView;
    profiles::check_exchange_profile: ExchangeProfileArgs => ProfileProblemsView;
    profiles::save_exchange_profile: ExchangeProfileArgs => AppView;
    profiles::switch_profile: SwitchProfileArgs => AppView;
    trading::quote: QuoteArgs => QuoteView;
    trading::check_order: OrderFormArgs => OrderCheckView;
    trading::place_order: OrderFormArgs => OrderResultView;
    trading::resolve_orders: NoArgs => JournalView;
    trading::open_orders: NoArgs => OpenOrdersView;
    trading::cancel_order: CancelOrderArgs => OpenOrdersView;
    market::volume: NoArgs => VolumeView;
    market::trade_history: NoArgs => TradesView;
    market::price_chart: PriceChartArgs => ChartView;
    market::volume_chart: ChartSizeArgs => ChartView;
    receive::receive_destinations: AccountArgs => ReceiveView;
    receive::create_invoice: InvoiceArgs => InvoiceView;
    receive::invoice_status: InvoiceIdArgs => InvoiceView;
    receive::recent_invoices: NoArgs => InvoicesView;
    pay::check_payment: PayArgs => PayCheckView;
    pay::send_payment: PayArgs => PaymentResultView;
    pay::payments: NoArgs => PaymentsView;
    pay::recipients: NoArgs => RecipientsView;
    pay::save_recipient: RecipientView => RecipientsView;
    pay::delete_recipient: IdentityArgs => RecipientsView;
    pay::countries: NoArgs => CountriesView;
    tax::start_tax_sync: NoArgs => TaxSyncView;
    tax::tax_sync_status: NoArgs => TaxSyncView;
    tax::cancel_tax_sync: NoArgs => TaxSyncView;
    tax::tax_rows: TaxRowsArgs => TaxRowsView;
    tax::tax_facets: NoArgs => TaxFacetsView;
    tax::tax_balances: TaxBalancesArgs => TaxBalancesView;
    tax::year_end_report: NoArgs => YearEndsView;
    tax::set_year_end_rate: YearEndRateArgs => YearEndsView;
    tax::gains_report: GainsArgs => GainsView;
    tax::export_csv: ExportArgs => ExportView;
    unknowns::unknowns: NoArgs => UnknownsView;
    unknowns::settle_unknown: JournalIdArgs => UnknownsView;
}

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

fn decl<T: TS>() -> String {
    format!("export {}\n\n", T::decl(&Default::default()))
}

/// The whole bindings file.
pub fn typescript() -> String {
    let mut out = String::from(
        "// Generated from src-tauri/src/ipc.rs by `cargo test -p nordlys -- --ignored write_bindings`. Do not edit.\n\
         import { invoke } from \"@tauri-apps/api/core\";\n\n",
    );
    for d in [
        decl::<Locale>(),
        decl::<BtcUnit>(),
        decl::<BitcoinAmountUnit>(),
        decl::<ProfileType>(),
        decl::<OrderType>(),
        decl::<Direction>(),
        decl::<OrderOutcome>(),
        decl::<JournalState>(),
        decl::<WithdrawalState>(),
        decl::<MoneyState>(),
        decl::<InvoiceState>(),
        decl::<NetworkStatus>(),
        decl::<DestinationKind>(),
        decl::<SyncState>(),
        decl::<Report>(),
        decl::<Method>(),
        decl::<DisposalKind>(),
        decl::<NoArgs>(),
        decl::<ProfileView>(),
        decl::<Capability>(),
        decl::<ConnectionView>(),
        decl::<GrantView>(),
        decl::<Feature>(),
        decl::<FeatureView>(),
        decl::<AppView>(),
        decl::<AccountView>(),
        decl::<BalancesView>(),
        decl::<SetApiKeyArgs>(),
        decl::<ConnectOauthArgs>(),
        decl::<SetLanguageArgs>(),
        decl::<SetUnitArgs>(),
        decl::<SetRequestTimeoutArgs>(),
        decl::<ExchangeProfileArgs>(),
        decl::<ProfileProblemsView>(),
        decl::<SwitchProfileArgs>(),
        decl::<QuoteArgs>(),
        decl::<QuoteView>(),
        decl::<OrderFormArgs>(),
        decl::<OrderCheckView>(),
        decl::<OrderResultView>(),
        decl::<OpenOrderView>(),
        decl::<OpenOrdersView>(),
        decl::<CancelOrderArgs>(),
        decl::<JournalEntryView>(),
        decl::<JournalView>(),
        decl::<VolumeStatsView>(),
        decl::<VolumeView>(),
        decl::<TradeView>(),
        decl::<TradesView>(),
        decl::<PriceChartArgs>(),
        decl::<ChartView>(),
        decl::<ChartSizeArgs>(),
        decl::<AccountArgs>(),
        decl::<QrView>(),
        decl::<ReceiveView>(),
        decl::<InvoiceArgs>(),
        decl::<InvoiceView>(),
        decl::<InvoicesView>(),
        decl::<InvoiceIdArgs>(),
        decl::<RecipientFormArgs>(),
        decl::<PayArgs>(),
        decl::<RecipientErrorsView>(),
        decl::<SummaryLine>(),
        decl::<PayCheckView>(),
        decl::<PaymentView>(),
        decl::<PaymentsView>(),
        decl::<PaymentResultView>(),
        decl::<RecipientView>(),
        decl::<RecipientsView>(),
        decl::<IdentityArgs>(),
        decl::<CountryView>(),
        decl::<CountriesView>(),
        decl::<TaxFilterArgs>(),
        decl::<TaxRowsArgs>(),
        decl::<TaxRowView>(),
        decl::<TaxRowsView>(),
        decl::<ChoiceView>(),
        decl::<MalformedView>(),
        decl::<TaxFacetsView>(),
        decl::<TaxSyncView>(),
        decl::<TaxBalancesArgs>(),
        decl::<TaxBalanceView>(),
        decl::<TaxBalancesView>(),
        decl::<HoldingView>(),
        decl::<YearEndView>(),
        decl::<YearEndsView>(),
        decl::<YearEndRateArgs>(),
        decl::<GainsArgs>(),
        decl::<LotView>(),
        decl::<DisposalView>(),
        decl::<YearGainsView>(),
        decl::<GainsView>(),
        decl::<ExportArgs>(),
        decl::<ExportView>(),
        decl::<MoneyKind>(),
        decl::<JournalIdArgs>(),
        decl::<EvidenceView>(),
        decl::<UnknownEntryView>(),
        decl::<UnknownsView>(),
        decl::<ErrorCode>(),
        decl::<IpcError>(),
    ] {
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

    #[test]
    fn build_rs_registers_every_command() {
        let build = include_str!("../build.rs");
        let caps = include_str!("../capabilities/main.json");
        for c in COMMANDS {
            assert!(
                build.contains(&format!("\"{c}\"")),
                "{c} missing from build.rs"
            );
            assert!(
                caps.contains(&format!("\"allow-{}\"", c.replace('_', "-"))),
                "{c} missing from the capability"
            );
        }
    }

    #[test]
    #[ignore = "writes ui/src/bindings.ts"]
    fn write_bindings() {
        std::fs::write(BINDINGS, typescript()).unwrap();
    }
}
