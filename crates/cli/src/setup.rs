//! What a command works with: the state directory's store, a client for the exchange, and
//! the runtime.

use nordlys_core::store::{Store, StoreError};
use nordlys_exchange::{BaseUrl, ClientConfig, Credentials, ExchangeClient};

use crate::args::Cli;
use crate::outcome::Failure;
use crate::{credentials, journal};

pub(crate) fn store() -> Result<Store, Failure> {
    journal::open_store().map_err(Failure::Refused)
}

/// The state directory's store, for a command that sends or judges through `client`: refused
/// when its journal is another exchange's (a profile's directory with the CLI logged in
/// elsewhere), whose records this exchange could neither judge nor be judged by.
pub(crate) async fn store_for(client: &ExchangeClient) -> Result<Store, Failure> {
    let store = store()?;
    let here = nordlys_core::account_identity::origin_here(client, &store)
        .await
        .map_err(stored)?;
    if let Some(there) =
        nordlys_core::account_identity::kept_elsewhere(&store, &here).map_err(stored)?
    {
        return Err(Failure::Refused(format!(
            "this state directory keeps the journal of the exchange at {there}, for other accounts than these credentials see at {}; use that exchange's state directory (NORDLYS_STATE_DIR)",
            here.base_url
        )));
    }
    Ok(store)
}

pub(crate) fn stored(e: StoreError) -> Failure {
    Failure::Refused(format!("the journal: {e}"))
}

/// A client for `--base-url` with `creds`.
pub(crate) fn client(cli: &Cli, creds: Credentials) -> Result<ExchangeClient, Failure> {
    let base = cli
        .base_url
        .as_deref()
        .ok_or_else(|| Failure::Usage("--base-url (or NORDLYS_BASE_URL) is required".into()))?;
    let base = BaseUrl::parse(base).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut config = ClientConfig::new(base);
    config.operator = cli.operator.clone();
    config.timeout = std::time::Duration::from_secs(cli.timeout);
    config.connect_timeout = config.connect_timeout.min(config.timeout);
    config.nonces = credentials::nonce_source(&creds).map_err(Failure::Usage)?;
    config.credentials = creds;
    Ok(ExchangeClient::new(config)?)
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start: {e}")))
}
