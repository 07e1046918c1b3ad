//! Generational handle tables: a handle is `generation << 32 | slot`, never a pointer, so a destroyed, removed or
//! stale handle (its slot since reused) is detected instead of being dereferenced. Generations start at 1, so the
//! all-zero handle is never valid. Each table XORs its kind into the top byte, so a handle of one kind passed as
//! another (a clip's id cast to a world) is "never issued" there instead of naming an unrelated live object.

use std::sync::{Mutex, MutexGuard};

/// A table of live objects addressed by generational handles.
#[derive(Debug)]
pub struct Table<T> {
    /// Per slot: its current generation and the object, if live.
    slots: Vec<(u32, Option<T>)>,
    /// Slots without an object.
    free: Vec<u32>,
    /// XORed into every handle of this table: the table's kind in the top byte.
    mask: u64,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table::new()
    }
}

impl<T> Table<T> {
    /// An empty table.
    pub const fn new() -> Table<T> {
        Table::with_kind(0)
    }

    /// An empty table whose handles carry `kind` (distinct per table) in their top byte.
    pub const fn with_kind(kind: u8) -> Table<T> {
        Table {
            slots: Vec::new(),
            free: Vec::new(),
            mask: (kind as u64) << 56,
        }
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&mut self, value: T) -> u64 {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.slots.push((1, None));
                (self.slots.len() - 1) as u32
            }
        };
        let entry = &mut self.slots[slot as usize];
        entry.1 = Some(value);
        ((u64::from(entry.0) << 32) | u64::from(slot)) ^ self.mask
    }

    /// The object of a live handle.
    pub fn get(&self, handle: u64) -> Option<&T> {
        let (slot, generation) = split(handle ^ self.mask);
        match self.slots.get(slot) {
            Some((g, Some(v))) if *g == generation => Some(v),
            _ => None,
        }
    }

    /// Takes the object of a live handle out; the handle (and every copy of it) becomes stale.
    pub fn remove(&mut self, handle: u64) -> Option<T> {
        let (slot, generation) = split(handle ^ self.mask);
        let entry = self.slots.get_mut(slot)?;
        if entry.0 != generation || entry.1.is_none() {
            return None;
        }
        entry.0 = entry.0.wrapping_add(1).max(1);
        self.free.push(slot as u32);
        entry.1.take()
    }

    /// Why `handle` is not live, for messages: never issued, or destroyed/stale.
    pub fn why_dead(&self, handle: u64) -> &'static str {
        let (slot, generation) = split(handle ^ self.mask);
        match self.slots.get(slot) {
            _ if handle == 0 => "is the null handle (0)",
            Some((g, _)) if generation != 0 && generation < *g => {
                "was destroyed or removed (stale handle)"
            }
            Some((g, None)) if generation == *g => "was destroyed or removed (stale handle)",
            _ => "was never issued",
        }
    }
}

/// Slot index and generation of a handle.
fn split(handle: u64) -> (usize, u32) {
    ((handle & 0xffff_ffff) as usize, (handle >> 32) as u32)
}

/// Locks a global table; a poisoned lock is taken over (table operations leave it consistent).
pub fn lock<T>(table: &Mutex<Table<T>>) -> MutexGuard<'_, Table<T>> {
    table.lock().unwrap_or_else(|p| p.into_inner())
}
