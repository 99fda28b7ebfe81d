//! The library's public surface, listed so that it grows only on purpose.
//!
//! The walk starts at `src/lib.rs` and follows every `pub mod`; it lists each public item
//! (functions, types, traits, constants, macros, the public methods of inherent impls, the enums
//! declared through `choice!`) and each public re-export, one line each, by path. The list is an
//! insta snapshot (`tests/snapshots/integration__public_api__surface.snap`): an item made public,
//! or one that stops being public, fails this test until the snapshot is accepted
//! (`cargo insta review`, or `INSTA_UPDATE=always`), so the change shows in review.

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// `#[cfg(test)]` items are not part of any build's surface.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// The feature an item needs, as a suffix of its line.
fn feature_note(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .map(|a| {
            let tokens = a.meta.require_list().map(|l| l.tokens.to_string());
            format!("  #[cfg({})]", tokens.unwrap_or_default())
        })
        .collect()
}

/// The names a `pub use` tree brings in, with their source paths.
fn use_lines(tree: &syn::UseTree, prefix: &str, module: &str, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => {
            let prefix = format!("{prefix}{}::", p.ident);
            use_lines(&p.tree, &prefix, module, out);
        }
        syn::UseTree::Name(n) => {
            out.push(format!("use {module}::{} = {prefix}{}", n.ident, n.ident));
        }
        syn::UseTree::Rename(r) => {
            out.push(format!("use {module}::{} = {prefix}{}", r.rename, r.ident));
        }
        syn::UseTree::Glob(_) => out.push(format!("use {module}::* = {prefix}*")),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_lines(tree, prefix, module, out);
            }
        }
    }
}

/// `choice! { pub enum Name ... }`: the enum's name when it is public.
fn choice_enums(mac: &syn::ItemMacro) -> Vec<String> {
    let tokens: Vec<String> = mac
        .mac
        .tokens
        .clone()
        .into_iter()
        .map(|t| t.to_string())
        .collect();
    tokens
        .windows(3)
        .filter(|w| w[0] == "pub" && w[1] == "enum")
        .map(|w| w[2].clone())
        .collect()
}

fn walk_items(
    items: &[syn::Item],
    module: &str,
    dir: &Path,
    file_stem: &str,
    out: &mut Vec<String>,
) {
    for item in items {
        let (vis, attrs, line) = match item {
            syn::Item::Fn(f) => (&f.vis, &f.attrs, format!("fn {module}::{}", f.sig.ident)),
            syn::Item::Struct(s) => (&s.vis, &s.attrs, format!("struct {module}::{}", s.ident)),
            syn::Item::Enum(e) => (&e.vis, &e.attrs, format!("enum {module}::{}", e.ident)),
            syn::Item::Trait(t) => (&t.vis, &t.attrs, format!("trait {module}::{}", t.ident)),
            syn::Item::Type(t) => (&t.vis, &t.attrs, format!("type {module}::{}", t.ident)),
            syn::Item::Const(c) => (&c.vis, &c.attrs, format!("const {module}::{}", c.ident)),
            syn::Item::Static(s) => (&s.vis, &s.attrs, format!("static {module}::{}", s.ident)),
            syn::Item::Use(u) => {
                if is_pub(&u.vis) && !is_test_only(&u.attrs) {
                    let mut lines = Vec::new();
                    use_lines(&u.tree, "", module, &mut lines);
                    let note = feature_note(&u.attrs);
                    out.extend(lines.into_iter().map(|l| format!("{l}{note}")));
                }
                continue;
            }
            syn::Item::Macro(m) => {
                let exported = m.attrs.iter().any(|a| a.path().is_ident("macro_export"));
                if let (true, Some(name)) = (exported, &m.ident) {
                    out.push(format!("macro {name}"));
                }
                let note = feature_note(&m.attrs);
                for name in choice_enums(m) {
                    out.push(format!("enum {module}::{name}{note}"));
                }
                continue;
            }
            syn::Item::Impl(imp) => {
                if imp.trait_.is_some() || is_test_only(&imp.attrs) {
                    continue;
                }
                let syn::Type::Path(ty) = &*imp.self_ty else {
                    continue;
                };
                let Some(ty) = ty.path.segments.last() else {
                    continue;
                };
                for inner in &imp.items {
                    if let syn::ImplItem::Fn(f) = inner
                        && is_pub(&f.vis)
                        && !is_test_only(&f.attrs)
                    {
                        let note = feature_note(&f.attrs);
                        out.push(format!("fn {module}::{}::{}{note}", ty.ident, f.sig.ident));
                    }
                }
                continue;
            }
            syn::Item::Mod(m) => {
                if !is_pub(&m.vis) || is_test_only(&m.attrs) {
                    continue;
                }
                let path = format!("{module}::{}", m.ident);
                out.push(format!("mod {path}{}", feature_note(&m.attrs)));
                match &m.content {
                    Some((_, inner)) => walk_items(inner, &path, dir, file_stem, out),
                    None => {
                        // `mod x;` in `a.rs` lives in `a/x.rs` (or `a/x/mod.rs`); in `mod.rs`
                        // or `lib.rs`, beside it.
                        let base = if file_stem == "mod" || file_stem == "lib" {
                            dir.to_path_buf()
                        } else {
                            dir.join(file_stem)
                        };
                        let name = m.ident.to_string();
                        let flat = base.join(format!("{name}.rs"));
                        let file = if flat.exists() {
                            flat
                        } else {
                            base.join(&name).join("mod.rs")
                        };
                        walk_file(&file, &path, out);
                    }
                }
                continue;
            }
            _ => continue,
        };
        if is_pub(vis) && !is_test_only(attrs) {
            out.push(format!("{line}{}", feature_note(attrs)));
        }
    }
}

fn walk_file(file: &Path, module: &str, out: &mut Vec<String>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let dir = file.parent().expect("a file has a folder");
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a file name");
    walk_items(&syntax.items, module, dir, stem, out);
}

/// The public surface, one sorted line per item.
fn surface() -> String {
    let mut lines = Vec::new();
    walk_file(&src().join("lib.rs"), "bimaru_sat", &mut lines);
    lines.sort();
    lines.dedup();
    lines.join("\n") + "\n"
}

#[test]
fn the_public_surface_is_the_listed_one() {
    let surface = surface();
    // The walk sees the layers and the names every caller uses.
    for expected in [
        "fn bimaru_sat::usecase::solve::solve",
        "use bimaru_sat::Puzzle = model::puzzle::Puzzle",
        "mod bimaru_sat::usecase",
    ] {
        assert!(surface.contains(expected), "the walk missed {expected}");
    }
    insta::assert_snapshot!("surface", surface);
}
