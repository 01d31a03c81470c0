//! `store export-key|import-key`: the backup of an app profile's store key. The key is read
//! from standard input, never from the command line, where other users' `ps` would see it.

use std::io::BufRead;

use nordlys_core::store::{StoreKey, profile_store};
use serde_json::json;

use crate::args::StoreCommand;
use crate::environment;
use crate::outcome::{Failure, print};

pub(crate) fn command(command: &StoreCommand) -> Result<(), Failure> {
    let dir = environment::state_dir().map_err(Failure::Usage)?;
    let profile = environment::app_profile_of(&dir).ok_or_else(|| {
        Failure::Usage(format!(
            "{} is not an app profile's directory (…/profiles/<id>): the CLI's own store is not encrypted, so it has no key",
            dir.display()
        ))
    })?;
    let secrets = environment::app_secrets();
    let secrets = &*secrets;
    match command {
        StoreCommand::ExportKey => {
            let key = StoreKey::read(secrets, &profile)
                .map_err(|e| Failure::Refused(format!("the keyring: {e}")))?
                .ok_or_else(|| {
                    Failure::Refused(format!(
                        "the keyring holds no store key for profile {profile}"
                    ))
                })?;
            print(&json!({ "profile": profile, "key": key.to_hex().as_str() }))
        }
        StoreCommand::ImportKey => {
            let mut line = zeroize::Zeroizing::new(String::new());
            std::io::stdin()
                .lock()
                .read_line(&mut line)
                .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
            let key = StoreKey::from_hex(&line).map_err(|_| {
                Failure::Usage("the key is 64 hexadecimal digits on one line".into())
            })?;
            let path = dir.join("nordlys.sqlite");
            profile_store::import_key(secrets, &profile, &path, &key)
                .map_err(|e| Failure::Refused(e.to_string()))?;
            print(&json!({ "profile": profile, "imported": true }))
        }
    }
}
