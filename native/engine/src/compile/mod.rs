//! Compiling one root policy for evaluation (language-policies §6): the
//! root becomes an instance, every invocation a new instance of the callee
//! with its params bound, every imported document one shared instance per
//! root; names are resolved, and every rule and assert carries what the
//! eval record prints about it.
//!
//! Where things are:
//!
//! * [`crate::program`]: the compiled [`Program`] and its expressions
//!   ([`Ex`]), which evaluation runs; compile builds them and depends on
//!   evaluation only to compute invocation arguments.
//! * here: instances, statements, rules and asserts.
//! * `expr.rs`: expressions with their names resolved.
//! * `text.rs`: the texts of conditions, checks and payload arguments.
//!
//! A root compiles for evaluation ([`compile`]) or statically
//! ([`compile_static`], for explain): a static compile leaves a root param
//! without a default unbound, so it stands for its own name in texts, and
//! an invocation argument that reads such a param stands for its text.
//!
//! What a request's compiles instantiate is capped (`limit.rs`): the
//! invocation that crosses the cap is an error.

mod expr;
mod limit;
mod text;

use limit::Budget;
pub use limit::{MAX_INSTANCES, MAX_REQUEST_INSTANCES, MAX_WORK};

use crate::program::{
    AssertDef, Ex, Fallback, Invocation, Node, PayloadArg, Program, Rule, SourceFile, WhenNode,
    Work,
};

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::ast::{CallStmt, Document, Expr, ExprKind, Import, Let, Stmt, Use};
use crate::bundle::Project;
use crate::check::{ParamSig, bounds_violation};
use crate::diag::Diagnostic;
use crate::input::zero_value;
use crate::kind::{Kind, Outcome};
use crate::source::{LineIndex, Span};
use crate::types::Ty;
use crate::value::Value;

/// Compiles policy `root` (by number in [`Project::docs`]) of a project
/// whose scope checked cleanly, for evaluation. Errors the checker can't
/// see (a root param without a value, an invocation argument outside the
/// callee's bounds) are diagnostics.
pub fn compile(project: &Project, root: usize) -> Result<Program, Vec<Diagnostic>> {
    compile_in(project, root, Mode::Eval, &mut Budget::default(), None)
}

/// [`compile`], freeing the tree of each of the root's statements once it
/// is compiled: the root's statements are taken out of the project, which
/// then holds none for it. For an op that compiles one root and reads its
/// statements no more: its peak is then about the larger of the tree and
/// the program, not both (issue #20).
pub fn compile_releasing(project: &mut Project, root: usize) -> Result<Program, Vec<Diagnostic>> {
    let taken = take_releasable(project, root);
    compile_in(project, root, Mode::Eval, &mut Budget::default(), taken)
}

/// Compiles policy `root` statically (language-policies §6.7), as explain
/// does: the program is there for its texts and is never evaluated. A root
/// param without a default is no error: it stays unbound.
pub fn compile_static(project: &Project, root: usize) -> Result<Program, Vec<Diagnostic>> {
    compile_in(project, root, Mode::Static, &mut Budget::default(), None)
}

/// [`compile_static`], freeing the root's statements as
/// [`compile_releasing`] does.
pub fn compile_static_releasing(
    project: &mut Project,
    root: usize,
) -> Result<Program, Vec<Diagnostic>> {
    let taken = take_releasable(project, root);
    compile_in(project, root, Mode::Static, &mut Budget::default(), taken)
}

/// The statements of `root`, taken out of the project, when some can be
/// freed as they compile: not when all are lets and params, which stay
/// (taking them would only add a list of the lets).
fn take_releasable(project: &mut Project, root: usize) -> Option<Vec<Stmt>> {
    let releasable = match project.docs.get(root).and_then(|e| project.document(e.at)) {
        Some(Document::Policy(p)) => p
            .stmts
            .iter()
            .any(|s| !matches!(s, Stmt::Let(_) | Stmt::Param(_))),
        _ => false,
    };
    releasable.then(|| project.take_statements(root))
}

