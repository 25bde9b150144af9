//! ARCHITECTURE.md's claims that the source tree can show: its code map covers every
//! source file and names only paths that exist, each rule of a move is decided in the
//! move machine alone, and no import circle between modules. Each source file's `crate::` and `super::` paths (in `use` declarations, braces
//! expanded, and inline) are resolved to the file of the module they name; a module and
//! the modules inside it count as one (a folder's `mod.rs` and its files share their
//! items freely), and comments and the code of `#[cfg(test)] mod tests` are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates' source folders (the binary's and the two libraries').
const SOURCE_ROOTS: [&str; 3] = ["src", "crates/isolo-rules/src", "crates/isolo-engine/src"];

/// A module: its path of names below its crate's root.
type Module = Vec<String>;

/// The module a file defines: `a/b.rs` and `a/b/mod.rs` are `[a, b]`, the root is `[]`.
fn module_of(root: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut names: Module = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        names.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        names.pop();
    }
    names
}

/// `use` trees written out whole: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap().trim().to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// Every `crate::` and `super::` path a file's code names.
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    // `use` declarations, which may span lines.
    let mut offset = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let declared = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find(|start| trimmed.starts_with(**start));
        if let Some(start) = declared {
            let from = offset + (line.len() - trimmed.len()) + start.len();
            if let Some(end) = code[from..].find(';') {
                let tree: String = code[from..from + end]
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                paths.extend(expand(&tree));
            }
        }
        offset += line.len();
    }
    // Paths written inline.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            paths.push(code[at..end].to_string());
        }
    }
    paths
}

/// The module a path names, relative to `here`: the longest prefix that is a module.
fn resolve(path: &str, here: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    let mut names: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Module = match names.first() {
        Some(&"crate") => Vec::new(),
        Some(&"super") => here.clone(),
        _ => return None,
    };
    if names[0] == "crate" {
        names.remove(0);
    }
    while names.first() == Some(&"super") {
        names.remove(0);
        base.pop()?;
    }
    let mut best = base.clone();
    for name in names {
        base.push(name.to_string());
        if modules.contains(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// Whether one module lies inside the other (or is it).
fn nested(a: &Module, b: &Module) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// A circle of imports among `edges`, if there is one.
fn circle(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn visit(
        at: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        state: &mut BTreeMap<Module, u8>,
        path: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        state.insert(at.clone(), 1);
        path.push(at.clone());
        for next in edges.get(at).into_iter().flatten() {
            match state.get(next) {
                Some(1) => {
                    let from = path.iter().position(|m| m == next).unwrap();
                    return Some(path[from..].to_vec());
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(next, edges, state, path) {
                        return Some(found);
                    }
                }
            }
        }
        path.pop();
        state.insert(at.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for start in edges.keys() {
        if !state.contains_key(start) {
            if let Some(found) = visit(start, edges, &mut state, &mut Vec::new()) {
                return Some(found);
            }
        }
    }
    None
}

#[test]
fn no_import_circle_between_modules() {
    let repository = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for root in SOURCE_ROOTS {
        let root = repository.join(root);
        let mut files = Vec::new();
        super::docs::sources(&root, &mut files);
        let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&root, f)).collect();
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for file in &files {
            let text = fs::read_to_string(file).unwrap();
            let code: String = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap()
                .split_inclusive('\n')
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect();
            let here = module_of(&root, file);
            for path in paths_in(&code) {
                match resolve(&path, &here, &modules) {
                    Some(target) if !nested(&target, &here) => {
                        edges.entry(here.clone()).or_default().insert(target);
                    }
                    _ => {}
                }
            }
        }
        assert!(
            edges.values().map(BTreeSet::len).sum::<usize>() > 20,
            "{}: the imports were not read",
            root.display()
        );
        if let Some(found) = circle(&edges) {
            let names: Vec<String> = found.iter().map(|m| m.join("::")).collect();
            panic!(
                "{}: an import circle: {} -> back to the first",
                root.display(),
                names.join(" -> ")
            );
        }
    }
}

#[test]
fn the_reader_of_imports_reads_what_rust_writes() {
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}}"),
        ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]
    );
    let modules: BTreeSet<Module> = [vec![], vec!["a".into()], vec!["a".into(), "b".into()]]
        .into_iter()
        .collect();
    let in_b = vec!["a".to_string(), "b".to_string()];
    assert_eq!(
        resolve("crate::a::b::X", &[].to_vec(), &modules),
        Some(in_b.clone())
    );
    assert_eq!(resolve("super::Y", &in_b, &modules), Some(vec!["a".into()]));
    assert_eq!(paths_in("let x = crate::a::f(1);"), ["crate::a::f"]);
}

/// The code map's section of each crate, by the heading that opens it.
const CODE_MAP_SECTIONS: [(&str, &str); 3] = [
    ("crates/isolo-rules/src", "### `crates/isolo-rules`"),
    ("crates/isolo-engine/src", "### `crates/isolo-engine`"),
    ("src", "### The binary, `src/`"),
];

