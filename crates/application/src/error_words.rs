//! What the exchange's and the connection's errors mean to the user, as a code the UI acts on
//! and a catalog message. The client's own `Display` text is English and for logs and the CLI;
//! the window shows these. The exchange's own `message` is passed on as it came, framed.

use nordlys_core::connection::ConnectError;
use nordlys_core::platform::loopback::LoopbackError;
use nordlys_core::platform::secrets::SecretError;
use nordlys_core::store::StoreError;
use nordlys_core::store::profile_store::OpenError;
use nordlys_exchange::auth::Refusal;
use nordlys_exchange::credentials::CredentialError;
use nordlys_exchange::endpoint::{KeyPermission, OAuthAccess};
use nordlys_exchange::nonce::NonceError;
use nordlys_exchange::oauth::OAuthError;
use nordlys_exchange::{BaseUrlError, Check, Endpoint, Error};

use crate::error::ErrorCode;
use crate::msg;
use crate::wording::Message;
use crate::wording::{Bare, key};

/// An error that can say, in the user's words, what happened and what to do.
pub trait Worded {
    fn words(&self) -> (ErrorCode, Message);
}

impl Worded for Error {
    fn words(&self) -> (ErrorCode, Message) {
        match self {
            Error::Refused(r) => (ErrorCode::NotPermitted, refused(r)),
            Error::Invalid(detail) => (
                ErrorCode::InvalidInput,
                msg!(ERROR_NOT_SENT {
                    detail: detail.to_string()
                }),
            ),
            Error::Connect { url, .. } => (
                ErrorCode::Network,
                msg!(ERROR_CONNECT { url: url.as_str() }),
            ),
            Error::Transport { .. } => (ErrorCode::Network, Message::new(key::ERROR_TRANSPORT)),
            Error::Timeout { seconds, .. } => (
                ErrorCode::Timeout,
                msg!(ERROR_TIMEOUT {
                    seconds: seconds.to_string()
                }),
            ),
            Error::OutcomeUnknown { check, .. } => (
                ErrorCode::OutcomeUnknown,
                msg!(ERROR_OUTCOME_UNKNOWN {
                    check: match check {
                        Check::OpenOrders => "orders",
                        Check::Withdrawals => "withdrawals",
                    }
                }),
            ),
            Error::Http { status, .. } => {
                let said = self.server_message().unwrap_or_default();
                let code = status.to_string();
                match status {
                    401 => (
                        ErrorCode::Unauthenticated,
                        msg!(ERROR_UNAUTHENTICATED { message: said }),
                    ),
                    403 => (
                        ErrorCode::NotPermitted,
                        msg!(ERROR_FORBIDDEN { message: said }),
                    ),
                    s if *s < 500 => (
                        ErrorCode::InvalidInput,
                        msg!(ERROR_REJECTED {
                            status: code,
                            message: said
                        }),
                    ),
                    _ => (
                        ErrorCode::Server,
                        msg!(ERROR_SERVER {
                            status: code,
                            message: said
                        }),
                    ),
                }
            }
            Error::RateLimited { retry_after, .. } => (
                ErrorCode::RateLimited,
                match retry_after {
                    Some(d) => msg!(ERROR_RATE_LIMITED {
                        seconds: d.as_secs().max(1).to_string()
                    }),
                    None => Message::new(key::ERROR_RATE_LIMITED_LATER),
                },
            ),
            Error::StaleNonce { .. } => (
                ErrorCode::NonceShared,
                Message::new(key::ERROR_NONCE_SHARED),
            ),
            Error::Decode { field, .. } => (
                ErrorCode::Server,
                msg!(ERROR_UNREADABLE {
                    field: field.as_str()
                }),
            ),
            Error::Nonce(e) => (ErrorCode::Internal, nonce(e)),
            Error::Credential(e) => (ErrorCode::InvalidInput, credential(e)),
            Error::BaseUrl(e) => (ErrorCode::InvalidInput, base_url(e)),
            Error::OAuth(e) => (ErrorCode::Server, oauth(e)),
            // An error a later client adds: its English text, framed.
            other => (
                ErrorCode::Server,
                msg!(ERROR_OTHER {
                    detail: other.to_string()
                }),
            ),
        }
    }
}

