//! The OAuth redirect listener of RFC 8252 §7.3: a socket on 127.0.0.1 at a port the OS picks,
//! that takes exactly one redirect, checks `state`, answers the browser with a short page, and
//! gives up after a timeout. Any local process or web page can connect to it, so no connection
//! can hold it (each is served on its own, with a short read deadline) and no wrong answer can
//! end it (one with another `state` is answered and ignored). What the page says is the caller's
//! ([`PageWords`], in the user's language): core only picks which [`Page`] to show.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use url::Url;

/// The path the redirect comes to.
pub const CALLBACK_PATH: &str = "/callback";
const MAX_REQUEST_BYTES: usize = 16 * 1024;
/// How long one connection may take to send its request and be answered.
const CONNECTION_DEADLINE: Duration = Duration::from_secs(5);
/// Connections served at once; more wait in the OS's backlog.
const MAX_CONNECTIONS: usize = 32;
/// The longest wait for the browser, whatever settings or the environment ask for.
pub const MAX_WAIT: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoopbackError {
    #[error("could not listen on 127.0.0.1 for the sign-in answer: {0}")]
    Listen(String),
    #[error("no answer from the browser within {0} seconds; start again when you are ready")]
    Timeout(u64),
    #[error("you declined access in the browser")]
    Denied,
    #[error("the exchange refused the sign-in: {0}")]
    Refused(String),
    /// `invalid_scope`: the exchange will not grant what was asked for (it may grant less).
    #[error("the exchange will not grant the access asked for: {0}")]
    InvalidScope(String),
    #[error("the answer did not belong to this sign-in (state mismatch); nothing was changed")]
    StateMismatch,
    #[error("the answer carried no authorization code")]
    MissingCode,
}

/// Which page the listener answers a browser with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// Another path, method or Host.
    NotFound,
    /// A redirect with another sign-in's `state`.
    NotThisSignIn,
    Connected,
    /// The user declined access.
    Declined,
    /// Any other failed answer.
    Failed,
}

/// A page's title and text, in the user's language.
pub type PageWords = Arc<dyn Fn(Page) -> (String, String) + Send + Sync>;

/// A bound listener, waiting to be told the state to expect.
pub struct RedirectListener {
    listener: TcpListener,
    redirect_uri: Url,
    words: PageWords,
}

impl std::fmt::Debug for RedirectListener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedirectListener")
            .field("redirect_uri", &self.redirect_uri)
            .finish_non_exhaustive()
    }
}

impl RedirectListener {
    /// Binds 127.0.0.1 on a free port; the browser is answered in `words`.
    pub async fn bind(words: PageWords) -> Result<Self, LoopbackError> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| LoopbackError::Listen(e.to_string()))?;
        let port = listener
            .local_addr()
            .map_err(|e| LoopbackError::Listen(e.to_string()))?
            .port();
        let redirect_uri = Url::parse(&format!("http://127.0.0.1:{port}{CALLBACK_PATH}"))
            .map_err(|e| LoopbackError::Listen(e.to_string()))?;
        Ok(Self {
            listener,
            redirect_uri,
            words,
        })
    }

    pub fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    /// Waits for the one redirect that carries `state`, and returns its code. Requests to other
    /// paths, with a foreign Host or with another `state` are answered and ignored. `timeout` is
    /// at most [`MAX_WAIT`].
    pub async fn wait(
        self,
        expected_state: &str,
        timeout: Duration,
    ) -> Result<String, LoopbackError> {
        let timeout = timeout.min(MAX_WAIT);
        let deadline = tokio::time::Instant::now() + timeout;
        let expected: Arc<str> = expected_state.into();
        let (answers, mut answered) = tokio::sync::mpsc::channel(MAX_CONNECTIONS);
        // Dropped on return: connections still being served are ended with it.
        let mut serving = tokio::task::JoinSet::new();
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(deadline) => {
                    return Err(LoopbackError::Timeout(timeout.as_secs()));
                }
                Some(outcome) = answered.recv() => return outcome,
                accepted = self.listener.accept() => {
                    while serving.try_join_next().is_some() {}
                    let Ok((stream, _)) = accepted else { continue };
                    if serving.len() >= MAX_CONNECTIONS {
                        continue;
                    }
                    let (answers, expected) = (answers.clone(), Arc::clone(&expected));
                    let words = Arc::clone(&self.words);
                    serving.spawn(async move {
                        let served = tokio::time::timeout(
                            CONNECTION_DEADLINE,
                            handle(stream, &expected, &*words),
                        );
                        if let Ok(Some(outcome)) = served.await {
                            let _ = answers.send(outcome).await;
                        }
                    });
                }
            }
        }
    }
}

