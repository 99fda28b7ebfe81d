//! `docs/ARCHITECTURE.md` names every file in `src/`, so a newcomer can find the owner of any
//! behaviour from the page alone.

use std::path::Path;

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).expect("under src/");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn the_architecture_page_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("the page");
    let mut files = Vec::new();
    rust_files(&root.join("src"), &root.join("src"), &mut files);
    assert!(files.len() > 50, "found only {files:?}");
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !page.contains(&format!("`{f}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not name {missing:?}"
    );
}
