//! POSIX path cleaning (Go's `path.Clean`), how the module names virtual
//! files (module-abi §3, tooling §1.3): `./a//b.sigil` → `a/b.sigil`,
//! `deploy/../x.sigil` → `x.sigil`, a leading `../` kept.

/// The shortest path equivalent to `path` by purely lexical processing.
/// An empty path cleans to `.` (callers refuse it before).
pub fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if rooted => {}
                _ => parts.push(".."),
            },
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn paths_clean_as_go_path_clean_does() {
        let cases = [
            ("./a//b.sigil", "a/b.sigil"),
            ("deploy/../x.sigil", "x.sigil"),
            ("../a/b.sigil", "../a/b.sigil"),
            ("a/../../b", "../b"),
            ("/../a", "/a"),
            ("/", "/"),
            ("a/b/", "a/b"),
            (".", "."),
            ("", "."),
            ("a/./b/./c", "a/b/c"),
            ("../../x", "../../x"),
        ];
        for (path, want) in cases {
            assert_eq!(clean(path), want, "{path}");
        }
    }
}
