//! The `flinch` command-line tool.
fn main() {}