/// The errors of compiling each of `roots` statically, each reported once
/// however many roots reach it (same file, position and message): what
/// the check op adds once a bundle checks clean, as the reference's check
/// compiles every policy in scope, so that an error only a compile finds,
/// such as an invocation argument outside its param's bounds, fails the
/// check too. Each root has its own cap on instances, as a compile of it
/// alone has, within the request's caps on all of them and on the work:
/// once an invocation crosses one of those, the roots after it are not
/// compiled.
pub fn static_errors(project: &Project, roots: &[usize]) -> Vec<Diagnostic> {
    let mut seen: HashSet<(Option<String>, Option<usize>, String)> = HashSet::new();
    let mut out = Vec::new();
    let mut budget = Budget::default();
    for &root in roots {
        if budget.spent() {
            break;
        }
        let Err(errors) = compile_in(project, root, Mode::Check, &mut budget, None) else {
            continue;
        };
        for e in errors {
            let key = (e.file.clone(), e.span.map(|s| s.start), e.message.clone());
            if seen.insert(key) {
                out.push(e);
            }
        }
    }
    out
}

/// What a compile is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Evaluation: every param needs a value.
    Eval,
    /// Explanation: a root param without a default stays unbound, and
    /// only the rules and asserts are kept, with their texts.
    Static,
    /// A check's static compile, for its errors only: nothing of the
    /// program is kept (its rules, asserts and nodes, with their record
    /// texts, would be as large as the tree they come from).
    Check,
}

impl Mode {
    /// Whether the compiled program is wanted, not just the errors.
    fn keeps_program(self) -> bool {
        self != Mode::Check
    }

    /// Whether the program's code is wanted too (`when` blocks, payload
    /// expressions), not just its rules and asserts with their texts: a
    /// static compile's program is only explained, never evaluated.
    fn keeps_code(self) -> bool {
        self == Mode::Eval
    }
}

/// Compiles `root`, spending `budget`; `taken` are the root's statements
/// when they were taken out of the project, to be freed as they compile.
fn compile_in(
    project: &Project,
    root: usize,
    mode: Mode,
    budget: &mut Budget,
    taken: Option<Vec<Stmt>>,
) -> Result<Program, Vec<Diagnostic>> {
    let Some(kind) = project.docs.get(root).and_then(|d| project.kind_of(d)) else {
        return Err(Vec::new());
    };
    // The lets of taken statements, out of them: a let compiles when first
    // read, maybe after its statement was freed.
    let mut taken = taken;
    let lets: Vec<Box<Let>> = match taken.as_mut() {
        Some(stmts) => {
            let lets = RefCell::new(Vec::with_capacity(lets_in(stmts)));
            take_lets(stmts, &lets);
            stmts.shrink_to_fit();
            lets.into_inner()
        }
        None => Vec::new(),
    };
    let mut compiler = Compiler {
        project,
        mode,
        kind,
        files: Vec::new(),
        file_of: vec![None; project.files.len()],
        lines_of: vec![None; project.files.len()],
        lets: Vec::new(),
        conditions: 0,
        rules: Vec::new(),
        asserts: Vec::new(),
        shared: (0..project.docs.len()).map(|_| None).collect(),
        constants: None,
        budget: std::mem::take(budget),
        errors: Vec::new(),
        names: HashSet::new(),
    };
    let params = compiler.root_params(root);
    let size = compiler.size(root);
    compiler.budget.root(size);
    let mut instance = compiler.instance(root, params, Vec::new(), Vec::new());
    let stmts = instance.stmts;
    if mode.keeps_program() {
        // The root's own rules at least, in one allocation: doubling would
        // hold up to twice their room at the peak.
        let calls = taken.as_deref().map_or_else(|| calls_in(stmts), calls_in);
        compiler.rules.reserve_exact(calls);
    }
    let body = match taken {
        None => compiler.body(&mut instance, stmts, &mut Vec::new()).0,
        Some(taken) => compiler.body_releasing(&mut instance, taken, &lets),
    };
    *budget = std::mem::take(&mut compiler.budget);
    if !compiler.errors.is_empty() {
        return Err(crate::diag::cap(compiler.errors));
    }
    Ok(Program {
        policy: instance.name.clone(),
        kind: kind.clone(),
        files: compiler.files,
        body,
        lets: compiler.lets,
        conditions: compiler.conditions,
        rules: compiler.rules,
        asserts: compiler.asserts,
        default: kind.default.as_ref().and_then(|o| fallback(kind, o)),
        conflict: kind.conflict.as_ref().and_then(|o| fallback(kind, o)),
    })
}

