//! Sets the cfg `no_shared` when `../shared` (or `BIMARU_SHARED`) lacks the specifications
//! (`seeds/`) or the public corpus (`corpus/`) outside CI, so that the tests that need it report as ignored,
//! with the reason, in the summary line `cargo test` prints (never a bare `ok`). Under
//! `CI=true` a missing folder fails those tests instead (`tests/common/mod.rs`). The same for
//! `no_node_modules` and the browser test's `tests/web/node_modules`. The check
//! runs when this script or those variables change; `tests/tests.rs` fails when the folder
//! has appeared or vanished since (`touch build.rs` then).

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_shared)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=BIMARU_SHARED");
    let root = std::env::var_os("BIMARU_SHARED").map_or_else(
        || {
            PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
                .join("../shared")
        },
        PathBuf::from,
    );
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let whole = root.join("corpus").exists() && root.join("seeds").exists();
    if !whole && !ci {
        println!("cargo::rustc-cfg=no_shared");
    }
    // The browser test's JavaScript packages (`npm ci` in tests/web), likewise.
    println!("cargo::rustc-check-cfg=cfg(no_node_modules)");
    if !PathBuf::from("tests/web/node_modules/playwright-core").exists() && !ci {
        println!("cargo::rustc-cfg=no_node_modules");
    }
}