/// The keyring: locked, or holding something damaged, is the user's to mend.
impl Worded for SecretError {
    fn words(&self) -> (ErrorCode, Message) {
        match self {
            SecretError::Unavailable(_) => {
                (ErrorCode::Keyring, Message::new(key::SECRET_KEYRING_LOCKED))
            }
            SecretError::Damaged(_) => (ErrorCode::Keyring, Message::new(key::SECRET_DAMAGED)),
            other => (
                ErrorCode::Keyring,
                msg!(ERROR_OTHER {
                    detail: other.to_string()
                }),
            ),
        }
    }
}

/// A profile's store that did not open: what to restore, never a new empty store.
impl Worded for OpenError {
    fn words(&self) -> (ErrorCode, Message) {
        let path = |p: &std::path::Path| p.display().to_string();
        match self {
            OpenError::KeyMissing(p) => (
                ErrorCode::StoreKey,
                msg!(STORE_KEY_MISSING { path: path(p) }),
            ),
            OpenError::WrongKey(p) => {
                (ErrorCode::StoreKey, msg!(STORE_KEY_WRONG { path: path(p) }))
            }
            OpenError::KeyDamaged => (ErrorCode::StoreKey, Message::new(key::STORE_KEY_DAMAGED)),
            OpenError::KeySealed => (ErrorCode::Locked, Message::new(key::STORE_KEY_SEALED)),
            OpenError::KeyNotKept => (ErrorCode::Keyring, Message::new(key::STORE_KEY_NOT_KEPT)),
            OpenError::Keyring(e) => e.words(),
            OpenError::Store(StoreError::InUse) => {
                (ErrorCode::Internal, Message::new(key::STORE_IN_USE))
            }
            OpenError::Store(e) => (
                ErrorCode::Fault,
                msg!(ERROR_OTHER {
                    detail: e.to_string()
                }),
            ),
        }
    }
}

impl Worded for ConnectError {
    fn words(&self) -> (ErrorCode, Message) {
        match self {
            ConnectError::Exchange(e) => e.words(),
            ConnectError::Secret(e) => e.words(),
            ConnectError::Credential(e) => (ErrorCode::InvalidInput, credential(e)),
            ConnectError::KeyRejected(e) => {
                let reason = match e.server_message() {
                    Some(said) => msg!(ERROR_SAID { message: said }),
                    None => e.words().1,
                };
                (
                    ErrorCode::InvalidInput,
                    msg!(ERROR_KEY_REJECTED { reason: reason }),
                )
            }
            ConnectError::Browser(_) => (ErrorCode::Browser, Message::new(key::ERROR_BROWSER)),
            ConnectError::Reconnect => (ErrorCode::Reconnect, Message::new(key::ERROR_RECONNECT)),
            ConnectError::Loopback(e) => loopback(e),
            ConnectError::OAuth(e) => (ErrorCode::Unauthenticated, oauth(e)),
            other => (
                ErrorCode::Internal,
                msg!(ERROR_OTHER {
                    detail: other.to_string()
                }),
            ),
        }
    }
}

/// "Placing orders needs …": what was refused, then why.
fn refused(refusal: &Refusal) -> Message {
    let Some(endpoint) = refused_endpoint(refusal) else {
        return msg!(ERROR_OTHER {
            detail: refusal.to_string()
        });
    };
    msg!(ERROR_REFUSED {
        action: Message::new(action(endpoint)),
        reason: refusal_reason(refusal)
    })
}

fn refused_endpoint(refusal: &Refusal) -> Option<Endpoint> {
    match refusal {
        Refusal::NeedsSignedKey { endpoint, .. }
        | Refusal::KeyLacksPermission { endpoint, .. }
        | Refusal::NeedsSecret { endpoint }
        | Refusal::NeedsKey { endpoint }
        | Refusal::MissingScope { endpoint, .. }
        | Refusal::NoCredentials { endpoint, .. }
        | Refusal::TokenExpired { endpoint, .. } => Some(*endpoint),
        _ => None,
    }
}

