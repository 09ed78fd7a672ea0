//! The kind builder: a kind document defined in Rust, written byte for byte as the Java and
//! TypeScript builders write it (bindings §13).

mod constants;
mod decision;
mod types;
mod writer;

use std::collections::HashMap;

pub use decision::{Decision, Matched, Outcome, OutcomeRef};
pub use types::{FnDecl, Type};

use crate::engine::{Engine, Policy};
use crate::error::{Error, Result};
use crate::host::HostFunction;
use crate::options::{CheckOptions, CompileOptions, SourceFile};
use crate::records::{Diagnostic, ResultShape};

/// A kind, checked and written by [`KindBuilder::build`].
#[derive(Debug, Clone)]
pub struct Kind {
    name: String,
    version: u32,
    schema: String,
    functions: HashMap<String, HostFunction>,
    shape: ResultShape,
}

/// Options of [`Kind::compile`]: the compile options and the path of the kind document it adds.
#[derive(Debug, Clone, Default)]
pub struct KindCompileOptions {
    /// The compile options.
    pub compile: CompileOptions,
    /// The path of the kind document `compile` adds; the kind's name in snake case when None.
    pub kind_file: Option<String>,
}

/// Collects a kind's parts; [`KindBuilder::build`] checks them all and writes the document.
#[derive(Debug, Clone)]
pub struct KindBuilder {
    pub(crate) name: String,
    pub(crate) version: u32,
    pub(crate) accepts: u32,
    pub(crate) inputs: Vec<(String, Type)>,
    pub(crate) enums: Vec<Type>,
    pub(crate) functions: Vec<(String, FnDecl)>,
    pub(crate) decisions: Vec<Decision>,
    resolution_set: bool,
    pub(crate) collect_all: bool,
    pub(crate) precedence: Option<Vec<String>>,
    pub(crate) rankings: Vec<Vec<Outcome>>,
    pub(crate) exclusive_sets: Vec<Vec<OutcomeRef>>,
    pub(crate) default_outcome: Option<Outcome>,
    pub(crate) conflict: Option<Outcome>,
    /// Problems seen while declaring, such as a name declared twice; reported first.
    pub(crate) problems: Vec<String>,
}

impl Kind {
    /// Starts a kind of this name.
    pub fn builder(name: impl Into<String>) -> KindBuilder {
        KindBuilder {
            name: name.into(),
            version: 0,
            accepts: 1,
            inputs: Vec::new(),
            enums: Vec::new(),
            functions: Vec::new(),
            decisions: Vec::new(),
            resolution_set: false,
            collect_all: false,
            precedence: None,
            rankings: Vec::new(),
            exclusive_sets: Vec::new(),
            default_outcome: None,
            conflict: None,
            problems: Vec::new(),
        }
    }

    /// The kind's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its version.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The kind document, byte for byte what the Java and TypeScript builders write.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// The kind document as a file: `path`, or the kind's name in snake case with `.sigil`.
    pub fn file(&self, path: Option<&str>) -> SourceFile {
        let path = path.map_or_else(
            || format!("{}.sigil", snake_case(&self.name)),
            str::to_owned,
        );
        SourceFile::new(path, self.schema.clone())
    }

    /// The implementations given to [`FnDecl::implement`], by function name.
    pub fn functions(&self) -> HashMap<String, HostFunction> {
        self.functions.clone()
    }

    /// Checks the kind document with the engine.
    pub fn check(&self, engine: &Engine) -> Result<Vec<Diagnostic>> {
        engine.check(&[self.file(None)], &CheckOptions::default())
    }

    /// Compiles `files` with the kind document added when neither they nor the trusted files hold
    /// it, and with the kind's implementations (the options' functions win). The policy stamps its
    /// results with [`Kind::result_shape`]. Fails when they hold
    /// a kind document of this name that is not [`Kind::schema`].
    pub fn compile(
        &self,
        engine: &Engine,
        files: &[SourceFile],
        options: KindCompileOptions,
    ) -> Result<Policy> {
        let mut compile = options.compile;
        let mut found = false;
        for file in files.iter().chain(&compile.trusted_files) {
            if kind_name_of(&file.source) != Some(self.name.as_str()) {
                continue;
            }
            if file.source != self.schema {
                return Err(Error::engine(
                    format!("{} declares kind {}, but not as this program defines it", file.path, self.name),
                    "the file is stale: export the kind again, or drop the file and let compile add the current one",
                ));
            }
            found = true;
        }
        let mut all = Vec::with_capacity(files.len() + 1);
        if !found {
            all.push(self.file(options.kind_file.as_deref()));
        }
        all.extend_from_slice(files);
        for (name, function) in &self.functions {
            compile
                .functions
                .entry(name.clone())
                .or_insert_with(|| function.clone());
        }
        Ok(engine.compile(&all, compile)?.stamp_results(self.shape))
    }

