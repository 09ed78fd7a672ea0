//! Resolution (language-policies §7.4–7.6, §7.8): the trace's order, the
//! fold, exclusive sets, the top rank, `collect one` conflicts and their
//! fallback, the default, and collecting kinds.

use super::{GRANTS, body, firing, policy};

/// A `collect one` kind: `deny` outranks `review` outranks `allow`; deny's
/// reasons are ranked, review's and allow's are not.
const GATE: &str = "kind Gate version 1

input n: int

decision deny {
  reason: risky | closed | no_rule
}

decision review {
  reason: owner | peer
  who: string = \"anyone\"
}

decision allow {
  reason: member | guest
}

collect one
precedence deny > review > allow
precedence deny: risky > closed > no_rule

default deny(reason: no_rule)
";

/// [`GATE`] with a declared conflict outcome and an exclusive set.
const DOOR: &str = "kind Door version 1

input n: int

decision deny {
  reason: closed | no_rule | conflicting
}

decision hold {
  reason: lockdown | drill
}

decision open {
  reason: staff | maintenance
  minutes: int = 5
}

collect one
precedence deny > hold > open
precedence hold: lockdown > drill
exclusive hold, open.maintenance
exclusive deny.closed, open

default deny(reason: no_rule)
conflict deny(reason: conflicting)
";

/// [`GRANTS`] with a precedence and a default.
fn ranked_grants() -> String {
    format!(
        "{GRANTS}precedence log > grant\nprecedence grant: oncall > team\n\ndefault log(reason: audit)\n"
    )
}

#[test]
fn the_decision_precedence_picks_the_winner_whatever_the_source_order() {
    let p = body(
        GATE,
        "when true {\n  allow(reason: member)\n}\n\nwhen true {\n  deny(reason: closed)\n}\n",
    );
    let got = p.eval("{}");
    assert_eq!(got.decision().as_deref(), Some("deny.closed"));
    assert_eq!(got.trace(), ["deny.closed", "allow.member"]);
}

#[test]
fn a_reason_ranking_orders_the_reasons_of_one_decision() {
    let got = firing(GATE, &["deny(reason: closed)", "deny(reason: risky)"]);
    assert_eq!(got.decision().as_deref(), Some("deny.risky"));
    assert_eq!(got.trace(), ["deny.risky", "deny.closed"]);
    assert_eq!(got.error_kind(), None);
}

#[test]
fn candidates_of_equal_rank_keep_source_order_in_the_trace() {
    let first = body(
        GATE,
        "when true {\n  allow(reason: guest)\n  allow(reason: member)\n  deny(reason: closed)\n}\n",
    );
    assert_eq!(
        first.eval("{}").trace(),
        ["deny.closed", "allow.guest", "allow.member"]
    );
    let second = body(
        GATE,
        "when true {\n  allow(reason: member)\n  allow(reason: guest)\n  deny(reason: closed)\n}\n",
    );
    assert_eq!(
        second.eval("{}").trace(),
        ["deny.closed", "allow.member", "allow.guest"]
    );
}

#[test]
fn source_order_compares_lines_then_columns() {
    let p = body(
        GATE,
        "when true { allow(reason: member) }\nwhen true { deny(reason: closed) } when true { allow(reason: guest) }\n",
    );
    assert_eq!(
        p.eval("{}").trace(),
        ["deny.closed", "allow.member", "allow.guest"]
    );
}

#[test]
fn unranked_reasons_share_the_top_so_collect_one_conflicts() {
    let got = firing(GATE, &["allow(reason: member)", "allow(reason: guest)"]);
    assert_eq!(got.error_kind().as_deref(), Some("conflict"));
    assert_eq!(
        got.at("error.message"),
        "collect one: 2 candidates at the top rank"
    );
    assert_eq!(
        got.at("error.help"),
        "a conflict is a defect in the policy: rank the reasons with precedence, or keep the exclusive outcomes' conditions apart"
    );
    assert_eq!(
        got.entries("error.candidates"),
        ["allow.member", "allow.guest"]
    );
    assert_eq!(
        got.decision().as_deref(),
        Some("deny.no_rule"),
        "the default"
    );
}

