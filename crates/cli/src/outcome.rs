//! How a command ends: its JSON on stdout, or a failure said on stderr with its exit code.

use std::process::ExitCode;

use nordlys_application::journal::JournalError;
use nordlys_exchange::Error;
use serde::Serialize;

pub(crate) enum Failure {
    Usage(String),
    /// Refused or failed locally, before anything was sent.
    Refused(String),
    Call(Error),
    /// A money request whose outcome is unknown: its journal entry.
    Unknown(i64),
    /// Everything is said already (on stdout and stderr); only the exit code is left.
    Silent(u8),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Self::Call(e)
    }
}

impl From<JournalError> for Failure {
    fn from(e: JournalError) -> Self {
        match e {
            JournalError::Exchange(e) => Self::Call(e),
            other => Self::Refused(other.to_string()),
        }
    }
}

pub(crate) fn print(value: &impl Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string(value).map_err(|e| Failure::Usage(e.to_string()))?;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").map_err(|e| Failure::Usage(format!("cannot write to stdout: {e}")))
}

pub(crate) fn exit_code(outcome: Result<(), Failure>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("nordlys-cli: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            eprintln!("nordlys-cli: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Unknown(journal_id)) => {
            let shown = print(&serde_json::json!({ "journalId": journal_id, "state": "unknown" }));
            if shown.is_err() {
                eprintln!("nordlys-cli: journal entry {journal_id}: outcome unknown");
            }
            ExitCode::from(3)
        }
        Err(Failure::Silent(code)) => ExitCode::from(code),
        Err(Failure::Call(e)) => {
            eprintln!("nordlys-cli: {e}");
            ExitCode::from(if e.is_outcome_unknown() { 3 } else { 1 })
        }
    }
}