/// The kind's default or conflict outcome as an entry: its arguments and
/// the other fields' defaults, sorted by field name.
fn fallback(kind: &Kind, outcome: &Outcome) -> Option<Fallback> {
    let decision = kind
        .decisions
        .iter()
        .position(|d| d.name == outcome.decision)?;
    let def = kind.decisions.get(decision)?;
    let mut payload: Vec<(Rc<str>, Value)> = def
        .fields
        .iter()
        .map(|f| {
            let given = outcome.args.iter().find(|(n, _)| *n == f.name);
            let value = given
                .map(|(_, v)| v.clone())
                .or_else(|| f.default.clone())
                .unwrap_or_else(|| zero_value(&f.ty, kind));
            (Rc::from(f.name.as_str()), value)
        })
        .collect();
    payload.sort_by(|a, b| a.0.cmp(&b.0));
    Some(Fallback {
        decision,
        reason: Rc::from(outcome.reason.as_str()),
        payload,
    })
}

/// What compiles a root: the program's parts as they grow.
struct Compiler<'p> {
    project: &'p Project,
    mode: Mode,
    kind: &'p Kind,
    files: Vec<SourceFile>,
    /// The program file of each project file, once used.
    file_of: Vec<Option<usize>>,
    /// The line index of each project file, once used: built once per
    /// file, not per position, so compiling stays linear in the rules.
    lines_of: Vec<Option<Rc<LineIndex<'p>>>>,
    lets: Vec<Ex>,
    conditions: usize,
    rules: Vec<Rule>,
    asserts: Vec<AssertDef>,
    /// The shared instance of each document imported for its lets, by
    /// number in [`Project::docs`]; taken out while one of its lets
    /// compiles.
    shared: Vec<Option<Instance<'p>>>,
    /// What invocation arguments are evaluated in, made on first use.
    constants: Option<Program>,
    /// What the request's compiles have instantiated so far.
    budget: Budget,
    errors: Vec<Diagnostic>,
    /// The reasons and payload field names of the rules, one string each
    /// however many rules name it.
    names: HashSet<Rc<str>>,
}

/// One instance of a document: its params bound, its lets and imports
/// resolved as they are used.
struct Instance<'p> {
    /// The document's name.
    name: Rc<str>,
    /// Its program file.
    file: usize,
    /// Its file's path and text.
    path: &'p str,
    source: &'p str,
    /// Its file's line index, shared by every instance of the file.
    lines: Rc<LineIndex<'p>>,
    /// Its statements (a module's are its lets).
    stmts: &'p [Stmt],
    /// The params.
    params: Params<'p>,
    /// Every let of the document, scoped ones too: not yet compiled, or
    /// its slot.
    lets: HashMap<&'p str, LetRef<'p>>,
    /// What its `use`s bind: a whole document, or one let of one.
    imports: HashMap<&'p str, ImportRef<'p>>,
    /// The call sites from the root to this instance.
    chain: Vec<Site>,
    /// The conditions around those call sites, outermost first.
    inherited: Vec<Rc<str>>,
    /// The document's map indexings and their value types.
    map_values: &'p [(Span, Ty)],
    /// The document's reads of enum-typed inputs and fields.
    enum_reads: &'p [(Span, String)],
}

/// The params of an instance: their values, and what each prints as in
/// record texts.
#[derive(Default)]
struct Params<'p> {
    /// The value of each bound param.
    values: HashMap<&'p str, Value>,
    /// The text of every param: its value's `constText`, or, for a param a
    /// static compile left unbound, its own name or the text of the
    /// argument that stands for it.
    texts: HashMap<&'p str, Rc<str>>,
}

impl<'p> Params<'p> {
    fn bind(&mut self, name: &'p str, value: Value) {
        self.texts.insert(name, Rc::from(value.const_text()));
        self.values.insert(name, value);
    }