/// What one request to the redirect listener is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirect {
    /// Another path, method or Host: answered 404, and the wait goes on.
    NotForUs,
    /// The redirect: the code, or why there is none.
    Answer(Result<String, LoopbackError>),
}

/// Reads the head of one HTTP request (everything up to the blank line). Public so that the
/// fuzz target can feed it anything.
pub fn read_redirect(head: &str, expected_state: &str) -> Redirect {
    let mut lines = head.lines();
    let Some(request_line) = lines.next() else {
        return Redirect::NotForUs;
    };
    let mut parts = request_line.split(' ');
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return Redirect::NotForUs;
    };
    // Exactly our address: a name that resolves here (DNS rebinding) or merely starts with the
    // same digits is someone else's page.
    let host_ok = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("host"))
        .is_some_and(|(_, v)| {
            let v = v.trim();
            v == "127.0.0.1"
                || v.strip_prefix("127.0.0.1:").is_some_and(|port| {
                    !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
                })
        });
    if !target.starts_with('/') {
        return Redirect::NotForUs;
    }
    let Ok(url) = Url::parse(&format!("http://127.0.0.1{target}")) else {
        return Redirect::NotForUs;
    };
    if method != "GET" || url.path() != CALLBACK_PATH || !host_ok {
        return Redirect::NotForUs;
    }
    let get = |k: &str| {
        url.query_pairs()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.into_owned())
    };
    Redirect::Answer(if get("state").as_deref() != Some(expected_state) {
        Err(LoopbackError::StateMismatch)
    } else if let Some(error) = get("error") {
        if error == "access_denied" {
            Err(LoopbackError::Denied)
        } else if error == "invalid_scope" {
            Err(LoopbackError::InvalidScope(
                get("error_description").unwrap_or(error),
            ))
        } else {
            Err(LoopbackError::Refused(
                get("error_description").unwrap_or(error),
            ))
        }
    } else {
        get("code")
            .filter(|c| !c.is_empty())
            .ok_or(LoopbackError::MissingCode)
    })
}

/// `None`: not the redirect (keep waiting).
async fn handle(
    mut stream: TcpStream,
    expected_state: &str,
    words: &(dyn Fn(Page) -> (String, String) + Send + Sync),
) -> Option<Result<String, LoopbackError>> {
    let head = read_head(&mut stream).await?;
    let outcome = match read_redirect(&head, expected_state) {
        Redirect::NotForUs => {
            respond(&mut stream, "404 Not Found", words(Page::NotFound)).await;
            return None;
        }
        // Not this sign-in's: a stale tab, or a page that guessed the port. The sign-in in
        // progress goes on.
        Redirect::Answer(Err(LoopbackError::StateMismatch)) => {
            let page = words(Page::NotThisSignIn);
            respond(&mut stream, "400 Bad Request", page).await;
            return None;
        }
        Redirect::Answer(outcome) => outcome,
    };
    let page = match &outcome {
        Ok(_) => Page::Connected,
        Err(LoopbackError::Denied) => Page::Declined,
        Err(_) => Page::Failed,
    };
    respond(&mut stream, "200 OK", words(page)).await;
    Some(outcome)
}

async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || buf.len() + n > MAX_REQUEST_BYTES {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8(buf).ok()
}

