//! The pool: installs, removals, waiting, and rebuilding stopped instances with their policies.

#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::time::Duration;

use common::*;
use serde_json::json;
use svc_engine::*;

fn refund_input(amount: i64) -> serde_json::Value {
    json!({"amount": amount, "channel": "web"})
}

fn pool(size: usize) -> Pool {
    let pool = Pool::new(module(), size).unwrap();
    pool.compile("refunds", refund_files(), CompileOptions::default())
        .unwrap();
    pool
}

#[test]
fn a_pool_needs_an_instance() {
    let Err(Error::Engine(e)) = Pool::new(module(), 0) else {
        panic!("accepted")
    };
    assert_eq!(
        (e.message.as_str(), e.help.as_str()),
        (
            "a pool needs at least one instance",
            "set PoolOptions::size to 1 or more"
        )
    );
}

#[test]
fn an_installed_policy_evaluates_and_a_removed_one_is_gone() {
    let pool = pool(2);
    assert_eq!(pool.names(), ["refunds"]);
    let result = pool
        .evaluate("refunds", &refund_input(40), &EvalOptions::default())
        .unwrap();
    assert_eq!(result.decision.as_deref(), Some("approve"));
    assert_eq!(pool.explain("refunds").unwrap().policy, "refund.desk");
    assert_eq!(
        pool.stats(),
        PoolStats {
            size: 2,
            idle: 2,
            installed: 1,
            replaced: 0,
            rebuilding: 0
        }
    );
    assert!(pool.remove("refunds"));
    assert!(!pool.remove("refunds"));
    assert_eq!(
        pool.evaluate("refunds", &refund_input(40), &EvalOptions::default())
            .unwrap_err(),
        Error::NoPolicy("refunds".into())
    );
    assert!(pool.names().is_empty());
}

#[test]
fn an_unknown_name_is_no_policy() {
    let error = pool(1)
        .evaluate("nope", &refund_input(1), &EvalOptions::default())
        .unwrap_err();
    assert_eq!(error.to_string(), "the pool has no policy named nope");
    assert!(!error.is_stopped());
}

#[test]
fn a_recipe_that_fails_is_refused_and_installs_nothing() {
    let pool = pool(2);
    let bad = vec![
        SourceFile::new("kind.sigil", REFUND_KIND),
        SourceFile::new(
            "p.sigil",
            "policy x.y: Refund@1\n\nwhen nope {\n  deny(reason: fraud)\n}\n",
        ),
    ];
    let error = pool
        .compile("bad", bad, CompileOptions::default())
        .unwrap_err();
    assert!(!error.diagnostics().is_empty());
    assert_eq!(pool.names(), ["refunds"]);
}

#[test]
fn an_install_reaches_every_instance_and_replaces_the_old_recipe() {
    let pool = pool(3);
    let always_deny =
        "policy refund.desk: Refund@1\n\nwhen amount > 0 {\n  deny(reason: fraud)\n}\n";
    pool.compile(
        "refunds",
        vec![
            SourceFile::new("kind.sigil", REFUND_KIND),
            SourceFile::new("d.sigil", always_deny),
        ],
        CompileOptions::default(),
    )
    .unwrap();
    // Three leases at once: one per instance, and each has the new policy.
    let barrier = Arc::new(Barrier::new(3));
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let (pool, barrier) = (pool.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                pool.with_policy("refunds", |policy| {
                    barrier.wait();
                    policy.eval(&refund_input(40))
                })
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(
            thread.join().unwrap().unwrap().reason.as_deref(),
            Some("fraud")
        );
    }
}

