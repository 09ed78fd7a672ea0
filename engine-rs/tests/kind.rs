//! The kind builder writes the shared kind set byte for byte as the Java and TypeScript builders
//! do: the goldens of engine-jni/src/test/resources/kinds, the Labels kind of the host-function
//! tests, and bench's Refund kind; and what it writes checks cleanly and compiles.
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use common::*;
use serde_json::json;
use svc_engine::*;

/// A golden of engine-jni's kind set, without its generated-file line.
fn golden(name: &str) -> String {
    let text = std::fs::read_to_string(
        root().join(format!("engine-jni/src/test/resources/kinds/{name}.golden")),
    )
    .unwrap();
    text.split_once('\n').unwrap().1.to_owned()
}

fn alert_routing() -> Kind {
    let severity = Type::enumeration("Severity", ["critical", "warning", "info"]);
    let alert = Type::structure(
        "Alert",
        [
            ("name", Type::string()),
            ("severity", severity),
            ("labels", Type::map(Type::string(), Type::string())),
            ("firing_for", Type::duration()),
        ],
    );
    let team = Type::structure(
        "Team",
        [("name", Type::string()), ("channel", Type::string())],
    );
    let page =
        Decision::new("page", ["critical_alert", "sustained"]).field("oncall", Type::string());
    let drop = Decision::new("drop", ["silenced", "duplicate"]);
    let notify = Decision::new("notify", ["routine", "unrouted"]).field_default(
        "channel",
        Type::string(),
        json!("#alerts"),
    );
    let oncall_for = host_fn_typed(|name: String| Ok::<_, String>(format!("oncall for {name}")));
    Kind::builder("AlertRouting")
        .version(1)
        .input("alert", alert)
        .input("teams", Type::list(team))
        .function(
            "oncall_for",
            FnDecl::new([Type::string()], Type::string()).implement(oncall_for),
        )
        .decisions([&page, &drop, &notify])
        .rank_reasons(&page)
        .rank_outcomes([drop.reason("duplicate"), drop.reason("silenced")])
        .default_outcome(notify.reason("unrouted"))
        .build()
        .unwrap()
}

fn everything() -> Kind {
    let unused = Type::enumeration("Unused", ["nothing", "at_all"]);
    let mood = Type::enumeration("Mood", ["calm", "tense"]);
    let region = Type::enumeration("Region", ["eu", "us", "ap"]);
    let level = Type::enumeration("Level", ["low", "mid", "high"]);
    let geo = Type::structure("Geo", [("lat", Type::float()), ("lon", Type::float())]);
    let address = Type::structure("Address", [("city", Type::string()), ("geo", geo)]);
    let person = Type::structure(
        "Person",
        [
            ("name", Type::string()),
            ("mood", mood),
            ("address", Type::optional(address)),
            ("visits", Type::list(Type::timestamp())),
        ],
    );
    let marker = Type::structure("Marker", Vec::<(String, Type)>::new());
    let deny = Decision::new("deny", ["blocked", "expired", "fallback", "conflicting"])
        .field_default(
            "note",
            Type::string(),
            json!("tab\there \"quoted\" back\\slash \u{1} ✓ é 😀 \u{2028}"),
        )
        .field_default("ratio", Type::float(), json!(0.5))
        .field_default("huge", Type::float(), json!(1e21))
        .field_default("tiny", Type::float(), json!(1e-7))
        .field_default("whole", Type::float(), json!(2))
        .field_default("offset", Type::int(), json!(-3))
        .field_default("floor", Type::int(), json!(i64::MIN));
    let allow = Decision::new("allow", ["owner", "admin"])
        .field_default("bake", Type::duration(), json!("90m"))
        .field_default("soak", Type::duration(), json!("2d3h"))
        .field_default("tags", Type::list(Type::string()), json!(["a", "b"]))
        .field_default("level", level.clone(), json!("mid"))
        .field_default(
            "weights",
            Type::map(Type::string(), Type::int()),
            json!({"b": 2, "a": 1, "ä": 3, "Z": 4}),
        )
        .field_default("retries", Type::optional(Type::int()), json!(4))
        .field_default("regions", Type::list(region.clone()), json!([]));
    let hold = Decision::new("hold", ["review"])
        .field("until", Type::timestamp())
        .field_default(
            "flags",
            Type::map(Type::int(), Type::bool()),
            json!({"10": true, "2": false}),
        )
        .field("level", level.clone());
    Kind::builder("Everything")
        .version(3)
        .accepts(2)
        .enumeration(unused)
        .input("person", person.clone())
        .input("seen", Type::timestamp())
        .input("scores", Type::map(Type::string(), Type::float()))
        .input("marker", marker)
        .function(
            "quota",
            FnDecl::new([Type::map(region, Type::int())], Type::int()),
        )
        .function("level_of", FnDecl::new([person], level))
        .function("now", FnDecl::new([], Type::timestamp()))
        .decisions([&deny, &allow, &hold])
        .rank_outcomes([allow.reason("admin"), allow.reason("owner")])
        .exclusive([OutcomeRef::from(&hold), allow.reason("admin").into()])
        .exclusive([deny.reason("blocked").into(), OutcomeRef::from(&allow)])
        .default_outcome(deny.reason("fallback"))
        .conflict(deny.reason("conflicting"))
        .build()
        .unwrap()
}