/// Why the credentials cannot do it, as the rest of a sentence whose subject is the action.
pub(crate) fn refusal_reason(refusal: &Refusal) -> Message {
    match refusal {
        Refusal::NeedsSignedKey { permission, .. } => {
            msg!(REFUSAL_OAUTH_CANNOT {
                permission: permission_name(*permission)
            })
        }
        Refusal::KeyLacksPermission { permission, .. } => {
            msg!(REFUSAL_KEY_LACKS {
                permission: permission_name(*permission)
            })
        }
        Refusal::NeedsSecret { .. } => Message::new(key::REFUSAL_NEEDS_SECRET),
        Refusal::NeedsKey { .. } => Message::new(key::REFUSAL_NEEDS_KEY),
        Refusal::NoCredentials { accepts, .. } => msg!(REFUSAL_NO_CREDENTIALS {
            oauth: match accepts {
                OAuthAccess::NotAccepted => "no",
                _ => "yes",
            }
        }),
        Refusal::MissingScope { scope, .. } => {
            msg!(REFUSAL_MISSING_SCOPE {
                scope: scope.as_str()
            })
        }
        Refusal::TokenExpired { .. } => Message::new(key::REFUSAL_TOKEN_EXPIRED),
        // A refusal a later client adds.
        _ => Message::new(key::REFUSAL_OTHER),
    }
}

pub(crate) fn permission_name(permission: KeyPermission) -> Message {
    Message::new(match permission {
        KeyPermission::Trading => key::PERMISSION_TRADING,
        KeyPermission::BitcoinWithdrawal => key::PERMISSION_WITHDRAWAL,
        KeyPermission::Receive => key::PERMISSION_RECEIVE,
    })
}

/// What a request does, as the subject of a sentence.
fn action(endpoint: Endpoint) -> Bare {
    match endpoint {
        Endpoint::DepositDestinations => key::ACTION_DEPOSIT_DESTINATIONS,
        Endpoint::CreateInvoice => key::ACTION_CREATE_INVOICE,
        Endpoint::GetInvoice => key::ACTION_GET_INVOICE,
        Endpoint::ListOrders => key::ACTION_LIST_ORDERS,
        Endpoint::CreateOrder => key::ACTION_CREATE_ORDER,
        Endpoint::CancelOrder => key::ACTION_CANCEL_ORDER,
        Endpoint::Price => key::ACTION_PRICE,
        Endpoint::Volume => key::ACTION_VOLUME,
        Endpoint::VolumeHistoric => key::ACTION_VOLUME_HISTORIC,
        Endpoint::BitcoinAccounts => key::ACTION_BITCOIN_ACCOUNTS,
        Endpoint::FiatAccount => key::ACTION_FIAT_ACCOUNT,
        Endpoint::RevokeConsent => key::ACTION_REVOKE_CONSENT,
        Endpoint::TaxBalance => key::ACTION_TAX_BALANCE,
        Endpoint::TaxTransactions => key::ACTION_TAX_TRANSACTIONS,
        Endpoint::CreateWithdrawal => key::ACTION_CREATE_WITHDRAWAL,
        Endpoint::GetWithdrawal => key::ACTION_GET_WITHDRAWAL,
    }
}

fn nonce(e: &NonceError) -> Message {
    match e {
        NonceError::Io { path, .. } => {
            msg!(ERROR_NONCE_FILE {
                path: path.display().to_string()
            })
        }
        NonceError::Corrupt { path, .. } => {
            msg!(ERROR_NONCE_DAMAGED {
                path: path.display().to_string()
            })
        }
        NonceError::Exhausted => Message::new(key::ERROR_NONCE_EXHAUSTED),
        other => msg!(ERROR_OTHER {
            detail: other.to_string()
        }),
    }
}

fn credential(e: &CredentialError) -> Message {
    match e {
        CredentialError::KeyPrefix(prefix) => {
            msg!(ERROR_KEY_PREFIX {
                prefix: prefix.as_str()
            })
        }
        CredentialError::KeyEmpty(prefix) => {
            msg!(ERROR_KEY_EMPTY {
                prefix: prefix.as_str()
            })
        }
        CredentialError::KeyCharacters => Message::new(key::ERROR_KEY_CHARACTERS),
        CredentialError::SecretPrefix(prefix) => {
            msg!(ERROR_SECRET_PREFIX {
                prefix: prefix.as_str()
            })
        }
        CredentialError::SecretBase64(_) => Message::new(key::ERROR_SECRET_BASE64),
        CredentialError::TokenMalformed => Message::new(key::ERROR_TOKEN_MALFORMED),
        other => msg!(ERROR_OTHER {
            detail: other.to_string()
        }),
    }
}

