//! Every parse error shape with its exact message, help and span: one table
//! for standalone expressions (language-core §8.2), one for files
//! (statements, headers, kinds: language-policies §1.2, §2.17).

use super::*;
use crate::diag::MAX_PER_FILE;

struct Case {
    src: &'static str,
    message: &'static str,
    help: &'static str,
    span: &'static str,
}

/// Checks that `src` gives exactly one diagnostic, as `case` says.
fn check(case: &Case, diags: &[Diagnostic], failed: &mut Vec<String>) {
    let idx = LineIndex::new(case.src);
    let got: Vec<String> = diags
        .iter()
        .map(|d| {
            format!(
                "{} {} | {}",
                idx.format_span(d.span.unwrap_or_default()),
                d.message,
                d.help.as_deref().unwrap_or("")
            )
        })
        .collect();
    let want = format!("{} {} | {}", case.span, case.message, case.help);
    if got != [want.clone()] {
        failed.push(format!(
            "{:?}\n   got  {got:?}\n   want [{want:?}]",
            case.src
        ));
    }
}

const CHAIN: &str =
    "add parentheses to say which comparison happens first, or join two comparisons with `and`";
const WRAP: &str = "wrap it in parentheses";
const ANY: &str = "a quantifier is written `any x in xs: condition`";
const SEP: &str = "if you meant arithmetic, put spaces between the minus signs";
const MAP_BODY: &str =
    "the `{` after it was read as a map literal; finish the condition before the rule's `{`";
const DEEP: &str = "give the inner part a name with `let`, or split the condition across rules; a document may nest at most 256 levels";

