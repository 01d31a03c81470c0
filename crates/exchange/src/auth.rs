//! Which credential a call uses, decided before any byte is sent (section 4, 5.4).
//!
//! Exactly one method per request. With both a key and a token, the token is used where the
//! endpoint accepts it (and it is not known to lack the scope or to have expired), the key
//! otherwise.

use chrono::{DateTime, Utc};

use crate::credentials::{BearerCredentials, Credentials, KeyCredentials};
use crate::endpoint::{Access, Endpoint, KeyPermission, OAuthAccess};
use crate::models::Scope;

/// How one request is authenticated.
#[derive(Debug)]
pub enum AuthChoice<'a> {
    None,
    Key(&'a KeyCredentials),
    Signed(&'a KeyCredentials),
    Bearer(&'a BearerCredentials),
}

/// Why the client refuses a call locally. Each says what would make the call possible.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    #[error("{} needs an API key with {}; OAuth tokens cannot do this", endpoint.action(), permission.describe())]
    NeedsSignedKey {
        endpoint: Endpoint,
        permission: KeyPermission,
    },
    #[error("{} needs the API secret to sign the request; only the key is configured", endpoint.action())]
    NeedsSecret { endpoint: Endpoint },
    #[error("{} needs an API key with {}; this key does not have it", endpoint.action(), permission.describe())]
    KeyLacksPermission {
        endpoint: Endpoint,
        permission: KeyPermission,
    },
    #[error("{} needs an API key; OAuth tokens are not accepted for it", endpoint.action())]
    NeedsKey { endpoint: Endpoint },
    #[error(
        "{} needs an API key or an OAuth token with scope `{scope}`; the token was not granted it",
        endpoint.action()
    )]
    MissingScope { endpoint: Endpoint, scope: Scope },
    /// No credentials at all that this endpoint accepts.
    #[error("{} needs credentials: {}", endpoint.action(), accepts.describe())]
    NoCredentials {
        endpoint: Endpoint,
        accepts: OAuthAccess,
    },
    #[error(
        "the OAuth access token expired at {at}; {} needs a fresh token (refresh or reconnect)",
        endpoint.action()
    )]
    TokenExpired { endpoint: Endpoint, at: String },
}

pub fn choose(
    endpoint: Endpoint,
    creds: &Credentials,
    now: DateTime<Utc>,
) -> Result<AuthChoice<'_>, Refusal> {
    match endpoint.access() {
        Access::Public => Ok(AuthChoice::None),
        Access::Signed(permission) => signed(endpoint, permission, creds),
        Access::Key { oauth } => {
            if let Some(bearer) = &creds.bearer {
                let usable = match &oauth {
                    OAuthAccess::NotAccepted => false,
                    OAuthAccess::AnyToken => true,
                    OAuthAccess::Scope(scope) => bearer.may_have(scope),
                };
                if usable && !bearer.is_expired(now) {
                    return Ok(AuthChoice::Bearer(bearer));
                }
            }
            if let Some(key) = &creds.key {
                return Ok(AuthChoice::Key(key));
            }
            Err(match (&creds.bearer, &oauth) {
                (None, accepts) => Refusal::NoCredentials {
                    endpoint,
                    accepts: accepts.clone(),
                },
                (Some(_), OAuthAccess::NotAccepted) => Refusal::NeedsKey { endpoint },
                (Some(b), OAuthAccess::Scope(s)) if b.may_have(s) => expired(endpoint, b),
                (Some(_), OAuthAccess::Scope(s)) => Refusal::MissingScope {
                    endpoint,
                    scope: s.clone(),
                },
                (Some(b), OAuthAccess::AnyToken) => expired(endpoint, b),
            })
        }
    }
}

fn expired(endpoint: Endpoint, bearer: &BearerCredentials) -> Refusal {
    Refusal::TokenExpired {
        endpoint,
        at: bearer
            .expires_at
            .map(|t| crate::wire::format_time(&t))
            .unwrap_or_default(),
    }
}

