//! The C++ headers and glue committed in `include/` are copies of what `ffi/build.rs` (cxx-build) generates:
//! `include/flinch/src/bridge.rs.{h,cc}` and cxx's `include/rust/cxx.h`, plus cxx's runtime `include/rust/cxx.cc`
//! (its one `#include "../include/cxx.h"` pointed at `rust/cxx.h`). `FLINCH_BLESS=1` refreshes the copies.

use std::path::{Path, PathBuf};

/// What `ffi/build.rs` generated for this build.
fn generated() -> PathBuf {
    PathBuf::from(env!("FLINCH_CXXBRIDGE_DIR"))
}

fn include() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../include")
}

/// Compares (or with FLINCH_BLESS rewrites) the committed copy `rel` under include/ with `fresh`.
fn check(rel: &str, fresh: &str) {
    let path = include().join(rel);
    if std::env::var_os("FLINCH_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("create include dir");
        std::fs::write(&path, fresh).expect("write the copy");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/{rel} differs from the generated file; refresh with FLINCH_BLESS=1 cargo test -p flinch-ffi --test cxx_headers"
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn bridge_header_and_glue_are_the_generated_ones() {
    let g = generated();
    check(
        "flinch/src/bridge.rs.h",
        &read(&g.join("include/flinch/src/bridge.rs.h")),
    );
    check(
        "flinch/src/bridge.rs.cc",
        &read(&g.join("sources/flinch/src/bridge.rs.cc")),
    );
}

#[test]
fn cxx_runtime_header_and_source_are_cxx_s() {
    let header = g_cxx_h();
    check("rust/cxx.h", &read(&header));
    // cxx.h lives in <cxx crate>/include; its runtime source in <cxx crate>/src/cxx.cc.
    let source = header
        .parent()
        .and_then(Path::parent)
        .expect("cxx crate dir")
        .join("src/cxx.cc");
    let text = read(&source);
    let rewritten = text.replacen(
        "#include \"../include/cxx.h\"",
        "#include \"rust/cxx.h\"",
        1,
    );
    assert_ne!(
        text, rewritten,
        "cxx.cc no longer includes ../include/cxx.h: adapt this test"
    );
    check("rust/cxx.cc", &rewritten);
}

/// cxx.h as cxx-build placed it (a symlink into the cxx crate), resolved.
fn g_cxx_h() -> PathBuf {
    let link = generated().join("include/rust/cxx.h");
    std::fs::canonicalize(&link).unwrap_or_else(|e| panic!("{}: {e}", link.display()))
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
