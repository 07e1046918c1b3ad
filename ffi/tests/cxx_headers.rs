//! The C++ files a program needs next to libflinch are build output: `ffi/build.rs` gathers cxx-build's
//! `flinch/src/bridge.rs.{h,cc}` and cxx's `rust/cxx.h` and `rust/cxx.cc` (its one `#include "../include/cxx.h"`
//! pointed at `rust/cxx.h`) into `<target>/<profile>/include/`. Checked here: the copies are what was generated,
//! nothing generated is committed under `include/`, and the hand-written `include/flinch/flinch.hpp` uses the
//! bridge.

use std::path::{Path, PathBuf};

/// Where `ffi/build.rs` gathered the C++ files of this build.
fn sdk() -> PathBuf {
    PathBuf::from(env!("FLINCH_CXX_INCLUDE_DIR"))
}

/// What cxx-build generated for this build.
fn generated() -> PathBuf {
    PathBuf::from(env!("FLINCH_CXXBRIDGE_DIR"))
}

fn include() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../include")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_gathered_bridge_and_cxx_runtime_are_the_generated_ones() {
    let g = generated();
    assert_eq!(
        read(&sdk().join("flinch/src/bridge.rs.h")),
        read(&g.join("include/flinch/src/bridge.rs.h"))
    );
    assert_eq!(
        read(&sdk().join("flinch/src/bridge.rs.cc")),
        read(&g.join("sources/flinch/src/bridge.rs.cc"))
    );
    // cxx.h: a real file (cxx-build's is a link into the cxx crate), the same text.
    let cxx_h = sdk().join("rust/cxx.h");
    assert!(
        !std::fs::symlink_metadata(&cxx_h)
            .expect("rust/cxx.h gathered")
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&cxx_h), read(&g.join("include/rust/cxx.h")));
    // cxx.cc: cxx's runtime, including the gathered header.
    let cc = read(&sdk().join("rust/cxx.cc"));
    assert!(cc.contains("#include \"rust/cxx.h\""));
    assert!(!cc.contains("../include/cxx.h"));
    assert!(cc.contains("namespace rust"), "not cxx's runtime source");
}

#[test]
fn nothing_generated_is_committed_under_include() {
    for stale in [
        "flinch/src/bridge.rs.h",
        "flinch/src/bridge.rs.cc",
        "rust/cxx.h",
        "rust/cxx.cc",
    ] {
        assert!(
            !include().join(stale).exists(),
            "include/{stale} is generated: it belongs in <target>/<profile>/include (ffi/build.rs), not in the repository"
        );
    }
}

#[test]
fn the_cpp_api_header_uses_the_bridge() {
    let hpp = read(&include().join("flinch/flinch.hpp"));
    for item in [
        "#include \"flinch/src/bridge.rs.h\"",
        "class Clip",
        "class World",
        "Clip(const Clip &) = delete",
    ] {
        assert!(
            hpp.contains(item),
            "`{item}` missing from include/flinch/flinch.hpp"
        );
    }
}
