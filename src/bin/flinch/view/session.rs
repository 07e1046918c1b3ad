//! One page's WebSocket session: its messages checked (size, rate, shape) and passed to the simulation thread;
//! the scene description, notices (plots, events, replies) and pose frames sent back. A refused message is
//! answered with an `error` message and the session goes on.

use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use flinch::view_protocol::guard::{Admit, RateLimiter};
use flinch::view_protocol::{ClientMessage, ProtocolError, parse_client_message};
use tungstenite::{Message, WebSocket};

use super::shared::Shared;
use super::sim::{Command, describe_error};

/// How long a read waits before the session looks for new frames and notices.
const POLL: Duration = Duration::from_millis(2);

/// Counts the session as a connected page while it lives.
struct Connected<'a>(&'a Shared);

impl Drop for Connected<'_> {
    fn drop(&mut self) {
        self.0.clients.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Per-session progress through what the simulation published.
struct Cursor {
    scene_version: u32,
    log: u64,
    frame_seq: u64,
    /// The page asked for a frame and has not had one since.
    wants_frame: bool,
    /// The simulation thread was told about the request (it builds frames only while one waits).
    told: bool,
}

/// Runs the session until the page goes away.
pub fn run(
    mut ws: WebSocket<TcpStream>,
    id: u64,
    shared: &Arc<Shared>,
    commands: &Sender<Command>,
) {
    shared.clients.fetch_add(1, Ordering::SeqCst);
    let _connected = Connected(shared);
    let _ = ws.get_mut().set_read_timeout(Some(POLL));
    let start = Instant::now();
    let mut limiter = RateLimiter::new();
    let (scene, status, mut cursor) = {
        let p = shared.lock();
        (
            Arc::clone(&p.scene),
            Arc::clone(&p.status),
            Cursor {
                scene_version: p.scene_version,
                log: p.log.end(),
                frame_seq: 0,
                wants_frame: false,
                told: false,
            },
        )
    };
    for text in [scene, status] {
        if !text.is_empty() && ws.send(Message::text(text.to_string())).is_err() {
            return;
        }
    }
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let now = start.elapsed().as_millis() as u64;
                if !receive(
                    t.as_bytes(),
                    now,
                    &mut limiter,
                    &mut ws,
                    &mut cursor,
                    id,
                    commands,
                ) {
                    return;
                }
            }
            Ok(Message::Binary(b)) => {
                let now = start.elapsed().as_millis() as u64;
                if !receive(&b, now, &mut limiter, &mut ws, &mut cursor, id, commands) {
                    return;
                }
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(tungstenite::Error::Capacity(e)) => {
                // Over tungstenite's buffer limit: the stream cannot be resynchronised.
                let text = describe_error(&format!(
                    "message refused and session closed: {e} (the protocol's limit is {} bytes)",
                    flinch::view_protocol::MAX_MESSAGE_BYTES
                ));
                let _ = ws.send(Message::text(text));
                let _ = ws.close(None);
                let _ = ws.flush();
                return;
            }
            Err(_) => return,
        }
        if !forward(&mut ws, shared, &mut cursor, id, commands) {
            return;
        }
    }
}

/// Checks one message and hands it on; false when the connection is gone.
fn receive(
    bytes: &[u8],
    now_ms: u64,
    limiter: &mut RateLimiter,
    ws: &mut WebSocket<TcpStream>,
    cursor: &mut Cursor,
    id: u64,
    commands: &Sender<Command>,
) -> bool {
    let refused = match limiter.admit(now_ms) {
        Admit::Refused => return true,
        Admit::FirstRefused => Some(ProtocolError::Flood),
        Admit::Yes => match parse_client_message(bytes) {
            Ok(ClientMessage::Frame {}) => {
                cursor.wants_frame = true;
                None
            }
            Ok(message) => {
                if commands
                    .send(Command::Message {
                        session: id,
                        message,
                    })
                    .is_err()
                {
                    return false;
                }
                None
            }
            Err(e) => Some(e),
        },
    };
    match refused {
        Some(e) => ws
            .send(Message::text(describe_error(&e.to_string())))
            .is_ok(),
        None => true,
    }
}

/// Sends what was published since the session last looked; false when the connection is gone. The frame is
/// encoded here, on the session's thread, outside the lock.
fn forward(
    ws: &mut WebSocket<TcpStream>,
    shared: &Shared,
    cursor: &mut Cursor,
    id: u64,
    commands: &Sender<Command>,
) -> bool {
    let (scene, notices, frame) = {
        let p = shared.lock();
        let scene = (p.scene_version != cursor.scene_version).then(|| Arc::clone(&p.scene));
        cursor.scene_version = p.scene_version;
        let (notices, log) = p.log.since(cursor.log, id);
        cursor.log = log;
        let frame = if cursor.wants_frame && p.frame_seq > cursor.frame_seq {
            cursor.frame_seq = p.frame_seq;
            p.frame.clone()
        } else {
            None
        };
        (scene, notices, frame)
    };
    if cursor.wants_frame && frame.is_none() {
        // Nothing newer yet: the simulation thread builds the next frame for this request (woken at once, so a
        // paused scene's change is sent without waiting for its next wake-up).
        shared.frame_wanted.store(true, Ordering::Release);
        if !cursor.told {
            cursor.told = true;
            if commands.send(Command::FrameWanted).is_err() {
                return false;
            }
        }
    }
    let mut sent = false;
    for text in scene.into_iter().chain(notices) {
        if ws.write(Message::text(text.to_string())).is_err() {
            return false;
        }
        sent = true;
    }
    if let Some(frame) = frame {
        cursor.wants_frame = false;
        cursor.told = false;
        if ws.write(Message::binary(frame.encode())).is_err() {
            return false;
        }
        sent = true;
    }
    !sent || ws.flush().is_ok()
}
