//! Required policies (language-policies §5.5, tooling §3.3, module-abi
//! §4.2 and §6): policies the host requires every root of their kind to
//! invoke unconditionally, the trusted paths they must come from, and the
//! roots they apply to.
//!
//! Where things are:
//!
//! * here: [`Requirement`], the request-level failures of requirements
//!   ([`Refusal`]) in the order the check op reports them, and
//!   [`enforce`], which picks each requirement's roots and reports every
//!   root that doesn't reach its required policy.
//! * `reach.rs`: the walk of the invocation tree from a root, tracking
//!   whether a `when` encloses the path.
//! * `roots.rs`: which policies a requirement applies to.

mod reach;
mod roots;
#[cfg(test)]
mod tests;

pub use reach::{Reach, Site, reach};

use crate::bundle::{DocEntry, NamedFile, Project, clean};
use crate::diag::{Diagnostic, did_you_mean, merge_help};
use crate::source::Span;

/// One entry of a request's `require`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requirement {
    /// The required policy's name; empty when the entry names none.
    pub policy: String,
    /// The paths it must come from, cleaned and each once; empty for none.
    pub trusted: Vec<String>,
    /// The patterns of the roots it applies to; `None` for the default
    /// roots (policies of its kind that no other policy invokes).
    pub roots: Option<Vec<String>>,
}

/// Why a request's requirements can't be enforced as written: the request
/// fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

impl Requirement {
    /// The entry for `policy`, its trusted paths cleaned and de-duplicated.
    pub fn new<'a>(
        policy: &str,
        trusted: impl IntoIterator<Item = &'a str>,
        roots: Option<Vec<String>>,
    ) -> Requirement {
        let mut paths: Vec<String> = Vec::new();
        for path in trusted {
            let path = clean(path);
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        Requirement {
            policy: policy.to_owned(),
            trusted: paths,
            roots,
        }
    }

    /// Whether `path` (cleaned) is at or below one of its trusted paths.
    pub fn covers(&self, path: &str) -> bool {
        self.trusted.iter().any(|dir| below(path, dir))
    }
}

/// Whether cleaned `path` is `dir` or below `dir/`; `.` covers every path.
fn below(path: &str, dir: &str) -> bool {
    dir == "."
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `require[«i»]`, where a requirement sits in the request.
fn place(i: usize) -> String {
    format!("require[{i}]")
}

/// Failure 2 of the check op: every trusted path must hold a file of the
/// request. `paths` are the request's file paths as sent, both lists.
pub fn check_trusted_paths<'a>(
    requirements: &[Requirement],
    paths: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<(), Refusal> {
    for (i, requirement) in requirements.iter().enumerate() {
        for dir in &requirement.trusted {
            let holds = paths
                .clone()
                .into_iter()
                .filter(|p| !p.is_empty())
                .any(|p| below(&clean(p), dir));
            if !holds {
                return Err(Refusal {
                    message: format!(
                        "{}: the trusted path {dir} of {} holds no file",
                        place(i),
                        requirement.policy
                    ),
                    help: "name a file of the request, or a directory some of them are below"
                        .to_owned(),
                });
            }
        }
    }
    Ok(())
}

/// Marks the files below some requirement's trusted path as trusted, and
/// keeps the trusted files first (they load and resolve first).
pub fn move_into_trusted(requirements: &[Requirement], files: Vec<NamedFile>) -> Vec<NamedFile> {
    let (trusted, rest): (Vec<NamedFile>, Vec<NamedFile>) =
        files.into_iter().partition(|f| f.trusted);
    let (moved, rest): (Vec<NamedFile>, Vec<NamedFile>) = rest
        .into_iter()
        .partition(|f| requirements.iter().any(|r| r.covers(&f.path)));
    let moved = moved.into_iter().map(|f| NamedFile { trusted: true, ..f });
    trusted.into_iter().chain(moved).chain(rest).collect()
}

/// Failure 4: every requirement names a policy. `example` is the name the
/// help shows, since the ops' messages differ only in it.
pub fn check_named(requirements: &[Requirement], example: &str) -> Result<(), Refusal> {
    match requirements.iter().position(|r| r.policy.is_empty()) {
        Some(i) => Err(Refusal {
            message: format!("{} names no policy", place(i)),
            help: format!(
                "give each requirement the policy it requires, as {{\"policy\": \"{example}\"}}"
            ),
        }),
        None => Ok(()),
    }
}

/// One requirement as it applies: the required policy and its roots, by
/// number in [`Project::docs`].
struct Applied<'r> {
    requirement: &'r Requirement,
    roots: Vec<usize>,
}

/// Failure 6 and the violations (tooling §3.3): finds each required policy
/// where its entry says it must be, picks its roots (narrowed to the
/// policies `narrow` matched, when given), and reports every root that
/// doesn't invoke it unconditionally. Run only over a project that checked
/// without errors.
pub fn enforce(
    project: &Project,
    requirements: &[Requirement],
    narrow: Option<&[usize]>,
) -> Result<Vec<Diagnostic>, Refusal> {
    let required: Vec<&str> = requirements.iter().map(|r| r.policy.as_str()).collect();
    let mut applied = Vec::new();
    for (i, requirement) in requirements.iter().enumerate() {
        let doc = find_required(project, i, requirement)?;
        let mut roots = roots::of(project, i, requirement, doc, &required)?;
        if let Some(narrow) = narrow {
            roots.retain(|r| narrow.contains(r));
        }
        applied.push(Applied { requirement, roots });
    }
    let mut out: Vec<Diagnostic> = Vec::new();
    for a in &applied {
        for &root in &a.roots {
            for d in violations(project, root, &a.requirement.policy) {
                let same =
                    |o: &Diagnostic| o.file == d.file && o.span == d.span && o.message == d.message;
                if !out.iter().any(same) {
                    out.push(d);
                }
            }
        }
    }
    Ok(out)
}