fn collecting() -> Kind {
    let user = Type::structure(
        "User",
        [
            ("name", Type::string()),
            ("groups", Type::list(Type::string())),
            ("oncall", Type::bool()),
        ],
    );
    let read = Decision::new("read", ["member", "oncall"]).field_default(
        "scope",
        Type::string(),
        json!("all"),
    );
    let write = Decision::new("write", ["owner", "oncall"]);
    let admin =
        Decision::new("admin", ["oncall"]).field_default("ttl", Type::duration(), json!("480m"));
    Kind::builder("Collecting")
        .version(1)
        .input("user", user)
        .collect_all([&read, &write, &admin])
        .precedence([&admin, &write, &read])
        .rank_outcomes([read.reason("oncall"), read.reason("member")])
        .exclusive([OutcomeRef::from(&write), admin.reason("oncall").into()])
        .exclusive([read.reason("member").into(), OutcomeRef::from(&admin)])
        .build()
        .unwrap()
}

fn minimal() -> Kind {
    let ok = Decision::new("ok", ["yes"]);
    Kind::builder("Minimal")
        .version(1)
        .input("who", Type::string())
        .decisions([&ok])
        .default_outcome(ok.reason("yes"))
        .build()
        .unwrap()
}

fn labels() -> Kind {
    let tier = Type::enumeration("Tier", ["gold", "silver"]);
    let owner = Type::structure("Owner", [("name", Type::string()), ("tier", tier)]);
    let allow = Decision::new("allow", ["tagged", "described"]);
    let deny = Decision::new("deny", ["fallback"]);
    Kind::builder("Labels")
        .version(1)
        .input("label", Type::string())
        .input("owner", owner.clone())
        .input("since", Type::timestamp())
        .input("age", Type::duration())
        .function(
            "split",
            FnDecl::new([Type::string(), Type::string()], Type::list(Type::string())),
        )
        .function(
            "describe",
            FnDecl::new([owner, Type::duration(), Type::timestamp()], Type::string()),
        )
        .decisions([&deny, &allow])
        .default_outcome(deny.reason("fallback"))
        .build()
        .unwrap()
}

fn refund() -> Kind {
    let deny = Decision::new("deny", ["fraud", "no_rule"]);
    let approve = Decision::new("approve", ["goodwill", "small"]).field_default(
        "limit",
        Type::int(),
        json!(100),
    );
    Kind::builder("Refund")
        .version(1)
        .input("amount", Type::int())
        .input("channel", Type::string())
        .decisions([&deny, &approve])
        .rank_reasons(&approve)
        .default_outcome(deny.reason("no_rule"))
        .build()
        .unwrap()
}

