//! MuJoCo timings measured in the same run, through `bench/mujoco_humanoid.py` (MuJoCo's humanoid model).

use std::process::Command;

/// MuJoCo's per-call times on its humanoid (µs).
#[derive(Debug, Clone, Copy)]
pub struct MujocoTimings {
    /// `mj_step`.
    pub step_us: f64,
    /// `mj_inverse`.
    pub inverse_us: f64,
}

/// Runs the script and parses its `figure` lines; `None`, with a note printed, when python3 or the `mujoco`
/// module is unavailable.
pub fn mujoco_timings() -> Option<MujocoTimings> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/mujoco_humanoid.py");
    let out = match Command::new("python3").arg(script).output() {
        Ok(o) => o,
        Err(e) => {
            println!("note: could not run python3 {script}: {e}; MuJoCo ratio skipped");
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = if stderr.contains("No module named 'mujoco'") {
            "the mujoco module is not installed (pip install mujoco)".to_string()
        } else {
            format!("it failed: {}", stderr.trim())
        };
        println!("note: bench/mujoco_humanoid.py did not run: {why}; MuJoCo ratio skipped");
        return None;
    }
    for line in stdout.lines() {
        println!("  mujoco: {line}");
    }
    let figure = |name: &str| -> Option<f64> {
        stdout.lines().find_map(|l| {
            l.strip_prefix(name)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
    };
    Some(MujocoTimings {
        step_us: figure("figure mujoco_step_us ")?,
        inverse_us: figure("figure mujoco_inverse_us ")?,
    })
}