fn signed<'a>(
    endpoint: Endpoint,
    permission: KeyPermission,
    creds: &'a Credentials,
) -> Result<AuthChoice<'a>, Refusal> {
    let Some(key) = &creds.key else {
        return Err(Refusal::NeedsSignedKey {
            endpoint,
            permission,
        });
    };
    if key.secret.is_none() {
        return Err(Refusal::NeedsSecret { endpoint });
    }
    if let Some(p) = key.permissions {
        let has = match permission {
            KeyPermission::Trading => p.trading,
            KeyPermission::BitcoinWithdrawal => p.bitcoin_withdrawal,
            // Never a signed request's permission; what use shows is kept by the client.
            KeyPermission::Receive => true,
        };
        if !has {
            return Err(Refusal::KeyLacksPermission {
                endpoint,
                permission,
            });
        }
    }
    Ok(AuthChoice::Signed(key))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::credentials::{AccessToken, ApiKey, ApiSecret, KeyPermissions};
    use crate::models::Scope;

    fn key(secret: bool, permissions: Option<KeyPermissions>) -> KeyCredentials {
        KeyCredentials {
            key: ApiKey::parse("svc/public/k1", &crate::Operator::default()).unwrap(),
            secret: secret.then(|| {
                ApiSecret::parse(
                    &crate::credentials::example_secret(),
                    &crate::Operator::default(),
                )
                .unwrap()
            }),
            permissions,
        }
    }

    fn bearer(scopes: Option<&[Scope]>, expires_at: Option<DateTime<Utc>>) -> BearerCredentials {
        BearerCredentials {
            token: AccessToken::parse("t").unwrap(),
            scopes: scopes.map(|s| s.iter().cloned().collect::<BTreeSet<_>>()),
            refused: BTreeSet::new(),
            expires_at,
        }
    }

    fn now() -> DateTime<Utc> {
        Utc::now()
    }

    #[test]
    fn public_endpoints_send_no_credentials() {
        let creds = Credentials {
            key: Some(key(true, None)),
            bearer: Some(bearer(None, None)),
        };
        for e in [Endpoint::Price, Endpoint::Volume, Endpoint::VolumeHistoric] {
            assert!(matches!(choose(e, &creds, now()), Ok(AuthChoice::None)));
        }
    }

    #[test]
    fn oauth_tokens_cannot_trade_or_withdraw() {
        let creds = Credentials {
            key: None,
            bearer: Some(bearer(None, None)),
        };
        let err = choose(Endpoint::CreateOrder, &creds, now()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "placing orders needs an API key with trading permission; OAuth tokens cannot do this"
        );
        assert!(matches!(
            choose(Endpoint::CreateWithdrawal, &creds, now()),
            Err(Refusal::NeedsSignedKey { .. })
        ));
        assert!(matches!(
            choose(Endpoint::CancelOrder, &creds, now()),
            Err(Refusal::NeedsSignedKey { .. })
        ));
    }

    #[test]
    fn signing_needs_the_secret_and_the_permission() {
        let creds = Credentials {
            key: Some(key(false, None)),
            bearer: None,
        };
        assert!(matches!(
            choose(Endpoint::CreateOrder, &creds, now()),
            Err(Refusal::NeedsSecret { .. })
        ));
        let read_only = KeyPermissions {
            trading: false,
            bitcoin_withdrawal: false,
        };
        let creds = Credentials {
            key: Some(key(true, Some(read_only))),
            bearer: None,
        };
        assert!(matches!(
            choose(Endpoint::CreateOrder, &creds, now()),
            Err(Refusal::KeyLacksPermission { .. })
        ));
        let trading = KeyPermissions {
            trading: true,
            bitcoin_withdrawal: false,
        };
        let creds = Credentials {
            key: Some(key(true, Some(trading))),
            bearer: None,
        };
        assert!(matches!(
            choose(Endpoint::CreateOrder, &creds, now()),
            Ok(AuthChoice::Signed(_))
        ));
        assert!(matches!(
            choose(Endpoint::CreateWithdrawal, &creds, now()),
            Err(Refusal::KeyLacksPermission { .. })
        ));
    }

    #[test]
    fn key_only_endpoints_refuse_tokens() {
        let creds = Credentials {
            key: None,
            bearer: Some(bearer(None, None)),
        };
        for e in [
            Endpoint::DepositDestinations,
            Endpoint::ListOrders,
            Endpoint::FiatAccount,
            Endpoint::GetWithdrawal,
        ] {
            assert!(
                matches!(choose(e, &creds, now()), Err(Refusal::NeedsKey { .. })),
                "{e:?}"
            );
        }
    }

    #[test]
    fn missing_scope_is_refused_and_named() {
        let creds = Credentials {
            key: None,
            bearer: Some(bearer(Some(&[Scope::AccountsBitcoinRead]), None)),
        };
        let err = choose(Endpoint::TaxTransactions, &creds, now()).unwrap_err();
        assert!(
            err.to_string().contains("api:tax:transactions:read"),
            "{err}"
        );
        assert!(matches!(
            choose(Endpoint::TaxBalance, &creds, now()),
            Ok(AuthChoice::Bearer(_))
        ));
        // Endpoint 12 takes any valid token.
        assert!(matches!(
            choose(Endpoint::RevokeConsent, &creds, now()),
            Ok(AuthChoice::Bearer(_))
        ));
    }

    #[test]
    fn token_first_where_accepted_key_otherwise() {
        let creds = Credentials {
            key: Some(key(true, None)),
            bearer: Some(bearer(Some(&[Scope::AccountsBitcoinRead]), None)),
        };
        assert!(matches!(
            choose(Endpoint::BitcoinAccounts, &creds, now()),
            Ok(AuthChoice::Bearer(_))
        ));
        assert!(matches!(
            choose(Endpoint::TaxTransactions, &creds, now()),
            Ok(AuthChoice::Key(_))
        ));
        assert!(matches!(
            choose(Endpoint::FiatAccount, &creds, now()),
            Ok(AuthChoice::Key(_))
        ));
        assert!(matches!(
            choose(Endpoint::CreateOrder, &creds, now()),
            Ok(AuthChoice::Signed(_))
        ));
    }

    #[test]
    fn an_expired_token_falls_back_to_the_key_or_is_refused() {
        let past = now() - chrono::Duration::seconds(5);
        let creds = Credentials {
            key: None,
            bearer: Some(bearer(None, Some(past))),
        };
        assert!(matches!(
            choose(Endpoint::BitcoinAccounts, &creds, now()),
            Err(Refusal::TokenExpired { .. })
        ));
        let creds = Credentials {
            key: Some(key(false, None)),
            bearer: Some(bearer(None, Some(past))),
        };
        assert!(matches!(
            choose(Endpoint::BitcoinAccounts, &creds, now()),
            Ok(AuthChoice::Key(_))
        ));
    }

    #[test]
    fn no_credentials_says_what_is_needed() {
        let creds = Credentials::default();
        for e in Endpoint::ALL {
            let r = choose(e, &creds, now());
            match e.access() {
                Access::Public => assert!(r.is_ok()),
                _ => assert!(r.is_err(), "{e:?}"),
            }
        }
    }
}
