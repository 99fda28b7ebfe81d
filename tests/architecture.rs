//! The architecture of `src/` as `docs/ARCHITECTURE.md` draws it, checked from the code:
//! the page names every file, in its folder's section of the code map; the source root holds a
//! handful of entries; the import graph (every `use` line and every `crate::`/`super::` path,
//! read with `syn`) has no loop between files or folders and no import from a lower layer to a
//! higher one. Besides, every path the pages of `README.md`, `docs/` and `encodings/` name
//! exists, and `docs/benchmarks.md` stays under 400 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).expect("the page")
}

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

fn source_files() -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &root().join("src"), &mut files);
    files.sort();
    files
}

#[test]
fn the_architecture_page_names_every_module() {
    let page = page();
    let files = source_files();
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

/// The code map's sections, by folder: a heading "### `src/F/`" and the files its table names.
fn code_map_sections(page: &str) -> BTreeMap<String, Vec<String>> {
    let mut sections = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        if let Some(heading) = line.strip_prefix("### `src/") {
            let folder = heading.split('`').next().unwrap_or("");
            current = Some(folder.trim_end_matches('/').to_string());
        } else if line.starts_with("## ") {
            current = None;
        } else if let (Some(folder), true) = (&current, line.starts_with("| `")) {
            let first_cell = line.split(" | ").next().unwrap_or("");
            let names = first_cell.split('`').skip(1).step_by(2);
            let files = sections.entry(folder.clone()).or_insert_with(Vec::new);
            files.extend(names.map(str::to_string));
        }
    }
    sections
}

/// The folder a path of `src/` sits in ("" for the roots).
fn folder_of(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(folder, _)| folder)
}

#[test]
fn the_code_map_names_each_file_in_its_folders_section() {
    let sections = code_map_sections(&page());
    assert!(sections.len() > 20, "found only {:?}", sections.keys());
    let mut misplaced = Vec::new();
    for file in source_files() {
        let folder = folder_of(&file);
        let listed = sections.get(folder).is_some_and(|f| f.contains(&file));
        if !listed {
            misplaced.push(file);
        }
    }
    for (folder, files) in &sections {
        misplaced.extend(files.iter().filter(|f| folder_of(f) != folder).cloned());
    }
    assert!(
        misplaced.is_empty(),
        "docs/ARCHITECTURE.md's code map names these outside their folder's section: {misplaced:?}"
    );
    // The check catches a file listed under another folder.
    let planted = "### `src/model/`\n\n| file | owns |\n|---|---|\n| `format/ist.rs` | x |\n";
    let planted = code_map_sections(planted);
    assert!(planted["model"].iter().any(|f| folder_of(f) != "model"));
}

#[test]
fn the_source_root_holds_a_handful_of_entries() {
    let entries: Vec<String> = std::fs::read_dir(root().join("src"))
        .expect("src/")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(entries.len() <= 10, "src/ holds {entries:?}");
}

/// A module path (`["encode", "sat", "card"]`) for a file under `src/`; `lib.rs` and `main.rs`
/// are the roots of the library and of the binary.
fn module_of(file: &str) -> Vec<String> {
    let stem = file.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// What one file refers to: the paths it imports or names, and the names it re-exports.
#[derive(Default)]
struct Refs {
    paths: Vec<Vec<String>>,
    reexports: BTreeMap<String, Vec<String>>,
    /// The modules this file declares (`mod x;`): a path may start with their names.
    children: BTreeSet<String>,
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .require_list()
                .is_ok_and(|l| l.tokens.to_string().trim() == "test")
    })
}

fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            let name = n.ident.to_string();
            if name != "self" {
                path.push(name.clone());
            }
            let alias = if name == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                name
            };
            out.push((path, alias));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), "*".into())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

struct Collector<'a> {
    refs: &'a mut Refs,
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            _ => &Vec::new(),
        };
        if is_test_only(attrs) {
            return;
        }
        if let syn::Item::Mod(m) = item {
            self.refs.children.insert(m.ident.to_string());
        }
        if let syn::Item::Use(u) = item {
            let mut found = Vec::new();
            use_paths(&u.tree, &mut Vec::new(), &mut found);
            let public = matches!(
                u.vis,
                syn::Visibility::Public(_) | syn::Visibility::Restricted(_)
            );
            for (path, alias) in found {
                if public {
                    // A re-export is not a dependency of the file that makes it: the names
                    // it passes on resolve to where they are defined.
                    self.refs.reexports.insert(alias, path);
                } else {
                    self.refs.paths.push(path);
                }
            }
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {
        // `pub(super)` names a module but imports nothing.
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.refs.paths.push(segments);
        syn::visit::visit_path(self, path);
    }
}

