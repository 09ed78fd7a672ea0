//! Virtual files (module-abi §3): the request's `files` and
//! `trusted_files`, named by their cleaned paths, with the request-level
//! failures of a path missing, given twice with two sources, or in both
//! lists.

use std::rc::Rc;

use super::path::clean;

/// A file as the request sends it.
#[derive(Clone, Copy, Debug)]
pub struct FileInput<'r> {
    /// The path as sent.
    pub path: &'r str,
    /// The source text.
    pub source: &'r str,
}

/// A file of the bundle under its cleaned path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedFile {
    /// The cleaned path every diagnostic shows.
    pub path: String,
    /// The source text, shared with the project and the compiled
    /// programs made from it (one copy of a large source, not three).
    pub source: Rc<str>,
    /// Whether it came from `trusted_files`.
    pub trusted: bool,
}

/// Why a request's files can't form a bundle: the request fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

/// The files of a request, trusted ones first (they load first and
/// resolve first), each path once.
pub fn named_files(
    files: &[FileInput<'_>],
    trusted: &[FileInput<'_>],
) -> Result<Vec<NamedFile>, FileError> {
    let trusted = dedup(trusted, "trusted file", true)?;
    let files = dedup(files, "file", false)?;
    if let Some(both) = files
        .iter()
        .find(|f| trusted.iter().any(|t| t.path == f.path))
    {
        return Err(FileError {
            message: format!(
                "{} is among both the files and the trusted files",
                both.path
            ),
            help: "a trusted file's path belongs to it; give the other file another path"
                .to_owned(),
        });
    }
    Ok(trusted.into_iter().chain(files).collect())
}

/// One list's files under cleaned paths: a path given twice with the same
/// source is read once, with two sources fails.
fn dedup(list: &[FileInput<'_>], what: &str, trusted: bool) -> Result<Vec<NamedFile>, FileError> {
    let mut out: Vec<NamedFile> = Vec::new();
    for (i, file) in list.iter().enumerate() {
        if file.path.is_empty() {
            return Err(FileError {
                message: format!("{what} {} has no path", i + 1),
                help: "give every file a path, such as access/main.sigil; diagnostics name files by it".to_owned(),
            });
        }
        let path = clean(file.path);
        match out.iter().find(|f| f.path == path) {
            Some(seen) if *seen.source == *file.source => {}
            Some(_) => {
                return Err(FileError {
                    message: format!("{path} is given twice, with two sources"),
                    help: "send each file once".to_owned(),
                });
            }
            None => out.push(NamedFile {
                path,
                source: Rc::from(file.source),
                trusted,
            }),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(path: &'a str, source: &'a str) -> FileInput<'a> {
        FileInput { path, source }
    }

    #[test]
    fn paths_are_cleaned_and_a_repeated_file_is_read_once() {
        let files = [input("./a//b.sigil", "x"), input("a/b.sigil", "x")];
        let named = named_files(&files, &[]).unwrap();
        assert_eq!(named.len(), 1);
        assert_eq!(named[0].path, "a/b.sigil");
    }

    #[test]
    fn trusted_files_come_first() {
        let named = named_files(&[input("b", "1")], &[input("t", "2")]).unwrap();
        let order: Vec<(&str, bool)> = named.iter().map(|f| (f.path.as_str(), f.trusted)).collect();
        assert_eq!(order, [("t", true), ("b", false)]);
    }

    #[test]
    fn bad_file_lists_fail_the_request() {
        let cases: [(&[FileInput<'_>], &[FileInput<'_>], &str); 4] = [
            (
                &[input("a", "1"), input("", "2")],
                &[],
                "file 2 has no path",
            ),
            (&[], &[input("", "2")], "trusted file 1 has no path"),
            (
                &[input("a", "1"), input("./a", "2")],
                &[],
                "a is given twice, with two sources",
            ),
            (
                &[input("x/a", "1")],
                &[input("x//a", "1")],
                "x/a is among both the files and the trusted files",
            ),
        ];
        for (files, trusted, message) in cases {
            let error = named_files(files, trusted).unwrap_err();
            assert_eq!(error.message, message);
        }
    }
}
