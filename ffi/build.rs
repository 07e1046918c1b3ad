//! Generates and compiles the cxx bridge glue (`src/bridge.rs` → `flinch/src/bridge.rs.{h,cc}` under
//! `$OUT_DIR/cxxbridge`) and tells the tests where it is (`FLINCH_CXXBRIDGE_DIR`), so they can check the copies
//! committed in `include/`.

fn main() {
    cxx_build::CFG.include_prefix = "flinch";
    cxx_build::bridge("src/bridge.rs")
        .std("c++17")
        .compile("flinch-cxxbridge");
    let out = std::env::var("OUT_DIR").unwrap_or_default();
    println!("cargo:rustc-env=FLINCH_CXXBRIDGE_DIR={out}/cxxbridge");
    println!("cargo:rerun-if-changed=src/bridge.rs");
}