/// The import graph of `src/`: for each file, the files it depends on.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = source_files();
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .filter(|f| f.as_str() != "main.rs")
        .map(|f| (module_of(f), f.clone()))
        .collect();
    let mut refs: BTreeMap<String, Refs> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(root().join("src").join(file)).expect("a source");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut r = Refs::default();
        Collector { refs: &mut r }.visit_file(&syntax);
        refs.insert(file.clone(), r);
    }
    // Absolute module paths of every re-export, by module.
    let children: BTreeMap<String, BTreeSet<String>> = refs
        .iter()
        .map(|(file, r)| (file.clone(), r.children.clone()))
        .collect();
    let absolute = |file: &str, path: &[String]| -> Option<Vec<String>> {
        let here = module_of(file);
        // A file `a/b.rs` is module a::b; `super` from it is a.
        let mut base = here.clone();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &rest[1..];
            }
            Some("bimaru_sat") if file.starts_with("app/") || file == "main.rs" => {
                base.clear();
                rest = &rest[1..];
            }
            Some("super") | Some("self") => {
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            base.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            // A path through a module this file declares (`mod ist;` ... `ist::parse`).
            Some(first) if children[file].contains(first) => {}
            _ => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    };
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (file, r) in &refs {
        for (alias, path) in &r.reexports {
            if let Some(abs) = absolute(file, path) {
                reexports
                    .entry(module_of(file))
                    .or_default()
                    .insert(alias.clone(), abs);
            }
        }
    }
    let resolve = |path: Vec<String>| -> Option<String> {
        let mut path = path;
        for _ in 0..16 {
            let mut k = path.len();
            while k > 0 && !modules.contains_key(&path[..k]) {
                k -= 1;
            }
            let module = path[..k].to_vec();
            let next = path
                .get(k)
                .and_then(|name| reexports.get(&module)?.get(name));
            match next {
                Some(target) => {
                    let mut p = target.clone();
                    p.extend(path[k + 1..].iter().cloned());
                    path = p;
                }
                None => return modules.get(&module).cloned(),
            }
        }
        None
    };
    let mut graph = BTreeMap::new();
    for (file, r) in &refs {
        let deps: BTreeSet<String> = r
            .paths
            .iter()
            .filter_map(|p| absolute(file, p))
            .filter_map(&resolve)
            .filter(|d| d != file && d != "lib.rs")
            .collect();
        graph.insert(file.clone(), deps);
    }
    graph
}

/// The strongly connected components of more than one node.
fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: order by finish time, then collect on the reversed graph.
    fn finish(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<String>,
        order: &mut Vec<String>,
    ) {
        if !seen.insert(node.to_owned()) {
            return;
        }
        for next in graph.get(node).into_iter().flatten() {
            finish(next, graph, seen, order);
        }
        order.push(node.to_owned());
    }
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for node in graph.keys() {
        finish(node, graph, &mut seen, &mut order);
    }
    let mut reversed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in graph {
        for to in tos {
            reversed.entry(to.clone()).or_default().insert(from.clone());
        }
    }
    let mut assigned = BTreeSet::new();
    let mut components = Vec::new();
    for node in order.iter().rev() {
        let mut component = Vec::new();
        finish(node, &reversed, &mut assigned, &mut component);
        if component.len() > 1 {
            component.sort();
            components.push(component);
        }
    }
    components
}

/// The imports inside each loop, one `a -> b` a line.
fn edges_within(graph: &BTreeMap<String, BTreeSet<String>>, loops: &[Vec<String>]) -> String {
    let mut out = String::new();
    for component in loops {
        for from in component {
            for to in graph[from].iter().filter(|t| component.contains(t)) {
                out.push_str(&format!("\n  {from} -> {to}"));
            }
        }
        out.push('\n');
    }
    out
}

#[test]
fn no_two_files_import_each_other_even_through_others() {
    let graph = import_graph();
    assert!(graph.len() > 50);
    assert!(
        graph.values().map(BTreeSet::len).sum::<usize>() > 200,
        "the graph is too thin to be read right"
    );
    let found = loops(&graph);
    assert!(
        found.is_empty(),
        "files in a loop: {}",
        edges_within(&graph, &found)
    );
}

/// The folders of a file, outermost first (`["encode", "sat"]` for `encode/sat/cell.rs`).
fn folders(file: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = file.split('/').collect();
    parts.pop();
    parts
}

