//! The build of the engine, as the version op reports it (tooling.md §8):
//! set at build time by `build.rs` from the crate version, git and the
//! compiler, each `unknown` when it couldn't be found.

/// The version record's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BuildInfo {
    /// `v` and the crate version, with `+dirty` for a modified work tree.
    pub(crate) version: String,
    pub(crate) commit: String,
    /// The commit's time, RFC 3339 in UTC.
    pub(crate) commit_time: String,
    /// Whether the work tree had changes; false when unknown.
    pub(crate) dirty: bool,
    /// The compiler that built the engine, such as `rustc 1.96.0`; the
    /// record calls it `goVersion` after the reference's field.
    pub(crate) compiler: String,
    /// Go's name of the platform: `wasip1/wasm` for the module.
    pub(crate) platform: String,
}

impl BuildInfo {
    /// This build's values.
    pub(crate) fn current() -> Self {
        Self {
            version: env!("ENGINE_BUILD_VERSION").to_owned(),
            commit: env!("ENGINE_BUILD_COMMIT").to_owned(),
            commit_time: env!("ENGINE_BUILD_COMMIT_TIME").to_owned(),
            dirty: env!("ENGINE_BUILD_DIRTY") == "true",
            compiler: env!("ENGINE_BUILD_COMPILER").to_owned(),
            platform: platform(),
        }
    }
}

/// This build's platform as Go names them (`GOOS/GOARCH`): `wasip1/wasm`
/// for the module, as the reference reports it; `linux/amd64` natively.
fn platform() -> String {
    // std's OS constant is empty on wasm32-wasip1, so the module is named
    // by its target.
    if cfg!(all(target_arch = "wasm32", target_os = "wasi")) {
        return "wasip1/wasm".to_owned();
    }
    go_platform(std::env::consts::OS, std::env::consts::ARCH)
}

/// `GOOS/GOARCH` for a Rust OS and architecture.
fn go_platform(os: &str, arch: &str) -> String {
    let os = match os {
        "macos" => "darwin",
        other => other,
    };
    let arch = match arch {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    format!("{os}/{arch}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platforms_are_named_as_go_names_them() {
        assert_eq!(go_platform("linux", "x86_64"), "linux/amd64");
        assert_eq!(go_platform("macos", "aarch64"), "darwin/arm64");
    }

    #[test]
    fn every_value_is_known_or_unknown_never_empty() {
        let info = BuildInfo::current();
        for value in [
            &info.version,
            &info.commit,
            &info.commit_time,
            &info.compiler,
            &info.platform,
        ] {
            assert!(!value.is_empty());
        }
        assert!(info.version.starts_with('v'));
        assert!(info.compiler.starts_with("rustc "));
    }
}