    /// How the results of the kind's policies read; [`Kind::compile`] stamps them with it.
    pub fn result_shape(&self) -> ResultShape {
        self.shape
    }
}

impl KindBuilder {
    /// `kind <Name> version <n>`: required, from 1.
    pub fn version(mut self, version: u32) -> Self {
        self.version = version;
        self
    }

    /// `, accepts: <n>`: from 1 to the version; every version when left out.
    pub fn accepts(mut self, accepts: u32) -> Self {
        self.accepts = accepts;
        self
    }

    /// `input <name>: <Type>`, in declaration order. A repeat is still declared, so the type walk
    /// reaches its types and reports their problems too.
    pub fn input(mut self, name: impl Into<String>, ty: Type) -> Self {
        declare(
            &mut self.inputs,
            &mut self.problems,
            "input",
            name.into(),
            ty,
        );
        self
    }

    /// Declares an enum that nothing reaches; printed after the ones something uses.
    pub fn enumeration(mut self, ty: Type) -> Self {
        if matches!(ty.0, types::Repr::Enum { .. }) {
            self.enums.push(ty);
        } else {
            self.problems
                .push(format!("enumeration({ty}): not an enum"));
        }
        self
    }

    /// `fn <name>(...) -> ...`, in declaration order.
    pub fn function(mut self, name: impl Into<String>, decl: FnDecl) -> Self {
        declare(
            &mut self.functions,
            &mut self.problems,
            "function",
            name.into(),
            decl,
        );
        self
    }

    /// `collect one` with these decisions, highest precedence first; needs a default outcome.
    pub fn decisions<'a>(self, decisions: impl IntoIterator<Item = &'a Decision>) -> Self {
        self.resolve(false, decisions)
    }

    /// `collect all` with these decisions.
    pub fn collect_all<'a>(self, decisions: impl IntoIterator<Item = &'a Decision>) -> Self {
        self.resolve(true, decisions)
    }

    fn resolve<'a>(
        mut self,
        collect_all: bool,
        decisions: impl IntoIterator<Item = &'a Decision>,
    ) -> Self {
        if self.resolution_set {
            self.problems.push(
                "the kind sets both decisions and collect (decisions ranks them for `collect one`, collect_all \
                 applies them all; use one)"
                    .into(),
            );
        }
        self.resolution_set = true;
        self.collect_all = collect_all;
        self.decisions.extend(decisions.into_iter().cloned());
        self
    }

    /// `precedence ...` of a `collect all` kind: every decision, highest first.
    pub fn precedence<'a>(mut self, decisions: impl IntoIterator<Item = &'a Decision>) -> Self {
        self.precedence = Some(decisions.into_iter().map(|d| d.name.clone()).collect());
        self
    }

    /// `precedence <decision>: <r1> > <r2>` in the decision's declared order.
    pub fn rank_reasons(mut self, decision: &Decision) -> Self {
        let ranking = decision.reasons.iter().map(|r| Outcome {
            decision: decision.name.clone(),
            reason: r.clone(),
        });
        self.rankings.push(ranking.collect());
        self
    }

    /// `precedence <decision>: ...` in the order given.
    pub fn rank_outcomes(mut self, outcomes: impl IntoIterator<Item = Outcome>) -> Self {
        self.rankings.push(outcomes.into_iter().collect());
        self
    }

    /// `exclusive <a>, <b>`: at least two decisions or outcomes.
    pub fn exclusive(mut self, members: impl IntoIterator<Item = OutcomeRef>) -> Self {
        self.exclusive_sets.push(members.into_iter().collect());
        self
    }

    /// `default <decision>(reason: <reason>)`: required with `decisions`.
    pub fn default_outcome(mut self, outcome: Outcome) -> Self {
        self.default_outcome = Some(outcome);
        self
    }

    /// `conflict <decision>(reason: <reason>)`: only with `decisions`.
    pub fn conflict(mut self, outcome: Outcome) -> Self {
        self.conflict = Some(outcome);
        self
    }

    /// Every problem of the kind, in the order `build` reports them.
    pub fn problems(&self) -> Vec<String> {
        writer::write(self).1
    }

    /// Checks the kind and writes it; an [`Error::Engine`] lists every problem.
    pub fn build(self) -> Result<Kind> {
        let (schema, problems) = writer::write(&self);
        if !problems.is_empty() {
            let mut message = format!("Kind::builder({}): invalid kind:", self.name);
            for problem in problems {
                message.push_str("\n  ");
                message.push_str(&problem);
            }
            return Err(Error::engine(
                message,
                "fix every problem listed; the kind can't be exported until then",
            ));
        }
        let functions = self
            .functions
            .into_iter()
            .filter_map(|(name, decl)| {
                decl.implementation
                    .map(|implementation| (name, implementation))
            })
            .collect();
        let shape = ResultShape {
            collect: self.collect_all,
            ranked: self
                .precedence
                .as_ref()
                .is_some_and(|decisions| !decisions.is_empty()),
        };
        Ok(Kind {
            name: self.name,
            version: self.version,
            schema,
            functions,
            shape,
        })
    }
}

