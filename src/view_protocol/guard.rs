//! Who may talk to a view server: the session token in the path, the `Host` and `Origin` headers (no DNS
//! rebinding, no cross-site page), and the message rate. Pure functions of their inputs (the caller passes the
//! clock), so the fuzz target and the tests call them as the server does.

use super::MAX_MESSAGES_PER_SECOND;

/// The session token and the rest of a request path `/s/<token>/<rest>` (query string removed): `None` for any
/// other shape.
pub fn split_path(path: &str) -> Option<(&str, &str)> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let rest = path.strip_prefix("/s/")?;
    let (token, rest) = rest.split_once('/').unwrap_or((rest, ""));
    if token.is_empty() {
        return None;
    }
    Some((token, rest))
}

/// The rig a path names after the token, `rig/<index>.glb` (the index in decimal, at most 4 digits, no sign or
/// leading zero): a page names rigs by index only, never by path.
pub fn rig_index(rest: &str) -> Option<usize> {
    let digits = rest.strip_prefix("rig/")?.strip_suffix(".glb")?;
    let canonical = !digits.is_empty()
        && digits.len() <= 4
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    canonical.then(|| digits.parse().ok()).flatten()
}

/// Token comparison in time independent of where the first difference is.
pub fn token_matches(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    let mut diff = a.len() ^ b.len();
    for (i, &y) in b.iter().enumerate() {
        diff |= usize::from(a.get(i).copied().unwrap_or(0) ^ y);
    }
    diff == 0
}

/// The host names a request may name in `Host` (any letter case), with the server's port: `127.0.0.1`,
/// `localhost`, `[::1]` and the `--host` the server was started with.
pub fn host_allowed(host_header: Option<&str>, port: u16, extra_host: Option<&str>) -> bool {
    let Some(host) = host_header else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    let names = ["127.0.0.1", "localhost", "[::1]"];
    names
        .iter()
        .copied()
        .chain(extra_host)
        .any(|name| host == format!("{}:{port}", name.to_ascii_lowercase()))
}

/// `Origin` must be absent (a client that is not a browser page: no cross-site risk) or `http://` + an allowed
/// host (the page the server itself served).
pub fn origin_allowed(origin: Option<&str>, port: u16, extra_host: Option<&str>) -> bool {
    match origin {
        None => true,
        Some(o) => o
            .trim()
            .strip_prefix("http://")
            .is_some_and(|h| host_allowed(Some(h), port, extra_host)),
    }
}

/// What [`RateLimiter::admit`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Within the rate: read it.
    Yes,
    /// The first message over the rate in this second: drop it and tell the client.
    FirstRefused,
    /// A further message over the rate: drop it silently.
    Refused,
}

/// At most [`MAX_MESSAGES_PER_SECOND`] messages per one-second window.
#[derive(Debug, Clone, Default)]
pub struct RateLimiter {
    window_start_ms: u64,
    count: u32,
    refused: u32,
}

impl RateLimiter {
    /// A limiter with an empty window.
    pub fn new() -> RateLimiter {
        RateLimiter::default()
    }

    /// Counts a message arriving at `now_ms` (any monotonic millisecond clock).
    pub fn admit(&mut self, now_ms: u64) -> Admit {
        if now_ms.saturating_sub(self.window_start_ms) >= 1000 {
            self.window_start_ms = now_ms;
            self.count = 0;
            self.refused = 0;
        }
        if self.count < MAX_MESSAGES_PER_SECOND {
            self.count += 1;
            return Admit::Yes;
        }
        self.refused = self.refused.saturating_add(1);
        if self.refused == 1 {
            Admit::FirstRefused
        } else {
            Admit::Refused
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_tokens_hosts_origins() {
        assert_eq!(split_path("/s/abc/ws?x=1"), Some(("abc", "ws")));
        assert_eq!(split_path("/s/abc"), Some(("abc", "")));
        assert_eq!(split_path("/s//ws"), None);
        assert_eq!(split_path("/ws"), None);
        assert!(token_matches("abc", "abc"));
        assert!(!token_matches("abd", "abc") && !token_matches("ab", "abc"));
        assert!(host_allowed(Some("127.0.0.1:8080"), 8080, None));
        assert!(host_allowed(Some("LOCALHOST:8080"), 8080, None));
        assert!(!host_allowed(Some("evil.example:8080"), 8080, None));
        assert!(!host_allowed(Some("127.0.0.1:9"), 8080, None));
        assert!(host_allowed(Some("10.0.0.2:8080"), 8080, Some("10.0.0.2")));
        assert!(origin_allowed(None, 8080, None));
        assert!(origin_allowed(Some("http://localhost:8080"), 8080, None));
        assert!(!origin_allowed(Some("http://evil.example"), 8080, None));
        assert!(!origin_allowed(Some("null"), 8080, None));
        assert_eq!(rig_index("rig/0.glb"), Some(0));
        assert_eq!(rig_index("rig/12.glb"), Some(12));
        for bad in [
            "rig/.glb",
            "rig/01.glb",
            "rig/-1.glb",
            "rig/+1.glb",
            "rig/1.gltf",
            "rig/../x.glb",
            "rig/99999.glb",
            "rig/0.glb/",
            "0.glb",
        ] {
            assert_eq!(rig_index(bad), None, "{bad}");
        }
    }

    #[test]
    fn rate() {
        let mut r = RateLimiter::new();
        for _ in 0..MAX_MESSAGES_PER_SECOND {
            assert_eq!(r.admit(10), Admit::Yes);
        }
        assert_eq!(r.admit(500), Admit::FirstRefused);
        assert_eq!(r.admit(900), Admit::Refused);
        assert_eq!(r.admit(1010), Admit::Yes);
    }
}