#[test]
fn no_two_folders_import_each_other_even_through_others() {
    // A folder holds its subfolders, so a file importing from its folder's subfolder (or the
    // other way) stays inside one folder; two sibling folders (`encode/sat` and `encode/ilp`,
    // `format` and `reason`) must not import each other, even through others.
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, deps) in import_graph() {
        let from = folders(&file);
        for dep in deps {
            let to = folders(&dep);
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if let (Some(a), Some(b)) = (from.get(common), to.get(common)) {
                let parent = from[..common].join("/");
                let join = |f: &str| {
                    if parent.is_empty() {
                        f.to_owned()
                    } else {
                        format!("{parent}/{f}")
                    }
                };
                graph.entry(join(a)).or_default().insert(join(b));
            }
        }
    }
    assert!(
        graph.contains_key("usecase"),
        "the folder graph is too thin to be read right"
    );
    let found = loops(&graph);
    assert!(
        found.is_empty(),
        "folders in a loop: {}",
        edges_within(&graph, &found)
    );
}

/// The layers of the page's table `| rank | folder | ... |`, by top folder.
fn layers() -> BTreeMap<String, u32> {
    let page = page();
    let mut ranks = BTreeMap::new();
    for line in page.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        if let (Ok(rank), Some(folder)) = (
            cells[1].parse::<u32>(),
            cells[2]
                .strip_prefix('`')
                .and_then(|c| c.strip_suffix("/`")),
        ) {
            ranks.insert(folder.to_owned(), rank);
        }
    }
    ranks
}

#[test]
fn no_layer_imports_a_higher_one() {
    let ranks = layers();
    let top = |file: &str| file.split('/').next().unwrap_or_default().to_owned();
    let folders: BTreeSet<String> = source_files()
        .iter()
        .filter(|f| f.contains('/'))
        .map(|f| top(f))
        .collect();
    for f in &folders {
        assert!(
            ranks.contains_key(f),
            "docs/ARCHITECTURE.md gives `{f}/` no layer"
        );
    }
    let mut upward = Vec::new();
    for (file, deps) in import_graph() {
        let Some(&from) = ranks.get(&top(&file)) else {
            continue; // lib.rs and main.rs, the roots
        };
        for dep in deps {
            let to = ranks[&top(&dep)];
            if top(&dep) != top(&file) && to >= from {
                upward.push(format!("{file} (layer {from}) -> {dep} (layer {to})"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not go down: {upward:#?}"
    );
}

#[test]
fn no_source_file_is_over_700_lines() {
    let long: Vec<(String, usize)> = source_files()
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(root().join("src").join(&f)).expect("a source");
            let lines = text.lines().count();
            (f, lines)
        })
        .filter(|(_, lines)| *lines > 700)
        .collect();
    assert!(long.is_empty(), "files over 700 lines: {long:?}");
}

/// Every type, trait and function the crate defines (in test modules too), by name, with the
/// files that define it.
fn definitions() -> (BTreeMap<String, Vec<String>>, BTreeMap<String, Vec<String>>) {
    struct Names<'a> {
        file: &'a str,
        types: &'a mut BTreeMap<String, Vec<String>>,
        functions: &'a mut BTreeMap<String, Vec<String>>,
    }
    impl<'ast> Visit<'ast> for Names<'_> {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            let ty = match item {
                syn::Item::Struct(s) => Some(&s.ident),
                syn::Item::Enum(e) => Some(&e.ident),
                syn::Item::Trait(t) => Some(&t.ident),
                syn::Item::Type(t) => Some(&t.ident),
                syn::Item::Union(u) => Some(&u.ident),
                _ => None,
            };
            if let Some(name) = ty {
                let files = self.types.entry(name.to_string()).or_default();
                files.push(self.file.to_owned());
            }
            if let syn::Item::Fn(f) = item {
                let files = self.functions.entry(f.sig.ident.to_string()).or_default();
                files.push(self.file.to_owned());
            }
            syn::visit::visit_item(self, item);
        }

        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            let files = self.functions.entry(f.sig.ident.to_string()).or_default();
            files.push(self.file.to_owned());
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    let mut types = BTreeMap::new();
    let mut functions = BTreeMap::new();
    for file in source_files() {
        let text = std::fs::read_to_string(root().join("src").join(&file)).expect("a source");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        Names {
            file: &file,
            types: &mut types,
            functions: &mut functions,
        }
        .visit_file(&syntax);
    }
    (types, functions)
}

#[test]
fn every_type_name_is_defined_once() {
    let (types, _) = definitions();
    assert!(types.len() > 100, "found only {} types", types.len());
    let twice: Vec<(&String, &Vec<String>)> = types.iter().filter(|(_, f)| f.len() > 1).collect();
    assert!(
        twice.is_empty(),
        "type names defined more than once: {twice:#?}"
    );
}

