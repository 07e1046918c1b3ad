//! Issue 11's `knockdown`: the CMU walk with an assisted free root takes a 5 kg ball at 12 m/s into the chest at
//! t = 1 s (it staggers, falls, goes limp, comes to rest and gets up), then the demo's small ball on the forearm
//! (it stays up and returns to the clip). Issue 39's protective fall: the heavy hit again with the protection off
//! (the limp fall), and the `protective_fall` figures of the two. `cargo run --release --example knockdown`

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::{KnockdownHit, ProtectiveFallFigures, run_knockdown};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let mut limp = config.clone();
    limp.root.protect.enabled = false;
    let mut runs = Vec::new();
    for (name, config, hit, duration, prefix) in [
        (
            "heavy ball (5 kg, 12 m/s, chest)",
            &config,
            KnockdownHit::heavy(),
            7.0,
            "",
        ),
        (
            "small ball (0.45 kg, 15 m/s, forearm)",
            &config,
            KnockdownHit::small(),
            2.8,
            "small_",
        ),
        (
            "heavy ball, limp fall (protection off)",
            &limp,
            KnockdownHit::heavy(),
            7.0,
            "limp_",
        ),
    ] {
        let imported = load_embedded_walk(&ImportOptions::default())?;
        let character = Character::from_imported(imported, config)?;
        let f = run_knockdown(character, &hit, duration, |_| {})?;
        println!("{name}: {:.3} N·s", f.impulse_ns);
        for e in &f.events {
            println!("  {e}");
        }
        for e in &f.fall_events {
            println!("  {e}");
        }
        for line in f.figure_lines(prefix) {
            println!("{line}");
        }
        runs.push(f);
    }
    for line in ProtectiveFallFigures::new(&runs[0], &runs[2]).figure_lines() {
        println!("{line}");
    }
    Ok(())
}
