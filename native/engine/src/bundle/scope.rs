//! Which documents a check looks at (tooling §3.1, language-policies
//! §5.4): every policy, or the policies `--policy` patterns match plus
//! everything they use, transitively; and which diagnostics belong to
//! that scope.

use super::{FileError, Project};
use crate::ast::Document;
use crate::diag::Diagnostic;
use crate::source::Span;

/// Whether `name` matches `pattern`: `*` matches any run of characters,
/// dots included; everything else is literal; both ends anchored.
pub fn pattern_matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let Some(first) = parts.next() else {
        return name.is_empty();
    };
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = parts.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = rest.get(at + piece.len()..).unwrap_or_default(),
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// The documents a check covers, by number in [`Project::docs`].
pub struct Scope {
    docs: Vec<bool>,
    /// Whether no pattern narrowed it: then every diagnostic is in it,
    /// those outside every document too, such as the syntax error of a
    /// file whose only header didn't parse.
    every: bool,
}

impl Scope {
    /// Whether document `i` is in scope.
    pub fn contains(&self, i: usize) -> bool {
        self.docs.get(i).copied().unwrap_or(false)
    }
}

impl Project {
    /// The sorted names of the bundle's policies.
    pub fn policy_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .docs
            .iter()
            .filter(|d| d.is_policy)
            .map(|d| d.name.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// `the bundle defines: a, b` or `the bundle defines no policies`.
    pub fn defines_help(&self) -> String {
        let names = self.policy_names();
        match names.is_empty() {
            true => "the bundle defines no policies".to_owned(),
            false => format!("the bundle defines: {}", names.join(", ")),
        }
    }

    /// The policies `patterns` match, by number in [`Project::docs`].
    pub fn matching(&self, patterns: &[&str]) -> Vec<usize> {
        (0..self.docs.len())
            .filter(|&i| {
                self.docs.get(i).is_some_and(|d| {
                    d.is_policy && patterns.iter().any(|p| pattern_matches(p, &d.name))
                })
            })
            .collect()
    }

    /// The scope of a check: everything without patterns; else the policies
    /// the patterns match and what they use. A pattern matching no policy
    /// fails the request.
    pub fn scope(&self, patterns: &[&str]) -> Result<Scope, FileError> {
        if patterns.is_empty() {
            return Ok(Scope {
                docs: vec![true; self.docs.len()],
                every: true,
            });
        }
        let mut docs = vec![false; self.docs.len()];
        let mut stack = Vec::new();
        for pattern in patterns {
            let matched = self.matching(&[pattern]);
            if matched.is_empty() {
                return Err(FileError {
                    message: format!("no policy matches {}", crate::diag::go_quote(pattern)),
                    help: self.defines_help(),
                });
            }
            stack.extend(matched);
        }
        while let Some(i) = stack.pop() {
            let Some(seen) = docs.get_mut(i) else {
                continue;
            };
            if !*seen {
                *seen = true;
                stack.extend(
                    self.docs
                        .get(i)
                        .map(|d| d.imports.clone())
                        .unwrap_or_default(),
                );
            }
        }
        Ok(Scope { docs, every: false })
    }

    /// The diagnostics that belong to `scope`: every one when no pattern
    /// narrowed it; else those in a document in scope, and those outside
    /// every policy and module that lie inside a kind document or in a
    /// file that holds a document in scope.
    pub fn in_scope(&self, scope: &Scope) -> Vec<Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| self.belongs(d, scope))
            .cloned()
            .collect()
    }

    /// The errors among the diagnostics that belong to `scope`: what stops
    /// a scoped compile.
    pub fn errors_in(&self, scope: &Scope) -> Vec<Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.is_error() && self.belongs(d, scope))
            .cloned()
            .collect()
    }

    /// The diagnostics that don't belong to `scope`: what a scoped compile
    /// returns without failing.
    pub fn out_of_scope(&self, scope: &Scope) -> Vec<Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| !self.belongs(d, scope))
            .cloned()
            .collect()
    }

    fn belongs(&self, d: &Diagnostic, scope: &Scope) -> bool {
        if scope.every {
            return true;
        }
        let in_scope = |i: usize| scope.contains(i);
        if let Some(name) = d.document.as_deref() {
            return self.find(name).is_some_and(in_scope);
        }
        let Some(file) = self
            .files
            .iter()
            .position(|f| Some(f.path.as_str()) == d.file.as_deref())
        else {
            return true;
        };
        let file_in_scope = self
            .docs
            .iter()
            .enumerate()
            .any(|(i, doc)| doc.at.0 == file && in_scope(i));
        file_in_scope || d.span.is_some_and(|span| self.in_kind_document(file, span))
    }

    /// Whether `span` of file `file` starts inside one of its kind
    /// documents: every policy is checked against a kind, so a kind that
    /// doesn't load fails any narrowed check.
    fn in_kind_document(&self, file: usize, span: Span) -> bool {
        self.files.get(file).is_some_and(|f| {
            f.ast.docs.iter().any(|doc| match doc {
                Document::Kind(k) => k.span.start <= span.start && span.start < k.span.end,
                _ => false,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::pattern_matches;

    #[test]
    fn patterns_match_whole_names_with_star_for_any_run() {
        let cases = [
            ("deploy.*", "deploy.prod", true),
            ("deploy.*", "deploy", false),
            ("*", "a.b.c", true),
            ("*.prod", "eu.deploy.prod", true),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxbyy", false),
            ("exact", "exact", true),
            ("exact", "exactly", false),
            ("a*a", "a", false),
        ];
        for (pattern, name, want) in cases {
            assert_eq!(pattern_matches(pattern, name), want, "{pattern} {name}");
        }
    }
}