/// The rows of the code map's section that `heading` opens: each row's first cell's
/// paths (a file, or a folder ending in `/`) and the rest of its text.
fn code_map_rows(map: &str, heading: &str) -> Vec<(Vec<String>, String)> {
    let start = map
        .find(heading)
        .unwrap_or_else(|| panic!("no section {heading}"));
    let section = &map[start + heading.len()..];
    let end = section.find("\n#").unwrap_or(section.len());
    section[..end]
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let mut cells = line.split('|').skip(1);
            let first = cells.next().unwrap_or_default();
            let paths = first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            (paths, cells.collect::<Vec<_>>().join("|"))
        })
        .collect()
}

/// ARCHITECTURE.md's code map is true of the tree: every source file of the three
/// crates lies in a row of its crate's map (its own, or its folder's), every path a row
/// opens with exists, and every file or folder a folder's row names exists inside it.
#[test]
fn the_code_map_names_every_source_file_and_only_files_that_exist() {
    let repository = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let map = fs::read_to_string(repository.join("ARCHITECTURE.md")).unwrap();
    for (root, heading) in CODE_MAP_SECTIONS {
        let root = repository.join(root);
        let rows = code_map_rows(&map, heading);
        assert!(rows.len() >= 5, "{heading}: the rows were not read");
        let mut files = Vec::new();
        super::docs::sources(&root, &mut files);
        for file in &files {
            let relative = file.strip_prefix(&root).unwrap().to_string_lossy();
            let covered = rows.iter().flat_map(|(paths, _)| paths).any(|path| {
                *path == relative || (path.ends_with('/') && relative.starts_with(path.as_str()))
            });
            assert!(
                covered,
                "ARCHITECTURE.md's {heading} has no row for {relative}"
            );
        }
        for (paths, text) in &rows {
            for path in paths {
                assert!(
                    root.join(path).exists(),
                    "{heading}: `{path}` does not exist"
                );
            }
            let Some(folder) = paths.iter().find(|p| p.ends_with('/')) else {
                continue;
            };
            let inside = every_path(&root.join(folder));
            let named = text.split('`').skip(1).step_by(2);
            for name in named.filter(|n| n.ends_with(".rs") || n.ends_with('/')) {
                let found = root.join(name).exists()
                    || repository.join(name).exists()
                    || inside
                        .iter()
                        .any(|p| p == name || p.ends_with(&format!("/{name}")));
                assert!(
                    found,
                    "{heading}: `{folder}`'s row names `{name}`, not in it"
                );
            }
        }
    }
}

/// Every file and folder under `dir`, as paths relative to it (a folder's ending in `/`).
fn every_path(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(relative) = stack.pop() {
        for entry in fs::read_dir(dir.join(&relative)).unwrap().flatten() {
            let path = relative.join(entry.file_name());
            let name = path.to_string_lossy().into_owned();
            if entry.path().is_dir() {
                out.push(format!("{name}/"));
                stack.push(path);
            } else {
                out.push(name);
            }
        }
    }
    out
}

/// ARCHITECTURE.md's move machine: what a lap's end offers, and the rules behind it,
/// are decided in `variant/machine.rs` alone, which every walk drives, and a lap is
/// sown by the lap kernel alone. Each call named here is found (outside comments and
/// its own definition) in exactly the files listed beside it among the rules' sources.
#[test]
fn each_rule_of_a_move_is_decided_in_the_move_machine_alone() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/isolo-rules/src");
    let mut files = Vec::new();
    super::docs::sources(&root, &mut files);
    let expected: [(&str, &[&str]); 7] = [
        // The retreat's answer, the lap that leaving sows, a lap sown and its end,
        // a capture taken: the machine's.
        (".retreated(", &["variant/machine.rs"]),
        (".leave_lap(", &["variant/machine.rs"]),
        (".sow_lap(", &["variant/machine.rs"]),
        (".take_capture(", &["variant/machine.rs"]),
        // Whether a lap may turn: the machine's, the lap that leaving sows (asked of
        // the other pit's lap), and the evaluation's view of each pit's first lap.
        (
            ".may_sow_clockwise(",
            &[
                "variant/machine.rs",
                "variant/directed.rs",
                "variant/mod.rs",
            ],
        ),
        // Seeds sown over a loop: the lap kernel's laps, and the first lap of
        // `has_legal_move`'s shortcut (one lap, no walk).
        ("table.sow(", &["variant/lap.rs", "variant/mod.rs"]),
        // What a lap's end offers, asked of the machine (the stepwise walk asks it again
        // for the lap a leave point leaves to).
        (".offer(", &["variant/machine.rs", "variant/stepwise.rs"]),
    ];
    for (call, allowed) in expected {
        let mut found = BTreeSet::new();
        for file in &files {
            let text = fs::read_to_string(file).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            let calls = code
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .filter(|line| !line.contains(" fn "))
                .any(|line| line.contains(call));
            if calls {
                let relative = file.strip_prefix(&root).unwrap();
                found.insert(relative.to_string_lossy().into_owned());
            }
        }
        let allowed: BTreeSet<String> = allowed.iter().map(|f| f.to_string()).collect();
        assert_eq!(
            found, allowed,
            "`{call}` is called in the files found; the move machine's rules allow these"
        );
    }
}
