//! The travel-rule recipient form: what the exchange needs to know about who receives a payment to
//! a destination it has not seen before. Full name and address are always required (also for an
//! organisation: the `tfrInfo` description requires them); the country is an ISO 3166-1 alpha-2
//! code; a Norwegian organisation number has 9 digits and a national identity number 11.

use isocountry::CountryCode;
use nordlys_exchange::models::TravelRuleInfo;

/// The form as typed; the window sends it as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RecipientForm {
    pub full_name: String,
    pub country: String,
    pub address: String,
    /// National identity number, or the organisation number when `organisation` is set.
    pub nin: String,
    pub organisation: bool,
    pub exchange: String,
    pub self_custody: bool,
}

/// What is missing or wrong in one field of the recipient form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecipientProblem {
    NameMissing,
    OrganisationNameMissing,
    AddressMissing,
    /// The code as typed (upper-cased) is no ISO 3166-1 alpha-2 code.
    NotACountry(String),
    /// An organisation number is 9 digits.
    OrganisationNumberDigits,
    /// A Norwegian national identity number is 11 digits.
    NationalIdDigits,
}

/// A problem per field; all `None` means the form is complete.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecipientErrors {
    pub full_name: Option<RecipientProblem>,
    pub country: Option<RecipientProblem>,
    pub address: Option<RecipientProblem>,
    pub nin: Option<RecipientProblem>,
}

impl RecipientErrors {
    pub fn is_empty(&self) -> bool {
        self.full_name.is_none()
            && self.country.is_none()
            && self.address.is_none()
            && self.nin.is_none()
    }
}

/// Checks the form and returns what is sent as `tfrInfo`.
pub fn check(form: &RecipientForm) -> Result<TravelRuleInfo, RecipientErrors> {
    let mut errors = RecipientErrors::default();
    if form.full_name.trim().is_empty() {
        errors.full_name = Some(if form.organisation {
            RecipientProblem::OrganisationNameMissing
        } else {
            RecipientProblem::NameMissing
        });
    }
    if form.address.trim().is_empty() {
        errors.address = Some(RecipientProblem::AddressMissing);
    }
    let country = form.country.trim().to_ascii_uppercase();
    if !country.is_empty() && CountryCode::for_alpha2(&country).is_err() {
        errors.country = Some(RecipientProblem::NotACountry(country.clone()));
    }
    let nin: String = form.nin.chars().filter(|c| !c.is_whitespace()).collect();
    if !nin.is_empty() {
        let digits = nin.chars().all(|c| c.is_ascii_digit());
        if form.organisation && !(digits && nin.len() == 9) {
            errors.nin = Some(RecipientProblem::OrganisationNumberDigits);
        } else if !form.organisation && country == "NO" && !(digits && nin.len() == 11) {
            errors.nin = Some(RecipientProblem::NationalIdDigits);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(TravelRuleInfo {
        full_name: form.full_name.trim().to_owned(),
        country,
        address: form.address.trim().to_owned(),
        nin,
        exchange: form.exchange.trim().to_owned(),
        self_custody: form.self_custody,
    })
}

/// Every ISO 3166-1 country as (alpha-2 code, English name), by name, for the picker.
pub fn countries() -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<_> = CountryCode::iter()
        .map(|c| (c.alpha2(), c.name()))
        .collect();
    all.sort_by(|a, b| a.1.cmp(b.1));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kari() -> RecipientForm {
        RecipientForm {
            full_name: " Kari Nordmann ".into(),
            country: "no".into(),
            address: "Storgata 1, 0155 Oslo".into(),
            ..RecipientForm::default()
        }
    }

    #[test]
    fn a_complete_form_becomes_tfr_info() {
        let info = check(&kari()).unwrap();
        assert_eq!(
            (info.full_name.as_str(), info.country.as_str()),
            ("Kari Nordmann", "NO")
        );
    }

    #[test]
    fn name_and_address_are_always_required() {
        let mut org = RecipientForm {
            organisation: true,
            nin: "923 609 016".into(),
            ..RecipientForm::default()
        };
        let e = check(&org).unwrap_err();
        assert!(e.full_name.is_some() && e.address.is_some() && e.nin.is_none());
        org.full_name = "Nordlys AS".into();
        org.address = "Postboks 1".into();
        assert_eq!(check(&org).unwrap().nin, "923609016");
    }

    #[test]
    fn numbers_and_countries_are_checked() {
        for (nin, organisation) in [
            ("12345678", true),
            ("1234567890", true),
            ("12345abc9", true),
            ("123", false),
        ] {
            let f = RecipientForm {
                nin: nin.into(),
                organisation,
                ..kari()
            };
            assert!(check(&f).unwrap_err().nin.is_some(), "{nin}");
        }
        let f = RecipientForm {
            country: "XX".into(),
            ..kari()
        };
        assert_eq!(
            check(&f).unwrap_err().country,
            Some(RecipientProblem::NotACountry("XX".into()))
        );
        let list = countries();
        assert!(list.len() > 240 && list.iter().any(|c| c.0 == "NO"));
    }
}
