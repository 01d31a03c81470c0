//! OAuth against the sandbox's authorization server: code + PKCE, refresh rotation, reuse
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! detection, revocation, and a token's limits.

use std::collections::HashMap;

use nordlys_exchange::Error;
use nordlys_exchange::credentials::RefreshToken;
use nordlys_exchange::models::Scope;
use nordlys_exchange::oauth::{OAuthApp, authorization_request};
use nordlys_tests::*;

/// The redirect's query after the user answers the consent page.
async fn consent(url: &url::Url, decision: &str) -> HashMap<String, String> {
    nordlys_tests::consent(url.as_str(), decision)
        .await
        .query_pairs()
        .into_owned()
        .collect()
}

#[tokio::test]
async fn code_pkce_refresh_rotation_reuse_and_revocation() {
    let sb = sandbox().await;
    let read_key = key_client(&sb, &sb.info.api_keys.read);
    let base = read_key.base_url().clone();
    let app = OAuthApp {
        client_id: sb.info.oauth_clients.public.client_id.clone(),
        client_secret: None,
        redirect_uri: url::Url::parse("http://127.0.0.1:49152/callback").unwrap(),
    };
    let request = authorization_request(
        &base,
        &app,
        &[Scope::AccountsBitcoinRead, Scope::DepositsLightningRead],
    )
    .unwrap();
    let back = consent(&request.url, "approve").await;
    assert_eq!(&back["state"], request.state.secret());
    let code = back["code"].clone();
    let tokens = read_key
        .exchange_code(&app, &code, request.verifier)
        .await
        .unwrap();
    assert!(
        tokens
            .scopes
            .as_ref()
            .unwrap()
            .contains(&Scope::AccountsBitcoinRead)
    );
    assert!(tokens.expires_at.is_some());

    let as_app = client(&sb, bearer(tokens.clone()));
    as_app.bitcoin_accounts(false).await.unwrap();
    // Scopes not granted are refused locally, key-only endpoints too.
    assert!(matches!(
        as_app
            .tax_transactions(&nordlys_exchange::TaxQuery::new(5))
            .await,
        Err(Error::Refused(_))
    ));
    assert!(matches!(
        as_app.fiat_account().await,
        Err(Error::Refused(_))
    ));
    // The server refuses them too, when asked anyway.
    let raw = reqwest::Client::new()
        .get(format!("{}/v1/tax/transactions?pageSize=1", sb.base_url()))
        .bearer_auth(tokens.access.expose())
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 403);

    // The code is single-use, and a replayed code revokes what it gave (RFC 6749 §4.1.2).
    let again = authorization_request(&base, &app, &[Scope::AccountsBitcoinRead]).unwrap();
    assert!(
        read_key
            .exchange_code(&app, &code, again.verifier)
            .await
            .is_err()
    );
    assert!(
        as_app.bitcoin_accounts(false).await.is_err(),
        "tokens from a replayed code are revoked"
    );

    let request = authorization_request(&base, &app, &[Scope::AccountsBitcoinRead]).unwrap();
    let back = consent(&request.url, "approve").await;
    let tokens = read_key
        .exchange_code(&app, &back["code"], request.verifier)
        .await
        .unwrap();

    // Refresh rotates; the old refresh token dies; reusing it revokes the grant.
    let first_refresh = tokens.refresh.clone().unwrap();
    let second = read_key.refresh_token(&app, &first_refresh).await.unwrap();
    let second_client = client(&sb, bearer(second.clone()));
    second_client.bitcoin_accounts(false).await.unwrap();
    let reuse = read_key
        .refresh_token(&app, &first_refresh)
        .await
        .unwrap_err();
    assert!(reuse.needs_reconnect(), "{reuse}");
    assert!(
        second_client.bitcoin_accounts(false).await.is_err(),
        "reuse killed the family"
    );
    assert!(
        read_key
            .refresh_token(&app, second.refresh.as_ref().unwrap())
            .await
            .is_err()
    );

    // A fresh grant, then consent revocation (endpoint 12) with the token itself.
    let request = authorization_request(&base, &app, &[Scope::AccountsBitcoinRead]).unwrap();
    let back = consent(&request.url, "approve").await;
    let tokens = read_key
        .exchange_code(&app, &back["code"], request.verifier)
        .await
        .unwrap();
    let c = client(&sb, bearer(tokens.clone()));
    c.revoke_consent(&app.client_id).await.unwrap();
    let e = c.bitcoin_accounts(false).await.unwrap_err();
    assert!(matches!(e, Error::Http { status: 401, .. }), "{e}");
    assert!(
        read_key
            .refresh_token(&app, tokens.refresh.as_ref().unwrap())
            .await
            .is_err()
    );
    let _ = RefreshToken::new(String::new());
}

