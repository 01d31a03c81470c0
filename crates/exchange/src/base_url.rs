//! Where the exchange is. Only https, or plain http to this machine by IP literal (the sandbox,
//! tests): a name such as `localhost` is resolved by whatever the system's resolver says, and
//! plain http would then carry keys to wherever that is.

use std::net::IpAddr;

use url::Url;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BaseUrlError {
    #[error("`{0}` is not a URL")]
    Malformed(String),
    #[error("the base URL must use https (or http to 127.0.0.1 or [::1]), not `{0}`")]
    Scheme(String),
    #[error(
        "plain http is allowed only to this machine by address (127.0.0.1 or [::1]); use https \
         for `{0}`"
    )]
    InsecureRemote(String),
    #[error("the base URL must not carry a user name, password, query or fragment")]
    ExtraParts,
}

/// A checked base address; endpoint paths are appended to its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(Url);

impl BaseUrl {
    pub fn parse(text: &str) -> Result<Self, BaseUrlError> {
        let url = Url::parse(text.trim()).map_err(|_| BaseUrlError::Malformed(text.to_owned()))?;
        match url.scheme() {
            "https" => {}
            "http" if is_ip_loopback(&url) => {}
            "http" => {
                return Err(BaseUrlError::InsecureRemote(
                    url.host_str().unwrap_or_default().to_owned(),
                ));
            }
            other => return Err(BaseUrlError::Scheme(other.to_owned())),
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(BaseUrlError::Malformed(text.to_owned()));
        }
        if !url.username().is_empty()
            || url.password().is_some()
            || url.query().is_some()
            || url.fragment().is_some()
        {
            return Err(BaseUrlError::ExtraParts);
        }
        Ok(Self(url))
    }

    /// The URL of `encoded_path` (starting with `/`) under this base.
    pub fn join(&self, encoded_path: &str) -> Url {
        let mut url = self.0.clone();
        let base = url.path().trim_end_matches('/').to_owned();
        url.set_path(&format!("{base}{encoded_path}"));
        url
    }

    /// The base path that precedes every endpoint path ("" for a bare host).
    pub fn path_prefix(&self) -> &str {
        self.0.path().trim_end_matches('/')
    }

    /// On this machine: a loopback address, or the name `localhost`.
    pub fn is_loopback(&self) -> bool {
        is_ip_loopback(&self.0)
            || matches!(self.0.host(), Some(url::Host::Domain(d)) if d.eq_ignore_ascii_case("localhost"))
    }

    pub fn as_url(&self) -> &Url {
        &self.0
    }
}

impl std::fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.as_str().trim_end_matches('/'))
    }
}

fn is_ip_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        Some(url::Host::Domain(_)) | None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_https_and_loopback_http() {
        for ok in [
            "https://api.example.no",
            "https://api.example.no/",
            "http://127.0.0.1:8080",
            "http://[::1]:9/",
            "https://localhost:3000",
            "http://127.5.5.5",
        ] {
            assert!(BaseUrl::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn refuses_everything_else() {
        assert!(matches!(
            BaseUrl::parse("http://api.example.no"),
            Err(BaseUrlError::InsecureRemote(_))
        ));
        assert!(matches!(
            BaseUrl::parse("http://10.0.0.1"),
            Err(BaseUrlError::InsecureRemote(_))
        ));
        // A name is whatever the resolver says it is: plain http goes to addresses only.
        for name in [
            "http://localhost:3000",
            "http://LOCALHOST",
            "http://localhost.:80",
        ] {
            assert!(
                matches!(BaseUrl::parse(name), Err(BaseUrlError::InsecureRemote(_))),
                "{name}"
            );
        }
        assert!(matches!(
            BaseUrl::parse("ftp://127.0.0.1"),
            Err(BaseUrlError::Scheme(_))
        ));
        assert!(matches!(
            BaseUrl::parse("file:///etc/passwd"),
            Err(BaseUrlError::Scheme(_))
        ));
        assert!(matches!(
            BaseUrl::parse("not a url"),
            Err(BaseUrlError::Malformed(_))
        ));
        assert!(matches!(
            BaseUrl::parse("https://u:p@x.no"),
            Err(BaseUrlError::ExtraParts)
        ));
        assert!(matches!(
            BaseUrl::parse("https://x.no/?a=1"),
            Err(BaseUrlError::ExtraParts)
        ));
    }

    #[test]
    fn joins_under_the_base_path() {
        let b = BaseUrl::parse("https://x.no/api/").unwrap();
        assert_eq!(b.join("/v1/orders").as_str(), "https://x.no/api/v1/orders");
        let b = BaseUrl::parse("http://127.0.0.1:1").unwrap();
        assert_eq!(
            b.join("/v1/orders/or_a%2Fb").as_str(),
            "http://127.0.0.1:1/v1/orders/or_a%2Fb"
        );
    }
}