#[test]
fn a_call_waits_for_a_free_instance_up_to_the_acquire_timeout() {
    let options = PoolOptions {
        size: 1,
        acquire_timeout: Some(Duration::from_millis(10)),
        ..PoolOptions::default()
    };
    let pool = Pool::with_options(module(), options).unwrap();
    pool.compile("refunds", refund_files(), CompileOptions::default())
        .unwrap();
    let (inside_tx, inside_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let holder = {
        let pool = pool.clone();
        std::thread::spawn(move || {
            pool.with_policy("refunds", |_| {
                inside_tx.send(()).unwrap();
                release_rx.recv().unwrap();
                Ok(())
            })
        })
    };
    inside_rx.recv().unwrap();
    let busy = pool
        .evaluate("refunds", &refund_input(1), &EvalOptions::default())
        .unwrap_err();
    assert_eq!(busy, Error::Busy(Duration::from_millis(10)));
    assert_eq!(
        busy.to_string(),
        "every instance of the pool stayed busy for 10ms"
    );
    release_tx.send(()).unwrap();
    holder.join().unwrap().unwrap();
    assert!(pool
        .evaluate("refunds", &refund_input(1), &EvalOptions::default())
        .is_ok());
}

/// A pool of one instance whose calls stop after 20 ms, with the policy `door` that loops for ever.
fn one_instance_with_the_looping_door() -> Pool {
    let limits = Limits {
        op_deadline: Some(Duration::from_millis(20)),
        ..Limits::default()
    };
    let pool = Pool::with_options(
        module(),
        PoolOptions {
            size: 1,
            limits,
            acquire_timeout: None,
        },
    )
    .unwrap();
    pool.compile("door", loop_files(), CompileOptions::default())
        .unwrap();
    pool
}

#[test]
fn a_stopped_instance_is_rebuilt_with_its_policies() {
    let pool = one_instance_with_the_looping_door();
    let error = pool
        .evaluate("door", &slow_input(), &EvalOptions::default())
        .unwrap_err();
    assert_eq!(error, Error::Timeout(Duration::from_millis(20)));
    // The only instance is rebuilt in the background; this call waits for it.
    let result = pool
        .evaluate("door", &quick_input(), &EvalOptions::default())
        .unwrap();
    assert_eq!(result.reason.as_deref(), Some("member"));
    assert_eq!(pool.stats().replaced, 1);
}

#[test]
fn a_pool_clone_shares_the_pool() {
    let pool = pool(1);
    let clone = pool.clone();
    assert!(clone.remove("refunds"));
    assert!(pool.names().is_empty());
}

/// Deadlines, fuel and panicking host functions on some threads while others evaluate: only the
/// calls that broke fail, and every other evaluation succeeds.
#[test]
fn chaos_stops_only_the_calls_that_broke() {
    // No op deadline: a panicking host function prints a backtrace, which may take long here.
    let limits = Limits {
        op_deadline: None,
        ..Limits::default()
    };
    let pool = Pool::with_options(
        fuel_module(),
        PoolOptions {
            size: 3,
            limits,
            acquire_timeout: None,
        },
    )
    .unwrap();
    pool.compile("door", loop_files(), CompileOptions::default())
        .unwrap();
    let mut functions = CompileOptions::default();
    functions.functions.insert(
        "split".into(),
        host_fn_typed(|text: String, sep: String| {
            if text == "boom" {
                panic!("the host function broke");
            }
            Ok::<_, String>(text.split(&sep).map(str::to_owned).collect::<Vec<_>>())
        }),
    );
    functions
        .functions
        .insert("describe".into(), host_fn(|_| Ok(json!("no"))));
    pool.compile("labels", labels_files(), functions).unwrap();
    let labels_input = |label: &str| json!({"label": label, "owner": {"name": "a", "tier": "gold"}, "since": "2026-01-02T03:04:05Z", "age": "1m"});

    let workers: Vec<_> = (0..3)
        .map(|_| {
            let pool = pool.clone();
            let input = labels_input("team");
            std::thread::spawn(move || {
                for _ in 0..40 {
                    let good = pool
                        .evaluate("door", &quick_input(), &EvalOptions::default())
                        .unwrap();
                    assert_eq!(good.reason.as_deref(), Some("member"));
                    let tagged = pool
                        .evaluate("labels", &input, &EvalOptions::default())
                        .unwrap();
                    assert_eq!(tagged.reason.as_deref(), Some("tagged"));
                }
            })
        })
        .collect();
    let breaker = {
        let pool = pool.clone();
        let boom = labels_input("boom");
        std::thread::spawn(move || {
            let mut stopped = 0;
            for round in 0..6 {
                let kill = EvalOptions {
                    timeout: Some(Duration::from_millis(1)),
                    grace: Some(Duration::ZERO),
                    fuel: None,
                };
                let outcome = match round % 3 {
                    // The module's own check and the epoch race: canceled, or killed.
                    0 => match pool.evaluate("door", &slow_input(), &kill) {
                        Ok(canceled) => {
                            assert_eq!(canceled.error.unwrap().kind, FailureKind::Canceled);
                            continue;
                        }
                        killed => killed,
                    },
                    1 => pool.evaluate(
                        "door",
                        &slow_input(),
                        &EvalOptions {
                            fuel: Some(50_000),
                            ..EvalOptions::default()
                        },
                    ),
                    _ => {
                        let failed = pool
                            .evaluate("labels", &boom, &EvalOptions::default())
                            .unwrap();
                        assert!(failed
                            .error
                            .unwrap()
                            .message
                            .contains("the host function broke"));
                        continue;
                    }
                };
                let error = outcome.unwrap_err();
                assert!(
                    matches!(error, Error::Timeout(_) | Error::OutOfFuel),
                    "{error:?}"
                );
                stopped += 1;
            }
            stopped
        })
    };
    for worker in workers {
        worker.join().unwrap();
    }
    let stopped = breaker.join().unwrap();
    assert!(stopped >= 2, "fuel stops twice");
    assert_eq!(pool.stats().replaced, stopped);
    // Every instance serves again, with both policies: three leases at once succeed.
    let barrier = Arc::new(Barrier::new(3));
    let last: Vec<_> = (0..3)
        .map(|_| {
            let (pool, barrier) = (pool.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                pool.with_policy("door", |p| {
                    barrier.wait();
                    p.eval(&quick_input())
                })
            })
        })
        .collect();
    for thread in last {
        assert_eq!(
            thread.join().unwrap().unwrap().reason.as_deref(),
            Some("member")
        );
    }
    assert!(pool.rebuild_failures().is_empty());
}

