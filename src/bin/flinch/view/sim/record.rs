//! Recording the reacted motion: each character's simulated pose every physics step, written on stop by the bake
//! writers (`flinch::bake::write_baked`: BVH in the input's hierarchy, unit and axes; GLB keeping a glTF input's
//! meshes and skins) and offered to the page for download.

use flinch::bake::{WriteSource, write_baked};
use flinch::scene::{CharacterKey, Scene};
use flinch::skeleton::{Clip, Pose};

use super::super::setup::Setup;

/// Poses recorded so far.
pub struct Recording {
    /// Scene time of each recorded frame.
    times: Vec<f64>,
    /// Per character, one pose per frame.
    poses: Vec<Vec<Pose>>,
    /// Seconds between frames (the physics step).
    frame_time: f64,
}

impl Recording {
    /// Starts with the scene's poses now.
    pub fn start(scene: &Scene, keys: &[CharacterKey]) -> Recording {
        let frame_time = keys
            .first()
            .and_then(|k| scene.character(*k).ok())
            .map_or(1.0 / 120.0, |c| c.step_size());
        let mut r = Recording {
            times: Vec::new(),
            poses: vec![Vec::new(); keys.len()],
            frame_time,
        };
        r.push(scene, keys);
        r
    }

    /// Records the poses after a step.
    pub fn push(&mut self, scene: &Scene, keys: &[CharacterKey]) {
        self.times.push(scene.time());
        for (poses, key) in self.poses.iter_mut().zip(keys) {
            if let Ok(c) = scene.character(*key) {
                poses.push(c.pose());
            }
        }
    }

    /// The scene was rebuilt (characters added, loaded, restarted): a new take begins.
    pub fn restart(&mut self, scene: &Scene, keys: &[CharacterKey]) {
        *self = Recording::start(scene, keys);
    }

    /// A scrub back to `time`: the frames after it are no longer this take's.
    pub fn cut(&mut self, time: f64) {
        let keep = self.times.iter().take_while(|t| **t <= time + 1e-9).count();
        self.times.truncate(keep);
        for p in &mut self.poses {
            p.truncate(keep);
        }
    }

    /// Writes every character's take as BVH and GLB: `(file name, bytes)`.
    pub fn finish(
        self,
        setup: &Setup,
        clips: &[usize],
        take: u32,
    ) -> Result<Vec<(String, Vec<u8>)>, String> {
        if self.times.len() < 2 {
            return Err("nothing recorded: let the simulation run while recording".into());
        }
        let mut files = Vec::new();
        for (i, poses) in self.poses.into_iter().enumerate() {
            let Some(source) = clips.get(i).and_then(|&c| setup.clips.get(c)) else {
                continue;
            };
            let clip = Clip {
                frame_time: self.frame_time,
                frames: poses,
            };
            for ext in ["bvh", "glb"] {
                let name = format!("take{take}_character{i}.{ext}");
                let path =
                    std::env::temp_dir().join(format!("flinch-view-{}-{name}", std::process::id()));
                let write = WriteSource {
                    report: &source.report,
                    gltf: source.gltf.as_ref(),
                };
                write_baked(&path, &source.skeleton, &clip, write)?;
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()));
                let _ = std::fs::remove_file(&path);
                files.push((name, bytes?));
            }
        }
        Ok(files)
    }
}
