//! Issue 13's `blend_walk_jump`: a clip library on the CMU walk's skeleton (the walk and the CMU jump, same
//! hierarchy), played on a streamed character: the walk loops, at 1.0 s the jump starts with a 0.3 s cross-fade
//! (slerp per joint, root aligned by heading and position); tracking of the blended targets and the largest joint
//! speed from the start to 2 s after the blend. `cargo run --release --example blend_walk_jump [JUMP.bvh]`

use flinch::control::stream::{ClipLibrary, ClipPlayer, run_player};
use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, Imported, load_embedded_walk, load_file};
use flinch::skeleton::Clip;

fn clip_of(imported: &Imported) -> Clip {
    Clip {
        frame_time: imported.clip.frame_time,
        frames: imported.animation_frames().to_vec(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = std::env::var("FLINCH_DATA").unwrap_or_else(|_| "../shared/data".into());
    let jump_path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| format!("{data}/bvh/cmu_01_01_jump.bvh"));
    let walk = load_embedded_walk(&ImportOptions::default())?;
    let jump = load_file(std::path::Path::new(&jump_path), &ImportOptions::default())?;
    let mut library = ClipLibrary::new(walk.skeleton.clone());
    let walk_clip = library.add("walk", &walk.skeleton, clip_of(&walk))?;
    let jump_clip = library.add("jump", &jump.skeleton, clip_of(&jump))?;
    let mut player = ClipPlayer::new(&library, walk_clip, true, 1.0)?;
    let first = player.sample(&library, 0.0);
    let mut c = Character::streamed(
        walk.skeleton.clone(),
        &first,
        None,
        &CharacterConfig::default(),
    )?;
    let h = c.step_size();
    let blend_at = 1.0;
    // Two seconds of jump after the blend starts (the take is 23 s of jumps; at 12 s its left toe has a 50 rad/s
    // capture glitch that the character follows too, unrelated to the blend).
    let end = blend_at + 2.0;
    let mut started = false;
    let run = run_player(&mut c, &library, &mut player, h, end, |_, player, t| {
        if !started && t >= blend_at - 0.5 * h {
            started = true;
            player
                .play(&library, t, jump_clip, 0.3, false, 1.0)
                .map_err(|e| flinch::control::CharacterError::Argument(e.to_string()))?;
        }
        Ok(())
    })?;
    println!(
        "walk (looping) -> jump at {blend_at} s over 0.3 s, {} steps at {:.0} Hz: track rms {:.3e} deg, max {:.3e} deg, \
         max joint speed {:.2} rad/s ({} at {:.3} s)",
        run.steps,
        1.0 / h,
        run.track_rms_deg,
        run.track_max_deg,
        run.max_joint_speed_rad_s,
        run.max_joint_speed_at.1,
        run.max_joint_speed_at.0
    );
    println!("figure blend_track_rms_deg {:.3e} deg", run.track_rms_deg);
    println!("figure blend_track_max_deg {:.3e} deg", run.track_max_deg);
    println!(
        "figure max_joint_speed_rad_s {:.3} rad/s",
        run.max_joint_speed_rad_s
    );
    Ok(())
}