fn base_url(e: &BaseUrlError) -> Message {
    match e {
        BaseUrlError::Malformed(url) => {
            msg!(ERROR_URL_MALFORMED { url: url.as_str() })
        }
        BaseUrlError::Scheme(url) => msg!(ERROR_URL_SCHEME { url: url.as_str() }),
        BaseUrlError::InsecureRemote(url) => {
            msg!(ERROR_URL_INSECURE { url: url.as_str() })
        }
        BaseUrlError::ExtraParts => Message::new(key::ERROR_URL_EXTRA),
        other => msg!(ERROR_OTHER {
            detail: other.to_string()
        }),
    }
}

fn oauth(e: &OAuthError) -> Message {
    match e {
        OAuthError::Rejected { error, description } => msg!(ERROR_OAUTH_REJECTED {
            description: description.as_deref().unwrap_or(error)
        }),
        OAuthError::Transport(_) => Message::new(key::ERROR_OAUTH_TRANSPORT),
        OAuthError::Malformed(_) => Message::new(key::ERROR_OAUTH_MALFORMED),
        OAuthError::Config(detail) => {
            msg!(ERROR_OAUTH_CONFIG {
                detail: detail.as_str()
            })
        }
        other => msg!(ERROR_OTHER {
            detail: other.to_string()
        }),
    }
}

fn loopback(e: &LoopbackError) -> (ErrorCode, Message) {
    match e {
        LoopbackError::Listen(_) => (
            ErrorCode::Unauthenticated,
            Message::new(key::ERROR_SIGN_IN_LISTEN),
        ),
        LoopbackError::Timeout(seconds) => (
            ErrorCode::Timeout,
            msg!(ERROR_SIGN_IN_TIMEOUT {
                seconds: seconds.to_string()
            }),
        ),
        LoopbackError::Denied => (ErrorCode::Declined, Message::new(key::ERROR_SIGN_IN_DENIED)),
        LoopbackError::Refused(reason) => (
            ErrorCode::Unauthenticated,
            msg!(ERROR_SIGN_IN_REFUSED {
                reason: reason.as_str()
            }),
        ),
        LoopbackError::InvalidScope(reason) => (
            ErrorCode::ScopeRefused,
            msg!(ERROR_SIGN_IN_SCOPE {
                reason: reason.as_str()
            }),
        ),
        LoopbackError::StateMismatch => (
            ErrorCode::Unauthenticated,
            Message::new(key::ERROR_SIGN_IN_MISMATCH),
        ),
        LoopbackError::MissingCode => (
            ErrorCode::Unauthenticated,
            Message::new(key::ERROR_SIGN_IN_NO_CODE),
        ),
        other => (
            ErrorCode::Unauthenticated,
            msg!(ERROR_OTHER {
                detail: other.to_string()
            }),
        ),
    }
}

#[cfg(test)]
mod tests {
    use nordlys_exchange::InvalidRequest;
    use nordlys_exchange::models::Scope;

    use super::*;
    use crate::error::{AppError, IpcError};
    use nordlys_core::format::Locale;

    /// The error as the window gets it in `locale`.
    fn worded(e: &impl Worded, locale: Locale) -> IpcError {
        let (code, message) = e.words();
        AppError::new(code, message).present(&crate::present::Viewer::plain(locale))
    }