#[test]
fn the_top_is_cut_at_the_first_rank_change_before_counting() {
    let got = firing(
        GATE,
        &[
            "allow(reason: member)",
            "allow(reason: guest)",
            "review(reason: owner)",
        ],
    );
    assert_eq!(got.winner(), "review.owner");
}

#[test]
fn candidates_equal_in_decision_reason_and_payload_fold_into_the_first() {
    let p = body(
        GATE,
        "when n > 0 {\n  review(reason: owner, who: \"ana\")\n}\n\nwhen true {\n  review(reason: owner, who: \"ana\")\n  allow(reason: guest)\n}\n",
    );
    let got = p.eval(r#"{"n":1}"#);
    assert_eq!(got.error_kind(), None, "{}", got.json);
    assert_eq!(got.at("outcome.0.position"), "p.sigil:4:3");
    assert_eq!(
        got.trace(),
        ["review.owner", "review.owner", "allow.guest"],
        "the trace keeps every candidate"
    );
    assert_eq!(got.at("trace.0.outcome"), "true");
    assert_eq!(got.get("trace.1.outcome"), None, "folded into the first");
    assert_eq!(got.texts("trace.1.conditions"), ["true"]);
}

#[test]
fn candidates_with_different_payloads_do_not_fold() {
    let got = firing(
        GATE,
        &[
            "review(reason: owner, who: \"ana\")",
            "review(reason: owner, who: \"bo\")",
        ],
    );
    assert_eq!(
        got.at("error.message"),
        "collect one: 2 candidates at the top rank"
    );
}

#[test]
fn a_payload_default_folds_with_the_same_value_written_out() {
    let got = firing(
        GATE,
        &[
            "review(reason: peer)",
            "review(reason: peer, who: \"anyone\")",
        ],
    );
    assert_eq!(got.error_kind(), None, "{}", got.json);
    assert_eq!(got.at("payload"), r#"{"who":"anyone"}"#);
}

#[test]
fn nothing_fired_gives_the_default_without_position_or_trace() {
    let p = body(GATE, "when n > 0 {\n  allow(reason: member)\n}\n");
    assert_eq!(
        p.eval("{}").json,
        r#"{"policy":"p","decision":"deny","reason":"no_rule","outcome":[{"decision":"deny","reason":"no_rule"}],"trace":[]}"#
    );
}

#[test]
fn any_fired_rule_replaces_the_default_even_one_it_outranks() {
    let p = body(GATE, "when n > 0 {\n  allow(reason: member)\n}\n");
    let got = p.eval(r#"{"n":1}"#);
    // `>` is written `\u003e`, as Go's HTML-safe escaping does (§8.6).
    assert_eq!(
        got.json,
        r#"{"policy":"p","decision":"allow","reason":"member","outcome":[{"decision":"allow","reason":"member","policy":"p","position":"p.sigil:4:3"}],"trace":[{"decision":"allow","reason":"member","policy":"p","position":"p.sigil:4:3","conditions":["n \u003e 0"],"outcome":true}]}"#
    );
}

#[test]
fn the_winners_payload_is_repeated_at_the_top_of_the_record() {
    let p = body(
        GATE,
        "when true {\n  review(reason: owner)\n  allow(reason: guest)\n}\n",
    );
    assert_eq!(
        p.eval("{}").json,
        r#"{"payload":{"who":"anyone"},"policy":"p","decision":"review","reason":"owner","outcome":[{"payload":{"who":"anyone"},"decision":"review","reason":"owner","policy":"p","position":"p.sigil:4:3"}],"trace":[{"payload":{"who":"anyone"},"decision":"review","reason":"owner","policy":"p","position":"p.sigil:4:3","conditions":["true"],"outcome":true},{"decision":"allow","reason":"guest","policy":"p","position":"p.sigil:5:3"}]}"#
    );
}

#[test]
fn trace_entries_of_the_winning_decision_carry_their_conditions() {
    let p = body(
        GATE,
        "when n > 0 {\n  when n  >  1 {\n    deny(reason: closed)\n  }\n  deny(reason: risky)\n  allow(reason: guest)\n}\n",
    );
    let got = p.eval(r#"{"n":2}"#);
    assert_eq!(got.trace(), ["deny.risky", "deny.closed", "allow.guest"]);
    assert_eq!(got.texts("trace.0.conditions"), ["n > 0"]);
    assert_eq!(
        got.texts("trace.1.conditions"),
        ["n > 0", "n > 1"],
        "outermost first, whitespace collapsed"
    );
    assert_eq!(got.get("trace.1.outcome"), None, "not the winner");
    assert_eq!(got.get("trace.2.conditions"), None, "another decision");
}

#[test]
fn an_exclusive_set_conflicts_when_two_of_its_entries_fired() {
    let got = firing(DOOR, &["open(reason: maintenance)", "hold(reason: drill)"]);
    assert_eq!(
        got.at("error.message"),
        "exclusive hold, open.maintenance: more than one fired"
    );
    assert_eq!(
        got.entries("error.candidates"),
        ["hold.drill", "open.maintenance"],
        "entry by entry"
    );
}

#[test]
fn the_exclusive_check_ignores_ranks() {
    let got = firing(
        DOOR,
        &[
            "open(reason: maintenance)",
            "hold(reason: drill)",
            "deny(reason: no_rule)",
        ],
    );
    assert_eq!(got.error_kind().as_deref(), Some("conflict"));
    assert_eq!(
        got.at("error.message"),
        "exclusive hold, open.maintenance: more than one fired"
    );
}

#[test]
fn an_exclusive_entry_with_a_reason_matches_only_that_reason() {
    let got = firing(DOOR, &["open(reason: staff)", "hold(reason: drill)"]);
    assert_eq!(got.winner(), "hold.drill");
}

#[test]
fn a_bare_exclusive_entry_matches_every_reason_but_counts_once() {
    let got = firing(DOOR, &["hold(reason: drill)", "hold(reason: lockdown)"]);
    assert_eq!(got.winner(), "hold.lockdown");
}

#[test]
fn only_the_first_offending_exclusive_set_is_reported() {
    let got = firing(
        DOOR,
        &[
            "deny(reason: closed)",
            "open(reason: maintenance)",
            "hold(reason: drill)",
        ],
    );
    assert_eq!(
        got.at("error.message"),
        "exclusive hold, open.maintenance: more than one fired"
    );
    assert_eq!(
        got.entries("error.candidates"),
        ["hold.drill", "open.maintenance"]
    );
}

#[test]
fn folded_duplicates_are_not_exclusive_candidates() {
    let got = firing(
        DOOR,
        &[
            "open(reason: staff)",
            "open(reason: staff)",
            "deny(reason: closed)",
        ],
    );
    assert_eq!(
        got.entries("error.candidates"),
        ["deny.closed", "open.staff"]
    );
    assert_eq!(got.trace(), ["deny.closed", "open.staff", "open.staff"]);
}

#[test]
fn a_conflict_falls_back_to_the_declared_conflict_outcome() {
    let p = body(
        DOOR,
        "when n == 1 {\n  open(reason: maintenance, minutes: 30)\n}\n\nwhen true {\n  hold(reason: drill)\n}\n",
    );
    assert_eq!(
        p.eval(r#"{"n":1}"#).json,
        concat!(
            r#"{"error":{"kind":"conflict","message":"exclusive hold, open.maintenance: more than one fired","help":"a conflict is a defect in the policy: rank the reasons with precedence, or keep the exclusive outcomes' conditions apart","#,
            r#""candidates":[{"decision":"hold","reason":"drill","policy":"p","position":"p.sigil:8:3","conditions":["true"]},{"payload":{"minutes":30},"decision":"open","reason":"maintenance","policy":"p","position":"p.sigil:4:3","conditions":["n == 1"]}]},"#,
            r#""policy":"p","decision":"deny","reason":"conflicting","outcome":[{"decision":"deny","reason":"conflicting"}],"#,
            r#""trace":[{"decision":"hold","reason":"drill","policy":"p","position":"p.sigil:8:3"},{"payload":{"minutes":30},"decision":"open","reason":"maintenance","policy":"p","position":"p.sigil:4:3"}]}"#
        )
    );
}

#[test]
fn a_top_rank_conflict_falls_back_to_the_conflict_outcome_too() {
    let got = firing(
        DOOR,
        &[
            "open(reason: staff, minutes: 1)",
            "open(reason: staff, minutes: 2)",
        ],
    );
    assert_eq!(
        got.at("error.message"),
        "collect one: 2 candidates at the top rank"
    );
    assert_eq!(got.decision().as_deref(), Some("deny.conflicting"));
}

#[test]
fn without_a_conflict_outcome_a_conflict_falls_back_to_the_default() {
    let got = firing(GATE, &["review(reason: owner)", "review(reason: peer)"]);
    assert_eq!(got.error_kind().as_deref(), Some("conflict"));
    assert_eq!(got.outcome(), ["deny.no_rule"]);
    assert_eq!(got.get("outcome.0.position"), None);
}

#[test]
fn the_conflict_outcome_replaces_the_default_only_after_a_conflict() {
    let p = body(DOOR, "when [1][n] == 1 {\n  open(reason: staff)\n}\n");
    let got = p.eval(r#"{"n":4}"#);
    assert_eq!(got.error_kind().as_deref(), Some("runtime"));
    assert_eq!(got.decision().as_deref(), Some("deny.no_rule"));
}

#[test]
fn collect_all_returns_every_folded_candidate_in_declaration_order() {
    let got = firing(
        GRANTS,
        &[
            "log(reason: audit)",
            "grant(reason: team, tool: \"git\")",
            "grant(reason: oncall, tool: \"pager\")",
            "grant(reason: team, tool: \"git\")",
        ],
    );
    assert_eq!(got.error_kind(), None, "{}", got.json);
    assert_eq!(
        got.outcome(),
        ["grant.team", "grant.oncall", "log.audit"],
        "decisions in declaration order, then source order"
    );
    assert_eq!(got.at("outcome.0.payload"), r#"{"tool":"git"}"#);
    assert_eq!(got.at("outcome.1.payload"), r#"{"tool":"pager"}"#);
    assert_eq!(got.trace().len(), 4, "the trace keeps the folded one");
    assert_eq!(got.get("trace.2.outcome"), None, "the folded one");
}

#[test]
fn a_collecting_record_has_no_single_decision_and_says_collect() {
    let p = body(
        GRANTS,
        "when true {\n  grant(reason: team, tool: \"git\")\n}\n",
    );
    assert_eq!(
        p.eval("{}").json,
        r#"{"policy":"p","outcome":[{"payload":{"tool":"git"},"decision":"grant","reason":"team","policy":"p","position":"p.sigil:4:3"}],"trace":[{"payload":{"tool":"git"},"decision":"grant","reason":"team","policy":"p","position":"p.sigil:4:3","conditions":["true"],"outcome":true}],"collect":true}"#
    );
}

#[test]
fn collect_all_keeps_candidates_of_one_reason_with_different_payloads() {
    let got = firing(
        GRANTS,
        &[
            "grant(reason: team, tool: \"git\")",
            "grant(reason: team, tool: \"ci\")",
        ],
    );
    assert_eq!(got.error_kind(), None, "{}", got.json);
    assert_eq!(got.outcome(), ["grant.team", "grant.team"]);
}

#[test]
fn collect_all_with_a_precedence_returns_only_the_top_rank() {
    let got = firing(
        &ranked_grants(),
        &[
            "grant(reason: team, tool: \"git\")",
            "grant(reason: oncall, tool: \"pager\")",
            "grant(reason: oncall, tool: \"dash\")",
        ],
    );
    assert_eq!(got.outcome(), ["grant.oncall", "grant.oncall"]);
    assert_eq!(got.trace(), ["grant.oncall", "grant.oncall", "grant.team"]);
    assert_eq!(
        got.texts("trace.2.conditions"),
        ["true"],
        "the same decision as the outcome"
    );
}

#[test]
fn collect_all_without_a_default_is_empty_when_nothing_fired() {
    let p = body(GRANTS, "when n > 0 {\n  log(reason: audit)\n}\n");
    assert_eq!(
        p.eval("{}").json,
        r#"{"policy":"p","outcome":[],"trace":[],"collect":true}"#
    );
}

#[test]
fn collect_all_with_a_default_returns_it_when_nothing_fired() {
    let p = body(&ranked_grants(), "when n > 0 {\n  log(reason: audit)\n}\n");
    assert_eq!(
        p.eval("{}").json,
        r#"{"policy":"p","outcome":[{"decision":"log","reason":"audit"}],"trace":[],"collect":true}"#
    );
}

#[test]
fn a_collecting_kind_fails_to_an_empty_outcome_even_with_a_default() {
    let p = body(
        &ranked_grants(),
        "when true {\n  grant(reason: team, tool: \"git\")\n  grant(reason: team, tool: [\"a\"][n])\n}\n",
    );
    let got = p.eval(r#"{"n":1}"#);
    assert_eq!(got.error_kind().as_deref(), Some("runtime"));
    assert_eq!(got.outcome(), Vec::<String>::new());
    assert_eq!(got.trace(), Vec::<String>::new());
}

/// A kind whose default carries a payload and whose exclusive set names a
/// decision and one of its own reasons.
const ALERTS: &str = "kind Alerts version 1

input n: int

decision page {
  reason: urgent | routine
}

decision notify {
  reason: unrouted | routed
  channel: string = \"#alerts\"
}

collect one
precedence page > notify
precedence page: urgent > routine
precedence notify: routed > unrouted
exclusive page, page.urgent

default notify(reason: unrouted)
";

#[test]
fn the_defaults_payload_leads_the_record_even_after_a_failure() {
    let p = body(ALERTS, "when [1][n] == 0 {\n  page(reason: routine)\n}\n");
    assert_eq!(
        p.eval(r#"{"n":0}"#).json,
        r##"{"payload":{"channel":"#alerts"},"policy":"p","decision":"notify","reason":"unrouted","outcome":[{"payload":{"channel":"#alerts"},"decision":"notify","reason":"unrouted"}],"trace":[]}"##
    );
    assert_eq!(
        p.eval(r#"{"n":1}"#).json,
        r##"{"payload":{"channel":"#alerts"},"error":{"kind":"runtime","message":"p.sigil:3:6: index 1 out of range for a list of 1","help":"fix the expression the runtime error points at, or the input it read"},"policy":"p","decision":"notify","reason":"unrouted","outcome":[{"payload":{"channel":"#alerts"},"decision":"notify","reason":"unrouted"}],"trace":[]}"##
    );
}

#[test]
fn a_candidate_matching_two_entries_of_an_exclusive_set_conflicts_alone() {
    let got = firing(ALERTS, &["page(reason: urgent)"]);
    assert_eq!(
        got.at("error.message"),
        "exclusive page, page.urgent: more than one fired"
    );
    assert_eq!(
        got.entries("error.candidates"),
        ["page.urgent", "page.urgent"],
        "listed once per entry it matches"
    );
}

#[test]
fn an_exclusive_conflict_empties_a_collecting_kinds_outcome() {
    let kind = GRANTS.replace("collect all\n", "collect all\nexclusive grant, log\n");
    let p = policy(
        &kind,
        "policy p: Grants@1\n\nwhen true {\n  log(reason: audit)\n  grant(reason: team, tool: \"git\")\n}\n",
    );
    let got = p.eval("{}");
    assert_eq!(
        got.at("error.message"),
        "exclusive grant, log: more than one fired"
    );
    assert_eq!(got.outcome(), Vec::<String>::new());
    assert_eq!(got.trace(), ["grant.team", "log.audit"]);
    assert_eq!(got.get("trace.0.conditions"), None, "none after a conflict");
}