#[rustfmt::skip]
const EXPR_CASES: &[Case] = &[
    // Missing and leftover operands.
    Case { src: "", message: "expected an expression, found end of file", help: "", span: "1:1-1:1" },
    Case { src: ")", message: "expected an expression, found `)`", help: "", span: "1:1-1:2" },
    Case { src: "let", message: "expected an expression, found `let`", help: "", span: "1:1-1:4" },
    Case { src: ".5", message: "expected an expression, found `.`", help: "", span: "1:1-1:2" },
    Case { src: "a ==", message: "expected an expression, found end of file", help: "", span: "1:5-1:5" },
    Case { src: "a and", message: "expected an expression, found end of file", help: "", span: "1:6-1:6" },
    Case { src: "a one in", message: "expected an expression, found end of file", help: "", span: "1:9-1:9" },
    Case { src: "f(a,,)", message: "expected an expression, found `,`", help: "", span: "1:5-1:6" },
    Case { src: r#"{"a": }"#, message: "expected an expression, found `}`", help: "", span: "1:7-1:8" },
    Case { src: "a[", message: "expected an expression, found end of file", help: "", span: "1:3-1:3" },
    Case { src: "a b", message: "expected end of the expression, found `b`", help: "", span: "1:3-1:4" },
    Case { src: "a let", message: "expected end of the expression, found `let`", help: "", span: "1:3-1:6" },
    Case { src: "a {", message: "expected end of the expression, found `{`", help: "", span: "1:3-1:4" },
    Case { src: "a : b", message: "expected end of the expression, found `:`", help: "", span: "1:3-1:4" },
    // Chained comparisons, at the second operator (its first token).
    Case { src: "1 < attempts < 5", message: "`<` can't follow `<`: comparisons don't chain", help: CHAIN, span: "1:14-1:15" },
    Case { src: "a == b == c", message: "`==` can't follow `==`: comparisons don't chain", help: CHAIN, span: "1:8-1:10" },
    Case { src: "a in b == c", message: "`==` can't follow `in`: comparisons don't chain", help: CHAIN, span: "1:8-1:10" },
    Case { src: "a like \"x\" not in b", message: "`not in` can't follow `like`: comparisons don't chain", help: CHAIN, span: "1:12-1:15" },
    Case { src: "a has b matches c", message: "`matches` can't follow `has`: comparisons don't chain", help: CHAIN, span: "1:9-1:16" },
    Case { src: "x and a == b == c", message: "`==` can't follow `==`: comparisons don't chain", help: CHAIN, span: "1:14-1:16" },
    // `xor`.
    Case { src: "a xor b xor c", message: "`xor` can't be chained", help: "add parentheses to say which pair is compared first, or use `one in` for exactly one of several", span: "1:9-1:12" },
    Case { src: "a or b xor c", message: "`or` and `xor` can't be mixed without parentheses", help: "add parentheses to say which grouping you mean", span: "1:8-1:11" },
    Case { src: "a xor b or c", message: "`or` and `xor` can't be mixed without parentheses", help: "add parentheses to say which grouping you mean", span: "1:9-1:11" },
    Case { src: "a or b or c xor d", message: "`or` and `xor` can't be mixed without parentheses", help: "add parentheses to say which grouping you mean", span: "1:13-1:16" },
    Case { src: "a or b and c xor d", message: "`or` and `xor` can't be mixed without parentheses", help: "add parentheses to say which grouping you mean", span: "1:14-1:17" },
    // Loose prefix forms.
    Case { src: "x == all r in xs: p", message: "a quantifier can't be an operand of `==`", help: WRAP, span: "1:6-1:9" },
    Case { src: "x in any r in xs: p", message: "a quantifier can't be an operand of `in`", help: WRAP, span: "1:6-1:9" },
    Case { src: "x in filter r in xs: p", message: "a filter can't be an operand of `in`", help: WRAP, span: "1:6-1:12" },
    Case { src: "a == not b", message: "`not` can't be an operand of `==`", help: WRAP, span: "1:6-1:9" },
    Case { src: "a - not b", message: "`not` can't be an operand of `-`", help: WRAP, span: "1:5-1:8" },
    Case { src: "a ?? not b", message: "`not` can't be an operand of `??`", help: WRAP, span: "1:6-1:9" },
    Case { src: "-not a", message: "`not` can't be an operand of `-`", help: WRAP, span: "1:2-1:5" },
    Case { src: "present not a", message: "`not` can't be an operand of `present`", help: WRAP, span: "1:9-1:12" },
    Case { src: "a not in not b", message: "`not` can't be an operand of `not in`", help: WRAP, span: "1:10-1:13" },
    Case { src: "any r in not x: p", message: "`not` can't be an operand of `in`", help: WRAP, span: "1:10-1:13" },
    Case { src: "any r in any s in x: s: p", message: "a quantifier can't be an operand of `in`", help: WRAP, span: "1:10-1:13" },
    Case { src: "{not a: 1}", message: "`not` can't appear here", help: WRAP, span: "1:2-1:5" },
    Case { src: "{any r in xs: r: 1}", message: "a quantifier can't appear here", help: WRAP, span: "1:2-1:5" },
    Case { src: "{filter r in xs: r: 1}", message: "a filter can't appear here", help: WRAP, span: "1:2-1:8" },
    // `one`/`exclusive` at operand position.
    Case { src: "one r in xs: p", message: "`one` is an operator, not a quantifier", help: "write `a one in b`; only `any` and `all` start a quantifier", span: "1:1-1:4" },
    Case { src: "exclusive in xs", message: "`exclusive` is an operator, not a quantifier", help: "write `a exclusive in b`; only `any` and `all` start a quantifier", span: "1:1-1:10" },
    // Quantifier shape.
    Case { src: "any in xs: p", message: "expected a variable name after `any`, found `in`", help: ANY, span: "1:5-1:7" },
    Case { src: "all type in xs: p", message: "expected a variable name after `all`, found `type`", help: "a quantifier is written `all x in xs: condition`", span: "1:5-1:9" },
    Case { src: "filter 1 in xs: p", message: "expected a variable name after `filter`, found `1`", help: "a filter is written `filter x in xs: condition`", span: "1:8-1:9" },
    Case { src: "any r xs: p", message: "expected `in` after the variable `r`, found `xs`", help: ANY, span: "1:7-1:9" },
    Case { src: "any r in xs p", message: "expected `:`, found `p`", help: ANY, span: "1:13-1:14" },
    Case { src: "any r in xs == y: p", message: "expected `:`, found `==`", help: ANY, span: "1:13-1:15" },
    Case { src: "filter r in xs", message: "expected `:`, found end of file", help: "a filter is written `filter x in xs: condition`", span: "1:15-1:15" },
    Case { src: "any r in xs:", message: "expected an expression, found end of file", help: "", span: "1:13-1:13" },
    // Compound operators without `in`.
    Case { src: "a not b", message: "expected `in` after `not`", help: "after an operand, `not` is only valid as part of `not in`", span: "1:3-1:6" },
    Case { src: "a all b", message: "expected `in` after `all`", help: "after an operand, `all` is only valid as part of `all in`", span: "1:3-1:6" },
    Case { src: "a any", message: "expected `in` after `any`", help: "after an operand, `any` is only valid as part of `any in`", span: "1:3-1:6" },
    Case { src: "a one b", message: "expected `in` after `one`", help: "after an operand, `one` is only valid as part of `one in`", span: "1:3-1:6" },
    Case { src: "a exclusive b", message: "expected `in` after `exclusive`", help: "after an operand, `exclusive` is only valid as part of `exclusive in`", span: "1:3-1:12" },
    Case { src: "a == b not c", message: "expected `in` after `not`", help: "after an operand, `not` is only valid as part of `not in`", span: "1:8-1:11" },
    // `|` and `---`.
    Case { src: "a | b", message: "`|` can't join two conditions", help: "use `or`; `|` only separates enum values and reasons", span: "1:3-1:4" },
    Case { src: "min_soak---1h", message: "`---` separates documents and can't appear inside an expression", help: SEP, span: "1:9-1:12" },
    Case { src: "--- a", message: "`---` separates documents and can't appear inside an expression", help: SEP, span: "1:1-1:4" },
    Case { src: "a - ---b", message: "`---` separates documents and can't appear inside an expression", help: SEP, span: "1:5-1:8" },
    // Missing closers point at the opener.
    Case { src: "(a", message: "expected `)`, found end of file", help: "to close the `(` at 1:1", span: "1:3-1:3" },
    Case { src: "(a b", message: "expected `)`, found `b`", help: "to close the `(` at 1:1", span: "1:4-1:5" },
    Case { src: "[1, 2", message: "expected `]`, found end of file", help: "to close the `[` at 1:1", span: "1:6-1:6" },
    Case { src: "[1 2]", message: "expected `]`, found `2`", help: "to close the `[` at 1:1", span: "1:4-1:5" },
    Case { src: "f(a b)", message: "expected `)`, found `b`", help: "to close the `(` at 1:2", span: "1:5-1:6" },
    Case { src: "a[1", message: "expected `]`, found end of file", help: "to close the `[` at 1:2", span: "1:4-1:4" },
    Case { src: r#"{"a": 1"#, message: "expected `}`, found end of file", help: "to close the `{` at 1:1", span: "1:8-1:8" },
    Case { src: "x and\n  (\"é\" or\n   y", message: "expected `)`, found end of file", help: "to close the `(` at 2:3", span: "3:5-3:5" },
    // Map entries and selectors.
    Case { src: r#"{"a" 1}"#, message: "expected `:`, found `1`", help: "a map entry is written `key: value`", span: "1:6-1:7" },
    Case { src: "{a == b: 1}", message: "expected `:`, found `==`", help: "a map entry is written `key: value`", span: "1:4-1:6" },
    Case { src: "a.", message: "expected a field name after `.`, found end of file", help: "", span: "1:3-1:3" },
    Case { src: "a.1", message: "expected a field name after `.`, found `1`", help: "", span: "1:3-1:4" },
    Case { src: "a?.(b)", message: "expected a field name after `?.`, found `(`", help: "", span: "1:4-1:5" },
    // A map literal that is really a rule body.
    Case { src: "a < {deny(reason: x)}", message: "`<` has no right operand", help: MAP_BODY, span: "1:3-1:4" },
    Case { src: "a not in {when b {}}", message: "`not in` has no right operand", help: MAP_BODY, span: "1:3-1:9" },
    Case { src: "a and {let b = 1}", message: "`and` has no right operand", help: MAP_BODY, span: "1:3-1:6" },
    Case { src: "not {assert(\"r\", x)}", message: "`not` has no right operand", help: MAP_BODY, span: "1:1-1:4" },
    Case { src: "a == {deny(x)}", message: "`==` has no right operand", help: MAP_BODY, span: "1:3-1:5" },
    Case { src: "{deny(reason: x)}", message: "expected `)`, found `:`", help: "to close the `(` at 1:6", span: "1:13-1:14" },
    // Too deep: the token where level 257 starts.
    Case { src: concat!(
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
        "a))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
        "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
        "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
        "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
    ), message: "this expression nests more than 256 levels deep", help: DEEP, span: "1:257-1:258" },
    // Lexical errors are reported once, by the lexer.
    Case { src: "5.", message: "a float literal needs digits on both sides of the point", help: "write `5.0`", span: "1:1-1:3" },
    Case { src: "a $ b", message: "unexpected character `$`", help: "", span: "1:3-1:4" },
    Case { src: "a < b $", message: "unexpected character `$`", help: "", span: "1:7-1:8" },
    Case { src: "x && y", message: "unexpected character `&&`", help: "use `and`", span: "1:3-1:5" },
    Case { src: "[1h1h]", message: "unit `h` appears twice in `1h1h`", help: "each unit may appear once in a duration; add the components together", span: "1:2-1:6" },
    Case { src: "attempts < 0x10", message: "`0x10` is hex notation, which Sigil doesn't have", help: "write the decimal integer `16`", span: "1:12-1:16" },
];

#[test]
fn expression_errors() {
    let mut failed = Vec::new();
    for case in EXPR_CASES {
        let (expr, diags) = parse_expr("test.sigil", case.src);
        assert!(expr.is_none(), "{:?} gave an expression", case.src);
        assert!(
            diags
                .iter()
                .all(|d| d.file.as_deref() == Some("test.sigil"))
        );
        check(case, &diags, &mut failed);
    }
    assert!(
        failed.is_empty(),
        "{} rows failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn a_parse_error_keeps_later_lexical_errors_in_order() {
    let (_, diags) = parse_expr("t.sigil", "a == b == c $ 1h1h");
    let got: Vec<_> = diags
        .iter()
        .map(|d| (d.span.unwrap().start, d.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (7, "`==` can't follow `==`: comparisons don't chain"),
            (12, "unexpected character `$`"),
            (14, "unit `h` appears twice in `1h1h`"),
        ]
    );
}

const POLICY_SHAPE: &str = "a policy starts with `policy name: Kind@N`";
const KIND: &str =
    "a kind starts with `kind Name version N`, optionally followed by `, accepts: M`";
const IMPORT: &str = "write `use deploy.common.{cleared}` to import a name, or `use deploy.common` for the whole module";
const PARAM: &str = "a param is written `param name: type` or `param name: type = default`";
const BOUNDS: &str = "a param's bounds are written `, min: value` and `, max: value`, like `param min_soak: duration = 24h, min: 1h`";
const LET: &str = "a let is written `let name = expression`";
const ASSERT: &str = "an assert is written `assert(\"reason\", condition)`";
const ENUM: &str = "an enum is written `enum Name: a | b | c`";
const REASONS: &str = "the reasons are listed inline, like `reason: not_eligible | soak_too_short`";
const DECISION: &str = "a decision is written `decision name { reason: a | b  field: type = default }`, with the payload fields optional";
const PRECEDENCE: &str = "precedence is written `precedence deny > review > approve`, highest first, or `precedence approve: a > b` for one decision's reasons";
const EXCLUSIVE: &str = "exclusive is written `exclusive grant_a, grant_b`, or `exclusive approve.release_manager, approve.lgtm` for reasons";
const DECLARATION: &str = "expected a declaration (`type`, `enum`, `input`, `fn`, `decision`, `precedence`, `exclusive`, `collect`, `default` or `conflict`), found `foo`";

#[rustfmt::skip]
const FILE_CASES: &[Case] = &[
    // Headers.
    Case { src: "policy", message: "expected a name after `policy`, found end of file", help: "", span: "1:7-1:7" },
    Case { src: "policy a b", message: "expected `:`, found `b`", help: POLICY_SHAPE, span: "1:10-1:11" },
    Case { src: "policy a:", message: "expected the kind's name after `:`, found end of file", help: POLICY_SHAPE, span: "1:10-1:10" },
    Case { src: "module a: 1", message: "expected the kind's name after `:`, found `1`", help: "a module starts with `module name: Kind@N`", span: "1:11-1:12" },
    Case { src: "policy a: K@x", message: "expected a kind version after `@`, found `x`", help: POLICY_SHAPE, span: "1:13-1:14" },
    Case { src: "policy a.default: K", message: "expected a name after `.`, found `default`", help: "", span: "1:10-1:17" },
    Case { src: "kind K", message: "expected `version`, found end of file", help: KIND, span: "1:7-1:7" },
    Case { src: "kind K version x", message: "expected a version number, found `x`", help: KIND, span: "1:16-1:17" },
    Case { src: "kind K version 1.0", message: "expected a version number, found `1.0`", help: KIND, span: "1:16-1:19" },
    Case { src: "kind K version 1, foo: 2", message: "a kind header has no option `foo`", help: KIND, span: "1:19-1:22" },
    Case { src: "kind K version 1, accepts 2", message: "expected `:`, found `2`", help: KIND, span: "1:27-1:28" },
    Case { src: "kind K version 1, accepts: x", message: "expected the oldest version policies may pin, found `x`", help: KIND, span: "1:28-1:29" },
    Case { src: "kind type version 1", message: "expected the kind's name after `kind`, found `type`", help: KIND, span: "1:6-1:10" },
    Case { src: "x", message: "expected a document header (`policy`, `module` or `kind`), found `x`", help: "every document starts with `policy name: Kind`, `module name: Kind` or `kind Name version N`", span: "1:1-1:2" },
    Case { src: "---\n-1", message: "`---` separates documents and can't appear inside an expression", help: SEP, span: "1:1-1:4" },
    // Dotted names.
    Case { src: "policy a: K\nuse deploy .common", message: "a name can't have spaces around `.`", help: "remove the space before the `.`", span: "2:12-2:13" },
    Case { src: "policy a: K\nuse deploy. common", message: "a name can't have spaces around `.`", help: "remove the space after the `.`", span: "2:11-2:12" },
    Case { src: "policy a: K\nuse deploy.", message: "expected a name after `.`, found end of file", help: "", span: "2:12-2:12" },
    Case { src: "policy a: K\nuse deploy.1", message: "expected a name after `.`, found `1`", help: "", span: "2:12-2:13" },
    // Imports.
    Case { src: "policy a: K\nuse", message: "expected a policy or module name after `use`, found end of file", help: "", span: "2:4-2:4" },
    Case { src: "policy a: K\nuse a as", message: "expected a name after `as`, found end of file", help: "", span: "2:9-2:9" },
    Case { src: "policy a: K\nuse a.{}", message: "a selective import needs at least one name", help: IMPORT, span: "2:7-2:9" },
    Case { src: "policy a: K\nuse a.{1}", message: "expected a name to import, found `1`", help: IMPORT, span: "2:8-2:9" },
    Case { src: "policy a: K\nuse a.{x", message: "expected `}`, found end of file", help: "to close the `{` at 2:7", span: "2:9-2:9" },
    Case { src: "policy a: K\nuse a.{x y}", message: "expected `}`, found `y`", help: "to close the `{` at 2:7", span: "2:10-2:11" },
    Case { src: "policy a: K\nuse a.(x)", message: "expected a name after `.`, found `(`", help: "", span: "2:7-2:8" },
    Case { src: "policy a: K\nlet x = 1\nuse b", message: "`use` must come before every other statement", help: "move it up, right after the header", span: "3:1-3:6" },
    // Top-level statements.
    Case { src: "policy a: K\nenum E: a", message: "an enum can only be declared in a kind", help: "declare it in the kind file, like `enum Tier: critical | standard`; policies and modules use its values by name", span: "2:1-2:5" },
    Case { src: "policy a: K\nfoo", message: "expected a statement, found `foo`", help: "a bare name isn't a statement; an invocation needs parentheses, like `foo()`", span: "2:1-2:4" },
    Case { src: "policy a: K\n42", message: "expected `param`, `let`, `when`, `assert` or an invocation, found `42`", help: "", span: "2:1-2:3" },
    Case { src: "module m: K\nparam p: int", message: "a module can't contain `param`", help: "a module holds only imports and lets; rules, params and invocations belong in a policy", span: "2:1-2:13" },
    // Params.
    Case { src: "policy a: K\nparam", message: "expected a name after `param`, found end of file", help: PARAM, span: "2:6-2:6" },
    Case { src: "policy a: K\nparam x", message: "expected `:`, found end of file", help: PARAM, span: "2:8-2:8" },
    Case { src: "policy a: K\nparam x:", message: "expected a type, found end of file", help: "", span: "2:9-2:9" },
    Case { src: "policy a: K\nparam x: int =", message: "expected an expression, found end of file", help: "", span: "2:15-2:15" },
    Case { src: "policy a: K\nparam x: int, step: 1", message: "a param has no option `step`", help: BOUNDS, span: "2:15-2:19" },
    Case { src: "policy a: K\nparam x: int, 1", message: "expected `min` or `max` after `,`, found `1`", help: BOUNDS, span: "2:15-2:16" },
    Case { src: "policy a: K\nparam x: int, min 1", message: "expected `:`, found `1`", help: BOUNDS, span: "2:19-2:20" },
    Case { src: "policy a: K\nparam x: int, min: 1, min: 2", message: "`min` is given twice", help: "give each bound once", span: "2:23-2:26" },
    // Lets.
    Case { src: "policy a: K\nlet x", message: "expected `=`, found end of file", help: LET, span: "2:6-2:6" },
    Case { src: "policy a: K\nlet type = 1", message: "expected a name after `let`, found `type`", help: LET, span: "2:5-2:9" },
    Case { src: "policy a: K\npub x", message: "expected `let` after `pub`, found `x`", help: "only a let can be exported: `pub let name = expression`", span: "2:5-2:6" },
    // Types.
    Case { src: "policy a: K\nparam x: list", message: "expected `<`, found end of file", help: "a list type is written `list<T>`", span: "2:14-2:14" },
    Case { src: "policy a: K\nparam x: list<int", message: "expected `>`, found end of file", help: "to close the `<` at 2:14", span: "2:18-2:18" },
    Case { src: "policy a: K\nparam x: map<string>", message: "expected `,`, found `>`", help: "a map type is written `map<K, V>`", span: "2:20-2:21" },
    Case { src: "policy a: K\nparam x: ?", message: "expected a type, found end of file", help: "", span: "2:11-2:11" },
    Case { src: "policy a: K\nparam x: ??string", message: "optional types don't nest", help: "write `?T` with a single `?`", span: "2:10-2:12" },
    Case { src: "policy a: K\nparam x: ? ?string", message: "optional types don't nest", help: "write `?T` with a single `?`", span: "2:10-2:13" },
    // Rules.
    Case { src: "policy a: K\nwhen x", message: "expected `{` after the condition, found end of file", help: "a rule is written `when condition { ... }`", span: "2:7-2:7" },
    Case { src: "policy a: K\nwhen {}", message: "expected `{` after the condition, found end of file", help: "a rule is written `when condition { ... }`", span: "2:8-2:8" },
    Case { src: "policy a: K\nwhen x {\n  deny(reason: r)\n", message: "expected `}`, found end of file", help: "to close the `{` at 2:8", span: "4:1-4:1" },
    Case { src: "policy a: K\nwhen x { 1 }", message: "expected a decision constructor, invocation, `when`, `let` or `assert`, found `1`", help: "", span: "2:10-2:11" },
    Case { src: "policy a: K\nwhen x { param y: int }", message: "expected a decision constructor, invocation, `when`, `let` or `assert`, found `param`", help: "`param` is only allowed at the top level; move it outside the `when` block", span: "2:10-2:15" },
    Case { src: "policy a: K\nwhen x { use y }", message: "expected a decision constructor, invocation, `when`, `let` or `assert`, found `use`", help: "`use` is only allowed right after the header; move it up", span: "2:10-2:13" },
    Case { src: "policy a: K\nwhen x { pub let y = 1 }", message: "a let inside a `when` body can't be `pub`", help: "only top-level lets can be exported; remove `pub`", span: "2:10-2:13" },
    Case { src: "policy a: K\nwhen a < { deny(reason: r) }", message: "`<` has no right operand", help: MAP_BODY, span: "2:8-2:9" },
    Case { src: "policy a: K\nwhen a | b { deny(reason: r) }", message: "`|` can't join two conditions", help: "use `or`; `|` only separates enum values and reasons", span: "2:8-2:9" },
    // Asserts.
    Case { src: "policy a: K\nassert x", message: "expected `(`, found `x`", help: ASSERT, span: "2:8-2:9" },
    Case { src: "policy a: K\nassert(x, \"r\")", message: "expected a string literal reason, found `x`", help: "the reason comes first: `assert(\"reason\", condition)`", span: "2:8-2:9" },
    Case { src: "policy a: K\nassert(`r`, x)", message: "the reason must be a double-quoted string", help: "raw strings are for patterns; write the reason as \"...\"", span: "2:8-2:11" },
    Case { src: "policy a: K\nassert(\"r\" x)", message: "expected `,`, found `x`", help: ASSERT, span: "2:12-2:13" },
    Case { src: "policy a: K\nassert(\"r\", x, y)", message: "expected `)`, found `y`", help: "an assert takes a reason and a condition, nothing else", span: "2:16-2:17" },
    Case { src: "policy a: K\nassert(\"r\", x", message: "expected `)`, found end of file", help: "to close the `(` at 2:7", span: "2:14-2:14" },
    // Calls.
    Case { src: "policy a: K\nf(a: 1, b)", message: "expected a named argument, found `b`", help: "every argument is written `name: value`, like `approvers: [\"payments-leads\"]`", span: "2:9-2:10" },
    Case { src: "policy a: K\nf(a: 1", message: "expected `)`, found end of file", help: "to close the `(` at 2:2", span: "2:7-2:7" },
    Case { src: "policy a: K\nf(a 1)", message: "expected `)`, found `1`", help: "to close the `(` at 2:2", span: "2:5-2:6" },
    // Kind declarations (language-policies §2.17).
    Case { src: "kind K version 1\nfoo", message: DECLARATION, help: "", span: "2:1-2:4" },
    Case { src: "kind K version 1\ntype T { f: int = 1 }", message: "a field in a `type` body can't have a default", help: "defaults belong to decision payload fields", span: "2:17-2:18" },
    Case { src: "kind K version 1\ntype T { f int }", message: "expected `:`, found `int`", help: "a field is written `name: type`", span: "2:12-2:15" },
    Case { src: "kind K version 1\ntype T { f: int\ninput x: T", message: "expected `}`, found `input`", help: "to close the `{` at 2:8", span: "3:1-3:6" },
    Case { src: "kind K version 1\ntype T", message: "expected `{`, found end of file", help: "a type is written `type Name { field: type }`", span: "2:7-2:7" },
    Case { src: "kind K version 1\ninput x", message: "expected `:`, found end of file", help: "an input is written `input name: type`", span: "2:8-2:8" },
    Case { src: "kind K version 1\nfn f(name: string) -> int", message: "expected a parameter type, found a name", help: "parameters have types only; policies pass arguments by position", span: "2:6-2:10" },
    Case { src: "kind K version 1\nfn f(string) int", message: "expected `->`, found `int`", help: "a function is written `fn name(type, type) -> type`", span: "2:14-2:17" },
    Case { src: "kind K version 1\nfn f(string -> int", message: "expected `)`, found `->`", help: "to close the `(` at 2:5", span: "2:13-2:15" },
    Case { src: "kind K version 1\nenum E: one | two", message: "expected an enum value, found the keyword `one`", help: "a keyword can't be a value; pick another name", span: "2:9-2:12" },
    Case { src: "kind K version 1\nenum E: a, b", message: "expected `|` between two values, found `,`", help: ENUM, span: "2:10-2:11" },
    Case { src: "kind K version 1\nenum E: a |", message: "expected an enum value, found end of file", help: ENUM, span: "2:12-2:12" },
    Case { src: "kind K version 1\nenum E a", message: "expected `:`, found `a`", help: ENUM, span: "2:8-2:9" },
    Case { src: "kind K version 1\ndecision", message: "expected a name after `decision`, found end of file", help: DECISION, span: "2:9-2:9" },
    Case { src: "kind K version 1\ndecision d { f: int }", message: "decision d declares no reason", help: "list its reasons first, like `reason: not_eligible | soak_too_short`", span: "2:12-2:13" },
    Case { src: "kind K version 1\ndecision d { reason: a reason: b }", message: "decision d declares `reason` twice", help: "list every reason in one field, like `reason: not_eligible | soak_too_short`", span: "2:24-2:30" },
    Case { src: "kind K version 1\ndecision d { reason: ?T }", message: "the reason can't name a type", help: REASONS, span: "2:22-2:23" },
    Case { src: "kind K version 1\ndecision d { reason: list<string> }", message: "the reason can't name a type", help: REASONS, span: "2:22-2:27" },
    Case { src: "kind K version 1\ndecision d { reason: a = b }", message: "the reason can't have a default", help: "every constructor names its reason, like `deny(reason: soak_too_short)`", span: "2:24-2:25" },
    Case { src: "kind K version 1\ndecision d { reason: all | b }", message: "expected a reason, found the keyword `all`", help: "a keyword can't be a value; pick another name", span: "2:22-2:25" },
    Case { src: "kind K version 1\ndecision d { reason: a, b }", message: "expected `|` between two values, found `,`", help: REASONS, span: "2:23-2:24" },
    Case { src: "kind K version 1\ndecision d { reason: a f int }", message: "expected `:`, found `int`", help: "a payload field is written `name: type` or `name: type = default`", span: "2:26-2:29" },
    Case { src: "kind K version 1\ndecision d(f: int) { reason: a }", message: "the payload fields go inside the braces, next to `reason:`", help: "move them out of the parentheses: `decision approve { reason: release_manager  bake: duration = 1h }`", span: "2:22-2:28" },
    Case { src: "kind K version 1\ndecision d(reason: string) { a }", message: "the reason isn't a string parameter", help: "list the reasons inside the braces: `decision deny { reason: not_eligible | soak_too_short }`", span: "2:12-2:18" },
    Case { src: "kind K version 1\ndecision d(f: int) {}", message: "decision d declares no reasons", help: "every decision needs at least one reason in its block", span: "2:20-2:21" },
    Case { src: "kind K version 1\nexclusive a", message: "exclusive needs at least two outcomes", help: EXCLUSIVE, span: "2:1-2:12" },
    Case { src: "kind K version 1\nexclusive a.b", message: "exclusive needs at least two outcomes", help: EXCLUSIVE, span: "2:1-2:14" },
    Case { src: "kind K version 1\nexclusive a, 1", message: "expected a decision name, found `1`", help: EXCLUSIVE, span: "2:14-2:15" },
    Case { src: "kind K version 1\ncollect", message: "expected `one` or `all`, found end of file", help: "`collect one` returns the highest-ranked decision, `collect all` every decision that fired", span: "2:8-2:8" },
    Case { src: "kind K version 1\ndefault deny", message: "expected a decision constructor, found `deny`", help: "the default is written `default deny(reason: no_rule_matched)`", span: "2:9-2:13" },
    Case { src: "kind K version 1\nconflict 1", message: "expected a decision constructor, found `1`", help: "the conflict outcome is written `conflict deny(reason: conflicting_rules)`", span: "2:10-2:11" },
    Case { src: "kind K version 1\nprecedence a > 1", message: "expected a name after `>`, found `1`", help: PRECEDENCE, span: "2:16-2:17" },
    Case { src: "kind K version 1\nprecedence d: 1", message: "expected a reason name after `:`, found `1`", help: PRECEDENCE, span: "2:15-2:16" },
    Case { src: "kind K version 1\ninput x: list<list<int>", message: "expected `>`, found end of file", help: "to close the `<` at 2:14", span: "2:24-2:24" },
];

#[test]
fn file_errors() {
    let mut failed = Vec::new();
    for case in FILE_CASES {
        let (_, diags) = parse_file("test.sigil", case.src);
        check(case, &diags, &mut failed);
    }
    assert!(
        failed.is_empty(),
        "{} rows failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn junk_costs_at_most_the_capped_diagnostics() {
    // Was: a diagnostic per junk token, and time quadratic in their number.
    let src = format!("policy a: K@1\n{}", "when ".repeat(5_000));
    let (_, diags) = parse_file("a.sigil", &src);
    assert_eq!(diags.len(), MAX_PER_FILE + 1);
    let first = diags.first().map(|d| (d.message.as_str(), d.span));
    assert_eq!(
        first,
        Some((
            "expected an expression, found `when`",
            Some(Span::new(19, 23))
        ))
    );
    let last = diags
        .last()
        .map(|d| (d.message.as_str(), d.file.as_deref(), d.span));
    assert_eq!(
        last,
        Some((
            "too many errors: only the first 100 of this file are reported",
            Some("a.sigil"),
            None
        ))
    );
}

#[test]
fn lexical_and_syntax_errors_share_the_file_s_cap() {
    let src = format!("policy a: K@1\n{}", "when # ".repeat(200));
    let (_, diags) = parse_file("a.sigil", &src);
    assert_eq!(diags.len(), MAX_PER_FILE + 1);
    let spans: Vec<usize> = diags
        .iter()
        .filter_map(|d| d.span)
        .map(|s| s.start)
        .collect();
    let mut sorted = spans.clone();
    sorted.sort_unstable();
    assert_eq!(spans, sorted, "the first diagnostics by position are kept");
}
