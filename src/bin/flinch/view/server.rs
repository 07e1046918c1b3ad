//! The HTTP side: one thread per connection (at most [`MAX_CONNECTIONS`]), one request per connection. Every
//! request must name the session token in its path (`/s/<token>/...`) and an allowed `Host`; a WebSocket upgrade
//! (`/s/<token>/ws`) must also come from an allowed `Origin` (or none: a client that is not a page). The page's
//! files come from the binary, recordings and the glTF rigs given on the command line (`/s/<token>/rig/<i>.glb`,
//! read at start) from memory: no request reads a file.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use flinch::view_protocol::guard::{
    host_allowed, origin_allowed, rig_index, split_path, token_matches,
};
use tungstenite::handshake::derive_accept_key;
use tungstenite::protocol::{Role, WebSocketConfig};

use super::assets;
use super::session;
use super::shared::Shared;
use super::sim::Command;
use crate::CliError;

/// Connections served at once; more are refused with 503.
pub const MAX_CONNECTIONS: usize = 64;
/// The largest request head read (bytes).
const MAX_HEAD: usize = 16 << 10;
/// The largest WebSocket message tungstenite buffers; the protocol's own limit (1 MiB) is checked after, so a
/// message between the two is refused with an error and the session goes on, a larger one closes it.
pub const MAX_WS_MESSAGE: usize = 16 << 20;

/// What every request is checked against.
pub struct ServerConfig {
    /// The session token.
    pub token: String,
    /// The port listened on.
    pub port: u16,
    /// The `--host` the server listens on, when not the loopback address.
    pub extra_host: Option<String>,
    /// The glTF rigs with a skin, as GLB (`rig/<index>.glb`), read when the viewer started.
    pub rigs: Vec<Arc<Vec<u8>>>,
}

/// 128 random bits as 32 hex digits, from the system's random source (`/dev/urandom`), else from the standard
/// library's randomly keyed hasher mixed with the time and the process id.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    let from_os = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !from_os {
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            h.write_u32(std::process::id());
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Serves until the listener fails.
pub fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shared: Arc<Shared>,
    commands: Sender<Command>,
) -> Result<(), CliError> {
    let config = Arc::new(config);
    let active = Arc::new(AtomicUsize::new(0));
    let ids = Arc::new(AtomicU64::new(1));
    for stream in listener.incoming() {
        let mut stream = match stream {
            Ok(s) => s,
            Err(e) => {
                eprintln!("flinch view: accept failed: {e}");
                continue;
            }
        };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = respond(&mut stream, 503, "text/plain", b"too many connections", &[]);
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (config, shared, commands, active, ids) = (
            Arc::clone(&config),
            Arc::clone(&shared),
            commands.clone(),
            Arc::clone(&active),
            Arc::clone(&ids),
        );
        let spawned = std::thread::Builder::new()
            .name("flinch-view-conn".into())
            .spawn(move || {
                let id = ids.fetch_add(1, Ordering::SeqCst);
                connection(stream, &config, &shared, &commands, id);
                active.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            eprintln!("flinch view: cannot start a connection thread: {e}");
        }
    }
    Ok(())
}

/// Reads the request head (up to the blank line).
fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > MAX_HEAD {
            return None;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    Some(head)
}

/// Writes a complete response and closes.
fn respond(
    stream: &mut TcpStream,
    status: u16,
    mime: &str,
    body: &[u8],
    extra: &[(&str, String)],
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\
         X-Frame-Options: DENY\r\n",
        body.len()
    );
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

fn header<'a>(req: &'a httparse::Request, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case(name))
        .and_then(|h| std::str::from_utf8(h.value).ok())
}

/// One connection: a file, a download, or the WebSocket session.
fn connection(
    mut stream: TcpStream,
    config: &ServerConfig,
    shared: &Arc<Shared>,
    commands: &Sender<Command>,
    id: u64,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_nodelay(true);
    let Some(head) = read_head(&mut stream) else {
        let _ = respond(&mut stream, 400, "text/plain", b"bad request", &[]);
        return;
    };
    let mut headers = [httparse::EMPTY_HEADER; 48];
    let mut req = httparse::Request::new(&mut headers);
    if !matches!(req.parse(&head), Ok(httparse::Status::Complete(_))) {
        let _ = respond(&mut stream, 400, "text/plain", b"bad request", &[]);
        return;
    }
    let extra = config.extra_host.as_deref();
    if !host_allowed(header(&req, "host"), config.port, extra) {
        let _ = respond(&mut stream, 403, "text/plain", b"Host not allowed", &[]);
        return;
    }
    if req.method != Some("GET") {
        let _ = respond(&mut stream, 405, "text/plain", b"only GET", &[]);
        return;
    }
    let path = req.path.unwrap_or("");
    let Some((token, rest)) = split_path(path).filter(|(t, _)| token_matches(t, &config.token))
    else {
        let _ = respond(
            &mut stream,
            403,
            "text/plain",
            b"missing or wrong session token: open the URL flinch view printed",
            &[],
        );
        return;
    };
    if rest == "ws" {
        if !origin_allowed(header(&req, "origin"), config.port, extra) {
            let _ = respond(&mut stream, 403, "text/plain", b"Origin not allowed", &[]);
            return;
        }
        let upgrade = header(&req, "upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
        let (Some(key), true) = (header(&req, "sec-websocket-key"), upgrade) else {
            let _ = respond(
                &mut stream,
                400,
                "text/plain",
                b"expected a WebSocket upgrade",
                &[],
            );
            return;
        };
        let accept = derive_accept_key(key.trim().as_bytes());
        let reply = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Accept: {accept}\r\n\r\n"
        );
        if stream.write_all(reply.as_bytes()).is_err() {
            return;
        }
        let ws_config = WebSocketConfig::default()
            .max_message_size(Some(MAX_WS_MESSAGE))
            .max_frame_size(Some(MAX_WS_MESSAGE));
        let ws = tungstenite::WebSocket::from_raw_socket(stream, Role::Server, Some(ws_config));
        session::run(ws, id, shared, commands);
        return;
    }
    let _ = token;
    if let Some(name) = rest.strip_prefix("download/") {
        let file = shared.lock().downloads.get(name).cloned();
        let _ = match file {
            Some(bytes) => respond(
                &mut stream,
                200,
                "application/octet-stream",
                &bytes,
                &[(
                    "Content-Disposition",
                    format!("attachment; filename=\"{name}\""),
                )],
            ),
            None => respond(&mut stream, 404, "text/plain", b"no such recording", &[]),
        };
        return;
    }
    if rest.starts_with("rig/") {
        let rig = rig_index(rest).and_then(|i| config.rigs.get(i));
        let _ = match rig {
            Some(bytes) => respond(&mut stream, 200, "model/gltf-binary", bytes, &[]),
            None => respond(&mut stream, 404, "text/plain", b"no such rig", &[]),
        };
        return;
    }
    let _ = match assets::find(rest) {
        Some(asset) => {
            let host = header(&req, "host").unwrap_or("127.0.0.1");
            let csp = format!(
                "default-src 'self'; connect-src 'self' ws://{host} blob:; img-src 'self' data: blob:; \
                 style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
            );
            respond(
                &mut stream,
                200,
                asset.mime,
                asset.bytes,
                &[("Content-Security-Policy", csp)],
            )
        }
        None => respond(&mut stream, 404, "text/plain", b"not found", &[]),
    };
}
