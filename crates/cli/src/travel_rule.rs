//! The travel-rule recipient of `withdraw`: from a file (`--tfr-from-file`), so that personal
//! data never goes on the command line, where every user of the machine can read it (`ps`); the
//! single `--tfr-*` flags still work, with a warning, except the identity number.

use std::path::Path;

use nordlys_exchange::models::TravelRuleInfo;
use serde::Deserialize;

/// The largest file read: a recipient is a few hundred bytes.
const MOST_BYTES: u64 = 64 * 1024;

/// The recipient's fields as the flags give them.
#[derive(Debug, Default)]
pub struct Flags {
    pub full_name: Option<String>,
    pub address: Option<String>,
    pub country: Option<String>,
    pub nin: Option<String>,
    pub exchange: Option<String>,
    pub self_custody: bool,
}

impl Flags {
    fn any(&self) -> bool {
        self.full_name.is_some()
            || self.address.is_some()
            || self.country.is_some()
            || self.nin.is_some()
            || self.exchange.is_some()
            || self.self_custody
    }
}

/// Why no recipient could be read: each says what to do, and the CLI exits 2.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TfrError {
    #[error(
        "--tfr-nin would put an identity number on the command line, where every user of this machine can read it; put the recipient in a JSON file and give --tfr-from-file FILE"
    )]
    NinOnCommandLine,
    #[error("give the recipient either with --tfr-from-file or with --tfr-* flags, not both")]
    Both,
    #[error("cannot read the recipient file {path}: {why}")]
    Unreadable { path: String, why: String },
    #[error("the recipient file {path} is larger than {MOST_BYTES} bytes")]
    TooLarge { path: String },
    #[error(
        "the recipient file {path} is not a JSON object of fullName, address, country, nin, exchange and selfCustody: {why}"
    )]
    Malformed { path: String, why: String },
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct File {
    #[serde(default)]
    full_name: String,
    #[serde(default)]
    address: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    nin: String,
    #[serde(default)]
    exchange: String,
    #[serde(default)]
    self_custody: bool,
}

/// The recipient to send, if any; `warn` is told when personal data came on the command line.
pub fn recipient(
    file: Option<&Path>,
    flags: Flags,
    warn: impl FnOnce(&str),
) -> Result<Option<TravelRuleInfo>, TfrError> {
    if flags.nin.is_some() {
        return Err(TfrError::NinOnCommandLine);
    }
    match (file, flags.any()) {
        (Some(_), true) => Err(TfrError::Both),
        (Some(path), false) => read(path).map(Some),
        (None, false) => Ok(None),
        (None, true) => {
            if flags.full_name.is_some() || flags.address.is_some() {
                warn(
                    "the recipient's name and address on the command line can be read by every user of this machine; --tfr-from-file FILE keeps them off it",
                );
            }
            Ok(Some(TravelRuleInfo {
                full_name: flags.full_name.unwrap_or_default(),
                address: flags.address.unwrap_or_default(),
                country: flags.country.unwrap_or_default(),
                nin: String::new(),
                exchange: flags.exchange.unwrap_or_default(),
                self_custody: flags.self_custody,
            }))
        }
    }
}

fn read(path: &Path) -> Result<TravelRuleInfo, TfrError> {
    let shown = path.display().to_string();
    let unreadable = |e: std::io::Error| TfrError::Unreadable {
        path: shown.clone(),
        why: e.to_string(),
    };
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size > MOST_BYTES {
        return Err(TfrError::TooLarge { path: shown });
    }
    let text = std::fs::read(path).map_err(unreadable)?;
    let malformed = |why: String| TfrError::Malformed {
        path: shown.clone(),
        why,
    };
    let value: serde_json::Value =
        serde_json::from_slice(&text).map_err(|e| malformed(e.to_string()))?;
    if !value.is_object() {
        return Err(malformed("not an object".into()));
    }
    let f: File = serde_json::from_value(value).map_err(|e| malformed(e.to_string()))?;
    Ok(TravelRuleInfo {
        full_name: f.full_name,
        address: f.address,
        country: f.country,
        nin: f.nin,
        exchange: f.exchange,
        self_custody: f.self_custody,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), text).unwrap();
        f
    }

    #[test]
    fn a_recipient_file_gives_every_field_and_the_identity_number() {
        let f = file(
            r#"{"fullName": "Kari Nordmann", "address": "Bryggen 1", "country": "NO", "nin": "01017012345", "selfCustody": true}"#,
        );
        let got = recipient(Some(f.path()), Flags::default(), |_| panic!("no warning"))
            .unwrap()
            .unwrap();
        assert_eq!(got.full_name, "Kari Nordmann");
        assert_eq!(got.nin, "01017012345");
        assert!(got.self_custody);
    }

    #[test]
    fn bad_files_and_an_identity_number_on_the_command_line_are_refused() {
        let nin = Flags {
            nin: Some("01017012345".into()),
            ..Flags::default()
        };
        assert_eq!(
            recipient(None, nin, |_| {}),
            Err(TfrError::NinOnCommandLine)
        );
        for text in [
            "",
            "[]",
            "{\"fullName\": 3}",
            "{\"name\": \"x\"}",
            "{\"fullName\": \"a\"",
            "\u{0}",
        ] {
            let f = file(text);
            assert!(
                matches!(
                    recipient(Some(f.path()), Flags::default(), |_| {}),
                    Err(TfrError::Malformed { .. })
                ),
                "{text:?}"
            );
        }
        let big = file(&" ".repeat(70_000));
        assert!(matches!(
            recipient(Some(big.path()), Flags::default(), |_| {}),
            Err(TfrError::TooLarge { .. })
        ));
        let missing = Path::new("/no/such/recipient.json");
        assert!(matches!(
            recipient(Some(missing), Flags::default(), |_| {}),
            Err(TfrError::Unreadable { .. })
        ));
        let f = file("{}");
        let name = Flags {
            full_name: Some("Kari".into()),
            ..Flags::default()
        };
        assert_eq!(recipient(Some(f.path()), name, |_| {}), Err(TfrError::Both));
    }

    #[test]
    fn the_single_flags_still_work_with_a_warning() {
        let mut warned = false;
        let got = recipient(
            None,
            Flags {
                full_name: Some("Kari".into()),
                address: Some("Bryggen 1".into()),
                ..Flags::default()
            },
            |_| warned = true,
        )
        .unwrap()
        .unwrap();
        assert!(warned);
        assert_eq!((got.full_name.as_str(), got.nin.as_str()), ("Kari", ""));
        assert_eq!(recipient(None, Flags::default(), |_| {}), Ok(None));
    }
}
