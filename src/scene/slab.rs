//! A generational slab: values addressed by (index, generation) keys, so a key to a removed value is detected
//! (stale) instead of silently addressing whatever reuses the slot.

/// A slot's index and the generation it was filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct RawKey {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl RawKey {
    /// Packs the key as `generation << 32 | index` (for handles crossing the C ABI).
    pub(crate) fn to_raw(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    /// Unpacks [`RawKey::to_raw`].
    pub(crate) fn from_raw(raw: u64) -> RawKey {
        RawKey {
            index: raw as u32,
            generation: (raw >> 32) as u32,
        }
    }
}

#[derive(Debug, Clone)]
struct Slot<T> {
    /// Starts at 1 and grows on every removal, so a zeroed key (0) is never valid.
    generation: u32,
    value: Option<T>,
}

/// Values with generational keys; freed slots are reused with a new generation.
#[derive(Debug, Clone)]
pub(crate) struct Slab<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    /// The generation of a new slot.
    first_generation: u32,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab {
            slots: Vec::new(),
            free: Vec::new(),
            first_generation: 1,
        }
    }
}

impl<T> Slab<T> {
    /// An empty slab whose new slots start at generation `base` (0 is taken as 1): two slabs with distant bases
    /// refuse each other's keys.
    pub(crate) fn with_generation_base(base: u32) -> Slab<T> {
        Slab {
            first_generation: base.max(1),
            ..Slab::default()
        }
    }

    /// The value in slot `index`, whatever its generation.
    pub(crate) fn get_by_index(&self, index: u32) -> Option<&T> {
        self.slots.get(index as usize)?.value.as_ref()
    }

    /// The current key of slot `index`.
    pub(crate) fn key_of(&self, index: u32) -> RawKey {
        RawKey {
            index,
            generation: self.slots.get(index as usize).map_or(0, |s| s.generation),
        }
    }

    /// Stores `value` and returns its key.
    pub(crate) fn insert(&mut self, value: T) -> RawKey {
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            return RawKey {
                index,
                generation: slot.generation,
            };
        }
        let index = self.slots.len() as u32;
        let generation = self.first_generation;
        self.slots.push(Slot {
            generation,
            value: Some(value),
        });
        RawKey { index, generation }
    }

    /// Removes and returns the value of `key`; `None` when the key is stale or was never issued.
    pub(crate) fn remove(&mut self, key: RawKey) -> Option<T> {
        let slot = self.slots.get_mut(key.index as usize)?;
        if slot.generation != key.generation {
            return None;
        }
        let value = slot.value.take()?;
        slot.generation = slot.generation.wrapping_add(1).max(1);
        self.free.push(key.index);
        Some(value)
    }

    /// The value of `key`, if it is live.
    pub(crate) fn get(&self, key: RawKey) -> Option<&T> {
        let slot = self.slots.get(key.index as usize)?;
        (slot.generation == key.generation)
            .then_some(slot.value.as_ref())
            .flatten()
    }

    /// The value of `key`, mutably, if it is live.
    pub(crate) fn get_mut(&mut self, key: RawKey) -> Option<&mut T> {
        let slot = self.slots.get_mut(key.index as usize)?;
        (slot.generation == key.generation)
            .then_some(slot.value.as_mut())
            .flatten()
    }

    /// Live entries with their keys, in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (RawKey, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.value.as_ref().map(|v| {
                (
                    RawKey {
                        index: i as u32,
                        generation: s.generation,
                    },
                    v,
                )
            })
        })
    }

    /// Live entries, mutably, with their keys, in slot order.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (RawKey, &mut T)> {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| {
            let generation = s.generation;
            s.value.as_mut().map(|v| {
                (
                    RawKey {
                        index: i as u32,
                        generation,
                    },
                    v,
                )
            })
        })
    }

    /// Number of live entries.
    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_keys_are_refused_after_reuse() {
        let mut s = Slab::default();
        let a = s.insert("a");
        assert_eq!(s.remove(a), Some("a"));
        let b = s.insert("b");
        assert_eq!(a.index, b.index);
        assert_ne!(a, b);
        assert_eq!(s.get(a), None);
        assert_eq!(s.remove(a), None);
        assert_eq!(s.get(b), Some(&"b"));
        assert_eq!(s.get(RawKey::from_raw(0)), None);
        assert_eq!(RawKey::from_raw(b.to_raw()), b);
        assert_eq!(s.len(), 1);
    }
}
