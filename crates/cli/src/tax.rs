//! `tax sync` and `tax card`: the app's sync into the state directory's store, and the tax
//! return's card from it.

use nordlys_exchange::ExchangeClient;
use nordlys_money::NokPerBtc;

use crate::args::{CardArgs, MethodArg};
use crate::outcome::{Failure, print};
use crate::setup::{store, store_for, stored};

/// `tax sync`: the app's sync, into the state directory's store.
pub(crate) async fn sync(client: &ExchangeClient) -> Result<(), Failure> {
    use nordlys_core::tax::sync::{SyncCancel, SyncError, SyncProgress, sync};
    let store = std::sync::Arc::new(store_for(client).await?);
    nordlys_application::tax::learn_accounts(client, &store).await;
    let mut p = SyncProgress::default();
    let ended = sync(client, store, &SyncCancel::default(), |now| p = *now).await;
    match ended {
        Ok(_) => print(&serde_json::json!({
            "requests": p.requests,
            "received": p.received,
            "stored": p.stored,
            "updated": p.updated,
            "malformed": p.malformed,
        })),
        Err(SyncError::Exchange { source, .. }) => Err(Failure::Call(source)),
        Err(e) => Err(Failure::Refused(e.to_string())),
    }
}

/// `tax card`: the tax return's card from the stored history.
pub(crate) fn card(args: &CardArgs, base_url: Option<&str>) -> Result<(), Failure> {
    use nordlys_application::tax_card::{CardOrder, make};
    use nordlys_core::tax::card::CardError;
    use nordlys_core::tax::gains::Method;
    let store = store()?;
    let order = CardOrder {
        year: Some(args.year),
        method: match args.method {
            MethodArg::Fifo => Method::Fifo,
            MethodArg::Average => Method::AverageCost,
        },
        per_account: args.per_account,
        rate: args.year_end_rate.map(NokPerBtc::computed),
    };
    let made = make(&store, order, chrono::Utc::now()).map_err(|e| match e {
        CardError::Store(e) => stored(e),
        other => Failure::Refused(other.to_string()),
    })?;
    let exchange = args
        .exchange_name
        .clone()
        .or_else(|| {
            base_url
                .and_then(|b| url::Url::parse(b).ok())
                .and_then(|u| u.host_str().map(str::to_owned))
        })
        .unwrap_or_else(|| "the exchange".to_owned());
    let words = nordlys_application::tax_card::Words {
        locale: nordlys_core::format::Locale::En,
        zone: nordlys_core::time::OSLO,
    };
    if args.xml {
        use std::io::Write;
        // What the XML leaves out is said, so it is never taken for the whole return.
        for n in &made.not_computable {
            let (why, fix) = nordlys_application::tax_card::refusal(&n.why, made.year, words);
            eprintln!(
                "nordlys-cli: warning: {} of {} is not computable and left out of the XML: {why}; {fix}",
                n.field.schema_name(),
                n.entry
            );
        }
        let xml = nordlys_application::tax_card::card_xml(&made, &exchange);
        return write!(std::io::stdout().lock(), "{xml}")
            .map_err(|e| Failure::Usage(format!("cannot write to stdout: {e}")));
    }
    print(&nordlys_application::tax_card::card_json(
        &made, &exchange, words,
    ))
}