    fn leave_unbound(&mut self, name: &'p str, text: Rc<str>) {
        self.texts.insert(name, text);
    }

    /// Whether `name` is a param a static compile left unbound.
    fn is_unbound(&self, name: &str) -> bool {
        self.texts.contains_key(name) && !self.values.contains_key(name)
    }
}

/// A let of an instance.
#[derive(Clone, Copy)]
enum LetRef<'p> {
    Pending(&'p Let),
    Slot(usize),
}

/// What an import binds.
#[derive(Clone, Copy)]
enum ImportRef<'p> {
    /// A whole document, by number in [`Project::docs`].
    Whole(usize),
    /// One let of a document.
    Item(usize, &'p str),
}

/// A call site on an instance's chain.
#[derive(Clone)]
struct Site {
    position: Rc<str>,
    /// `«document»:«line»`, as explain's chain prints it.
    named: Rc<str>,
    line: u32,
    column: u32,
}

impl<'p> Compiler<'p> {
    /// The root's params: their defaults; a param without one has no value
    /// in a compile for evaluation, and stays unbound in a static one.
    fn root_params(&mut self, root: usize) -> Params<'p> {
        let mut params = Params::default();
        let Some(entry) = self.project.docs.get(root) else {
            return params;
        };
        let Some(exports) = entry.exports.as_ref() else {
            return params;
        };
        let path = self
            .project
            .files
            .get(entry.at.0)
            .map(|f| f.path.clone())
            .unwrap_or_default();
        for p in &exports.params {
            match &p.default {
                Some(v) => params.bind(p.name.as_str(), v.clone()),
                None if self.mode != Mode::Eval => {
                    params.leave_unbound(p.name.as_str(), Rc::from(p.name.as_str()));
                }
                None => self.errors.push(
                    Diagnostic::error(p.span, format!("param `{}` has no value", p.name))
                        .with_help(format!(
                            "bind it with policy.Params{{\"{}\": ...}} when compiling, or give it a default",
                            p.name
                        ))
                        .with_file(path.clone())
                        .with_document(entry.name.clone()),
                ),
            }
        }
        params
    }

    /// The program file of project file `file`.
    fn file(&mut self, file: usize) -> usize {
        if let Some(Some(at)) = self.file_of.get(file) {
            return *at;
        }
        let (path, source) = self
            .project
            .files
            .get(file)
            .map(|f| (f.path.as_str(), f.source.clone()))
            .unwrap_or_default();
        self.files.push(SourceFile {
            path: Rc::from(path),
            source,
        });
        let at = self.files.len() - 1;
        if let Some(slot) = self.file_of.get_mut(file) {
            *slot = Some(at);
        }
        at
    }

    /// The line index of project file `file`, made on first use.
    fn lines(&mut self, file: usize) -> Rc<LineIndex<'p>> {
        let project = self.project;
        let source = project.files.get(file).map_or("", |f| &*f.source);
        match self.lines_of.get_mut(file) {
            Some(slot) => slot
                .get_or_insert_with(|| Rc::new(LineIndex::new(source)))
                .clone(),
            None => Rc::new(LineIndex::new(source)),
        }
    }

    /// The source bytes of document `doc`.
    fn size(&self, doc: usize) -> usize {
        let project = self.project;
        project
            .docs
            .get(doc)
            .and_then(|e| project.document(e.at))
            .map_or(0, |d| d.span().len())
    }

    /// A new instance of document `doc`.
    fn instance(
        &mut self,
        doc: usize,
        params: Params<'p>,
        chain: Vec<Site>,
        inherited: Vec<Rc<str>>,
    ) -> Instance<'p> {
        let project = self.project;
        let entry = project.docs.get(doc);
        let (stmts, uses, module_lets): (&'p [Stmt], &'p [Use], &'p [Let]) =
            match entry.and_then(|e| project.document(e.at)) {
                Some(Document::Policy(p)) => (&p.stmts, &p.uses, &[]),
                Some(Document::Module(m)) => (&[], &m.uses, &m.lets),
                _ => (&[], &[], &[]),
            };
        let file_index = entry.map_or(0, |e| e.at.0);
        let file = project.files.get(file_index);
        let mut lets = HashMap::new();
        collect_lets(stmts, &mut lets);
        for l in module_lets {
            lets.insert(l.name.name.as_str(), LetRef::Pending(l));
        }
        Instance {
            name: Rc::from(entry.map_or("", |e| e.name.as_str())),
            file: self.file(file_index),
            path: file.map_or("", |f| f.path.as_str()),
            source: file.map_or("", |f| &*f.source),
            lines: self.lines(file_index),
            stmts,
            params,
            lets,
            imports: self.imports(uses),
            chain,
            inherited,
            map_values: entry.map_or(&[], |e| e.facts.map_values.as_slice()),
            enum_reads: entry.map_or(&[], |e| e.facts.enum_reads.as_slice()),
        }
    }

    /// What `uses` bind, by local name.
    fn imports(&self, uses: &'p [Use]) -> HashMap<&'p str, ImportRef<'p>> {
        let mut out = HashMap::new();
        for u in uses {
            let Some(doc) = self.project.find(&u.path.text()) else {
                continue;
            };
            match &u.import {
                Import::Whole => {
                    if let Some(last) = u.path.parts.last() {
                        out.insert(last.name.as_str(), ImportRef::Whole(doc));
                    }
                }
                Import::Alias(alias) => {
                    out.insert(alias.name.as_str(), ImportRef::Whole(doc));
                }
                Import::Items(items) => {
                    for item in items {
                        let local = item.alias.as_ref().unwrap_or(&item.name);
                        out.insert(
                            local.name.as_str(),
                            ImportRef::Item(doc, item.name.name.as_str()),
                        );
                    }
                }
            }
        }
        out
    }

    /// The nodes of `stmts` and what they hold; `conds` are the texts of
    /// the `when` blocks around them in this instance.
    fn body(
        &mut self,
        inst: &mut Instance<'p>,
        stmts: &[Stmt],
        conds: &mut Vec<Rc<str>>,
    ) -> (Vec<Node>, Work) {
        // In one allocation.
        let mut nodes = Vec::with_capacity(self.node_room(stmts));
        let mut work = Work::default();
        for stmt in stmts {
            match stmt {
                Stmt::Param(_) | Stmt::Let(_) => {}
                Stmt::When(w) => {
                    let cond = self.expr(inst, &w.cond);
                    // A condition's text is for records, which a check has none of.
                    conds.push(match self.mode.keeps_program() {
                        true => text::of(inst.source, &w.cond, &inst.params.texts),
                        false => Rc::from(""),
                    });
                    let (body, inner) = self.body(inst, &w.body, conds);
                    conds.pop();
                    let slot = self.conditions;
                    self.conditions += 1;
                    work = work.or(inner);
                    if !self.mode.keeps_code() {
                        continue;
                    }
                    nodes.push(Node::When(Box::new(WhenNode {
                        cond,
                        slot,
                        work: inner,
                        body,
                    })));
                }
                Stmt::Assert(a) => {
                    let reads_outcome = text::reads_outcome(&a.cond);
                    let cond = self.expr(inst, &a.cond);
                    if !self.mode.keeps_program() {
                        continue;
                    }
                    let own = self.position_of(inst, a.span.start);
                    let mut position: Vec<&str> = inst.chain.iter().map(|s| &*s.position).collect();
                    position.push(&own.position);
                    self.asserts.push(AssertDef {
                        reason: Rc::from(String::from_utf8_lossy(&a.reason.value).as_ref()),
                        policy: inst.name.clone(),
                        position: Rc::from(position.join(" → ")),
                        path: path_of(&inst.chain, &own),
                        sites: sites_of(&inst.chain, &own),
                        conditions: conditions_of(inst, conds),
                        cond,
                        check: text::of(inst.source, &a.cond, &inst.params.texts),
                        reads_outcome,
                    });
                    nodes.push(Node::Assert(self.asserts.len() - 1));
                    work = work.or(Work {
                        input_asserts: !reads_outcome,
                        outcome_asserts: reads_outcome,
                        rules: false,
                    });
                }
                Stmt::Call(call) => match inst.imports.get(call.name.name.as_str()) {
                    Some(ImportRef::Whole(callee)) => {
                        let callee = *callee;
                        let invocation = self.invoke(inst, call, callee, conds);
                        if let Some(invocation) = invocation.filter(|_| self.mode.keeps_program()) {
                            work = work.or(invocation.work);
                            nodes.push(Node::Invoke(Box::new(invocation)));
                        }
                    }
                    _ => {
                        if let Some(rule) = self.rule(inst, call, conds) {
                            self.rules.push(rule);
                            nodes.push(Node::Rule(self.rules.len() - 1));
                            work = work.or(Work {
                                rules: true,
                                ..Work::default()
                            });
                        }
                    }
                },
            }
        }
        (nodes, work)
    }

    /// The nodes of the root's statements `stmts`, taken out of the
    /// project (their lets out of them, in `lets`): each statement's tree
    /// is freed once it is compiled.
    fn body_releasing(
        &mut self,
        inst: &mut Instance<'p>,
        stmts: Vec<Stmt>,
        lets: &'p [Box<Let>],
    ) -> Vec<Node> {
        for l in lets {
            inst.lets.insert(l.name.name.as_str(), LetRef::Pending(l));
        }
        let mut nodes = Vec::with_capacity(self.node_room(&stmts));
        for stmt in stmts {
            let (mut compiled, _) = self.body(inst, std::slice::from_ref(&stmt), &mut Vec::new());
            nodes.append(&mut compiled);
        }
        nodes
    }

    /// How many nodes the statements `stmts` make at most: one per
    /// statement other than a param or let, none when no program is kept.
    fn node_room(&self, stmts: &[Stmt]) -> usize {
        stmts
            .iter()
            .filter(|s| self.mode.keeps_program() && !matches!(s, Stmt::Param(_) | Stmt::Let(_)))
            .count()
    }

    /// `name` as the program's rules share it.
    fn shared(&mut self, name: &str) -> Rc<str> {
        if let Some(shared) = self.names.get(name) {
            return shared.clone();
        }
        let shared: Rc<str> = Rc::from(name);
        self.names.insert(shared.clone());
        shared
    }

    /// The position string and line/column of byte `offset` of the
    /// instance's file.
    fn position_of(&self, inst: &Instance<'p>, offset: usize) -> Site {
        let at = inst.lines.position(offset);
        Site {
            position: Rc::from(crate::diag::position_text(inst.path, &inst.name, at).as_str()),
            named: Rc::from(format!("{}:{}", inst.name, at.line)),
            line: u32::try_from(at.line).unwrap_or(u32::MAX),
            column: u32::try_from(at.column).unwrap_or(u32::MAX),
        }
    }

    /// A decision constructor.
    fn rule(
        &mut self,
        inst: &mut Instance<'p>,
        call: &CallStmt,
        conds: &[Rc<str>],
    ) -> Option<Rule> {
        let kind = self.kind;
        let decision = kind
            .decisions
            .iter()
            .position(|d| d.name == call.name.name)?;
        let def = kind.decisions.get(decision)?;
        let reason = call.args.iter().find(|a| a.name.name == "reason")?;
        let ExprKind::Ident(reason) = &reason.value.kind else {
            return None;
        };
        if !self.mode.keeps_program() {
            // Only the payload's expressions can be wrong.
            for field in &def.fields {
                if let Some(given) = call.args.iter().find(|a| a.name.name == field.name) {
                    self.expr(inst, &given.value);
                }
            }
            return None;
        }
        let payload_texts = call
            .args
            .iter()
            .filter(|a| a.name.name != "reason")
            .map(|a| {
                let text = text::of(inst.source, &a.value, &inst.params.texts);
                Rc::from(format!("{} = {text}", a.name.name))
            })
            .collect();
        let mut payload: Vec<(Rc<str>, PayloadArg)> = Vec::new();
        for field in &def.fields {
            let arg = match call.args.iter().find(|a| a.name.name == field.name) {
                Some(given) => PayloadArg::Given(self.expr(inst, &given.value)),
                None => PayloadArg::Default(
                    field
                        .default
                        .clone()
                        .unwrap_or_else(|| zero_value(&field.ty, kind)),
                ),
            };
            if self.mode.keeps_code() {
                payload.push((self.shared(&field.name), arg));
            }
        }
        payload.sort_by(|a, b| a.0.cmp(&b.0));
        let own = self.position_of(inst, call.name.span.start);
        let rank = match kind.precedence.is_empty() {
            true => decision,
            false => kind
                .precedence
                .iter()
                .position(|d| *d == def.name)
                .unwrap_or(usize::MAX),
        };
        let rrank = def
            .ranked
            .as_ref()
            .and_then(|r| r.iter().position(|x| x == reason))
            .unwrap_or(0);
        Some(Rule {
            decision,
            reason: self.shared(reason),
            payload,
            policy: inst.name.clone(),
            position: own.position.clone(),
            chain: inst.chain.iter().map(|s| s.position.clone()).collect(),
            conditions: conditions_of(inst, conds),
            path: path_of(&inst.chain, &own),
            sites: sites_of(&inst.chain, &own),
            payload_texts,
            rank,
            rrank,
        })
    }

    /// An invocation of policy `callee`: a new instance with its params
    /// bound by the arguments (computed in the caller's instance) or their
    /// defaults. An argument that reads a param a static compile left
    /// unbound leaves the callee's param unbound too, standing for the
    /// argument's text. None once the budget is spent; the invocation
    /// that crosses its cap is an error at its name.
    fn invoke(
        &mut self,
        inst: &mut Instance<'p>,
        call: &CallStmt,
        callee: usize,
        conds: &[Rc<str>],
    ) -> Option<Invocation> {
        let project = self.project;
        let exports = project.docs.get(callee)?.exports.as_ref()?;
        if self.budget.exhausted() {
            return None;
        }
        let size = self.size(callee);
        if let Err(crossed) = self.budget.invocation(size, inst.chain.len() + 1) {
            self.errors.push(
                Diagnostic::error(call.name.span, crossed.message(&exports.name))
                    .with_help(crossed.help())
                    .with_file(inst.path.to_owned())
                    .with_document(inst.name.to_string()),
            );
            return None;
        }
        let mut params = Params::default();
        for p in &exports.params {
            match call.args.iter().find(|a| a.name.name == p.name) {
                Some(arg) if reads_unbound(inst, &arg.value) => {
                    let text = text::of(inst.source, &arg.value, &inst.params.texts);
                    params.leave_unbound(p.name.as_str(), text);
                }
                Some(arg) => {
                    let value = self.argument(inst, &exports.name, p, &arg.value)?;
                    params.bind(p.name.as_str(), value);
                }
                None => params.bind(p.name.as_str(), p.default.clone()?),
            }
        }
        let mut chain = inst.chain.clone();
        chain.push(self.position_of(inst, call.name.span.start));
        let mut inherited = inst.inherited.clone();
        inherited.extend(conds.iter().cloned());
        let mut callee_inst = self.instance(callee, params, chain, inherited);
        let stmts = callee_inst.stmts;
        let (body, work) = self.body(&mut callee_inst, stmts, &mut Vec::new());
        Some(Invocation { work, body })
    }

    /// The value of invocation argument `arg` for param `param` of policy
    /// `callee`, computed in the caller's instance; a value outside the
    /// param's bounds is an error at the argument.
    fn argument(
        &mut self,
        inst: &mut Instance<'p>,
        callee: &str,
        param: &ParamSig,
        arg: &Expr,
    ) -> Option<Value> {
        let ex = self.expr(inst, arg);
        let kind = self.kind;
        let constants = self
            .constants
            .get_or_insert_with(|| Program::constants(kind));
        let value = crate::eval::constant(&ex, constants)?;
        if let Some(outside) = bounds_violation(callee, param, &value) {
            self.errors.push(
                Diagnostic::error(arg.span, outside.message())
                    .with_help(outside.help())
                    .with_file(inst.path.to_owned())
                    .with_document(inst.name.to_string()),
            );
        }
        Some(value)
    }

    /// The slot of let `name` of `inst`, compiling it on first use.
    fn let_slot(&mut self, inst: &mut Instance<'p>, name: &str) -> Option<usize> {
        match inst.lets.get(name).copied()? {
            LetRef::Slot(slot) => Some(slot),
            LetRef::Pending(decl) => {
                let slot = self.lets.len();
                self.lets.push(Ex::Lit(Value::Absent));
                inst.lets
                    .insert(decl.name.name.as_str(), LetRef::Slot(slot));
                let ex = self.expr(inst, &decl.value);
                if let Some(place) = self.lets.get_mut(slot) {
                    *place = ex;
                }
                Some(slot)
            }
        }
    }

    /// The slot of let `name` of the shared instance of document `doc`.
    fn shared_let(&mut self, doc: usize, name: &str) -> Option<usize> {
        let mut inst = match self.shared.get_mut(doc).and_then(Option::take) {
            Some(inst) => inst,
            None => self.instance(doc, Params::default(), Vec::new(), Vec::new()),
        };
        let slot = self.let_slot(&mut inst, name);
        if let Some(place) = self.shared.get_mut(doc) {
            *place = Some(inst);
        }
        slot
    }
}

