//! The documents hold together: every relative link in the README, the top-level pages
//! and `docs/` reaches a file (and, with `#anchor`, a heading of it), no page names the
//! reference folder beside the repository, and every "RULES.md N.M" the code cites is a section
//! of docs/RULES.md.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages whose links are checked.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    for dir in ["docs", "docs/proofs/long", "crates/isolo-engine/weights"] {
        for entry in fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The targets of `[text](target)` links, outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || line.starts_with("    ") {
            continue;
        }
        // Code spans may hold brackets that are no links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join("``");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).unwrap();
    let mut fenced = false;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            found.insert(anchor_of(line.trim_start_matches('#')));
        }
    }
    found
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let name = page.strip_prefix(root()).unwrap().display().to_string();
            if !path.exists() {
                broken.push(format!("{name}: {target}: no such file"));
            } else if !path
                .canonicalize()
                .unwrap()
                .starts_with(root().canonicalize().unwrap())
            {
                broken.push(format!("{name}: {target}: outside the repository"));
            } else if let Some(anchor) = anchor {
                if path.is_file() && !anchors(&path).contains(anchor) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn no_page_names_a_path_outside_the_repository() {
    // Built here so that this file does not name the folder itself.
    let outside = ["..", "shared", ""].join("/");
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        assert!(
            !text.contains(&outside),
            "{} names a path outside the repository",
            page.display()
        );
    }
}

/// Every `.rs` file under `dir`.
pub(super) fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The section numbers of docs/RULES.md: `## 3. A move` gives 3, `### 3.5 Endless` 3.5.
fn rules_sections() -> BTreeSet<String> {
    let text = fs::read_to_string(root().join("docs/RULES.md")).unwrap();
    text.lines()
        .filter(|l| l.starts_with("## ") || l.starts_with("### "))
        .filter_map(|l| l.trim_start_matches('#').split_whitespace().next())
        .map(|n| n.trim_end_matches('.').to_string())
        .filter(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect()
}

/// The numbers cited after "RULES.md" (`3.6`, `section 5`, `sections 3-5`) in `text`.
fn citations(text: &str) -> Vec<String> {
    let mut cited = Vec::new();
    for (at, _) in text.match_indices("RULES.md ") {
        let after = &text[at + "RULES.md ".len()..];
        let after = after
            .strip_prefix("sections ")
            .or_else(|| after.strip_prefix("section "))
            .unwrap_or(after);
        let number: String = after
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
            .collect();
        for part in number.trim_end_matches(['.', '-']).split('-') {
            if !part.is_empty() {
                cited.push(part.trim_end_matches('.').to_string());
            }
        }
    }
    cited
}

#[test]
fn every_rules_citation_in_the_code_is_a_section_of_the_specification() {
    let sections = rules_sections();
    assert!(
        sections.contains("3.6") && sections.contains("9"),
        "{sections:?}"
    );
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "benches", "examples"] {
        sources(&root().join(dir), &mut files);
    }
    let mut missing = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for cited in citations(&text) {
            if !sections.contains(&cited) {
                missing.push(format!("{}: RULES.md {cited}", file.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited but not in docs/RULES.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_readme_stays_a_front_page() {
    let text = fs::read_to_string(root().join("README.md")).unwrap();
    assert!(text.lines().count() <= 200, "README.md is over 200 lines");
    for command in [
        "cargo run --release -- analyze --variant isolo-boys",
        "cargo test --profile testing",
        "cargo install --path .",
    ] {
        assert!(text.contains(command), "README.md lacks `{command}`");
    }
}