/// The required policy's document: defined somewhere, and below one of
/// the entry's trusted paths in the trusted set when it names any.
fn find_required(project: &Project, i: usize, requirement: &Requirement) -> Result<usize, Refusal> {
    let name = requirement.policy.as_str();
    let found = project
        .find(name)
        .filter(|&d| project.docs.get(d).is_some_and(|doc| doc.is_policy));
    let Some(doc) = found else {
        let mut names: Vec<&str> = project.docs.iter().map(|d| d.name.as_str()).collect();
        names.sort_unstable();
        return Err(Refusal {
            message: format!(
                "{}: {name} is required, but no policy {name} was found",
                place(i)
            ),
            help: merge_help([
                did_you_mean(name, names).unwrap_or_default(),
                "check reads a required policy from the entry's trusted: paths, or else from its paths"
                    .to_owned(),
            ]),
        });
    };
    if requirement.trusted.is_empty() {
        return Ok(doc);
    }
    let file = project
        .docs
        .get(doc)
        .and_then(|d| project.files.get(d.at.0));
    match file {
        Some(f) if f.trusted && requirement.covers(&f.path) => Ok(doc),
        _ => Err(Refusal {
            message: format!(
                "{}: {name} must come from {}, but it's defined at {}",
                place(i),
                requirement.trusted.join(", "),
                file.map(|f| f.path.as_str()).unwrap_or_default()
            ),
            help: "the host reads a required policy only from its trusted source, as policy.From does; define it there, and remove the other definition"
                .to_owned(),
        }),
    }
}

/// What root `root` does wrong with required policy `name` (language-
/// policies §5.5): nothing when some path to it has no `when` on it; one
/// error per gated call when only gated paths reach it; one error at the
/// root's header when nothing invokes it.
pub fn violations(project: &Project, root: usize, name: &str) -> Vec<Diagnostic> {
    let Some(doc) = project.docs.get(root) else {
        return Vec::new();
    };
    let kind = project.kind_name_of(doc);
    let found = reach(project, root, name);
    if found.unconditional {
        return Vec::new();
    }
    if found.invoked {
        let help = format!(
            "the host requires {name} for every {kind} policy; move the call to the top level"
        );
        return found
            .gated
            .iter()
            .filter_map(|site| {
                let entry = project.docs.get(site.doc)?;
                let file = project.files.get(entry.at.0)?;
                Some(
                    Diagnostic::error(site.span, format!("{name} must be invoked unconditionally"))
                        .with_help(help.clone())
                        .with_file(file.path.clone())
                        .with_document(entry.name.clone()),
                )
            })
            .collect();
    }
    let help = format!(
        "the host requires {name} for every {kind} policy; import it with `use {name}` and invoke it at the top level"
    );
    vec![at_header(project, doc, format!("{} doesn't invoke {name}", doc.name)).with_help(help)]
}

/// An error at the start of `doc`'s header.
fn at_header(project: &Project, doc: &DocEntry, message: String) -> Diagnostic {
    let header = project
        .document(doc.at)
        .map(|d| d.span())
        .unwrap_or_default();
    let file = project
        .files
        .get(doc.at.0)
        .map(|f| f.path.clone())
        .unwrap_or_default();
    Diagnostic::error(Span::new(header.start, header.start), message)
        .with_file(file)
        .with_document(doc.name.clone())
}

/// Why a compile requirement (module-abi §6) isn't met by the trusted
/// files: the refusal, and the definition outside them when there is one.
#[derive(Debug)]
pub struct Untrusted {
    /// The request's failure; without help when it carries `definition`,
    /// as the op gives every failure with diagnostics the same help.
    pub refusal: Refusal,
    /// The error at the definition among the other files.
    pub definition: Option<Diagnostic>,
}

/// Compile's requirement `i` when trusted files were sent: `name` must be
/// a policy defined among them (stricter than Go, which would accept the
/// bundle's own copy).
pub fn from_trusted_files(project: &Project, i: usize, name: &str) -> Result<(), Untrusted> {
    let mut defined = project
        .docs
        .iter()
        .filter(|d| d.is_policy && d.name == name);
    let Some(first) = defined.next() else {
        return Err(Untrusted {
            refusal: Refusal {
                message: format!(
                    "{}: {name} is required, but the trusted files define no policy {name}",
                    place(i)
                ),
                help: "send the document that defines it among trusted_files".to_owned(),
            },
            definition: None,
        });
    };
    if first.trusted || defined.any(|d| d.trusted) {
        return Ok(());
    }
    let message = format!("{name} must come from the trusted files, but it's defined here");
    Err(Untrusted {
        refusal: Refusal {
            message: format!("{}: {name} isn't among the trusted files", place(i)),
            // The op's help for failures that carry diagnostics.
            help: String::new(),
        },
        definition: Some(at_header(project, first, message).with_help(
            "the host reads a required policy only from its trusted source, as policy.From does; define it there, and remove this definition",
        )),
    })
}
