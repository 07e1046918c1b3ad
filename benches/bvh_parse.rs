//! Parse time of the 2.0 MB CMU file, flinch vs bvh_anim, in the same run.
//!
//! `cargo bench --bench bvh_parse` prints the median of N runs per parser and one `figure` line per headline
//! number. bvh_anim is a dev-dependency used only as a reference here and as a test oracle.

use std::path::PathBuf;
use std::time::Instant;

const RUNS: usize = 31;

fn corpus_file() -> Option<PathBuf> {
    let dir = std::env::var_os("FLINCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    let f = dir.join("bvh/cmu_01_01_jump.bvh");
    f.is_file().then_some(f)
}

/// Median wall time in milliseconds of `RUNS` calls (after one warm-up call).
fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..RUNS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[RUNS / 2]
}

fn main() {
    println!("{}", flinch::cpu_report());
    let Some(path) = corpus_file() else {
        eprintln!("corpus not found (set FLINCH_DATA): nothing to measure");
        return;
    };
    let bytes = std::fs::read(&path).expect("read corpus file");
    let opts = flinch::io::ImportOptions::default();
    let ours = median_ms(|| {
        let r = flinch::io::bvh::parse(&bytes, &opts).expect("flinch parses the CMU file");
        std::hint::black_box(r);
    });
    let raw = median_ms(|| {
        let r = flinch::io::bvh::parse_document(&bytes).expect("flinch parses the CMU file");
        std::hint::black_box(r);
    });
    let anim = median_ms(|| {
        let r = bvh_anim::from_bytes(&bytes[..]).expect("bvh_anim parses the CMU file");
        std::hint::black_box(r);
    });
    println!(
        "file: {} ({} bytes), median of {RUNS} runs",
        path.display(),
        bytes.len()
    );
    println!("{:<44} {:>9}", "parser", "ms");
    println!(
        "{:<44} {:>9.3}",
        "flinch parse (text -> Skeleton + Clip)", ours
    );
    println!(
        "{:<44} {:>9.3}",
        "flinch parse_document (text -> raw values)", raw
    );
    println!("{:<44} {:>9.3}", "bvh_anim from_bytes (f32 values)", anim);
    println!("ratio bvh_anim / flinch: {:.2}", anim / ours);
    println!("figure bvh_parse_ms {ours:.3} ms");
    println!("figure bvh_parse_document_ms {raw:.3} ms");
    println!("figure bvh_anim_parse_ms {anim:.3} ms");
}
