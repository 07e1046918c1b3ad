//! A `flinch view` server for the tests: started on a free port, its URL read from its first line, killed when
//! dropped; raw HTTP requests and a WebSocket client on std sockets.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::{Message, WebSocket};

/// A running server.
pub struct Server {
    child: Child,
    /// The page's URL (`http://127.0.0.1:PORT/s/TOKEN/`).
    pub url: String,
    /// Its port.
    pub port: u16,
    /// Its session token.
    pub token: String,
}

impl Server {
    /// `flinch view --port 0 ARGS...`.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_flinch"))
            .args(["view", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start flinch view");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let url = loop {
            let line = lines
                .next()
                .expect("flinch view printed its URL")
                .expect("read stdout");
            if let Some(url) = line.strip_prefix("flinch view: ") {
                break url.trim().to_string();
            }
        };
        // Keep draining stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let rest = url.strip_prefix("http://127.0.0.1:").expect("loopback URL");
        let (port, path) = rest.split_once('/').expect("port/path");
        let token = path
            .strip_prefix("s/")
            .and_then(|t| t.strip_suffix('/'))
            .expect("token")
            .to_string();
        Server {
            child,
            url: url.clone(),
            port: port.parse().expect("port"),
            token,
        }
    }

    /// A raw GET: (status, headers, body).
    pub fn get(&self, path: &str, host: &str, extra: &[(&str, &str)]) -> (u16, String, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        let mut req = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n");
        for (k, v) in extra {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes()).expect("write");
        let mut out = Vec::new();
        s.read_to_end(&mut out).expect("read");
        let split = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("response head");
        let head = String::from_utf8_lossy(&out[..split]).to_string();
        let status = head[9..12].parse().expect("status");
        (status, head, out[split + 4..].to_vec())
    }

    /// `Host` as the page sends it.
    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// A WebSocket session with the right token (and an `Origin` when given).
    pub fn connect(&self, origin: Option<&str>) -> Result<Client, String> {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        let url = format!("ws://127.0.0.1:{}/s/{}/ws", self.port, self.token);
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(url.as_str())
            .map_err(|e| e.to_string())?;
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("Origin", o.parse().expect("header"));
        }
        let (ws, _) = tungstenite::client::client(request, stream).map_err(|e| e.to_string())?;
        ws.get_ref()
            .set_read_timeout(Some(Duration::from_millis(100)))
            .expect("timeout");
        Ok(Client { ws })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A test's WebSocket session.
pub struct Client {
    /// The socket.
    pub ws: WebSocket<TcpStream>,
}

/// What the server sent.
pub enum Received {
    /// A JSON text message.
    Json(Value),
    /// A binary frame.
    Frame(Vec<u8>),
}

impl Client {
    /// Sends a JSON message (or any text).
    pub fn send(&mut self, text: &str) {
        self.ws.send(Message::text(text)).expect("send");
    }

    /// The next message within `timeout`.
    pub fn next(&mut self, timeout: Duration) -> Option<Received> {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    return Some(Received::Json(
                        serde_json::from_str(t.as_str()).expect("JSON text"),
                    ));
                }
                Ok(Message::Binary(b)) => return Some(Received::Frame(b.to_vec())),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("session closed: {e}"),
            }
        }
        None
    }

    /// The first JSON message for which `pred` holds, within `timeout` (others are skipped).
    pub fn wait_json(&mut self, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Option<Value> {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if let Some(Received::Json(v)) = self.next(end - Instant::now())
                && pred(&v)
            {
                return Some(v);
            }
        }
        None
    }

    /// Asks for a frame and returns it (JSON messages on the way are skipped).
    pub fn frame(&mut self, timeout: Duration) -> Option<Vec<u8>> {
        self.send(r#"{"type":"frame"}"#);
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if let Some(Received::Frame(b)) = self.next(end - Instant::now()) {
                return Some(b);
            }
        }
        None
    }
}
