//! Sets the build information the version op reports (src/version.rs): the
//! crate version, the git commit, its time and whether the work tree is
//! modified, and the compiler's version. Anything that can't be found is
//! `unknown` (dirty: false), so building without git works.
//!
//! The values are taken when this script runs: cargo reruns it when the
//! commit changes (HEAD, the index, the reflog) or the crate's sources
//! change, not for edits elsewhere in the repository.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");

    let git = Git { dir: &crate_dir };
    let commit = git.output(&["rev-parse", "HEAD"]);
    let commit_time = commit.as_ref().and_then(|_| {
        git.output_utc(&[
            "log",
            "-1",
            "--date=format-local:%Y-%m-%dT%H:%M:%SZ",
            "--format=%cd",
        ])
    });
    let dirty = commit.is_some()
        && git
            .output(&["status", "--porcelain"])
            .is_some_and(|status| !status.is_empty());
    if let Some(git_dir) = git.output(&["rev-parse", "--absolute-git-dir"]) {
        for file in ["HEAD", "index", "logs/HEAD"] {
            println!(
                "cargo:rerun-if-changed={}",
                Path::new(&git_dir).join(file).display()
            );
        }
    }

    let package_version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let version = format!("v{package_version}{}", if dirty { "+dirty" } else { "" });
    set("ENGINE_BUILD_VERSION", &version);
    set(
        "ENGINE_BUILD_COMMIT",
        commit.as_deref().unwrap_or("unknown"),
    );
    set(
        "ENGINE_BUILD_COMMIT_TIME",
        commit_time.as_deref().unwrap_or("unknown"),
    );
    set("ENGINE_BUILD_DIRTY", if dirty { "true" } else { "false" });
    set(
        "ENGINE_BUILD_COMPILER",
        &compiler().unwrap_or_else(|| "unknown".to_owned()),
    );
}

fn set(name: &str, value: &str) {
    println!("cargo:rustc-env={name}={value}");
}

struct Git<'a> {
    dir: &'a Path,
}

impl Git<'_> {
    /// Git's trimmed output, or `None` when git fails or isn't there.
    fn output(&self, args: &[&str]) -> Option<String> {
        run(Command::new("git").arg("-C").arg(self.dir).args(args))
    }

    /// The same, with dates in UTC.
    fn output_utc(&self, args: &[&str]) -> Option<String> {
        run(Command::new("git")
            .env("TZ", "UTC")
            .arg("-C")
            .arg(self.dir)
            .args(args))
    }
}

/// `rustc 1.96.0` from the first words of `$RUSTC --version`.
fn compiler() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = run(Command::new(rustc).arg("--version"))?;
    let words: Vec<&str> = version.split_whitespace().take(2).collect();
    (words.len() == 2).then(|| words.join(" "))
}

fn run(command: &mut Command) -> Option<String> {
    let output = command.output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
