//! Every op of Engine and Policy against the bundled module.
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use common::*;
use serde_json::json;
use svc_engine::*;

#[test]
fn version_reports_the_wasip1_build() {
    let version = engine().version().unwrap();
    assert_eq!(version.platform, "wasip1/wasm");
    assert!(!version.version.is_empty());
}

#[test]
fn check_of_a_clean_bundle_finds_nothing() {
    assert_eq!(
        engine()
            .check(&refund_files(), &CheckOptions::default())
            .unwrap(),
        vec![]
    );
}

#[test]
fn check_reports_a_type_error_as_a_diagnostic_not_an_error() {
    let files = vec![
        SourceFile::new("kind.sigil", REFUND_KIND),
        SourceFile::new(
            "refund/desk.sigil",
            "policy refund.desk: Refund@1\n\nwhen amount > \"x\" {\n  deny(reason: fraud)\n}\n",
        ),
    ];
    let diagnostics = engine().check(&files, &CheckOptions::default()).unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0].severity, "error");
    assert_eq!(diagnostics[0].file.as_deref(), Some("refund/desk.sigil"));
    assert_eq!(diagnostics[0].line, 3);
}

#[test]
fn check_refuses_an_unknown_lint() {
    let options = CheckOptions {
        lints: [("no-such-lint".to_string(), LintLevel::Warn)].into(),
        ..CheckOptions::default()
    };
    let Err(Error::Engine(e)) = engine().check(&refund_files(), &options) else {
        panic!("accepted")
    };
    assert!(e.message.contains("no-such-lint"), "{}", e.message);
}

#[test]
fn compile_of_a_bad_policy_carries_the_diagnostics() {
    let files = vec![
        SourceFile::new("kind.sigil", REFUND_KIND),
        SourceFile::new(
            "refund/desk.sigil",
            "policy refund.desk: Refund@1\n\nwhen amont > 1 {\n  deny(reason: fraud)\n}\n",
        ),
    ];
    let error = engine()
        .compile(&files, CompileOptions::default())
        .unwrap_err();
    assert!(!error.is_stopped());
    assert_eq!(error.diagnostics().len(), 1);
    assert!(error.diagnostics()[0].message.contains("amont"), "{error}");
}

#[test]
fn eval_decides_and_returns_the_record() {
    let engine = engine();
    let policy = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    assert_eq!(policy.name(), "refund.desk");
    assert!(policy.handle() > 0);
    let result = policy
        .eval(&json!({"amount": 40, "channel": "web"}))
        .unwrap();
    assert!(result.succeeded());
    assert_eq!(result.decision.as_deref(), Some("approve"));
    assert_eq!(result.reason.as_deref(), Some("small"));
    assert_eq!(result.payload, Some(json!({"limit": 100})));
    let fallback = policy
        .eval(&json!({"amount": 400, "channel": "web"}))
        .unwrap();
    assert_eq!(
        (fallback.decision.as_deref(), fallback.reason.as_deref()),
        (Some("deny"), Some("no_rule"))
    );
}

#[test]
fn eval_of_an_input_that_does_not_fit_the_kind_is_an_engine_error() {
    let policy = engine()
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    let Err(Error::Engine(e)) = policy.eval(&json!({"amount": "many", "channel": "web"})) else {
        panic!("accepted")
    };
    assert!(e.message.contains("amount"), "{}", e.message);
}

#[test]
fn eval_accepts_any_serializable_input() {
    #[derive(serde::Serialize)]
    struct Request<'a> {
        amount: i64,
        channel: &'a str,
    }
    let policy = engine()
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    let result = policy
        .eval(&Request {
            amount: 20000,
            channel: "web",
        })
        .unwrap();
    assert_eq!(result.reason.as_deref(), Some("fraud"));
}

#[test]
fn explain_on_files_and_on_the_handle_agree() {
    let engine = engine();
    let options = ExplainOptions {
        policy: Some("refund.desk".into()),
        ..ExplainOptions::default()
    };
    let explained = engine.explain(&refund_files(), &options).unwrap();
    assert_eq!(explained.len(), 1);
    assert_eq!(explained[0].policy, "refund.desk");
    let policy = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    assert_eq!(policy.explain().unwrap(), explained[0]);
}

#[test]
fn a_released_handle_is_not_handed_out_again() {
    let engine = engine();
    let policy = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    let handle = policy.handle();
    policy.release().unwrap();
    let second = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    assert_ne!(
        second.handle(),
        handle,
        "a released handle is not handed out again"
    );
}

#[test]
fn dropping_a_policy_releases_its_handle() {
    let engine = engine();
    let first = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap()
        .handle();
    let second = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap()
        .handle();
    assert_ne!(first, second);
    // Both were released on drop: the module knows neither.
    let explained = engine
        .explain(&refund_files(), &ExplainOptions::default())
        .unwrap();
    assert_eq!(explained.len(), 1);
}

#[test]
fn a_policy_outlives_its_engine() {
    let policy = {
        let engine = engine();
        engine
            .compile(&refund_files(), CompileOptions::default())
            .unwrap()
    };
    let result = policy
        .eval(&json!({"amount": 40, "channel": "web"}))
        .unwrap();
    assert_eq!(result.decision.as_deref(), Some("approve"));
}