#[test]
fn no_function_comes_in_twins_with_and_without_a_limit() {
    // One function takes the budget or the limits; none is a `_within`, `_with`, `_until` or
    // `_bounded` variant of another.
    let (_, functions) = definitions();
    assert!(
        functions.len() > 500,
        "found only {} functions",
        functions.len()
    );
    let twins: Vec<&String> = functions
        .keys()
        .filter(|name| {
            ["_within", "_with", "_until", "_bounded"]
                .iter()
                .any(|suffix| name.ends_with(suffix))
        })
        .collect();
    assert!(twins.is_empty(), "twin functions: {twins:?}");
}

/// The files that name the external crate `name` (a `use` or a path that starts with it, in
/// test modules too), other than through a child module of the same name (`solver/mod.rs`
/// declares `mod varisat`, the adapter).
fn files_naming_crate(name: &str) -> Vec<String> {
    struct Finder<'a> {
        name: &'a str,
        children: BTreeSet<String>,
        found: bool,
    }
    impl Finder<'_> {
        fn names_crate(&self, leading_colon: bool, first: &syn::Ident) -> bool {
            first == self.name && (leading_colon || !self.children.contains(self.name))
        }
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            self.children.insert(m.ident.to_string());
            syn::visit::visit_item_mod(self, m);
        }
        fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
            let first = match &u.tree {
                syn::UseTree::Path(p) => Some(&p.ident),
                syn::UseTree::Name(n) => Some(&n.ident),
                syn::UseTree::Rename(r) => Some(&r.ident),
                _ => None,
            };
            if first.is_some_and(|f| self.names_crate(u.leading_colon.is_some(), f)) {
                self.found = true;
            }
            syn::visit::visit_item_use(self, u);
        }
        fn visit_item_extern_crate(&mut self, e: &'ast syn::ItemExternCrate) {
            if e.ident == self.name {
                self.found = true;
            }
        }
        fn visit_path(&mut self, path: &'ast syn::Path) {
            if let Some(first) = path.segments.first()
                && path.segments.len() > 1
                && self.names_crate(path.leading_colon.is_some(), &first.ident)
            {
                self.found = true;
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut files = Vec::new();
    for file in source_files() {
        let text = std::fs::read_to_string(root().join("src").join(&file)).expect("a source");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut finder = Finder {
            name,
            children: BTreeSet::new(),
            found: false,
        };
        // The file's own `mod` lines first, wherever they stand.
        for item in &syntax.items {
            if let syn::Item::Mod(m) = item {
                finder.children.insert(m.ident.to_string());
            }
        }
        finder.visit_file(&syntax);
        if finder.found {
            files.push(file);
        }
    }
    files
}

#[test]
fn each_solver_crate_is_named_only_by_its_adapter() {
    // The crate's own literals and formulas (`model/lit.rs`, `model/cnf.rs`) are what encoders,
    // sinks, reasoning and use cases speak; a solver's types stay in its adapter file.
    assert_eq!(files_naming_crate("varisat"), ["solver/varisat.rs"]);
    let cadical: &[&str] = &["solver/cadical.rs"];
    for name in ["rustsat", "rustsat_cadical"] {
        let found = files_naming_crate(name);
        assert!(
            found.is_empty() || found == cadical,
            "{name} is named by {found:?}"
        );
    }
}

#[test]
fn clap_is_named_only_in_the_binarys_folder() {
    // Flags belong to the binary: the library, and the binary's root `main.rs`, name no clap.
    let found = files_naming_crate("clap");
    assert!(!found.is_empty(), "the command line is declared somewhere");
    let outside: Vec<&String> = found.iter().filter(|f| !f.starts_with("app/")).collect();
    assert!(outside.is_empty(), "clap named outside app/: {outside:?}");
}

/// The layers below `usecase`, which the front ends reach only through `usecase`'s front door
/// and the crate root's re-exports.
const BELOW_USECASE: &[&str] = &["encode", "format", "model", "reason", "solver"];

/// The front ends' Rust files, relative to the repository root: the binary (`src/main.rs`,
/// `src/app/`) and the Python bindings (`python/src/`).
fn front_end_files() -> Vec<String> {
    let mut files = vec!["src/main.rs".to_string()];
    for dir in ["src/app", "python/src"] {
        rust_files(&root().join(dir), &root(), &mut files);
    }
    files.sort();
    files
}

/// The paths below `usecase` that `syntax` names: in `use` trees and anywhere else.
fn paths_below_usecase(syntax: &syn::File) -> Vec<String> {
    struct Finder(Vec<String>);
    fn below(segments: &[String]) -> bool {
        segments.len() > 1
            && segments[0] == "bimaru_sat"
            && BELOW_USECASE.contains(&segments[1].as_str())
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
            let mut found = Vec::new();
            use_paths(&u.tree, &mut Vec::new(), &mut found);
            for (path, _) in found {
                if below(&path) {
                    self.0.push(path.join("::"));
                }
            }
        }
        fn visit_path(&mut self, path: &'ast syn::Path) {
            let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            if below(&segments) {
                self.0.push(segments.join("::"));
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut finder = Finder(Vec::new());
    finder.visit_file(syntax);
    finder.0
}

/// What `find` reports in each of `files` (paths from the repository root), each finding after
/// its file's path.
fn findings(files: &[String], find: impl Fn(&syn::File) -> Vec<String>) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(root().join(file)).expect("a source");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        found.extend(find(&syntax).into_iter().map(|f| format!("{file}: {f}")));
    }
    found
}

#[test]
fn front_ends_import_nothing_below_usecase() {
    // What the binary, the server and Python need from the layers below is re-exported by
    // `usecase` (its front door) or the crate root; the rest may change without them.
    let found = findings(&front_end_files(), paths_below_usecase);
    assert!(
        found.is_empty(),
        "front ends reach below usecase (re-export from usecase/mod.rs instead):\n{}",
        found.join("\n")
    );
    // The check sees such a path, in a use tree and inline.
    let planted = syn::parse_file(
        "use bimaru_sat::{usecase::Budget, format::ist};\nfn f() { bimaru_sat::model::limits::MAX_CELLS; }",
    )
    .unwrap();
    assert_eq!(
        paths_below_usecase(&planted),
        [
            "bimaru_sat::format::ist",
            "bimaru_sat::model::limits::MAX_CELLS"
        ]
    );
}

/// Visits the arguments of a macro call (`format!`, `write!`, `panic!` and the like: their
/// first argument is the string) as expressions.
fn visit_macro_args<V: for<'a> Visit<'a>>(visitor: &mut V, m: &syn::Macro) {
    if let Ok(args) = m
        .parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
    {
        for arg in &args {
            visitor.visit_expr(arg);
        }
    }
}

/// Visits a module unless it is `#[cfg(test)]`.
fn visit_unless_test_only<V: for<'a> Visit<'a>>(visitor: &mut V, m: &syn::ItemMod) {
    if !is_test_only(&m.attrs) {
        syn::visit::visit_item_mod(visitor, m);
    }
}

/// Visits a function unless it is `#[cfg(test)]`.
fn visit_fn_unless_test_only<V: for<'a> Visit<'a>>(visitor: &mut V, f: &syn::ItemFn) {
    if !is_test_only(&f.attrs) {
        syn::visit::visit_item_fn(visitor, f);
    }
}

/// The checking methods of `Limits` (`model/limits.rs`).
const LIMIT_CHECKS: &[&str] = &[
    "board",
    "fleet",
    "puzzle",
    "ship_len",
    "ships",
    "boards",
    "file_cells",
    "input_bytes",
    "variable",
];

/// The identifiers in `expr`.
fn idents_of(expr: &syn::Expr) -> Vec<String> {
    struct Idents(Vec<String>);
    impl<'ast> Visit<'ast> for Idents {
        fn visit_ident(&mut self, ident: &'ast syn::Ident) {
            self.0.push(ident.to_string());
        }
    }
    let mut idents = Idents(Vec::new());
    idents.visit_expr(expr);
    idents.0
}

/// The size, fleet and input-limit checks that `syntax` writes itself, outside `#[cfg(test)]`
/// items: a call of one of `Limits`' checks on a value named for limits
/// (`limits.board(rows, cols)`), a comparison with a limit's maximum (`cells > limits.max_cells`),
/// and a limit error made by hand (`Error::Limit { .. }`, `LimitExceeded { .. }`). A front end
/// hands its input to a `usecase` job, whose check holds it to the limits; what it may still
/// write is its own caps on requests (the server's body size and board side), which are no
/// `Limits`.
fn limit_checks(syntax: &syn::File) -> Vec<String> {
    struct Finder(Vec<String>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            visit_unless_test_only(self, m);
        }
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            visit_fn_unless_test_only(self, f);
        }
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            let method = call.method.to_string();
            let on_limits = idents_of(&call.receiver)
                .iter()
                .any(|i| i.to_ascii_lowercase().contains("limit"));
            if on_limits && LIMIT_CHECKS.contains(&method.as_str()) {
                self.0.push(format!("a call of Limits::{method}"));
            }
            syn::visit::visit_expr_method_call(self, call);
        }
        fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
            use syn::BinOp::{Ge, Gt, Le, Lt};
            if matches!(binary.op, Lt(_) | Le(_) | Gt(_) | Ge(_)) {
                let mut idents = idents_of(&binary.left);
                idents.extend(idents_of(&binary.right));
                if let Some(max) = idents.iter().find(|i| i.starts_with("max_")) {
                    self.0.push(format!("a comparison with {max}"));
                }
            }
            syn::visit::visit_expr_binary(self, binary);
        }
        fn visit_expr_struct(&mut self, made: &'ast syn::ExprStruct) {
            let path: Vec<String> = made
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            if path.ends_with(&["Error".to_string(), "Limit".to_string()])
                || path.last().is_some_and(|last| last == "LimitExceeded")
            {
                self.0.push(format!("a {} made by hand", path.join("::")));
            }
            syn::visit::visit_expr_struct(self, made);
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            visit_macro_args(self, m);
        }
    }
    let mut finder = Finder(Vec::new());
    finder.visit_file(syntax);
    finder.0
}

