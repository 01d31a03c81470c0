//! The exchange profile form's checks. Each field is checked on its own, so every problem is shown
//! at its field at once; a profile is made only when every field is right, and nothing is saved
//! otherwise.

use nordlys_exchange::models::Scope;
use nordlys_exchange::{BaseUrl, BaseUrlError, Operator};

use crate::platform::settings::ProfileKind;

/// What the user typed.
#[derive(Debug, Clone, Default)]
pub struct ExchangeProfileForm {
    pub base_url: String,
    /// Empty: OAuth is served under `base_url`.
    pub oauth_base_url: String,
    /// Empty: the specification's `svc`.
    pub operator: String,
    /// Empty: none issued yet; the profile connects with an API key only.
    pub client_id: String,
    /// The scopes to ask for; the form starts with every scope of 5.4 ticked.
    pub scopes: Vec<String>,
}

/// Why an address is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressProblem {
    #[error(transparent)]
    Url(#[from] BaseUrlError),
    #[error("give the exchange's address alone, without a path (`{0}`): Nordlys adds the paths")]
    Path(String),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OperatorProblem {
    #[error("the abbreviation must be 1 to 16 lower-case letters or digits, as in `svc`")]
    Malformed,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientIdProblem {
    #[error("a client id has no spaces")]
    Spaces,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopeProblem {
    #[error("tick at least one kind of access")]
    None,
    #[error("`{0}` is not a scope this exchange knows")]
    Unknown(String),
}

/// A message for each field that is wrong; every one `None` when the form is right.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileProblems {
    pub base_url: Option<AddressProblem>,
    pub oauth_base_url: Option<AddressProblem>,
    pub operator: Option<OperatorProblem>,
    pub client_id: Option<ClientIdProblem>,
    pub scopes: Option<ScopeProblem>,
}

impl ProfileProblems {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// The profile the form describes, or what is wrong with it.
pub fn check(form: &ExchangeProfileForm) -> Result<ProfileKind, ProfileProblems> {
    let base_url = address(&form.base_url);
    let oauth_base_url = match form.oauth_base_url.trim() {
        "" => Ok(None),
        text => address(text).map(Some),
    };
    let operator = match form.operator.trim() {
        "" => Ok(Operator::default()),
        text => Operator::parse(text).map_err(|_| OperatorProblem::Malformed),
    };
    let client_id = match form.client_id.trim() {
        id if id.chars().any(char::is_whitespace) => Err(ClientIdProblem::Spaces),
        id => Ok(id.to_owned()),
    };
    let scopes = scopes(&form.scopes);
    match (base_url, oauth_base_url, operator, client_id, scopes) {
        (Ok(base), Ok(oauth), Ok(operator), Ok(client_id), Ok(scopes)) => {
            Ok(ProfileKind::Exchange {
                // The same address twice is no second host.
                oauth_base_url: oauth.filter(|o| *o != base).map(|o| o.to_string()),
                base_url: base.to_string(),
                client_id,
                operator: operator.to_string(),
                scopes,
            })
        }
        (base, oauth, operator, client_id, scopes) => Err(ProfileProblems {
            base_url: base.err(),
            oauth_base_url: oauth.err(),
            operator: operator.err(),
            client_id: client_id.err(),
            scopes: scopes.err(),
        }),
    }
}

fn address(text: &str) -> Result<BaseUrl, AddressProblem> {
    let base = BaseUrl::parse(text)?;
    if !base.path_prefix().is_empty() {
        return Err(AddressProblem::Path(base.path_prefix().to_owned()));
    }
    Ok(base)
}

/// The scopes asked for, in the order of 5.4; empty when all of them are (the default).
fn scopes(given: &[String]) -> Result<Vec<String>, ScopeProblem> {
    if let Some(bad) = given.iter().find(|s| !Scope::from(s.trim()).is_known()) {
        return Err(ScopeProblem::Unknown(bad.clone()));
    }
    let chosen: Vec<String> = Scope::KNOWN
        .iter()
        .filter(|k| given.iter().any(|g| g.trim() == k.as_str()))
        .map(ToString::to_string)
        .collect();
    match chosen.len() {
        0 => Err(ScopeProblem::None),
        n if n == Scope::KNOWN.len() => Ok(Vec::new()),
        _ => Ok(chosen),
    }
}

/// The scopes a profile asks for: those it names, or every scope of 5.4.
pub fn asked_scopes(kind: &ProfileKind) -> Vec<Scope> {
    match kind {
        ProfileKind::Exchange { scopes, .. } if !scopes.is_empty() => {
            scopes.iter().map(|s| Scope::from(s.as_str())).collect()
        }
        _ => Scope::KNOWN.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<String> {
        Scope::KNOWN.iter().map(ToString::to_string).collect()
    }

    fn form() -> ExchangeProfileForm {
        ExchangeProfileForm {
            base_url: "https://api.example.no".into(),
            oauth_base_url: "https://auth.example.no".into(),
            operator: "abc".into(),
            client_id: "nordlys".into(),
            scopes: all(),
        }
    }

    #[test]
    fn a_right_form_makes_a_profile_with_its_own_oauth_host() {
        let kind = check(&form()).unwrap();
        assert_eq!(
            kind,
            ProfileKind::Exchange {
                base_url: "https://api.example.no".into(),
                oauth_base_url: Some("https://auth.example.no".into()),
                client_id: "nordlys".into(),
                operator: "abc".into(),
                scopes: Vec::new(),
            }
        );
        assert_eq!(asked_scopes(&kind), Scope::KNOWN.to_vec());
        // Empty fields take their defaults: OAuth under the API's address, the spec's `svc`.
        let defaults = check(&ExchangeProfileForm {
            oauth_base_url: " ".into(),
            operator: String::new(),
            scopes: vec!["api:accounts:bitcoin:read".into()],
            ..form()
        })
        .unwrap();
        let ProfileKind::Exchange {
            oauth_base_url,
            operator,
            scopes,
            ..
        } = &defaults
        else {
            panic!("not an exchange profile");
        };
        assert_eq!(oauth_base_url, &None);
        assert_eq!(operator, "svc");
        assert_eq!(scopes, &vec!["api:accounts:bitcoin:read".to_owned()]);
        assert_eq!(asked_scopes(&defaults), vec![Scope::AccountsBitcoinRead]);
    }

    #[test]
    fn every_wrong_field_has_its_own_message() {
        let problems = check(&ExchangeProfileForm {
            base_url: "https://api.example.no/v1".into(),
            oauth_base_url: "http://auth.example.no".into(),
            operator: "ABC".into(),
            client_id: "a b".into(),
            scopes: vec!["api:everything".into()],
        })
        .unwrap_err();
        assert_eq!(problems.base_url, Some(AddressProblem::Path("/v1".into())));
        assert!(matches!(
            problems.oauth_base_url,
            Some(AddressProblem::Url(BaseUrlError::InsecureRemote(_)))
        ));
        assert_eq!(problems.operator, Some(OperatorProblem::Malformed));
        assert_eq!(problems.client_id, Some(ClientIdProblem::Spaces));
        assert_eq!(
            problems.scopes,
            Some(ScopeProblem::Unknown("api:everything".into()))
        );
    }

    #[test]
    fn malformed_addresses_abbreviations_ids_and_scopes_are_refused() {
        for bad in [
            "https://user:pw@api.example.no",
            "https://api.example.no?x=1",
            "https://api.example.no#top",
            "ftp://api.example.no",
            "not a url",
            "",
        ] {
            let p = check(&ExchangeProfileForm {
                base_url: bad.into(),
                ..form()
            })
            .unwrap_err();
            assert!(p.base_url.is_some(), "{bad}");
            assert!(p.operator.is_none() && p.client_id.is_none(), "{bad}");
        }
        for bad in [
            "a-b",
            "seventeen-letters",
            "abcdefghijklmnopq",
            "æøå",
            "a b",
        ] {
            let p = check(&ExchangeProfileForm {
                operator: bad.into(),
                ..form()
            })
            .unwrap_err();
            assert_eq!(p.operator, Some(OperatorProblem::Malformed), "{bad}");
        }
        let p = check(&ExchangeProfileForm {
            client_id: "two words".into(),
            scopes: Vec::new(),
            ..form()
        })
        .unwrap_err();
        assert_eq!(p.client_id, Some(ClientIdProblem::Spaces));
        assert_eq!(p.scopes, Some(ScopeProblem::None));
        // No client id: a profile that connects with an API key only.
        let key_only = check(&ExchangeProfileForm {
            client_id: " ".into(),
            ..form()
        })
        .unwrap();
        assert_eq!(key_only.oauth_client_id(), None);
        // Loopback http is fine (the sandbox, tests).
        assert!(
            check(&ExchangeProfileForm {
                base_url: "http://127.0.0.1:9".into(),
                oauth_base_url: "http://[::1]:10/".into(),
                ..form()
            })
            .is_ok()
        );
    }
}