#[test]
fn the_coverage_kinds_are_the_goldens_byte_for_byte() {
    for (name, kind) in [
        ("alert_routing", alert_routing()),
        ("everything", everything()),
        ("collecting", collecting()),
        ("minimal", minimal()),
    ] {
        assert_eq!(kind.schema(), golden(name), "{name}");
    }
}

#[test]
fn the_refund_kind_is_benchs_file() {
    assert_eq!(refund().schema(), REFUND_KIND);
}

/// The shared labels_kind.sigil declares `allow` before `deny` but ranks `deny` first, which a
/// `collect one` builder (decisions in precedence order) never writes; the builder's Labels kind
/// is the same kind with the decisions in precedence order, and the labels policy compiles on it.
#[test]
fn the_labels_kind_is_the_shared_one_in_precedence_order() {
    let shared = std::fs::read_to_string(
        root().join("engine-jni/src/test/resources/labels/labels_kind.sigil"),
    )
    .unwrap();
    let allow = "\ndecision allow {\n  reason: tagged | described\n}\n";
    let deny = "\ndecision deny {\n  reason: fallback\n}\n";
    assert_eq!(
        labels().schema(),
        shared.replace(&format!("{allow}{deny}"), &format!("{deny}{allow}"))
    );
    let policy = labels_files()
        .into_iter()
        .find(|f| f.path == "labels.sigil")
        .unwrap();
    let mut options = KindCompileOptions {
        kind_file: Some("labels_kind.sigil".into()),
        ..KindCompileOptions::default()
    };
    options
        .compile
        .stubs
        .insert("split".into(), Stub::returning(json!(["team"])));
    options
        .compile
        .stubs
        .insert("describe".into(), Stub::returning(json!("no")));
    let compiled = labels().compile(&engine(), &[policy], options).unwrap();
    let input = json!({"label": "team", "owner": {"name": "ada", "tier": "gold"}, "since": "2026-01-02T03:04:05Z", "age": "1m"});
    assert_eq!(
        compiled.eval(&input).unwrap().reason.as_deref(),
        Some("tagged")
    );
}

#[test]
fn every_built_kind_checks_cleanly() {
    let engine = engine();
    for kind in [
        alert_routing(),
        everything(),
        collecting(),
        minimal(),
        labels(),
        refund(),
    ] {
        assert_eq!(kind.check(&engine).unwrap(), vec![], "{}", kind.name());
    }
}

#[test]
fn file_names_the_kind_in_snake_case() {
    assert_eq!(alert_routing().file(None).path, "alert_routing.sigil");
    assert_eq!(alert_routing().file(Some("k/a.sigil")).path, "k/a.sigil");
    assert_eq!(alert_routing().version(), 1);
}

#[test]
fn compile_adds_the_kind_and_its_implementations() {
    let engine = engine();
    let kind = alert_routing();
    assert_eq!(kind.functions().keys().collect::<Vec<_>>(), ["oncall_for"]);
    let policy_text = "policy alerts.route: AlertRouting@1\n\nwhen alert.severity == critical {\n  page(reason: critical_alert, oncall: oncall_for(alert.name))\n}\n";
    let policy = kind
        .compile(
            &engine,
            &[SourceFile::new("alerts/route.sigil", policy_text)],
            KindCompileOptions::default(),
        )
        .unwrap();
    let input = json!({"alert": {"name": "disk", "severity": "critical", "labels": {}, "firing_for": "5m"}, "teams": []});
    let result = policy.eval(&input).unwrap();
    #[derive(serde::Deserialize)]
    struct Page {
        oncall: String,
    }
    let page =
        Decision::new("page", ["critical_alert", "sustained"]).field("oncall", Type::string());
    assert_eq!(
        page.matches::<Page>(&result).unwrap().map(|p| p.oncall),
        Some("oncall for disk".into())
    );
    assert!(page.reason("critical_alert").is(&result).unwrap());
}