#[test]
fn front_ends_check_no_size_fleet_or_limit_themselves() {
    // Each command is a job checked once in `usecase` (`GenerateJob::check` holds the size and
    // the fleet to the limits, `job::check_boards` a document read within wider limits): the
    // command line, the server and Python build the job from their input and hand it over.
    let front_ends: Vec<String> = front_end_files()
        .into_iter()
        .filter(|file| !file.ends_with("/tests.rs"))
        .collect();
    let found = findings(&front_ends, limit_checks);
    assert!(
        found.is_empty(),
        "front ends check sizes, fleets or limits themselves (check them in the job's \
         `check` in usecase/job/ instead):\n{}",
        found.join("\n")
    );
    // The check sees what the generate command, Python and the server each wrote before the
    // job checked it, and lets a front end read its input within limits through `usecase`.
    let planted = syn::parse_file(
        r#"fn f(limits: &Limits, workers: &Workers, size: Size) -> Result<(), Error> {
            limits.board(size.rows, size.cols).map_err(over("size"))?;
            workers.limits.input.fleet(&fleet).map_err(limit("--fleet"))?;
            if size.rows * size.cols > limits.max_cells { return Ok(()); }
            let error = Error::Limit { subject, error };
            let puzzle = input.puzzle(format, &within)?;
            let cells = board.cells();
            Ok(())
        }"#,
    )
    .unwrap();
    assert_eq!(
        limit_checks(&planted),
        [
            "a call of Limits::board",
            "a call of Limits::fleet",
            "a comparison with max_cells",
            "a Error::Limit made by hand",
        ]
    );
}