    fn exchange_errors() -> Vec<Error> {
        let endpoint = || "POST /orders".to_owned();
        let http = |status: u16| Error::Http {
            endpoint: endpoint(),
            status,
            api: None,
            body: String::new(),
            message: "insufficient funds".into(),
        };
        let order = Endpoint::CreateOrder;
        let refusals = [
            Refusal::NeedsSignedKey {
                endpoint: order,
                permission: KeyPermission::Trading,
            },
            Refusal::KeyLacksPermission {
                endpoint: Endpoint::CreateWithdrawal,
                permission: KeyPermission::BitcoinWithdrawal,
            },
            Refusal::NeedsSecret { endpoint: order },
            Refusal::NeedsKey {
                endpoint: Endpoint::ListOrders,
            },
            Refusal::MissingScope {
                endpoint: Endpoint::TaxTransactions,
                scope: Scope::TaxTransactionsRead,
            },
            Refusal::NoCredentials {
                endpoint: Endpoint::BitcoinAccounts,
                accepts: OAuthAccess::Scope(Scope::AccountsBitcoinRead),
            },
            Refusal::NoCredentials {
                endpoint: Endpoint::FiatAccount,
                accepts: OAuthAccess::NotAccepted,
            },
            Refusal::TokenExpired {
                endpoint: Endpoint::GetInvoice,
                at: "2026-11-24T10:00:00Z".into(),
            },
        ];
        let mut errors: Vec<Error> = refusals.into_iter().map(Error::Refused).collect();
        errors.extend([
            Error::Invalid(InvalidRequest::Empty("destination")),
            Error::Connect {
                endpoint: endpoint(),
                url: "https://api.example.no".into(),
                detail: "connection refused".into(),
            },
            Error::Transport {
                endpoint: endpoint(),
                detail: "reset".into(),
            },
            Error::Timeout {
                endpoint: endpoint(),
                seconds: 20,
            },
            Error::OutcomeUnknown {
                endpoint: endpoint(),
                reason: "no answer".into(),
                check: Check::OpenOrders,
            },
            Error::OutcomeUnknown {
                endpoint: endpoint(),
                reason: "no answer".into(),
                check: Check::Withdrawals,
            },
            http(401),
            http(403),
            Error::RateLimited {
                endpoint: endpoint(),
                retry_after: Some(std::time::Duration::from_secs(7)),
            },
            Error::RateLimited {
                endpoint: endpoint(),
                retry_after: None,
            },
            Error::Refused(Refusal::KeyLacksPermission {
                endpoint: Endpoint::CreateInvoice,
                permission: KeyPermission::Receive,
            }),
            Error::StaleNonce {
                endpoint: endpoint(),
                message: "nonce 5 is not greater than the last accepted nonce 9".into(),
            },
            http(400),
            http(503),
            Error::Decode {
                endpoint: endpoint(),
                field: "price".into(),
                reason: "not a number".into(),
            },
            Error::Nonce(NonceError::Io {
                path: "/tmp/nonce".into(),
                source: std::io::Error::other("denied"),
            }),
            Error::Nonce(NonceError::Corrupt {
                path: "/tmp/nonce".into(),
                content: "x".into(),
            }),
            Error::Nonce(NonceError::Exhausted),
            Error::OAuth(OAuthError::Rejected {
                error: "invalid_grant".into(),
                description: Some("the grant was revoked".into()),
            }),
            Error::OAuth(OAuthError::Transport("reset".into())),
            Error::OAuth(OAuthError::Malformed("eof".into())),
            Error::OAuth(OAuthError::Config("no client id".into())),
        ]);
        errors.extend(
            [
                CredentialError::KeyPrefix("svc/public/".into()),
                CredentialError::KeyEmpty("svc/public/".into()),
                CredentialError::KeyCharacters,
                CredentialError::SecretPrefix("svc/secret/".into()),
                CredentialError::SecretBase64("bad padding".into()),
                CredentialError::TokenMalformed,
            ]
            .map(Error::Credential),
        );
        errors.extend(
            [
                BaseUrlError::Malformed("api".into()),
                BaseUrlError::Scheme("ftp://api".into()),
                BaseUrlError::InsecureRemote("http://api.example.no".into()),
                BaseUrlError::ExtraParts,
            ]
            .map(Error::BaseUrl),
        );
        errors
    }

    #[test]
    fn a_rate_limit_is_its_own_code_and_says_when_to_try_again() {
        let e = Error::RateLimited {
            endpoint: "GET /v1/price/nok".into(),
            retry_after: Some(std::time::Duration::from_secs(7)),
        };
        let (code, m) = e.words();
        assert_eq!(code, ErrorCode::RateLimited);
        assert!(m.render(Locale::En).contains("7 s"));
        assert!(m.render(Locale::Nb).contains("7 s"));
    }

    #[test]
    fn a_key_without_receive_is_named_in_both_languages() {
        let e = Error::Refused(Refusal::KeyLacksPermission {
            endpoint: Endpoint::CreateInvoice,
            permission: KeyPermission::Receive,
        });
        let (code, m) = e.words();
        assert_eq!(code, ErrorCode::NotPermitted);
        assert!(
            m.render(Locale::En).contains("Receive"),
            "{}",
            m.render(Locale::En)
        );
        assert!(
            m.render(Locale::Nb).contains("Motta"),
            "{}",
            m.render(Locale::Nb)
        );
    }