#[test]
fn a_panic_inside_with_policy_replaces_the_instance() {
    let pool = pool(1);
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.with_policy("refunds", |_| -> Result<()> { panic!("the caller broke") })
    }));
    assert!(panicked.is_err());
    assert_eq!(pool.stats().replaced, 1);
    // The rebuilt instance serves, with the policy reinstalled.
    assert!(pool
        .evaluate("refunds", &refund_input(40), &EvalOptions::default())
        .is_ok());
}

#[test]
fn a_recipe_that_keeps_stopping_fresh_instances_is_skipped_and_reported() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pool = one_instance_with_the_looping_door();
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&runs);
    pool.install("poison", move |engine: &Engine| {
        let policy = engine.compile(&loop_files(), CompileOptions::default())?;
        if counter.fetch_add(1, Ordering::SeqCst) > 0 {
            policy.eval(&slow_input())?; // killed at the op deadline: the instance stops
        }
        Ok(policy)
    })
    .unwrap();
    assert!(pool
        .evaluate("door", &slow_input(), &EvalOptions::default())
        .unwrap_err()
        .is_stopped());
    // Waits for the rebuild, which gives up on `poison` after three stops and serves `door`.
    let result = pool
        .evaluate("door", &quick_input(), &EvalOptions::default())
        .unwrap();
    assert_eq!(result.reason.as_deref(), Some("member"));
    let failures = pool.rebuild_failures();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].0, "poison");
    assert_eq!(
        runs.load(Ordering::SeqCst),
        4,
        "install, then three fresh instances"
    );
    assert_eq!(pool.stats().replaced, 4);
}
