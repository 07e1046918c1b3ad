//! The binary pose frame (`docs/view.md`, "Frames"): one per rendered frame, all little-endian.
//!
//! | offset | type | field |
//! |---|---|---|
//! | 0 | 4 bytes | magic `FLV2` (the protocol's version: `FLV1` frames had no bone transforms) |
//! | 4 | u32 | scene version (bumped when characters are added, loaded or restarted) |
//! | 8 | f64 | scene time (s) |
//! | 16 | u32 | click hits applied so far |
//! | 20 | u32 | flags: bit 0 paused, bit 1 recording |
//! | 24 | u16, u16 | characters `C`, balls `B` |
//! | 28 | u32 | reserved (0) |
//! | 32 | `C` × u16 | bodies per character, then 2 bytes of padding when `C` is odd |
//! | … | `C` × u16 | bones per character (0: no skin drawn), then 2 bytes of padding when `C` is odd |
//! | … | per character: bodies × 7 f32 | simulated body frames: position x y z (m), quaternion x y z w |
//! | … | per character: bodies × 7 f32 | the clip's (ghost) body frames, same layout |
//! | … | per character: bones × 7 f32 | the world transform of every skeleton joint (`Character::world_transforms`) |
//! | … | `B` × 4 f32 | balls: centre x y z (m), radius (m) |
//!
//! A body frame is the body's skeleton joint frame (`Character::body_frame`): the capsules of the scene
//! description are in it. Bones are sent for the characters whose rig is a glTF with a skin (the page drives the
//! skin's joints with them): the simulated bodies at their joints and the merged bones carried by their body with
//! the clip's local motion, in skeleton joint order.

/// The first four bytes of every frame.
pub const FRAME_MAGIC: [u8; 4] = *b"FLV2";
/// Bytes before the body counts.
pub const HEADER_BYTES: usize = 32;
/// Flag: the simulation clock is stopped.
pub const FLAG_PAUSED: u32 = 1;
/// Flag: the motion is being recorded.
pub const FLAG_RECORDING: u32 = 2;

/// A frame's header.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameHeader {
    /// The scene description this frame belongs to.
    pub scene_version: u32,
    /// Scene time (s).
    pub time: f64,
    /// Click hits applied so far (a page measures its click-to-frame latency with it).
    pub click_hits: u32,
    /// [`FLAG_PAUSED`], [`FLAG_RECORDING`].
    pub flags: u32,
}

/// A body frame: position (m) and unit quaternion (x, y, z, w).
pub type BodyPose = [f32; 7];

/// One character in a frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CharacterFrame {
    /// The simulated body frames.
    pub sim: Vec<BodyPose>,
    /// The clip's body frames (the ghost).
    pub ghost: Vec<BodyPose>,
    /// The world transform of every skeleton joint, same layout (empty for a character drawn without a skin).
    pub bones: Vec<BodyPose>,
}

/// A decoded frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    /// The header.
    pub header: FrameHeader,
    /// The characters in scene order.
    pub characters: Vec<CharacterFrame>,
    /// The balls: centre and radius.
    pub balls: Vec<[f32; 4]>,
}

impl Frame {
    /// The frame's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let bodies: usize = self.characters.iter().map(|c| c.sim.len()).sum();
        let bones: usize = self.characters.iter().map(|c| c.bones.len()).sum();
        let mut out = Vec::with_capacity(
            HEADER_BYTES
                + 4 * self.characters.len()
                + 8
                + bodies * 56
                + bones * 28
                + self.balls.len() * 16,
        );
        out.extend_from_slice(&FRAME_MAGIC);
        out.extend_from_slice(&self.header.scene_version.to_le_bytes());
        out.extend_from_slice(&self.header.time.to_le_bytes());
        out.extend_from_slice(&self.header.click_hits.to_le_bytes());
        out.extend_from_slice(&self.header.flags.to_le_bytes());
        out.extend_from_slice(&(self.characters.len() as u16).to_le_bytes());
        out.extend_from_slice(&(self.balls.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for counts in [
            |c: &CharacterFrame| c.sim.len(),
            |c: &CharacterFrame| c.bones.len(),
        ] {
            for c in &self.characters {
                out.extend_from_slice(&(counts(c) as u16).to_le_bytes());
            }
            if self.characters.len() % 2 == 1 {
                out.extend_from_slice(&[0, 0]);
            }
        }
        for c in &self.characters {
            for pose in c.sim.iter().chain(&c.ghost).chain(&c.bones) {
                for x in pose {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        for ball in &self.balls {
            for x in ball {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Decodes a frame; an error names what is wrong (never panics).
    pub fn decode(bytes: &[u8]) -> Result<Frame, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != FRAME_MAGIC {
            return Err("not a flinch view frame (magic)".into());
        }
        let scene_version = r.u32()?;
        let time = f64::from_le_bytes(r.take(8)?.try_into().map_err(|_| "time")?);
        let click_hits = r.u32()?;
        let flags = r.u32()?;
        let characters = r.u16()? as usize;
        let balls = r.u16()? as usize;
        if r.u32()? != 0 {
            return Err("reserved field is not 0".into());
        }
        let counts = |r: &mut Reader<'_>| {
            let n = (0..characters)
                .map(|_| r.u16().map(usize::from))
                .collect::<Result<Vec<_>, _>>()?;
            if characters % 2 == 1 && r.u16()? != 0 {
                return Err("padding is not 0".into());
            }
            Ok::<_, String>(n)
        };
        let body_counts = counts(&mut r)?;
        let bone_counts = counts(&mut r)?;
        let mut frame = Frame {
            header: FrameHeader {
                scene_version,
                time,
                click_hits,
                flags,
            },
            ..Frame::default()
        };
        for (n, m) in body_counts.into_iter().zip(bone_counts) {
            let sim = (0..n).map(|_| r.pose()).collect::<Result<Vec<_>, _>>()?;
            let ghost = (0..n).map(|_| r.pose()).collect::<Result<Vec<_>, _>>()?;
            let bones = (0..m).map(|_| r.pose()).collect::<Result<Vec<_>, _>>()?;
            frame.characters.push(CharacterFrame { sim, ghost, bones });
        }
        for _ in 0..balls {
            frame.balls.push([r.f32()?, r.f32()?, r.f32()?, r.f32()?]);
        }
        if r.at != bytes.len() {
            return Err(format!("{} trailing bytes", bytes.len() - r.at));
        }
        Ok(frame)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("frame cut at byte {}", self.bytes.len()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_bits(self.u32()?))
    }

    fn pose(&mut self) -> Result<BodyPose, String> {
        let mut p = [0.0; 7];
        for x in &mut p {
            *x = self.f32()?;
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let frame = Frame {
            header: FrameHeader {
                scene_version: 3,
                time: 1.25,
                click_hits: 2,
                flags: FLAG_PAUSED,
            },
            characters: vec![
                CharacterFrame {
                    sim: vec![[1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0]; 3],
                    ghost: vec![[0.5; 7]; 3],
                    bones: vec![[0.25; 7]; 5],
                },
                CharacterFrame {
                    sim: vec![[4.0; 7]; 2],
                    ghost: vec![[3.0; 7]; 2],
                    bones: Vec::new(),
                },
            ],
            balls: vec![[0.0, 1.0, 2.0, 0.11]],
        };
        let bytes = frame.encode();
        assert_eq!(bytes.len(), HEADER_BYTES + 4 + 4 + (10 + 5) * 28 + 16);
        assert_eq!(Frame::decode(&bytes), Ok(frame));
        assert!(Frame::decode(&bytes[..bytes.len() - 1]).is_err());
    }
}
