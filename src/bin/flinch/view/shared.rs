//! What the simulation thread publishes and the WebSocket sessions read: the latest pose frame, the scene
//! description, a log of JSON notices (plots, events, replies; each for every session or for one) and the
//! recorded files offered for download.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use flinch::view_protocol::frame::Frame;

/// Notices kept for sessions that read late (a slow page loses the oldest).
const LOG_CAPACITY: usize = 4096;

/// A JSON text message for the page(s).
#[derive(Clone)]
pub struct Notice {
    /// The session it answers, or `None` for every session.
    pub to: Option<u64>,
    /// The JSON text.
    pub text: Arc<str>,
}

/// Notices in order, numbered from the first ever pushed.
#[derive(Default)]
pub struct Log {
    start: u64,
    items: VecDeque<Notice>,
}

impl Log {
    /// Appends a notice.
    pub fn push(&mut self, to: Option<u64>, text: String) {
        if self.items.len() == LOG_CAPACITY {
            self.items.pop_front();
            self.start += 1;
        }
        self.items.push_back(Notice {
            to,
            text: text.into(),
        });
    }

    /// The number the next notice will have.
    pub fn end(&self) -> u64 {
        self.start + self.items.len() as u64
    }

    /// The notices from `cursor` on that session `id` receives, and the new cursor.
    pub fn since(&self, cursor: u64, id: u64) -> (Vec<Arc<str>>, u64) {
        let skip = cursor.saturating_sub(self.start) as usize;
        let texts = self
            .items
            .iter()
            .skip(skip)
            .filter(|n| n.to.is_none_or(|to| to == id))
            .map(|n| Arc::clone(&n.text))
            .collect();
        (texts, self.end())
    }
}

/// The published state, behind one lock.
#[derive(Default)]
pub struct Published {
    /// The latest pose frame (`flinch::view_protocol::frame`), encoded by each session on its own thread.
    pub frame: Option<Arc<Frame>>,
    /// Bumped with every new frame.
    pub frame_seq: u64,
    /// The scene description (JSON `scene` message).
    pub scene: Arc<str>,
    /// Bumped with every new description.
    pub scene_version: u32,
    /// The latest `status` message (sent to a page when it connects).
    pub status: Arc<str>,
    /// The notices.
    pub log: Log,
    /// Recorded files by name.
    pub downloads: HashMap<String, Arc<Vec<u8>>>,
}

/// Shared between the simulation thread, the server and its sessions.
#[derive(Default)]
pub struct Shared {
    published: Mutex<Published>,
    /// Connected WebSocket sessions (frames are built only while one is).
    pub clients: AtomicUsize,
    /// A session waits for a frame newer than the published one (frames are built only then).
    pub frame_wanted: AtomicBool,
}

impl Shared {
    /// Nothing published yet.
    pub fn new() -> Shared {
        Shared::default()
    }

    /// The published state (a poisoned lock is still read: the data is plain values).
    pub fn lock(&self) -> MutexGuard<'_, Published> {
        self.published.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a page is connected.
    pub fn has_clients(&self) -> bool {
        self.clients.load(Ordering::Relaxed) > 0
    }
}
