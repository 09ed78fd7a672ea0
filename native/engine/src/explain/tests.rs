//! Flattening (tooling §5.1, language-policies §9): which entries, in
//! which order, with which chains, conditions, checks and payload texts,
//! and which documents count.

use super::{Entry, Explanation, What, explain};
use crate::bundle::{NamedFile, Project};
use crate::eval::Phase;

const KIND: &str = "kind Gate version 1

input user: string
input soak: duration
input region: string
input owners: list<string>

decision deny {
  reason: short | stranger
}

decision review {
  reason: signoff
  approvers: list<string> = []
  note: string = \"\"
}

decision approve {
  reason: fine
}

collect one
precedence deny > review > approve

default deny(reason: stranger)
";

/// The project of the kind and `docs` (path, source), which must check.
fn project(docs: &[(&str, &str)]) -> Project {
    let files = std::iter::once(("kind.sigil", KIND))
        .chain(docs.iter().copied())
        .map(|(path, source)| NamedFile {
            path: path.to_owned(),
            source: source.into(),
            trusted: false,
        })
        .collect();
    let project = Project::load(files);
    assert!(project.diagnostics.is_empty(), "{:#?}", project.diagnostics);
    project
}

/// The explanation of `root` among `docs`.
fn explained(docs: &[(&str, &str)], root: &str) -> Explanation {
    let project = project(docs);
    let root = project.find(root).unwrap();
    explain(&project, root).unwrap()
}

fn texts(list: &[std::rc::Rc<str>]) -> Vec<&str> {
    list.iter().map(AsRef::as_ref).collect()
}

/// `decision(reason)` or `assert reason (phase)`, then the chain.
fn summary(entry: &Entry) -> String {
    let what = match &entry.what {
        What::Rule { decision, .. } => format!("{decision}({})", entry.reason),
        What::Assert { phase, .. } => format!("assert {} ({phase:?})", entry.reason),
    };
    format!("{what} {}", entry.chain.join(" → "))
}

const GUARD: &str = "policy gate.guard: Gate@1

param min_soak: duration = 24h, min: 1h, max: 72h