/// The use cases' error types (`usecase::Error` and its sources).
const USECASE_ERRORS: &[&str] = &[
    "Error",
    "SolveError",
    "GradeError",
    "HintError",
    "GenerateError",
    "ProofError",
    "AdviseError",
    "PosteriorError",
    "SimulateError",
    "GameError",
    "SalvoError",
    "DecodeError",
    "Rejection",
];

/// Whether `pat` names a variant of a use case's error (`Error::Parse { .. }`,
/// `Err(HintError::NotUnique)`).
fn names_usecase_error(pat: &syn::Pat) -> bool {
    struct Paths(bool);
    impl<'ast> Visit<'ast> for Paths {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            if segments.len() > 1
                && segments[..segments.len() - 1]
                    .iter()
                    .any(|s| USECASE_ERRORS.contains(&s.as_str()))
            {
                self.0 = true;
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut paths = Paths(false);
    paths.visit_pat(pat);
    paths.0
}

/// The functions of `syntax` that match on a use case's error (a `match` arm, an `if let`, a
/// `let ... else` or a `matches!` whose pattern names one of its variants), outside
/// `#[cfg(test)]` items: each front end maps `usecase::Error` in one function.
fn error_matches(syntax: &syn::File) -> Vec<String> {
    struct Finder {
        function: Vec<String>,
        found: Vec<String>,
    }
    impl Finder {
        fn saw(&mut self, pat: &syn::Pat) {
            if names_usecase_error(pat) {
                let function = self.function.join("::");
                if !self.found.contains(&function) {
                    self.found.push(function);
                }
            }
        }
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            visit_unless_test_only(self, m);
        }
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.function.push(f.sig.ident.to_string());
            visit_fn_unless_test_only(self, f);
            self.function.pop();
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.function.push(f.sig.ident.to_string());
            syn::visit::visit_impl_item_fn(self, f);
            self.function.pop();
        }
        fn visit_arm(&mut self, arm: &'ast syn::Arm) {
            self.saw(&arm.pat);
            syn::visit::visit_arm(self, arm);
        }
        fn visit_expr_let(&mut self, expr: &'ast syn::ExprLet) {
            self.saw(&expr.pat);
            syn::visit::visit_expr_let(self, expr);
        }
        fn visit_local(&mut self, local: &'ast syn::Local) {
            if local
                .init
                .as_ref()
                .is_some_and(|init| init.diverge.is_some())
            {
                self.saw(&local.pat);
            }
            syn::visit::visit_local(self, local);
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            // `matches!(value, PATTERN)`.
            let parser = |input: syn::parse::ParseStream| {
                let _: syn::Expr = input.parse()?;
                let _: syn::Token![,] = input.parse()?;
                syn::Pat::parse_multi_with_leading_vert(input)
            };
            if m.path.is_ident("matches")
                && let Ok(pat) = syn::parse::Parser::parse2(parser, m.tokens.clone())
            {
                self.saw(&pat);
            }
            visit_macro_args(self, m);
        }
    }
    let mut finder = Finder {
        function: Vec::new(),
        found: Vec::new(),
    };
    finder.visit_file(syntax);
    finder.found
}

