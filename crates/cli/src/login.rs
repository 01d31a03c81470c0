//! `login` and `logout`: secrets into and out of the OS keyring, with no request.

use crate::args::{Cli, Command};
use crate::credentials;
use crate::outcome::{Failure, print};

/// `login` and `logout`: the keyring alone, no request.
pub(crate) fn command(cli: &Cli) -> Option<Result<(), Failure>> {
    use std::io::IsTerminal;
    let keyring = credentials::OsKeyring;
    let done = match cli.command {
        Command::Logout => credentials::logout(&keyring),
        Command::Login { token } => {
            let Some(base) = cli.base_url.as_deref() else {
                return Some(Err(Failure::Usage(
                    "--base-url (or NORDLYS_BASE_URL) is required: secrets are stored for one \
                     exchange"
                        .into(),
                )));
            };
            let kind = if token {
                credentials::LoginKind::Token
            } else {
                credentials::LoginKind::Key
            };
            let terminal = std::io::stdin().is_terminal();
            let mut ask = |prompt: &str, hidden: bool, input: &mut dyn std::io::BufRead| {
                if terminal && hidden {
                    rpassword::prompt_password(prompt)
                        .map(|s| s.trim().to_owned())
                        .map_err(|e| format!("cannot read from the terminal: {e}"))
                } else {
                    if terminal {
                        eprint!("{prompt}");
                    }
                    credentials::read_line(prompt, input)
                }
            };
            let mut stdin = std::io::stdin().lock();
            credentials::login(kind, base, &cli.operator, &keyring, &mut stdin, &mut ask)
        }
        _ => return None,
    };
    Some(done.map_err(Failure::Usage).and_then(|said| print(&said)))
}
