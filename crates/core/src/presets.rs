//! Exchanges Nordlys knows by name: the addresses they publish and the company behind them, so a
//! customer picks their exchange instead of typing an API address, an OAuth host and a header
//! abbreviation. The OAuth client id is the operator's to issue: until it has, a preset connects
//! with an API key only.

use crate::platform::settings::ProfileKind;
use crate::profile_form::ExchangeProfileForm;

/// The company that runs an exchange, as it names itself to its customers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Organisation {
    pub name: &'static str,
    /// The Norwegian organisation number, in its usual groups of three.
    pub number: &'static str,
    pub address: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExchangePreset {
    pub id: &'static str,
    pub name: &'static str,
    /// The API's address: the server the exchange's published OpenAPI description names.
    pub base_url: &'static str,
    /// Where OAuth is served: the operator's web host, not the API's.
    pub oauth_base_url: &'static str,
    /// The abbreviation in its header names and key prefixes (`x-bb-api-key`, `bb/public/…`).
    pub operator: &'static str,
    /// Issued by the operator to Nordlys; none yet.
    pub client_id: Option<&'static str>,
    pub organisation: Organisation,
}

/// Bare Bitcoin: the server in its OpenAPI description, its web host, and the company as its
/// privacy statement names it.
pub const BARE_BITCOIN: ExchangePreset = ExchangePreset {
    id: "bare-bitcoin",
    name: "Bare Bitcoin",
    base_url: "https://api.bb.no",
    oauth_base_url: "https://barebitcoin.no",
    operator: "bb",
    client_id: None,
    organisation: Organisation {
        name: "Bare Bitcoin AS",
        number: "927 393 204",
        address: "Biskop Gunnerus' gate 14A, 0185 Oslo",
    },
};

pub const PRESETS: &[ExchangePreset] = &[BARE_BITCOIN];

impl ExchangePreset {
    /// The profile form filled in for this exchange, asking for every scope.
    pub fn form(&self) -> ExchangeProfileForm {
        ExchangeProfileForm {
            base_url: self.base_url.to_owned(),
            oauth_base_url: self.oauth_base_url.to_owned(),
            operator: self.operator.to_owned(),
            client_id: self.client_id.unwrap_or_default().to_owned(),
            scopes: nordlys_exchange::models::Scope::KNOWN
                .iter()
                .map(ToString::to_string)
                .collect(),
        }
    }

    /// The known exchange a profile reaches, by its API address.
    pub fn of(kind: &ProfileKind) -> Option<&'static ExchangePreset> {
        let ProfileKind::Exchange { base_url, .. } = kind else {
            return None;
        };
        let base = nordlys_exchange::BaseUrl::parse(base_url).ok()?;
        PRESETS
            .iter()
            .find(|p| nordlys_exchange::BaseUrl::parse(p.base_url).is_ok_and(|known| known == base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile_form::check;

    #[test]
    fn every_preset_makes_a_profile_that_connects_with_a_key_until_a_client_id_is_issued() {
        for preset in PRESETS {
            let kind = check(&preset.form()).unwrap();
            let ProfileKind::Exchange {
                base_url,
                oauth_base_url,
                operator,
                client_id,
                ..
            } = &kind
            else {
                panic!("not an exchange profile");
            };
            assert_eq!(base_url, "https://api.bb.no");
            assert_eq!(oauth_base_url.as_deref(), Some("https://barebitcoin.no"));
            assert_eq!(operator, "bb");
            assert_eq!(client_id, "");
            assert_eq!(kind.oauth_client_id(), None);
            assert_eq!(ExchangePreset::of(&kind), Some(preset));
        }
    }

    #[test]
    fn a_profile_of_another_address_is_no_known_exchange() {
        let kind = check(&ExchangeProfileForm {
            base_url: "https://api.example.no".into(),
            ..BARE_BITCOIN.form()
        })
        .unwrap();
        assert_eq!(ExchangePreset::of(&kind), None);
        assert_eq!(ExchangePreset::of(&ProfileKind::Sandbox), None);
    }
}