#[test]
fn compile_refuses_a_stale_kind_file() {
    let stale = SourceFile::new(
        "kinds/minimal.sigil",
        "kind Minimal version 1\n\ninput who: string\n",
    );
    let Err(Error::Engine(e)) =
        minimal().compile(&engine(), &[stale], KindCompileOptions::default())
    else {
        panic!("accepted")
    };
    assert_eq!(
        e.message,
        "kinds/minimal.sigil declares kind Minimal, but not as this program defines it"
    );
}

#[test]
fn compile_uses_a_current_kind_file_as_given() {
    let kind = minimal();
    let files = [
        kind.file(Some("k.sigil")),
        SourceFile::new(
            "m.sigil",
            "policy minimal.main: Minimal@1\n\nwhen who == \"me\" {\n  ok(reason: yes)\n}\n",
        ),
    ];
    let policy = kind
        .compile(&engine(), &files, KindCompileOptions::default())
        .unwrap();
    assert_eq!(
        policy
            .eval(&json!({"who": "me"}))
            .unwrap()
            .reason
            .as_deref(),
        Some("yes")
    );
}

#[test]
fn build_lists_every_problem_in_order() {
    let d = Decision::new("d", ["r", "r", "bad reason"])
        .field("f", Type::int())
        .field("f", Type::int());
    let error = Kind::builder("bad name")
        .input("x", Type::int())
        .input(
            "x",
            Type::optional(Type::enumeration("E", Vec::<String>::new())),
        )
        .enumeration(Type::int())
        .function("f", FnDecl::new([], Type::optional(Type::int())))
        .decisions([&d])
        .collect_all([&d])
        .conflict(d.reason("r"))
        .build()
        .unwrap_err();
    let Error::Engine(e) = error else {
        panic!("not an engine error")
    };
    assert_eq!(
        e.message,
        "Kind::builder(bad name): invalid kind:\n  \
         input x is declared twice\n  \
         enumeration(int): not an enum\n  \
         the kind sets both decisions and collect (decisions ranks them for `collect one`, collect_all applies them all; use one)\n  \
         kind name \"bad name\" isn't an identifier (use letters, digits and underscores, like AlertRouting)\n  \
         version 0 isn't a whole number from 1\n  \
         accepts 1 isn't from 1 to the version, 0\n  \
         decision d declares reason r twice\n  \
         decision d: reason \"bad reason\" isn't an identifier\n  \
         decision d: field f is declared twice\n  \
         decision d is declared twice\n  \
         decision d declares reason r twice\n  \
         decision d: reason \"bad reason\" isn't an identifier\n  \
         decision d: field f is declared twice\n  \
         conflict is for a `collect one` kind (a collecting kind applies every decision, so nothing conflicts over the one outcome)\n  \
         conflict d.r: payload field f has no default (give it one with field_default)\n  \
         conflict d.r: payload field f has no default (give it one with field_default)\n  \
         function f: the result can't be optional (return the zero value and let the policy compare, or return a list)\n  \
         enum E declares no values"
    );
    assert_eq!(
        e.help,
        "fix every problem listed; the kind can't be exported until then"
    );
}

#[test]
fn fallbacks_rankings_and_exclusive_sets_are_checked() {
    let a = Decision::new("a", ["x", "y"]).field("n", Type::int());
    let b = Decision::new("b", ["z"]);
    let ghost = Decision::new("ghost", ["boo"]);
    let problems = Kind::builder("K")
        .version(1)
        .decisions([&a, &b])
        .precedence([&b])
        .rank_outcomes([])
        .rank_outcomes([ghost.reason("boo")])
        .rank_outcomes([a.reason("x"), b.reason("z")])
        .rank_reasons(&a)
        .exclusive([OutcomeRef::from(&a)])
        .exclusive([OutcomeRef::from(&ghost), ghost.reason("boo").into()])
        .default_outcome(Outcome::new("a", "w"))
        .problems();
    assert_eq!(
        problems,
        [
            "precedence is for a collecting kind (decisions already ranks them in order)",
            "default a.w: decision a has no reason w",
            "default a.w: payload field n has no default (give it one with field_default)",
            "a reason ranking names no reasons",
            "reason ranking: decision ghost isn't one of the kind's",
            "reason ranking a: reason z belongs to decision b (rank each decision's reasons in a ranking of its own)",
            "the reason ranking of a must name every reason of a once (a declares: x, y)",
            "reasons of a are ranked twice",
            "an exclusive set names at least two outcomes",
            "exclusive: decision ghost isn't one of the kind's",
            "exclusive ghost.boo: decision ghost isn't one of the kind's",
        ]
    );
}

