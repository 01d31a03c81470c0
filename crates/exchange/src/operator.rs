//! The operator's abbreviation. The specification writes a neutral `svc` where the real service
//! puts its own: in the header names of 5.1 (`x-svc-api-key`, …) and in the prefixes of keys
//! and secrets (`svc/public/`, `svc/apisecret/`).

use std::fmt;
use std::str::FromStr;

/// What is wrong with an abbreviation the user gave.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the operator's abbreviation must be 1 to 16 lower-case letters or digits; got `{0}`")]
pub struct OperatorError(pub String);

/// An abbreviation of 1 to 16 lower-case ASCII letters or digits, so every name made from it is
/// a valid header name and its key prefixes are Base64 text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operator(String);

impl Operator {
    /// The specification's own abbreviation.
    pub const SPEC: &'static str = "svc";

    pub fn parse(text: &str) -> Result<Self, OperatorError> {
        let ok = (1..=16).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if ok {
            Ok(Self(text.to_owned()))
        } else {
            Err(OperatorError(text.chars().take(40).collect()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `x-<abbr>-api-key`: the complete key.
    pub fn key_header(&self) -> String {
        format!("x-{}-api-key", self.0)
    }

    /// `x-<abbr>-api-nonce`.
    pub fn nonce_header(&self) -> String {
        format!("x-{}-api-nonce", self.0)
    }

    /// `x-<abbr>-api-hmac`.
    pub fn hmac_header(&self) -> String {
        format!("x-{}-api-hmac", self.0)
    }

    /// What a complete key starts with: `<abbr>/public/`.
    pub fn key_prefix(&self) -> String {
        format!("{}/public/", self.0)
    }

    /// What a complete secret starts with: `<abbr>/apisecret/`.
    pub fn secret_prefix(&self) -> String {
        format!("{}/apisecret/", self.0)
    }
}

impl Default for Operator {
    fn default() -> Self {
        Self(Self::SPEC.to_owned())
    }
}

impl FromStr for Operator {
    type Err = OperatorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_abbreviation() {
        let op = Operator::parse("abc1").unwrap();
        assert_eq!(op.key_header(), "x-abc1-api-key");
        assert_eq!(op.nonce_header(), "x-abc1-api-nonce");
        assert_eq!(op.hmac_header(), "x-abc1-api-hmac");
        assert_eq!(op.key_prefix(), "abc1/public/");
        assert_eq!(op.secret_prefix(), "abc1/apisecret/");
        assert_eq!(Operator::default().key_header(), "x-svc-api-key");
    }

    #[test]
    fn only_short_lower_case_letters_and_digits_are_taken() {
        for bad in [
            "",
            "ABC",
            "a-b",
            "a b",
            "a/b",
            "x".repeat(17).as_str(),
            "æøå",
        ] {
            assert!(Operator::parse(bad).is_err(), "{bad:?}");
        }
        for good in ["a", "svc", "x9", &"z".repeat(16)] {
            assert_eq!(Operator::parse(good).unwrap().as_str(), good);
        }
    }
}