    fn connect_errors() -> Vec<ConnectError> {
        let mut errors = vec![
            ConnectError::Secret(SecretError::Unavailable("locked".into())),
            ConnectError::Secret(SecretError::Damaged("bad json".into())),
            ConnectError::Browser("xdg-open failed".into()),
            ConnectError::KeyRejected(Error::Http {
                endpoint: "GET /fiat".into(),
                status: 401,
                api: None,
                body: String::new(),
                message: "unknown key".into(),
            }),
            ConnectError::KeyRejected(Error::Timeout {
                endpoint: "GET /fiat".into(),
                seconds: 20,
            }),
            ConnectError::Reconnect,
            ConnectError::OAuth(OAuthError::Transport("reset".into())),
        ];
        errors.extend(
            [
                LoopbackError::Listen("in use".into()),
                LoopbackError::Timeout(300),
                LoopbackError::Denied,
                LoopbackError::Refused("server_error".into()),
                LoopbackError::InvalidScope("tax:read".into()),
                LoopbackError::StateMismatch,
                LoopbackError::MissingCode,
            ]
            .map(ConnectError::Loopback),
        );
        errors
    }

    fn rendered() -> Vec<(String, String, String)> {
        let both = |what: String, (_, m): (ErrorCode, Message)| {
            (what, m.render(Locale::En), m.render(Locale::Nb))
        };
        let exchange = exchange_errors()
            .into_iter()
            .map(|e| both(format!("{e:?}"), e.words()));
        let connect = connect_errors()
            .into_iter()
            .map(|e| both(format!("{e:?}"), e.words()));
        exchange.chain(connect).collect()
    }

    #[test]
    fn every_error_of_the_exchange_and_of_connecting_reads_in_both_languages() {
        for (what, en, nb) in rendered() {
            for text in [&en, &nb] {
                // A missing message shows as its key, and a missing value in braces.
                assert!(
                    text.contains(' ') && !text.contains('{') && !text.contains("error-"),
                    "{what}: {text}"
                );
            }
            assert_ne!(en, nb, "{what} reads the same in both");
            // English text of the client would show through as its own words.
            for english in ["not sent:", "outcome unknown", "needs credentials"] {
                assert!(!nb.contains(english), "{what}: {nb}");
            }
        }
    }

    #[test]
    fn a_refusal_names_what_was_refused_and_why() {
        let e = Error::Refused(Refusal::NeedsSignedKey {
            endpoint: Endpoint::CreateOrder,
            permission: KeyPermission::Trading,
        });
        let said = |l| worded(&e, l);
        assert_eq!(said(Locale::En).code, ErrorCode::NotPermitted);
        assert_eq!(
            said(Locale::En).message,
            "Placing orders needs an API key with the trading permission; OAuth access cannot do it."
        );
        assert_eq!(
            said(Locale::Nb).message,
            "Å legge inn ordrer krever en API-nøkkel med tillatelsen handel; OAuth-tilgang kan ikke brukes."
        );
    }

    #[test]
    fn the_exchanges_own_words_are_passed_on_framed() {
        let e = Error::Http {
            endpoint: "POST /orders".into(),
            status: 400,
            api: None,
            body: String::new(),
            message: "insufficient funds".into(),
        };
        let nb = worded(&e, Locale::Nb);
        assert_eq!(nb.code, ErrorCode::InvalidInput);
        assert_eq!(
            nb.message,
            "Børsen avviste forespørselen (HTTP 400): insufficient funds"
        );
        let lost = worded(
            &Error::Timeout {
                endpoint: "GET /price".into(),
                seconds: 20,
            },
            Locale::Nb,
        );
        assert_eq!(
            (lost.code, lost.message.as_str()),
            (
                ErrorCode::Timeout,
                "Børsen svarte ikke innen 20 s. Prøv igjen."
            )
        );
    }

    #[test]
    fn a_lost_sign_in_and_a_locked_keyring_keep_the_codes_the_window_acts_on() {
        let code = |e: ConnectError| e.words().0;
        assert_eq!(
            code(ConnectError::Loopback(LoopbackError::Denied)),
            ErrorCode::Declined
        );
        assert_eq!(
            code(ConnectError::Loopback(LoopbackError::InvalidScope(
                "x".into()
            ))),
            ErrorCode::ScopeRefused
        );
        assert_eq!(
            code(ConnectError::Loopback(LoopbackError::Timeout(300))),
            ErrorCode::Timeout
        );
        assert_eq!(code(ConnectError::Reconnect), ErrorCode::Reconnect);
        assert_eq!(
            code(ConnectError::Secret(SecretError::Unavailable(
                "locked".into()
            ))),
            ErrorCode::Keyring
        );
    }
}