#[test]
fn a_collecting_precedence_must_list_every_decision_once() {
    let a = Decision::new("a", ["x"]);
    let b = Decision::new("b", ["y"]);
    let problems = Kind::builder("K")
        .version(1)
        .collect_all([&a, &b])
        .precedence([&a, &a])
        .problems();
    assert_eq!(
        problems,
        ["precedence must list every decision of the kind once (the decisions are a, b)"]
    );
    assert_eq!(
        Kind::builder("K").version(1).problems(),
        ["the kind declares no decisions (set decisions, or collect_all for a collecting kind)"]
    );
}

#[test]
fn defaults_that_are_not_constants_are_problems() {
    let a = Decision::new("a", ["x"])
        .field_default("n", Type::int(), json!("seven"))
        .field_default("o", Type::optional(Type::int()), json!(null));
    let problems = Kind::builder("K")
        .version(1)
        .decisions([&a])
        .default_outcome(a.reason("x"))
        .problems();
    assert_eq!(
        problems,
        [
            "decision a: field n: \"seven\" isn't a constant of type int",
            "decision a: field o: `none` isn't a constant: leave the default out; a field without one is required",
        ]
    );
}

#[test]
fn two_types_of_one_name_clash() {
    let problems = Kind::builder("K")
        .version(1)
        .input("a", Type::enumeration("E", ["x"]))
        .input("b", Type::enumeration("E", ["y"]))
        .input(
            "c",
            Type::structure("S", [("f", Type::int()), ("f", Type::int())]),
        )
        .decisions([&Decision::new("d", ["r"])])
        .default_outcome(Decision::new("d", ["r"]).reason("r"))
        .problems();
    assert_eq!(
        problems,
        [
            "two different types are both named E (rename one; each enum and struct needs a name of its own)",
            "struct S: field f is declared twice",
        ]
    );
}

/// Grants: read and admin, collected; ranked, admin over read, when `ranked`.
fn grants(ranked: bool) -> (Kind, Decision, Decision) {
    let read = Decision::new("read", ["member", "oncall"]).field_default(
        "scope",
        Type::string(),
        json!("all"),
    );
    let admin =
        Decision::new("admin", ["oncall"]).field_default("ttl", Type::duration(), json!("8h"));
    let user = Type::structure(
        "User",
        [
            ("groups", Type::list(Type::string())),
            ("oncall", Type::bool()),
        ],
    );
    let builder = Kind::builder(if ranked { "RankedGrants" } else { "Grants" })
        .version(1)
        .input("user", user)
        .collect_all([&read, &admin]);
    let kind = if ranked {
        builder.precedence([&admin, &read])
    } else {
        builder
    }
    .build()
    .unwrap();
    (kind, read, admin)
}

fn grants_policy(kind: &Kind) -> SourceFile {
    let rules = "\nwhen \"eng\" in user.groups {\n  read(reason: member)\n  admin(reason: oncall, ttl: 2h)\n}\n\n\
                 when user.oncall {\n  read(reason: oncall, scope: \"prod\")\n  admin(reason: oncall, ttl: 1h)\n}\n";
    SourceFile::new(
        "grants/main.sigil",
        format!("policy grants.main: {}@1\n{rules}", kind.name()),
    )
}

