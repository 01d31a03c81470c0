#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! ARCH.md stays true: its table of which of our crates depends on which matches every crate's
//! `Cargo.toml`, and its list of the files that read the environment matches the sources.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn arch() -> String {
    std::fs::read_to_string(root().join("ARCH.md")).unwrap()
}

/// The rows of the first table after `heading`, each as its cells with the backticks taken off.
fn table(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("ARCH.md has no heading {heading:?}"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            row.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().replace('`', ""))
                .collect()
        })
        .collect()
}

/// A two-column table after `heading` as each row's first cell and the names its second lists,
/// comma-separated, each without its gloss in parentheses; "—" lists none.
fn listed(heading: &str) -> BTreeMap<String, BTreeSet<String>> {
    table(&arch(), heading)
        .into_iter()
        .map(|row| {
            let names = row[1]
                .split(',')
                .map(|cell| cell.split(" (").next().unwrap_or_default().trim())
                .filter(|name| !name.is_empty() && *name != "—")
                .map(String::from)
                .collect();
            (row[0].clone(), names)
        })
        .collect()
}

/// What a manifest's normal dependencies (any target's) name of our own crates.
fn our_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut normal = false;
    let mut ours = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            normal = line.ends_with("dependencies]")
                && !line.ends_with("dev-dependencies]")
                && !line.ends_with("build-dependencies]");
        } else if normal && line.starts_with("nordlys") {
            let name = line
                .split(['=', '.', ' '])
                .next()
                .unwrap_or_default()
                .to_string();
            ours.insert(name);
        }
    }
    ours
}

/// Each workspace member's package name and its manifest.
fn members() -> BTreeMap<String, String> {
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let list = workspace
        .lines()
        .find_map(|l| l.strip_prefix("members = "))
        .expect("the workspace lists its members on one line");
    list.trim_matches(['[', ']'])
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|dir| {
            let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
            let name = manifest
                .lines()
                .find_map(|l| l.strip_prefix("name = "))
                .unwrap()
                .trim_matches('"')
                .to_string();
            (name, manifest)
        })
        .collect()
}

#[test]
fn the_dependency_table_matches_every_crates_manifest() {
    let stated = listed("### Our crates and what they depend on");
    let actual: BTreeMap<String, BTreeSet<String>> = members()
        .into_iter()
        .map(|(name, manifest)| (name, our_dependencies(&manifest)))
        .collect();
    assert_eq!(
        stated, actual,
        "ARCH.md's dependency table (left) against the manifests (right)"
    );
}

/// Source files outside tests, below `dir`.
fn sources(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

#[test]
fn only_the_files_arch_names_read_the_environment() {
    let root = root();
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = dir.unwrap().path().join("src");
        if src.is_dir() {
            sources(&src, &mut files);
        }
    }
    sources(&root.join("src-tauri/src"), &mut files);
    let reading: BTreeSet<String> = files
        .iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            // A module's own tests may set and read what they like.
            let code = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or_default();
            code.contains("env::var(") || code.contains("env::var_os(")
        })
        .map(|path| {
            path.strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let stated: BTreeSet<String> = table(&arch(), "### Where the environment is read")
        .into_iter()
        .map(|row| row[0].clone())
        .collect();
    assert_eq!(
        stated, reading,
        "ARCH.md's list (left) against the files that read the environment (right)"
    );
}

#[test]
fn a_manifest_is_read_for_normal_dependencies_only() {
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nnordlys-core.workspace = true\n\
        nordlys-money = { path = \"../money\" }\nserde = \"1\"\n\n\
        [target.'cfg(unix)'.dependencies]\nnordlys-exchange.workspace = true\n\n\
        [dev-dependencies]\nnordlys-tests = { path = \"../tests\" }\n\n\
        [build-dependencies]\nnordlys-sandbox.workspace = true\n";
    let ours: Vec<String> = our_dependencies(manifest).into_iter().collect();
    assert_eq!(ours, ["nordlys-core", "nordlys-exchange", "nordlys-money"]);
}

/// The modules of core that `text` names (`crate::a::b` as `a`, `crate::platform::x` as
/// `platform::x`), outside its tests.
fn core_modules_used(text: &str) -> BTreeSet<String> {
    let code = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    code.match_indices("crate::")
        .map(|(at, _)| {
            let path: Vec<&str> = code[at + "crate::".len()..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or_default()
                .split("::")
                .collect();
            match path.as_slice() {
                ["platform", module, ..] => format!("platform::{module}"),
                [module, ..] => (*module).to_string(),
                [] => String::new(),
            }
        })
        .collect()
}

#[test]
fn core_platform_modules_use_only_what_arch_names() {
    let dir = root().join("crates/core/src/platform");
    let actual: BTreeMap<String, BTreeSet<String>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_stem().is_some_and(|s| s != "mod"))
        .map(|path| {
            let module = path.file_stem().unwrap().to_string_lossy().into_owned();
            let used = core_modules_used(&std::fs::read_to_string(&path).unwrap());
            (module, used)
        })
        .collect();
    let stated = listed("### What core's platform modules use of core");
    assert_eq!(
        stated, actual,
        "ARCH.md's platform table (left) against the modules' uses of core (right)"
    );
}

#[test]
fn a_use_of_core_is_read_by_its_first_module() {
    let text = "use crate::format::{Locale};\nfn f() -> crate::tax::gains::Method {}\n\
        use crate::platform::file_write;\n#[cfg(test)]\nmod tests {\n use crate::orders;\n}\n";
    let used: Vec<String> = core_modules_used(text).into_iter().collect();
    assert_eq!(used, ["format", "platform::file_write", "tax"]);
}
