//! The ops on compiled policies (module-abi §4.3, §4.4, §4.8, §5):
//! `compile` stores a program under a new handle (its explanation is made
//! when explain first asks for it), `eval` runs one input through it,
//! `release` drops it. The programs live in the instance's handle table.

use std::cell::OnceCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::project::{
    FIX_HELP, load_project, own_policies, refused, unknown_handle, unless_broken, with_diagnostics,
};
use crate::abi::diagnostic_record::records;
use crate::abi::error::EngineError;
use crate::abi::eval_record::{EvalRecord, RuleTexts};
use crate::abi::host::ModuleHost;
use crate::abi::instance::{Compiled, Instance};
use crate::abi::op_request::{CompileRequest, EvalRequest};
use crate::abi::response::Success;
use crate::bundle::Project;
use crate::diag::{Diagnostic, did_you_mean, go_quote};
use crate::eval::Unbound;
use crate::program::Program;
use crate::require::{Refusal, Requirement};
use crate::stubs::{BoundStubs, StubHost};
use crate::value::Value;

/// §4.3: compiles the root in the scope of what it uses, and stores it.
pub(super) fn compile(
    instance: &Instance,
    request: &mut CompileRequest<'_>,
) -> Result<Success, EngineError> {
    let requirements = compile_requirements(request)?;
    let mut project = load_project(&mut request.files, &[])?;
    let root = pick_root(&project, &request.policy)?;
    if !request.files.trusted.is_empty() {
        from_trusted_files(&project, &requirements)?;
    }
    let root_name = project
        .docs
        .get(root)
        .map(|d| d.name.clone())
        .unwrap_or_default();
    let scope = project
        .scope(&[root_name.as_str()])
        .map_err(|e| EngineError::rejected(e.message, e.help))?;
    let in_scope = project.in_scope(&scope);
    if in_scope.iter().any(Diagnostic::is_error) {
        let errors: Vec<Diagnostic> = in_scope.iter().filter(|d| d.is_error()).cloned().collect();
        return Err(with_diagnostics(
            format!("{root_name} doesn't check, so nothing was compiled"),
            FIX_HELP,
            &project,
            errors,
        ));
    }
    let mut stubs = BoundStubs::default();
    if let Some(kind) = project.docs.get(root).and_then(|d| project.kind_of(d)) {
        check_functions(request, kind)?;
        stubs = bind_stubs(request, kind)?;
    }
    // Found before the compile, which frees the root's statements; reported
    // after its errors.
    let violations: Vec<Diagnostic> = requirements
        .iter()
        .flat_map(|r| applicable(&project, root, r))
        .collect();
    let compiled =
        crate::abi::freeing_stage(|| crate::compile::compile_releasing(&mut project, root));
    let program = compiled.map_err(|diagnostics| {
        with_diagnostics(
            "the policy doesn't compile, so nothing was compiled".to_owned(),
            FIX_HELP,
            &project,
            diagnostics,
        )
    })?;

    if !violations.is_empty() {
        return Err(with_diagnostics(
            "the policy doesn't compile, so nothing was compiled".to_owned(),
            FIX_HELP,
            &project,
            violations,
        ));
    }
    let outside = project.out_of_scope(&scope);
    let policy = program.policy.to_string();
    let counts = crate::explain::counts(&project, root);

    let rule_texts = Rc::new(RuleTexts::of(&program));
    let handle = instance
        .store(Compiled {
            rule_texts,
            program: Rc::new(program),
            functions: request.functions.iter().map(|f| f.to_string()).collect(),
            stubs,
            counts,
            explanation: OnceCell::new(),
        })
        .map_err(|_| {
            EngineError::rejected(
                "every handle is in use".to_owned(),
                "release compiled policies you no longer need".to_owned(),
            )
        })?;
    Ok(Success::Compiled {
        policy,
        diagnostics: records(&project, outside),
        handle,
    })
}

