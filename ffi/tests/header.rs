//! `include/flinch.h` is what cbindgen generates from `ffi/src` (with the version macros); a stale committed header
//! fails here. `FLINCH_BLESS=1 cargo test -p flinch-ffi --test header` rewrites it.

use std::path::Path;

/// The header as generated now.
fn generate() -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("ffi/cbindgen.toml");
    config.after_includes = Some(format!(
        "\n/** Version of this header (compare with flinch_version() at run time). */\n\
         #define FLINCH_VERSION_MAJOR {}\n#define FLINCH_VERSION_MINOR {}\n#define FLINCH_VERSION_PATCH {}\n",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    ));
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs")) // follows the `mod` declarations
        .generate()
        .expect("cbindgen failed on ffi/src")
        .write(&mut out);
    String::from_utf8(out).expect("cbindgen wrote UTF-8")
}

#[test]
fn committed_header_is_the_generated_one() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../include/flinch.h");
    let generated = generate();
    if std::env::var_os("FLINCH_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/flinch.h");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or(
                committed.lines().count().min(generated.lines().count()) + 1,
                |i| i + 1,
            );
        panic!(
            "include/flinch.h is stale (first difference at line {line}); regenerate with \
             FLINCH_BLESS=1 cargo test -p flinch-ffi --test header"
        );
    }
}

#[test]
fn header_declares_the_whole_abi_with_docs() {
    let h = generate();
    for item in [
        "#define FLINCH_VERSION_MAJOR",
        "FLINCH_STATUS_BUFFER_TOO_SMALL = 4",
        "const char *flinch_last_error(void);",
        "flinch_world_apply_impulse(",
        "flinch_character_joint_deviations(",
        "FLINCH_FORMAT_GLB = 2",
        "typedef struct FlinchTransform",
        "FLINCH_ROOT_POLICY_ASSISTED = 2",
        "FLINCH_ROOT_STATE_GETTING_UP = 5",
        "typedef struct FlinchRootEvent",
        "FLINCH_COLLIDER_SHAPE_HEIGHT_FIELD = 6",
        "FLINCH_RAY_HIT_KIND_COLLIDER = 2",
        "typedef struct FlinchColliderDesc",
        "typedef struct FlinchRayHit",
    ] {
        assert!(
            h.contains(item),
            "`{item}` missing from the generated header"
        );
    }
    let exported = [
        "flinch_version",
        "flinch_clip_load_file",
        "flinch_world_step",
        "flinch_world_event",
        "flinch_character_set_root_policy",
        "flinch_character_set_assist_weight",
        "flinch_character_root_state",
        "flinch_character_root_event",
        "flinch_character_ground_floor",
        "flinch_collider_desc_default",
        "flinch_world_add_collider",
        "flinch_world_remove_collider",
        "flinch_world_move_collider",
        "flinch_world_load_level",
        "flinch_world_cast_ray",
        "flinch_world_cast_sphere",
        "flinch_character_set_level_layers",
    ];
    for f in exported {
        assert!(h.contains(&format!("{f}(")), "{f} not declared");
    }
    // Doc comments are carried over.
    assert!(h.contains("thread-local"), "doc comments missing");
}