/// The grants policy compiled with its kind (ranked or not), and the kind's two decisions.
fn compiled_grants(ranked: bool) -> (Policy, Decision, Decision) {
    let (kind, read, admin) = grants(ranked);
    let policy = kind
        .compile(
            &engine(),
            &[grants_policy(&kind)],
            KindCompileOptions::default(),
        )
        .unwrap();
    (policy, read, admin)
}

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Ttl {
    ttl: String,
}

#[test]
fn a_kind_knows_the_shape_of_its_results() {
    assert_eq!(
        grants(true).0.result_shape(),
        ResultShape {
            collect: true,
            ranked: true
        }
    );
    assert_eq!(
        grants(false).0.result_shape(),
        ResultShape {
            collect: true,
            ranked: false
        }
    );
    assert_eq!(
        minimal().result_shape(),
        ResultShape {
            collect: false,
            ranked: false
        }
    );
}

#[test]
fn a_ranked_collecting_kinds_single_top_reads_with_matches() {
    let (policy, read, admin) = compiled_grants(true);
    let oncall = policy
        .eval(&json!({"user": {"groups": [], "oncall": true}}))
        .unwrap();
    assert!(oncall.collect);
    assert_eq!(
        oncall.shape,
        Some(ResultShape {
            collect: true,
            ranked: true
        })
    );
    assert_eq!(
        admin.matches::<Ttl>(&oncall).unwrap(),
        Some(Ttl { ttl: "1h".into() })
    );
    assert!(admin.reason("oncall").is(&oncall).unwrap());
    assert_eq!(read.matches::<serde_json::Value>(&oncall).unwrap(), None);
}

#[test]
fn a_ranked_top_of_two_entries_has_no_single_outcome() {
    let (policy, read, admin) = compiled_grants(true);
    let both = policy
        .eval(&json!({"user": {"groups": ["eng"], "oncall": true}}))
        .unwrap();
    assert_eq!(admin.matches::<Ttl>(&both).unwrap(), None);
    assert!(!admin.reason("oncall").is(&both).unwrap());
    assert_eq!(admin.match_all::<Ttl>(&both).unwrap().len(), 2);
    assert!(read
        .match_all::<serde_json::Value>(&both)
        .unwrap()
        .is_empty());
}

#[test]
fn an_unranked_collecting_kinds_result_is_refused_a_single_outcome() {
    let (policy, _, admin) = compiled_grants(false);
    let oncall = policy
        .eval(&json!({"user": {"groups": [], "oncall": true}}))
        .unwrap();
    assert_eq!(
        oncall.shape,
        Some(ResultShape {
            collect: true,
            ranked: false
        })
    );
    let error = admin.matches::<Ttl>(&oncall).unwrap_err();
    assert_eq!(error.to_string(), "matches on a collecting kind's result, which has no single outcome; read it with match_all");
    assert_eq!(error.help(), "a collecting kind applies every decision that fired; with precedence, the top rank reads with matches");
    assert_eq!(admin.match_all::<Ttl>(&oncall).unwrap().len(), 1);
}

#[test]
fn without_the_kinds_shape_a_ranked_collecting_result_is_refused_its_top() {
    let (kind, _, admin) = grants(true);
    let engine = engine();
    let policy = engine
        .compile(
            &[kind.file(None), grants_policy(&kind)],
            CompileOptions::default(),
        )
        .unwrap();
    let input = json!({"user": {"groups": [], "oncall": true}});
    let unstamped = policy.eval(&input).unwrap();
    assert_eq!(unstamped.shape, None);
    assert!(admin
        .reason("oncall")
        .is(&unstamped)
        .unwrap_err()
        .to_string()
        .starts_with("is on a collecting kind's result"));
    let stamped = policy
        .stamp_results(kind.result_shape())
        .eval(&input)
        .unwrap();
    assert_eq!(
        admin.matches::<Ttl>(&stamped).unwrap(),
        Some(Ttl { ttl: "1h".into() })
    );
}