#[test]
fn format_writes_canonical_text_and_refuses_a_syntax_error() {
    let engine = engine();
    let formatted = engine
        .format("policy   a.b: K@1\n", &FormatOptions::default())
        .unwrap();
    assert_eq!(formatted, "policy a.b: K@1\n");
    let Err(Error::Engine(e)) = engine.format(
        "policy {",
        &FormatOptions {
            path: Some("x.sigil".into()),
        },
    ) else {
        panic!("accepted")
    };
    assert!(!e.diagnostics.is_empty());
    assert_eq!(e.diagnostics[0].file.as_deref(), Some("x.sigil"));
}

#[test]
fn test_runs_the_cases_of_a_test_file() {
    let test_file = SourceFile::new(
        "refund/desk_test.yaml",
        "policy: refund.desk\ncases:\n  - name: small web refund\n    input: {amount: 40, channel: web}\n    expect: {decision: approve, reason: small}\n  - name: wrong on purpose\n    input: {amount: 40, channel: web}\n    expect: {decision: deny, reason: fraud}\n",
    );
    let results = engine()
        .test(&refund_files(), &[test_file], &TestOptions::default())
        .unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    let cases: Vec<(&str, bool)> = results[0]
        .cases
        .iter()
        .map(|c| (c.name.as_str(), c.passed))
        .collect();
    assert_eq!(
        cases,
        [("small web refund", true), ("wrong on purpose", false)],
        "{results:?}"
    );
}

#[test]
fn test_refuses_a_test_file_of_the_wrong_name() {
    let Err(Error::Engine(e)) = engine().test(
        &refund_files(),
        &[SourceFile::new("desk.yaml", "")],
        &TestOptions::default(),
    ) else {
        panic!("accepted")
    };
    assert!(e.message.contains("desk.yaml"), "{}", e.message);
}

#[test]
fn memory_size_is_what_the_instance_holds() {
    let size = engine().memory_size().unwrap();
    assert!(size >= 1 << 20 && size % 65536 == 0, "{size}");
}

#[test]
fn a_working_engine_is_not_stopped() {
    assert_eq!(engine().stopped(), None);
}

#[test]
fn concurrent_calls_on_one_engine_wait_for_each_other() {
    let engine = engine();
    let policy = std::sync::Arc::new(
        engine
            .compile(&refund_files(), CompileOptions::default())
            .unwrap(),
    );
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let policy = std::sync::Arc::clone(&policy);
            std::thread::spawn(move || {
                (0..50)
                    .map(|n| {
                        policy
                            .eval(&json!({"amount": (i * 50 + n) % 120, "channel": "web"}))
                            .unwrap()
                    })
                    .filter(|r| r.decision.as_deref() == Some("approve"))
                    .count()
            })
        })
        .collect();
    let approved: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(approved, (0..200).filter(|n| n % 120 < 100).count());
}

#[test]
fn non_ascii_text_survives_both_ways() {
    let engine = engine();
    let source = "policy   a.b: K@1\n\n// naïve ✓ 😀\n";
    assert_eq!(
        engine.format(source, &FormatOptions::default()).unwrap(),
        "policy a.b: K@1\n\n// naïve ✓ 😀\n"
    );
}

#[test]
fn memory_stays_flat_over_many_evaluations() {
    let engine = engine();
    let policy = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    let input = json!({"amount": 40, "channel": "web"});
    for _ in 0..500 {
        policy.eval(&input).unwrap();
    }
    let warm = engine.memory_size().unwrap();
    for _ in 0..10_000 {
        policy.eval(&input).unwrap();
    }
    assert!(
        engine.memory_size().unwrap() <= warm + (4 << 20),
        "grew from {warm}"
    );
}

#[test]
fn a_huge_input_in_little_memory_stops_the_instance_with_a_short_message() {
    let limits = Limits {
        max_memory: 16 << 20,
        ..Limits::default()
    };
    let engine = Engine::with_limits(module(), limits).unwrap();
    let files = loop_files();
    let policy = engine.compile(&files, CompileOptions::default()).unwrap();
    let names: Vec<String> = (0..400_000).map(|i| format!("name number {i}")).collect();
    let error = policy
        .eval(&json!({"floor": 1, "names": names}))
        .unwrap_err();
    let Error::Stopped(stopped) = &error else {
        panic!("not stopped: {error:?}")
    };
    assert!(
        stopped.message.contains("out of memory"),
        "{}",
        stopped.message
    );
    assert!(
        stopped.message.len() < 6000,
        "{} chars",
        stopped.message.len()
    );
    assert!(engine.stopped().is_some());
}

#[test]
fn an_input_with_a_nan_is_refused_and_the_instance_works_on() {
    let engine = engine();
    let policy = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    // A serde_json::Value can't hold a NaN (json! makes it null); a struct can.
    #[derive(serde::Serialize)]
    struct Reading {
        amount: f64,
        channel: &'static str,
    }
    let Err(Error::Engine(e)) = policy.eval(&Reading {
        amount: f64::NAN,
        channel: "web",
    }) else {
        panic!("accepted")
    };
    assert!(
        e.message
            .starts_with("the input can't be encoded as JSON: "),
        "{}",
        e.message
    );
    assert_eq!(engine.stopped(), None);
    assert!(policy
        .eval(&json!({"amount": 40, "channel": "web"}))
        .is_ok());
}