/// The violations of requirement `r` by `root`: none when the required
/// policy is of another kind.
fn applicable(project: &Project, root: usize, r: &Requirement) -> Vec<Diagnostic> {
    let kind_of = |d: usize| project.docs.get(d).and_then(|d| d.kind);
    match project.find(&r.policy) {
        Some(required) if kind_of(required) == kind_of(root) => {
            crate::require::violations(project, root, &r.policy)
        }
        Some(_) => Vec::new(),
        None => crate::require::violations(project, root, &r.policy),
    }
}

/// With trusted files, each required policy is defined among them (§6).
fn from_trusted_files(project: &Project, requirements: &[Requirement]) -> Result<(), EngineError> {
    for (i, r) in requirements.iter().enumerate() {
        crate::require::from_trusted_files(project, i, &r.policy).map_err(|u| {
            match u.definition {
                Some(definition) => {
                    with_diagnostics(u.refusal.message, FIX_HELP, project, vec![definition])
                }
                None => refused(u.refusal),
            }
        })?;
    }
    Ok(())
}

/// Compile's requirements: a policy each, and nothing else (§6).
fn compile_requirements(request: &CompileRequest<'_>) -> Result<Vec<Requirement>, EngineError> {
    let mut out = Vec::new();
    for (i, r) in request.require.iter().enumerate() {
        if r.policy.is_empty() {
            return Err(refused(Refusal {
                message: format!("require[{i}] names no policy"),
                help: r#"give each requirement the policy it requires, as {"policy": "platform.paging"}"#
                    .to_owned(),
            }));
        }
        if r.trusted.is_some() || r.roots.is_some() {
            return Err(refused(Refusal {
                message: format!("require[{i}]: compile's requirements take only a policy"),
                help: "the requirement applies to the policy compiled; send its trusted documents as trusted_files"
                    .to_owned(),
            }));
        }
        out.push(Requirement::new(&r.policy, [], None));
    }
    Ok(out)
}

/// The root: the one non-trusted policy `pattern` matches, or the only one
/// when there is no pattern. When none can be picked and the bundle has
/// problems, those are the failure.
fn pick_root(project: &Project, pattern: &str) -> Result<usize, EngineError> {
    let own = own_policies(project);
    let names = |list: &[usize]| {
        let mut n: Vec<&str> = list
            .iter()
            .filter_map(|&i| project.docs.get(i).map(|d| d.name.as_str()))
            .collect();
        n.sort_unstable();
        n.join(", ")
    };
    let picked = match pattern {
        "" => match own.as_slice() {
            [one] => Ok(*one),
            [] => Err(EngineError::rejected(
                "the bundle holds no policies".to_owned(),
                "name a file or directory that holds one".to_owned(),
            )),
            several => Err(EngineError::rejected(
                "the bundle holds several policies".to_owned(),
                format!("name the one to evaluate with --policy: {}", names(several)),
            )),
        },
        pattern => {
            let matched: Vec<usize> = project
                .matching(&[pattern])
                .into_iter()
                .filter(|i| own.contains(i))
                .collect();
            match matched.as_slice() {
                [one] => Ok(*one),
                [] => Err(EngineError::rejected(
                    format!("no policy matches {}", go_quote(pattern)),
                    project.defines_help(),
                )),
                several => Err(EngineError::rejected(
                    format!("{} matches {} policies", go_quote(pattern), several.len()),
                    format!("name one policy: {}", names(several)),
                )),
            }
        }
    };
    picked.map_err(|e| unless_broken(project, e, "compiled"))
}

