//! Did-you-mean: the single suggestion algorithm of the product (tooling
//! §1.5, language-core §9). Every "did you mean" in the engine (names,
//! fields, enum values, reasons, types, functions, decisions, input keys,
//! lint names) goes through [`nearest`], so they all agree.

use super::go_quote;

/// The candidate an author most likely meant by `name`, or `None` when no
/// candidate is close enough or `name` itself is a candidate.
///
/// * A candidate equal to `name` (case-sensitive) means the problem isn't the
///   spelling: no suggestion.
/// * Distance is the optimal string alignment distance (insert, delete,
///   substitute, swap of adjacent characters, each cost 1) between the
///   lower-cased strings, over code points.
/// * The limit is `max(1, len(name) / 3)` with `len` in bytes.
/// * Ties go to the earlier candidate, so callers pass candidates in the
///   order the spec prescribes (sorted names in scope, declaration order of
///   fields, …).
pub fn nearest<'c, I>(name: &str, candidates: I) -> Option<&'c str>
where
    I: IntoIterator<Item = &'c str>,
{
    let limit = (name.len() / 3).max(1);
    let lower = lower_chars(name);
    let mut best: Option<(&'c str, usize)> = None;
    for candidate in candidates {
        if candidate == name {
            return None;
        }
        let d = distance(&lower, &lower_chars(candidate));
        if best.is_none_or(|(_, best_d)| d < best_d) {
            best = Some((candidate, d));
        }
    }
    best.filter(|&(_, d)| d <= limit).map(|(c, _)| c)
}

/// The hint `did you mean "«candidate»"?` (Go `%q` quoting) for the nearest
/// candidate, or `None` when there is none.
pub fn did_you_mean<'c, I>(name: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'c str>,
{
    nearest(name, candidates).map(|c| format!("did you mean {}?", go_quote(c)))
}

/// The help for `name`, which isn't among `declared`: `did you mean
/// "«near»"? declared: a, b`, the list alone without a near name, or `none
/// are declared`.
pub fn declared_help(name: &str, declared: &[&str]) -> String {
    if declared.is_empty() {
        return "none are declared".to_owned();
    }
    let list = format!("declared: {}", declared.join(", "));
    match did_you_mean(name, declared.iter().copied()) {
        Some(hint) => format!("{hint} {list}"),
        None => list,
    }
}

/// `s` lower-cased one code point at a time, like Go's `strings.ToLower`
/// (no context-dependent rules such as a final sigma).
fn lower_chars(s: &str) -> Vec<char> {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// Optimal string alignment distance between `a` and `b`.
fn distance(a: &[char], b: &[char]) -> usize {
    // Three rolling rows: two rows back (for transpositions), previous, current.
    let width = b.len() + 1;
    let mut prev2 = vec![0; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut cur = vec![0; width];
    for (i, &ca) in a.iter().enumerate() {
        if let Some(first) = cur.first_mut() {
            *first = i + 1;
        }
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let del = prev
                .get(j + 1)
                .copied()
                .unwrap_or(usize::MAX)
                .saturating_add(1);
            let ins = cur.get(j).copied().unwrap_or(usize::MAX).saturating_add(1);
            let sub = prev
                .get(j)
                .copied()
                .unwrap_or(usize::MAX)
                .saturating_add(cost);
            let mut best = del.min(ins).min(sub);
            let swapped = i > 0 && j > 0 && a.get(i - 1) == Some(&cb) && b.get(j - 1) == Some(&ca);
            if swapped {
                let t = prev2
                    .get(j - 1)
                    .copied()
                    .unwrap_or(usize::MAX)
                    .saturating_add(1);
                best = best.min(t);
            }
            if let Some(slot) = cur.get_mut(j + 1) {
                *slot = best;
            }
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Case {
        name: &'static str,
        candidates: &'static [&'static str],
        want: Option<&'static str>,
    }

    #[rustfmt::skip]
    const CASES: &[Case] = &[
        // Case-insensitive: distance 0 after lower-casing.
        Case {
            name: "Release",
            candidates: &["release"],
            want: Some("release"),
        },
        Case {
            name: "teir",
            candidates: &["tier", "team"],
            want: Some("tier"),
        },
        // The name exists: the problem isn't spelling.
        Case {
            name: "tier",
            candidates: &["tir", "tier"],
            want: None,
        },
        // Limit max(1, 3/3) = 1: two edits is too far.
        Case {
            name: "abc",
            candidates: &["xyc"],
            want: None,
        },
        Case {
            name: "abc",
            candidates: &["abd"],
            want: Some("abd"),
        },
        // Short names still get limit 1.
        Case {
            name: "a",
            candidates: &["b"],
            want: Some("b"),
        },
        Case {
            name: "",
            candidates: &["b"],
            want: Some("b"),
        },
        Case {
            name: "ab",
            candidates: &[],
            want: None,
        },
        // Ties go to the earlier candidate.
        Case {
            name: "cat",
            candidates: &["bat", "cab", "hat"],
            want: Some("bat"),
        },
        // Limit 9/3 = 3.
        Case {
            name: "soak_time",
            candidates: &["soak_tim", "zzzz"],
            want: Some("soak_tim"),
        },
        Case {
            name: "unusedlet",
            candidates: &["unused-let"],
            want: Some("unused-let"),
        },
        // Transposition costs one, on code points.
        Case {
            name: "éa",
            candidates: &["aé"],
            want: Some("aé"),
        },
        // Limit counts bytes: "ééé" is 6 bytes, limit 2.
        Case {
            name: "ééé",
            candidates: &["xxé"],
            want: Some("xxé"),
        },
        Case {
            name: "ÉTÉ",
            candidates: &["été"],
            want: Some("été"),
        },
        Case {
            name: "min_soak",
            candidates: &["max_soak", "min_soak_x"],
            want: Some("max_soak"),
        },
    ];

    #[test]
    fn nearest_table() {
        for c in CASES {
            let got = nearest(c.name, c.candidates.iter().copied());
            assert_eq!(
                got, c.want,
                "name {:?} candidates {:?}",
                c.name, c.candidates
            );
        }
    }

    #[test]
    fn distances() {
        let d = |a: &str, b: &str| distance(&lower_chars(a), &lower_chars(b));
        assert_eq!(d("", ""), 0);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("abc", ""), 3);
        assert_eq!(d("ab", "ba"), 1);
        assert_eq!(d("ca", "abc"), 3); // OSA, not full Damerau (which gives 2)
        assert_eq!(d("kitten", "sitting"), 3);
    }

    #[test]
    fn did_you_mean_quotes() {
        assert_eq!(
            did_you_mean("unusedlet", ["unused-let"]).as_deref(),
            Some("did you mean \"unused-let\"?")
        );
        assert_eq!(
            did_you_mean("x\"y", ["x\"z"]).as_deref(),
            Some("did you mean \"x\\\"z\"?")
        );
        assert_eq!(did_you_mean("zzz", ["abc"]), None);
    }
}