/// How many call statements `stmts` hold, in `when` bodies too: rules and
/// invocations.
fn calls_in(stmts: &[Stmt]) -> usize {
    count_in(stmts, |stmt| matches!(stmt, Stmt::Call(_)))
}

/// How many lets `stmts` hold, in `when` bodies too.
fn lets_in(stmts: &[Stmt]) -> usize {
    count_in(stmts, |stmt| matches!(stmt, Stmt::Let(_)))
}

/// How many statements of `stmts`, in `when` bodies too, `counted` takes.
fn count_in(stmts: &[Stmt], counted: fn(&Stmt) -> bool) -> usize {
    stmts
        .iter()
        .map(|stmt| match stmt {
            Stmt::When(w) => count_in(&w.body, counted),
            other => usize::from(counted(other)),
        })
        .sum()
}

/// Moves every let of `stmts`, in `when` bodies too, to `out`, in the
/// order [`collect_lets`] finds them (a later let of a name replaces an
/// earlier one), in place: no second list of the statements.
#[expect(
    clippy::vec_box,
    reason = "the lets move out of their statements' boxes as they are: unboxed, a copy each"
)]
fn take_lets(stmts: &mut Vec<Stmt>, out: &RefCell<Vec<Box<Let>>>) {
    let lets = stmts.extract_if(.., |stmt| {
        if let Stmt::When(w) = stmt {
            take_lets(&mut w.body, out);
        }
        matches!(stmt, Stmt::Let(_))
    });
    for stmt in lets {
        if let Stmt::Let(l) = stmt {
            out.borrow_mut().push(l);
        }
    }
}

