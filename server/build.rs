//! Embeds the browser front end (`clients/web/dist`, built by `clients/web/check.sh` or
//! `npm run build` there) into the binary, so a release binary serves the app with nothing
//! beside it. When the app has not been built, the binary embeds nothing and `/` explains how
//! to build it (or `serve --web-dir` points at a directory).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dist = manifest.join("../clients/web/dist");
    // Cargo scans a watched directory recursively. Until the app is built, watch its sources'
    // directory instead, so the build that creates `dist` is noticed (a missing path would
    // rerun this script, and rebuild the server, on every build).
    let watched = if dist.is_dir() {
        dist.clone()
    } else {
        manifest.join("../clients/web")
    };
    println!("cargo:rerun-if-changed={}", watched.display());
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        collect(&dist, &dist, &mut files);
    }
    files.sort();
    let mut code =
        String::from("/// The app's files: path relative to the app's root, contents.\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (name, path) in &files {
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("web_assets.rs"), code).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=CALABRESELLA_COMMIT={}", commit(&manifest));
}

/// The commit the binary is built from (`--version` shows it): `CALABRESELLA_COMMIT` when a
/// packager sets it, else git's short hash with `-dirty` for uncommitted changes, else
/// `unknown` (a source tarball without git).
fn commit(manifest: &Path) -> String {
    println!("cargo:rerun-if-env-changed=CALABRESELLA_COMMIT");
    if let Ok(c) = std::env::var("CALABRESELLA_COMMIT") {
        return c;
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(manifest)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let Some(hash) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown".into();
    };
    // Rebuild the version when HEAD moves: HEAD itself (a checkout) and the branch it names (a
    // commit).
    // Only files that exist are named (a missing one would rerun this script on every build):
    // after `git pack-refs` the branch lives in packed-refs.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = PathBuf::from(dir);
        let mut watched = vec![dir.join("HEAD"), dir.join("packed-refs")];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(dir.join(branch));
        }
        for f in watched.iter().filter(|f| f.is_file()) {
            println!("cargo:rerun-if-changed={}", f.display());
        }
    }
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    if dirty { format!("{hash}-dirty") } else { hash }
}

/// Every regular file under `dir`, as (`/`-separated path relative to `root`, absolute path).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(root, &path, files);
        } else if kind.is_file()
            && let Ok(rel) = path.strip_prefix(root)
        {
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let abs = path.canonicalize().unwrap_or(path.clone());
            files.push((name, abs));
        }
    }
}