/// Every name in `functions` is a host function of the root's kind.
fn check_functions(
    request: &CompileRequest<'_>,
    kind: &crate::kind::Kind,
) -> Result<(), EngineError> {
    for name in &request.functions {
        if kind.func(name).is_some() {
            continue;
        }
        let declared: Vec<&str> = kind.funcs.iter().map(|f| f.name.as_str()).collect();
        let list = match declared.is_empty() {
            true => "the kind declares no host functions".to_owned(),
            false => format!("the kind declares: {}", declared.join(", ")),
        };
        let help = crate::diag::merge_help([
            did_you_mean(name, declared.iter().copied()).unwrap_or_default(),
            list,
        ]);
        return Err(EngineError::rejected(
            format!(
                "functions: the kind {} has no host function {name}",
                kind.name
            ),
            help,
        ));
    }
    Ok(())
}

/// The request's `stubs` (a YAML or JSON document; absent or `null` is
/// none) bound to the root's kind. Problems fail the request, each as
/// `stubs: «problem» («help»)` on its own line.
fn bind_stubs(
    request: &CompileRequest<'_>,
    kind: &crate::kind::Kind,
) -> Result<BoundStubs, EngineError> {
    let Some(raw) = request.stubs else {
        return Ok(BoundStubs::default());
    };
    let text = String::from_utf8_lossy(raw.0);
    crate::testfile::read_stubs(&text)
        .and_then(|stubs| crate::stubs::bind(&stubs, kind))
        .map_err(|problems| {
            let lines: Vec<String> = problems
                .iter()
                .map(|p| format!("stubs: {}", p.text()))
                .collect();
            EngineError::rejected(
                lines.join("\n"),
                crate::testfile::COMPILE_STUBS_HELP.to_owned(),
            )
        })
}

/// §4.4: one input through a compiled policy.
pub(super) fn eval(instance: &Instance, request: &EvalRequest<'_>) -> Result<Success, EngineError> {
    let handle = request.handle;
    let deadline = (request.timeout_ms > 0)
        .then(|| Instant::now() + Duration::from_millis(request.timeout_ms.unsigned_abs()));
    let Some(input) = request.input.as_ref() else {
        instance
            .with_program(handle, |_| ())
            .ok_or_else(|| unknown_handle(handle))?;
        return Err(EngineError::rejected(
            "eval needs an input".to_owned(),
            "the input is a JSON object with one key per input the kind declares".to_owned(),
        ));
    };
    let evaluated = instance.with_program(handle, |compiled| {
        let program = &compiled.program;
        let inputs = decode_input(input.0, program)?;
        let mut module_host = ModuleHost {
            kind: &program.kind,
            functions: &compiled.functions,
            buffers: &instance.buffers,
            fallback: Unbound,
        };
        let mut host = StubHost::new(&compiled.stubs, &mut module_host);
        let evaluation = crate::eval::evaluate(program, &inputs, &mut host, deadline);
        Ok(EvalRecord::new(
            Rc::clone(program),
            Rc::clone(&compiled.rule_texts),
            evaluation,
            request.trace,
        ))
    });
    Ok(Success::Eval(
        evaluated.ok_or_else(|| unknown_handle(handle))??,
    ))
}

/// The input decoded against the program's kind: a failure is
/// `the input: «decoder message»`.
fn decode_input(input: &[u8], program: &Program) -> Result<Vec<Value>, EngineError> {
    const ADVICE: &str = "the input is a JSON object with one key per input the kind declares";
    if let Some(values) = crate::input::decode_json_input(input, &program.kind) {
        return Ok(values);
    }
    // Checked with the request it came in.
    let data = crate::data::parse_checked_json(input);
    crate::input::decode_input(&data, crate::data::Syntax::Json, &program.kind).map_err(|e| {
        EngineError::rejected(
            format!("the input: {}", e.message),
            crate::diag::merge_help([e.advice.as_str(), ADVICE]),
        )
    })
}

/// §4.8: drops a compiled policy.
pub(super) fn release(instance: &Instance, handle: u32) -> Result<Success, EngineError> {
    match instance.release(handle) {
        true => Ok(Success::Released),
        false => Err(unknown_handle(handle)),
    }
}