/// Every let of `stmts`, in `when` bodies too.
fn collect_lets<'p>(stmts: &'p [Stmt], out: &mut HashMap<&'p str, LetRef<'p>>) {
    for stmt in stmts {
        match stmt {
            Stmt::Let(l) => {
                out.insert(l.name.name.as_str(), LetRef::Pending(l));
            }
            Stmt::When(w) => collect_lets(&w.body, out),
            _ => {}
        }
    }
}

/// Whether `arg` reads a param of `inst` that a static compile left
/// unbound.
fn reads_unbound(inst: &Instance<'_>, arg: &Expr) -> bool {
    text::any_node(arg, |e| match &e.kind {
        ExprKind::Ident(name) => inst.params.is_unbound(name),
        _ => false,
    })
}

/// The texts of the conditions around a rule or assert: those inherited
/// from the call sites, then `conds`, its own document's.
fn conditions_of(inst: &Instance<'_>, conds: &[Rc<str>]) -> Rc<[Rc<str>]> {
    inst.inherited.iter().chain(conds).cloned().collect()
}

/// The chain explain prints for a rule or assert: its chain's sites, then
/// its own.
fn sites_of(chain: &[Site], own: &Site) -> Rc<[Rc<str>]> {
    chain
        .iter()
        .chain(std::iter::once(own))
        .map(|s| s.named.clone())
        .collect()
}

/// The call path of a rule or assert: its chain's sites, then its own.
fn path_of(chain: &[Site], own: &Site) -> Rc<[(u32, u32)]> {
    chain
        .iter()
        .chain(std::iter::once(own))
        .map(|s| (s.line, s.column))
        .collect()
}