async fn respond(stream: &mut TcpStream, status: &str, (title, text): (String, String)) {
    let (title, text) = (escape(&title), escape(&text));
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Nordlys — {title}</title></head>\
         <body style=\"font-family:sans-serif;margin:4rem auto;max-width:30rem\"><h1>{title}</h1><p>{text}</p></body></html>"
    );
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nContent-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Text as HTML shows it, whatever it holds.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each page's name as its words, so a test sees which page was shown.
    fn words() -> PageWords {
        Arc::new(|page| (format!("{page:?}"), format!("the {page:?} page & <more>")))
    }

    async fn get(url: &str) -> (u16, String) {
        let r = reqwest::get(url).await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    #[tokio::test]
    async fn takes_the_one_redirect_with_the_right_state() {
        let l = RedirectListener::bind(words()).await.unwrap();
        let uri = l.redirect_uri().clone();
        assert_eq!(uri.host_str(), Some("127.0.0.1"));
        let waiting = tokio::spawn(async move { l.wait("s1", Duration::from_secs(5)).await });
        let base = format!("http://127.0.0.1:{}", uri.port().unwrap());
        assert_eq!(get(&format!("{base}/favicon.ico")).await.0, 404);
        let (status, page) = get(&format!("{uri}?code=abc&state=s1")).await;
        assert_eq!(status, 200);
        assert!(page.contains("<h1>Connected</h1>"), "{page}");
        assert!(
            page.contains("the Connected page &amp; &lt;more&gt;"),
            "{page}"
        );
        assert_eq!(waiting.await.unwrap(), Ok("abc".to_owned()));
    }

    #[tokio::test]
    async fn denial_and_timeout_end_the_wait() {
        let l = RedirectListener::bind(words()).await.unwrap();
        let uri = l.redirect_uri().clone();
        let waiting = tokio::spawn(async move { l.wait("s1", Duration::from_secs(5)).await });
        get(&format!("{uri}?error=access_denied&state=s1")).await;
        assert_eq!(waiting.await.unwrap(), Err(LoopbackError::Denied));

        let l = RedirectListener::bind(words()).await.unwrap();
        assert_eq!(
            l.wait("s1", Duration::from_millis(200)).await,
            Err(LoopbackError::Timeout(0))
        );
    }

    #[tokio::test]
    async fn a_foreign_state_is_answered_and_the_sign_in_goes_on() {
        let l = RedirectListener::bind(words()).await.unwrap();
        let uri = l.redirect_uri().clone();
        let waiting = tokio::spawn(async move { l.wait("s1", Duration::from_secs(5)).await });
        let (status, page) = get(&format!("{uri}?code=forged&state=other")).await;
        assert_eq!(status, 400);
        assert!(page.contains("<h1>NotThisSignIn</h1>"), "{page}");
        // A denial under a foreign state is somebody else's too.
        get(&format!("{uri}?error=access_denied&state=other")).await;
        get(&format!("{uri}?code=real&state=s1")).await;
        assert_eq!(waiting.await.unwrap(), Ok("real".to_owned()));
    }

    #[tokio::test]
    async fn a_silent_connection_does_not_hold_the_listener() {
        let l = RedirectListener::bind(words()).await.unwrap();
        let uri = l.redirect_uri().clone();
        let port = uri.port().unwrap();
        let waiting = tokio::spawn(async move { l.wait("s1", Duration::from_secs(20)).await });
        // Connected, and never a byte: before, the redirect waited behind it until the timeout.
        let _silent = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let mut half = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        half.write_all(b"GET /callback?code=x&st").await.unwrap();
        let started = std::time::Instant::now();
        get(&format!("{uri}?code=real&state=s1")).await;
        assert_eq!(waiting.await.unwrap(), Ok("real".to_owned()));
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[tokio::test]
    async fn a_timeout_beyond_reason_is_clamped_not_a_panic() {
        let l = RedirectListener::bind(words()).await.unwrap();
        let uri = l.redirect_uri().clone();
        let waiting = tokio::spawn(async move { l.wait("s1", Duration::MAX).await });
        get(&format!("{uri}?code=c&state=s1")).await;
        assert_eq!(waiting.await.unwrap(), Ok("c".to_owned()));
    }

    #[test]
    fn only_our_exact_host_is_taken() {
        let head =
            |host: &str| format!("GET /callback?code=c&state=s HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let ok = Redirect::Answer(Ok("c".to_owned()));
        assert_eq!(read_redirect(&head("127.0.0.1:4711"), "s"), ok);
        assert_eq!(read_redirect(&head("127.0.0.1"), "s"), ok);
        for foreign in [
            "127.0.0.1.attacker.example",
            "127.0.0.1:80x",
            "localhost:4711",
            "127.0.0.1:",
            "evil.example",
        ] {
            assert_eq!(
                read_redirect(&head(foreign), "s"),
                Redirect::NotForUs,
                "{foreign}"
            );
        }
        assert_eq!(
            read_redirect(
                "GET http://evil.example/callback?code=c&state=s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "s"
            ),
            Redirect::NotForUs
        );
        assert_eq!(read_redirect("", "s"), Redirect::NotForUs);
    }

    #[tokio::test]
    async fn malformed_requests_are_ignored() {
        let l = RedirectListener::bind(words()).await.unwrap();
        let uri = l.redirect_uri().clone();
        let port = uri.port().unwrap();
        let waiting = tokio::spawn(async move { l.wait("s1", Duration::from_secs(5)).await });
        for junk in [
            &b"\x00\xff garbage\r\n\r\n"[..],
            b"GET\r\n\r\n",
            b"POST /callback?code=x&state=s1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        ] {
            let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            s.write_all(junk).await.unwrap();
            let mut out = vec![];
            let _ = s.read_to_end(&mut out).await;
        }
        let (status, _) = get(&format!("{uri}?code=real&state=s1")).await;
        assert_eq!(status, 200);
        assert_eq!(waiting.await.unwrap(), Ok("real".to_owned()));
    }
}
