//! Generates and compiles the cxx bridge glue (`src/bridge.rs` → `flinch/src/bridge.rs.{h,cc}` under
//! `$OUT_DIR/cxxbridge`), and gathers the generated C++ files a program linking libflinch needs next to the
//! libraries: `<target>/<profile>/include/` gets `flinch/src/bridge.rs.{h,cc}` and cxx's `rust/cxx.h` and
//! `rust/cxx.cc` (its one `#include "../include/cxx.h"` pointed at `rust/cxx.h`). They are build output, not
//! sources: nothing generated is committed (`include/` holds only what people write and `flinch.h`). C++ programs
//! compile with `-Iinclude -I<target>/<profile>/include`; `ffi/install.sh` copies both into a prefix. Tests find
//! the folder through `FLINCH_CXX_INCLUDE_DIR`.

use std::path::{Path, PathBuf};

fn main() {
    cxx_build::CFG.include_prefix = "flinch";
    cxx_build::bridge("src/bridge.rs")
        .std("c++17")
        .compile("flinch-cxxbridge");
    println!("cargo:rerun-if-changed=src/bridge.rs");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let generated = out.join("cxxbridge");
    // OUT_DIR is <target>/<profile>/build/<package>-<hash>/out.
    let Some(profile_dir) = out.ancestors().nth(3) else {
        panic!(
            "OUT_DIR {} is not <target>/<profile>/build/<package>/out",
            out.display()
        );
    };
    let include = profile_dir.join("include");
    let bridge_h = include.join("flinch/src/bridge.rs.h");
    copy(
        &generated.join("include/flinch/src/bridge.rs.h"),
        &bridge_h,
        None,
    );
    copy(
        &generated.join("sources/flinch/src/bridge.rs.cc"),
        &include.join("flinch/src/bridge.rs.cc"),
        None,
    );
    // cxx-build links include/rust/cxx.h to the cxx crate's include/cxx.h; its runtime is <crate>/src/cxx.cc.
    let cxx_h = std::fs::canonicalize(generated.join("include/rust/cxx.h"))
        .expect("cxx-build wrote include/rust/cxx.h");
    copy(&cxx_h, &include.join("rust/cxx.h"), None);
    let cxx_cc = cxx_h
        .parent()
        .and_then(Path::parent)
        .expect("cxx.h in <cxx crate>/include")
        .join("src/cxx.cc");
    copy(
        &cxx_cc,
        &include.join("rust/cxx.cc"),
        Some(("#include \"../include/cxx.h\"", "#include \"rust/cxx.h\"")),
    );
    println!(
        "cargo:rustc-env=FLINCH_CXX_INCLUDE_DIR={}",
        include.display()
    );
    println!(
        "cargo:rustc-env=FLINCH_CXXBRIDGE_DIR={}",
        generated.display()
    );
    // Gathered again when a copy is deleted.
    println!("cargo:rerun-if-changed={}", bridge_h.display());
}

/// Copies `from` to `to` (making its folder), with one text replacement `(old, new)` that must apply; written
/// only when the content changed, so dependent C++ builds are not made stale for nothing.
fn copy(from: &Path, to: &Path, replace: Option<(&str, &str)>) {
    let mut text =
        std::fs::read_to_string(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display()));
    if let Some((old, new)) = replace {
        assert!(
            text.contains(old),
            "{} no longer contains `{old}`: adapt ffi/build.rs",
            from.display()
        );
        text = text.replacen(old, new, 1);
    }
    if std::fs::read_to_string(to).ok().as_deref() == Some(text.as_str()) {
        return;
    }
    std::fs::create_dir_all(to.parent().expect("a file in a folder"))
        .unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    std::fs::write(to, text).unwrap_or_else(|e| panic!("write {}: {e}", to.display()));
}