/// The one function of each front end that maps `usecase::Error`: the command line's, the
/// server's and Python's.
const ERROR_MAPS: &[&str] = &[
    "src/app/error.rs: told",
    "src/app/serve/limits.rs: answer",
    "python/src/errors.rs: mapped",
];

#[test]
fn each_front_end_maps_the_librarys_error_in_one_function() {
    // The command line, the server and Python each map every use case's error in one
    // function (its exit code, status or exception class, and its message); a command, a route
    // or a binding converts it or asks it a question (`is_time_limit`), it does not match.
    let front_ends: Vec<String> = front_end_files()
        .into_iter()
        .filter(|file| !file.ends_with("/tests.rs"))
        .collect();
    let found: Vec<String> = findings(&front_ends, error_matches)
        .into_iter()
        .filter(|f| !ERROR_MAPS.contains(&f.as_str()))
        .collect();
    assert!(
        found.is_empty(),
        "functions that match on a use case's error besides each front end's one map \
         (map it there instead):\n{}",
        found.join("\n")
    );
    // The check sees a route's own map in every form, and not a conversion.
    let planted = syn::parse_file(
        r#"fn hint(e: HintError) -> ApiError {
            let a = match e { HintError::TimeLimit => timeout(), e => e.into() };
            let Err(Error::Solve(_)) = r else { return a };
            a
        }
        fn grade(r: Result<(), Error>) -> bool { matches!(r, Err(Error::Grade(GradeError::TooLarge(_)))) }
        fn solve(r: Result<(), Error>) { if let Err(Error::Solve(e)) = r { drop(e) } }
        fn convert(e: GameError) -> ApiError { ApiError::from(Error::from(e)) }
        fn outcome(o: Outcome) -> u8 { match o { Outcome::Unsat => 1, _ => 0 } }"#,
    )
    .unwrap();
    assert_eq!(error_matches(&planted), ["hint", "grade", "solve"]);
}

/// The string literals of `syntax` that name a command-line flag (`--` then a letter), outside
/// doc comments and `#[cfg(test)]` items.
fn strings_naming_a_flag(syntax: &syn::File) -> Vec<String> {
    struct Finder(Vec<String>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            visit_unless_test_only(self, m);
        }
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            visit_fn_unless_test_only(self, f);
        }
        fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
            let value = lit.value();
            let names_flag = value
                .match_indices("--")
                .any(|(at, _)| value[at + 2..].starts_with(|c: char| c.is_ascii_lowercase()));
            if names_flag {
                self.0.push(value);
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            visit_macro_args(self, m);
        }
    }
    let mut finder = Finder(Vec::new());
    finder.visit_file(syntax);
    finder.0
}

#[test]
fn no_library_string_names_a_flag() {
    // Flags belong to the binary: the library's messages name inputs and rules, and each
    // front end (the command line, the server, Python) says how its user sets a value.
    let library: Vec<String> = source_files()
        .into_iter()
        .filter(|file| file != "main.rs" && !file.starts_with("app/"))
        .map(|file| format!("src/{file}"))
        .collect();
    let found = findings(&library, strings_naming_a_flag);
    assert!(
        found.is_empty(),
        "library strings naming flags:\n{}",
        found.join("\n")
    );
    // The check sees a flag in a plain literal and in a format string, not in a doc comment.
    let planted = syn::parse_file(
        "/// see --count\nfn f(n: usize) -> String { let _ = \"a --time-limit\"; format!(\"at --count {n}\") }",
    )
    .unwrap();
    assert_eq!(
        strings_naming_a_flag(&planted),
        ["a --time-limit", "at --count {n}"]
    );
}

/// The folders at the top of the repository that the docs name paths under, and its files.
const TOP_FOLDERS: &[&str] = &[
    "src/",
    "tests/",
    "docs/",
    "encodings/",
    "puzzles/",
    "scripts/",
    "python/",
    "web/",
    "benches/",
    "vendor/",
    ".ci/",
    "examples/",
];
const TOP_FILES: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "README.md",
    ".gitignore",
];