#[tokio::test]
async fn deny_wrong_verifier_and_wrong_redirect_are_refused() {
    let sb = sandbox().await;
    let read_key = key_client(&sb, &sb.info.api_keys.read);
    let base = read_key.base_url().clone();
    let app = OAuthApp {
        client_id: sb.info.oauth_clients.public.client_id.clone(),
        client_secret: None,
        redirect_uri: url::Url::parse("http://127.0.0.1:40000/callback").unwrap(),
    };
    let request = authorization_request(&base, &app, &[Scope::AccountsBitcoinRead]).unwrap();
    let back = consent(&request.url, "deny").await;
    assert_eq!(back["error"], "access_denied");
    assert_eq!(&back["state"], request.state.secret());

    let request = authorization_request(&base, &app, &[Scope::AccountsBitcoinRead]).unwrap();
    let back = consent(&request.url, "approve").await;
    let other = authorization_request(&base, &app, &[Scope::AccountsBitcoinRead]).unwrap();
    let e = read_key
        .exchange_code(&app, &back["code"], other.verifier)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("invalid_grant"), "{e}");

    let mut evil = app.clone();
    evil.redirect_uri = url::Url::parse("https://evil.example/callback").unwrap();
    let request = authorization_request(&base, &evil, &[Scope::AccountsBitcoinRead]).unwrap();
    let page = reqwest::get(request.url).await.unwrap();
    assert_eq!(
        page.status().as_u16(),
        400,
        "no redirect to an unregistered URI"
    );

    // The confidential client authenticates with its secret.
    let partner = OAuthApp {
        client_id: sb.info.oauth_clients.confidential.client_id.clone(),
        client_secret: Some(sb.info.oauth_clients.confidential.client_secret.clone()),
        redirect_uri: url::Url::parse("http://[::1]:41000/callback").unwrap(),
    };
    let request = authorization_request(&base, &partner, &[Scope::TaxTransactionsRead]).unwrap();
    let back = consent(&request.url, "approve").await;
    let tokens = read_key
        .exchange_code(&partner, &back["code"], request.verifier)
        .await
        .unwrap();
    client(&sb, bearer(tokens))
        .tax_transactions(&nordlys_exchange::TaxQuery::new(3))
        .await
        .unwrap();
}

#[tokio::test]
async fn expired_tokens_are_refused() {
    let sb = sandbox().await;
    let read_key = key_client(&sb, &sb.info.api_keys.read);
    let app = OAuthApp {
        client_id: sb.info.oauth_clients.public.client_id.clone(),
        client_secret: None,
        redirect_uri: url::Url::parse("http://127.0.0.1:40001/callback").unwrap(),
    };
    let request =
        authorization_request(read_key.base_url(), &app, &[Scope::AccountsBitcoinRead]).unwrap();
    let back = consent(&request.url, "approve").await;
    let tokens = read_key
        .exchange_code(&app, &back["code"], request.verifier)
        .await
        .unwrap();
    control(&sb, "/sandbox/oauth/expire-tokens", serde_json::json!({})).await;
    let e = client(&sb, bearer(tokens.clone()))
        .bitcoin_accounts(false)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("expired"), "{e}");
    let fresh = read_key
        .refresh_token(&app, tokens.refresh.as_ref().unwrap())
        .await
        .unwrap();
    client(&sb, bearer(fresh))
        .bitcoin_accounts(false)
        .await
        .unwrap();
}