assert(\"named\", user != \"\")

when soak < min_soak {
  deny(reason: short)
  assert(\"still_short\", deny.short not in outcome)
}
";

#[test]
fn rules_come_first_in_traversal_order_with_invocations_inlined_then_asserts() {
    let main = "policy gate.main: Gate@1

use gate.guard

assert(\"has_region\", region != \"\")

when user in owners {
  approve(reason: fine)
}

guard(min_soak: 4h)

when region == \"eu\" {
  review(reason: signoff)
}
";
    let e = explained(
        &[("gate/guard.sigil", GUARD), ("gate/main.sigil", main)],
        "gate.main",
    );
    let got: Vec<String> = e.entries.iter().map(summary).collect();
    assert_eq!(
        got,
        [
            "approve(fine) gate.main:8",
            "deny(short) gate.main:11 → gate.guard:8",
            "review(signoff) gate.main:14",
            "assert has_region (Input) gate.main:5",
            "assert named (Input) gate.main:11 → gate.guard:5",
            "assert still_short (Outcome) gate.main:11 → gate.guard:9",
        ]
    );
}

#[test]
fn conditions_and_checks_show_bound_params_by_value_lets_by_name_and_collapse_whitespace() {
    let main = "policy gate.main: Gate@1

param min_soak: duration = 720h
param lead: string = \"ana\"

let owned = user in owners

when owned   and
    soak < min_soak {
  when user != lead {
    deny(reason: short)
  }
}

assert(\"lead_owns\", lead in owners or not owned)
";
    let e = explained(&[("gate/main.sigil", main)], "gate.main");
    let [rule, check] = e.entries.as_slice() else {
        panic!("{e:#?}");
    };
    assert_eq!(
        texts(&rule.conditions),
        ["owned and soak < 30d", "user != \"ana\""]
    );
    assert!(check.conditions.is_empty());
    assert_eq!(
        check.what,
        What::Assert {
            phase: Phase::Input,
            check: "\"ana\" in owners or not owned".into(),
        }
    );
}

#[test]
fn an_invoked_policy_gets_the_conditions_around_its_call_sites_first() {
    let middle = "policy gate.middle: Gate@1

use gate.guard

when region == \"eu\" {
  guard(min_soak: 2h)
}
";
    let main = "policy gate.main: Gate@1

use gate.middle

when user in owners {
  middle()
}
";
    let e = explained(
        &[
            ("gate/guard.sigil", GUARD),
            ("gate/middle.sigil", middle),
            ("gate/main.sigil", main),
        ],
        "gate.main",
    );
    let rule = e.entries.first().unwrap();
    assert_eq!(
        texts(&rule.chain),
        ["gate.main:6", "gate.middle:6", "gate.guard:8"]
    );
    assert_eq!(
        texts(&rule.conditions),
        ["user in owners", "region == \"eu\"", "soak < 2h"]
    );
}

const REGIONAL: &str = "policy gate.regional: Gate@1

param only_region: string
param leads: list<string>

when region == only_region {
  review(note: only_region, reason: signoff, approvers: leads)
}
";

/// `e` holds one entry: a `review` rule with `conditions` and `payload`.
fn assert_one_review(e: &Explanation, conditions: &[&str], payload: &[&str]) {
    let [rule] = e.entries.as_slice() else {
        panic!("{e:#?}");
    };
    assert_eq!(texts(&rule.conditions), conditions);
    let payload = payload.iter().map(|&p| p.into()).collect();
    let decision = "review".into();
    assert_eq!(rule.what, What::Rule { decision, payload });
}

#[test]
fn a_policy_explained_on_its_own_shows_its_unbound_params_by_name() {
    let e = explained(&[("gate/regional.sigil", REGIONAL)], "gate.regional");
    assert_one_review(
        &e,
        &["region == only_region"],
        &["note = only_region", "approvers = leads"],
    );
}

#[test]
fn an_argument_that_reads_an_unbound_param_stands_for_its_text() {
    let main = "policy gate.main: Gate@1

use gate.regional

param home: string

regional(only_region: home, leads: [\"eu-leads\",   \"sre\"])
";
    let e = explained(
        &[("gate/regional.sigil", REGIONAL), ("gate/main.sigil", main)],
        "gate.main",
    );
    assert_one_review(
        &e,
        &["region == home"],
        &["note = home", "approvers = [\"eu-leads\", \"sre\"]"],
    );
}

#[test]
fn an_argument_outside_the_callees_bounds_fails_the_compile_at_the_argument() {
    let main = "policy gate.main: Gate@1

use gate.guard

param soak_days: duration = 100h

guard(min_soak: soak_days)
";
    let project = project(&[("gate/guard.sigil", GUARD), ("gate/main.sigil", main)]);
    let root = project.find("gate.main").unwrap();
    let errors = explain(&project, root).unwrap_err();
    let [error] = errors.as_slice() else {
        panic!("{errors:#?}");
    };
    assert_eq!(error.message, "min_soak: 4d4h is above the maximum 3d");
    assert_eq!(
        error.help.as_deref(),
        Some("gate.guard declares `param min_soak: duration = 24h, min: 1h, max: 72h`")
    );
    assert_eq!(error.file.as_deref(), Some("gate/main.sigil"));
    assert_eq!(error.document.as_deref(), Some("gate.main"));
    let at = error.span.unwrap();
    assert_eq!(main.get(at.start..at.end), Some("soak_days"));
    assert_eq!(crate::compile::compile(&project, root).unwrap_err(), errors);
}

#[test]
fn the_counts_are_the_root_and_what_it_imports_once_each() {
    let common = "module gate.common: Gate@1

pub let owned = user in owners
";
    let guard = "policy gate.guard: Gate@1

use gate.common

when not common.owned {
  deny(reason: stranger)
}
";
    let main = "policy gate.main: Gate@1

use gate.guard

guard()
";
    let docs = [
        ("gate/common.sigil", common),
        ("gate/guard.sigil", guard),
        ("gate/main.sigil", main),
    ];
    // The module only the invoked policy imports isn't counted.
    let e = explained(&docs, "gate.main");
    assert_eq!((e.policies, e.modules), (2, 0));
    assert_eq!(e.entries.len(), 1);
    let both = "policy gate.both: Gate@1

use gate.common
use gate.common.{owned}
use gate.guard

when owned and common.owned {
  approve(reason: fine)
}
";
    let mut with_both = docs.to_vec();
    with_both.push(("gate/both.sigil", both));
    let e = explained(&with_both, "gate.both");
    assert_eq!((e.policies, e.modules), (2, 1));
}

#[test]
fn a_policy_without_rules_or_asserts_explains_to_no_entries() {
    let e = explained(
        &[(
            "gate/empty.sigil",
            "policy gate.empty: Gate@1\n\nlet x = 1\n",
        )],
        "gate.empty",
    );
    assert_eq!((e.policies, e.modules), (1, 0));
    assert!(e.entries.is_empty());
}

#[test]
fn freeing_the_roots_statements_as_they_compile_changes_neither_program_nor_explanation() {
    // A let read above the line that writes it, lets in `when` bodies, a
    // param, an invocation and an assert.
    let main = "policy gate.main: Gate@1

use gate.guard

param lead: string = \"ana\"

when owned {
  let near = region == \"eu\"
  when near and user != lead {
    review(reason: signoff, note: lead)
  }
}

let owned = user in owners

when soak > 1h {
  let far = region == \"us\"
  when far {
    deny(reason: short)
  }
  guard(min_soak: 2h)
}

assert(\"lead_owns\", lead in owners or not owned)

when user != \"\" {
  approve(reason: fine)
}
";
    let docs = [("gate/guard.sigil", GUARD), ("gate/main.sigil", main)];
    let kept = project(&docs);
    let root = kept.find("gate.main").unwrap();
    let program = crate::compile::compile(&kept, root).unwrap();
    let mut freed = project(&docs);
    let released = crate::compile::compile_releasing(&mut freed, root).unwrap();
    assert_eq!(format!("{released:?}"), format!("{program:?}"));
    assert_eq!(
        freed.take_statements(root).len(),
        0,
        "the root's statements were taken"
    );
    let mut freed = project(&docs);
    let explanation = super::explain_releasing(&mut freed, root).unwrap();
    assert_eq!(explanation, explain(&kept, root).unwrap());
    assert_eq!(explanation.entries.len(), 7, "{explanation:#?}");
}