/// `README.md`, every page under `docs/` (the dated history of `docs/benchmarks/` too) and
/// every page of `encodings/`, relative to the repository root.
fn markdown_pages() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(root()).expect("under the root");
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut pages = vec!["README.md".to_owned()];
    walk(&root().join("docs"), &mut pages);
    walk(&root().join("encodings"), &mut pages);
    pages.sort();
    pages
}

/// A word of a code span or block as the path it names, if it names one of the repository's:
/// punctuation, `#anchor`, `::item` and `:line` suffixes are cut, and globs, placeholders
/// (`<puzzle>`, `{a,b}`, `$f`, `NNN.json`), installed folders and build outputs are no paths.
fn repository_path(word: &str) -> Option<String> {
    let word = word.trim_matches(|c| "()[]\"',;".contains(c));
    let word = word.split('#').next().unwrap_or_default();
    let word = word.split("::").next().unwrap_or_default();
    let word = match word.rsplit_once(':') {
        Some((path, line)) if line.chars().all(|c| c.is_ascii_digit() || c == '-') => path,
        _ => word,
    };
    let word = word.trim_end_matches(['.', ':']);
    let named = TOP_FOLDERS.iter().any(|f| word.starts_with(f)) || TOP_FILES.contains(&word);
    let pattern = word.contains(['*', '?', '[', ']', '{', '}', '<', '>', '$']);
    let stem = word.rsplit('/').next().unwrap_or_default();
    let stem = stem.split('.').next().unwrap_or_default();
    let numbered = stem.contains('N') && stem.chars().all(|c| c.is_ascii_digit() || c == 'N');
    let installed = word
        .split('/')
        .any(|part| part == "node_modules" || part == "target");
    (named && !pattern && !numbered && !installed).then(|| word.to_owned())
}

/// The paths a page names: every word of its code spans and fenced blocks that names a path of
/// the repository (from the root), and the target of every local link (from the page's
/// folder; URLs, anchors and links out of the repository, such as `../shared/`, are left out).
fn named_paths(page: &str, text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            words.extend(line.split_whitespace().map(str::to_owned));
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let mut paths: Vec<String> = Vec::new();
    // A code span never crosses a blank line, so a stray backtick spoils one paragraph at most.
    for paragraph in prose.split("\n\n") {
        for span in paragraph.split('`').skip(1).step_by(2) {
            words.extend(span.split_whitespace().map(str::to_owned));
        }
        for (_, rest) in paragraph
            .match_indices("](")
            .map(|(i, _)| paragraph.split_at(i + 2))
        {
            let target = rest.split([')', ' ']).next().unwrap_or_default();
            let target = target.split('#').next().unwrap_or_default();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let folder = Path::new(page).parent().unwrap_or(Path::new(""));
            let mut resolved: Vec<&str> = folder.iter().map(|p| p.to_str().unwrap()).collect();
            let mut outside = false;
            for part in target.split('/') {
                match part {
                    "" | "." => {}
                    ".." => outside |= resolved.pop().is_none(),
                    _ => resolved.push(part),
                }
            }
            if !outside {
                paths.push(resolved.join("/"));
            }
        }
    }
    paths.extend(words.iter().filter_map(|w| repository_path(w)));
    paths
}

/// The old paths a history page explains on its `Paths since moved:` line (`old` is now `new`):
/// its records stay verbatim, so a path that moved since is named there instead.
fn moved_paths(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| line.starts_with("Paths since moved:"))
        .flat_map(|line| line.split('`').skip(1).step_by(2).step_by(2))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_path_the_docs_name_exists() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for page in markdown_pages() {
        let text = std::fs::read_to_string(root().join(&page)).expect("a page");
        let moved = moved_paths(&text);
        for path in named_paths(&page, &text) {
            checked += 1;
            if !root().join(&path).exists() && !moved.contains(&path) {
                missing.push(format!("{page}: {path}"));
            }
        }
    }
    assert!(
        checked > 500,
        "only {checked} paths found: the pages are read wrong"
    );
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "paths named in the docs that do not exist (the file moved or is gone):\n  {}",
        missing.join("\n  ")
    );
}

/// `docs/benchmarks.md` is a reference (issue 52): where each use case stands, in tables, with
/// the command and the date. The story of each change goes to the dated history under
/// `docs/benchmarks/`, so the page stays under 400 lines.
#[test]
fn benchmarks_md_stays_under_400_lines() {
    let text = std::fs::read_to_string(root().join("docs/benchmarks.md")).expect("the page");
    let lines = text.lines().count();
    assert!(
        lines < 400,
        "docs/benchmarks.md has {lines} lines: keep its tables of current figures and move the \
         story of each change to a dated file under docs/benchmarks/"
    );
}