/// Appends a named declaration, noting a repeat as a problem.
fn declare<T>(
    list: &mut Vec<(String, T)>,
    problems: &mut Vec<String>,
    what: &str,
    name: String,
    item: T,
) {
    if list.iter().any(|(n, _)| *n == name) {
        problems.push(format!("{what} {name} is declared twice"));
    }
    list.push((name, item));
}

/// `AlertRouting` -> `alert_routing`, `HTTPServer` -> `http_server` (bindings §13.6).
pub(crate) fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in chars.iter().enumerate() {
        if i > 0 && c.is_uppercase() {
            let before = chars.get(i - 1).copied().unwrap_or_default();
            let lower_after = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if before.is_lowercase()
                || before.is_ascii_digit()
                || (before.is_uppercase() && lower_after)
            {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The kind a source declares: whole comment lines and white space, then `kind Name version`.
pub(crate) fn kind_name_of(source: &str) -> Option<&str> {
    let mut rest = source;
    loop {
        let trimmed = rest.trim_start();
        if !trimmed.starts_with("//") {
            rest = trimmed;
            break;
        }
        rest = &trimmed[trimmed.find('\n')? + 1..];
    }
    let after_kind = rest.strip_prefix("kind")?;
    let name_start = after_kind.trim_start();
    if name_start.len() == after_kind.len() {
        return None;
    }
    let name_len = name_start
        .find(|c: char| !is_ident_char(c))
        .unwrap_or(name_start.len());
    let (name, after_name) = name_start.split_at(name_len);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let version_start = after_name.trim_start();
    if version_start.len() == after_name.len() {
        return None;
    }
    let after_version = version_start.strip_prefix("version")?;
    if after_version.starts_with(is_ident_char) {
        return None;
    }
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_follows_the_bindings_cases() {
        let cases = [
            ("AlertRouting", "alert_routing"),
            ("DeployApproval", "deploy_approval"),
            ("Minimal", "minimal"),
            ("HTTPServer", "http_server"),
            ("Kind2Go", "kind2_go"),
            ("already_snake", "already_snake"),
            ("A", "a"),
            ("ABC", "abc"),
        ];
        for (name, snake) in cases {
            assert_eq!(snake_case(name), snake);
        }
    }

    #[test]
    fn kind_name_of_reads_only_a_kind_header() {
        assert_eq!(kind_name_of("kind A version 1"), Some("A"));
        assert_eq!(
            kind_name_of("// one\n// two\nkind Alert_Routing version 3, accepts: 2"),
            Some("Alert_Routing")
        );
        assert_eq!(kind_name_of("\n\n  kind   K   version 1"), Some("K"));
        for source in [
            "policy a.b: K@1",
            "kindred K version 1",
            "kind K versions 1",
            "kind K",
            "kind 1K version 1",
            "kindK version 1",
            "kind Kversion 1",
            "// a lone comment",
            "",
        ] {
            assert_eq!(kind_name_of(source), None, "{source:?}");
        }
    }
}
