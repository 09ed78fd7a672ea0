//! Every lint's finding, at its default level, and the levels.

use super::{Level, Levels, findings};
use crate::bundle::{NamedFile, Project};
use crate::diag::Severity;

const KIND: &str = "kind Gate version 2

enum Tier: critical | standard

input attempts: int
input tier: Tier

decision allow {
  reason: member
}

decision deny {
  reason: expired
}

collect one
precedence deny > allow

default deny(reason: expired)
";

/// The findings over `files` (path, source) with the `lints` config, as
/// `severity lint: message | help`.
fn lint(files: &[(&str, &str)], config: &[(&str, &str)], required: &[&str]) -> Vec<String> {
    let mut named = vec![NamedFile {
        path: "kind.sigil".to_owned(),
        source: KIND.into(),
        trusted: false,
    }];
    named.extend(files.iter().map(|(path, source)| NamedFile {
        path: (*path).to_owned(),
        source: (*source).into(),
        trusted: false,
    }));
    let project = Project::load(named);
    assert!(project.diagnostics.is_empty(), "{:#?}", project.diagnostics);
    let levels = Levels::configured(config.iter().copied()).unwrap();
    let scope = project.scope(&[]).unwrap();
    findings(&project, &scope, &levels, required)
        .iter()
        .map(|d| {
            let severity = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            format!(
                "{severity} {}: {} | {}",
                d.lint.unwrap_or(""),
                d.message,
                d.help.as_deref().unwrap_or("")
            )
        })
        .collect()
}

const SHARED: &str =
    "module shared: Gate@2\npub let high = attempts > 3\npub let low = attempts < 1\n";
const GUARD: &str = "policy guard: Gate@2\nassert(\"sane\", attempts >= 0)\nwhen attempts > 9 { deny(reason: expired) }\n";

#[test]
fn unused_imports_whole_and_selective() {
    let p = "policy p: Gate@2\nuse shared\nuse shared.{high, low}\nwhen high { allow(reason: member) }\n";
    assert_eq!(
        lint(&[("shared.sigil", SHARED), ("p.sigil", p)], &[], &[]),
        [
            "warning unused-import: shared is imported but never used | remove the import, or use what it binds",
            "warning unused-import: low is imported from shared but never used | remove it from the import list",
        ]
    );
}

#[test]
fn qualified_imports_is_off_until_configured() {
    let p = "policy p: Gate@2\nuse shared.{high}\nwhen high { allow(reason: member) }\n";
    let files = [("shared.sigil", SHARED), ("p.sigil", p)];
    assert_eq!(lint(&files, &[], &[]), Vec::<String>::new());
    assert_eq!(
        lint(&files, &[("qualified-imports", "error")], &[]),
        [
            "error qualified-imports: selective import of shared | import the whole document, `use shared`, and qualify each name, `shared.high`"
        ]
    );
}

#[test]
fn unused_let_and_its_levels() {
    let p =
        "policy p: Gate@2\nlet spare = 1\npub let shown = 2\nwhen true { allow(reason: member) }\n";
    let want =
        "let spare is never read | remove the let, or read it; a private let can't be imported";
    assert_eq!(
        lint(&[("p.sigil", p)], &[], &[]),
        [format!("warning unused-let: {want}")]
    );
    assert_eq!(
        lint(&[("p.sigil", p)], &[("unused-let", "error")], &[]),
        [format!("error unused-let: {want}")]
    );
    assert!(lint(&[("p.sigil", p)], &[("unused-let", "off")], &[]).is_empty());
}

#[test]
fn a_document_pinned_older_may_shadow_a_kind_name_with_a_warning() {
    let p = "policy p: Gate@1\nlet attempts = 1\nlet standard = 2\nwhen attempts > standard { allow(reason: member) }\n";
    assert_eq!(
        lint(&[("p.sigil", p)], &[], &[]),
        [
            "warning shadowed-kind-name: attempts shadows the kind's input attempts, added after the version this document pins | the kind's input is out of reach here; rename attempts and raise the document's pin to Gate@2",
            "warning shadowed-kind-name: standard shadows the kind's Tier value standard, added after the version this document pins | the kind's Tier value is out of reach here; rename standard and raise the document's pin to Gate@2",
        ]
    );
}

#[test]
fn gated_invocations_of_policies_with_asserts_or_deny_rules() {
    let p = "policy p: Gate@2\nuse guard\nwhen attempts > 1 { guard() }\n";
    let files = [("guard.sigil", GUARD), ("p.sigil", p)];
    assert_eq!(
        lint(&files, &[], &[]),
        [
            "warning gated-assert: guard holds asserts and is invoked under `when` | its asserts only run while the condition holds; invoke it at the top level, or have the host require it",
            "warning gated-deny: guard holds deny rules and is invoked under `when` | its deny rules only fire while the condition holds; invoke it at the top level, or have the host require it",
        ]
    );
    assert!(
        lint(&files, &[], &["guard"]).is_empty(),
        "a required policy is never reported"
    );
    let top = "policy p: Gate@2\nuse guard\nguard()\n";
    assert!(lint(&[("guard.sigil", GUARD), ("p.sigil", top)], &[], &[]).is_empty());
}

#[test]
fn the_same_invocation_twice() {
    let p = "policy p: Gate@2\nuse guard\nguard()\nwhen true {\n  guard()\n}\n";
    let found = lint(
        &[("guard.sigil", GUARD), ("p.sigil", p)],
        &[("gated-assert", "off"), ("gated-deny", "off")],
        &[],
    );
    assert_eq!(
        found,
        [
            "warning duplicate-invocation: guard is invoked twice with the same arguments | the first is on line 3; every rule it holds already fires once, so remove one, or change its arguments"
        ]
    );
}

#[test]
fn path_matches_name_when_configured() {
    let p = "policy gate.main: Gate@2\nwhen true { allow(reason: member) }\n";
    let config = [("path-matches-name", "warn")];
    assert!(lint(&[("gate/main.sigil", p)], &config, &[]).is_empty());
    assert_eq!(
        lint(&[("policies.sigil", p)], &config, &[]),
        [
            "warning path-matches-name: gate.main is in policies.sigil, not in a file named after it | move it to gate/main.sigil, or rename it to match its file"
        ]
    );
}

#[test]
fn lints_default_as_the_table_says_and_take_configured_levels() {
    let levels =
        Levels::configured([("unused-let", "error"), ("path-matches-name", "warn")]).unwrap();
    assert_eq!(levels.of("unused-let"), Level::Error);
    assert_eq!(levels.of("path-matches-name"), Level::Warn);
    assert_eq!(levels.of("unused-import"), Level::Warn);
    assert_eq!(levels.of("qualified-imports"), Level::Off);
}

#[test]
fn an_unknown_lint_or_level_fails_with_the_names_to_use() {
    let error = Levels::configured([("unused-lett", "warn")]).unwrap_err();
    assert_eq!(error.message, "lints: unknown lint \"unused-lett\"");
    assert_eq!(
        error.help,
        "did you mean \"unused-let\"? the lints are unused-import, shadowed-kind-name, unused-let, gated-assert, gated-deny, duplicate-invocation, qualified-imports, path-matches-name"
    );
    let error = Levels::configured([("unused-let", "Warn")]).unwrap_err();
    assert_eq!(error.message, "lints: unused-let: unknown level \"Warn\"");
    assert_eq!(error.help, "set a lint to off, warn or error");
    let error = Levels::configured([("zzz", "bad"), ("aaa", "warn")]).unwrap_err();
    assert_eq!(
        error.message, "lints: unknown lint \"aaa\"",
        "keys are checked sorted"
    );
}
