//! Answers read with a size limit: an exchange (or a server posing as one) cannot make the app
//! hold more than this in memory. A tax page of the largest size is a few MiB; a token answer a
//! few hundred bytes.

/// The most an answer of the exchange's API may hold.
pub const MOST_API_BYTES: usize = 16 * 1024 * 1024;

/// The most an answer of the OAuth server may hold.
pub const MOST_OAUTH_BYTES: usize = 64 * 1024;

/// Why an answer was not read whole.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("the answer is larger than {limit} bytes, more than any answer of this kind holds")]
    TooLarge { limit: usize },
    #[error(transparent)]
    Transport(#[from] reqwest::Error),
}

/// Reads `response`'s body, refusing it once it would pass `limit` bytes (or says it will).
pub async fn read_limited(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<bytes::Bytes, BodyError> {
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(BodyError::TooLarge { limit });
    }
    let mut body = bytes::BytesMut::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// The OAuth library's HTTP client, reading answers with [`MOST_OAUTH_BYTES`] at most.
pub async fn oauth_call(
    http: reqwest::Client,
    request: oauth2::HttpRequest,
) -> Result<oauth2::HttpResponse, oauth2::HttpClientError<reqwest::Error>> {
    let request: reqwest::Request = request.try_into().map_err(Box::new)?;
    let response = http.execute(request).await.map_err(Box::new)?;
    let mut answer = oauth2::http::Response::builder()
        .status(response.status())
        .version(response.version());
    for (name, value) in response.headers() {
        answer = answer.header(name, value);
    }
    let body = match read_limited(response, MOST_OAUTH_BYTES).await {
        Ok(b) => b.to_vec(),
        Err(BodyError::Transport(e)) => return Err(Box::new(e).into()),
        Err(e @ BodyError::TooLarge { .. }) => {
            return Err(oauth2::HttpClientError::Other(e.to_string()));
        }
    };
    answer.body(body).map_err(oauth2::HttpClientError::Http)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A server on this machine that answers one request with `head` and then `body_len` bytes.
    async fn serving(head: String, body_len: usize) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0_u8; 4096];
            let _ = s.read(&mut buf).await;
            let _ = s.write_all(head.as_bytes()).await;
            let chunk = vec![b'x'; 64 * 1024];
            let mut left = body_len;
            while left > 0 {
                let n = left.min(chunk.len());
                if s.write_all(&chunk[..n]).await.is_err() {
                    return;
                }
                left -= n;
            }
        });
        url
    }

    async fn get(url: &str, limit: usize) -> Result<bytes::Bytes, BodyError> {
        let response = reqwest::get(url).await.unwrap();
        read_limited(response, limit).await
    }

    #[tokio::test]
    async fn an_answer_over_the_limit_is_refused_whether_or_not_it_says_its_length() {
        let said = serving(
            "HTTP/1.1 200 OK\r\ncontent-length: 200000\r\n\r\n".into(),
            200_000,
        )
        .await;
        assert!(matches!(
            get(&said, 100_000).await,
            Err(BodyError::TooLarge { limit: 100_000 })
        ));
        let unsaid = serving(
            "HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n".into(),
            200_000,
        )
        .await;
        assert!(matches!(
            get(&unsaid, 100_000).await,
            Err(BodyError::TooLarge { .. })
        ));
        let small = serving(
            "HTTP/1.1 200 OK\r\ncontent-length: 5000\r\n\r\n".into(),
            5000,
        )
        .await;
        assert_eq!(get(&small, 100_000).await.unwrap().len(), 5000);
    }
}
