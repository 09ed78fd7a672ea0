//! Resolution (language-policies §7.4–7.6): candidates sorted into the
//! trace, folded, checked against the exclusive sets, cut to the top rank
//! and counted.

use std::cmp::Ordering;

use super::values::equal;
use super::{Candidate, Failure, Outcome};
use crate::kind::Collect;
use crate::program::Program;

/// The sorted candidates and what they resolve to.
pub(super) struct Resolved {
    /// Every candidate, winners first.
    pub(super) trace: Vec<Candidate>,
    /// The top candidates, the default or nothing.
    pub(super) outcome: Outcome,
    /// A conflict, when the candidates can't all be the outcome.
    pub(super) conflict: Option<Failure>,
}

/// Orders two call paths (§7.4 step 3), each the chain's sites then the
/// rule's own position: element by element by line then column. Where the
/// chains differ in length this compares the shorter one's own position
/// with the longer chain's next site, as the spec says; paths equal as far
/// as both go are equal, so the stable sort keeps walk order.
pub(super) fn compare_paths(a: Option<&[(u32, u32)]>, b: Option<&[(u32, u32)]>) -> Ordering {
    let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
    for (x, y) in a.iter().zip(b.iter()) {
        match x.cmp(y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    Ordering::Equal
}

/// Sorts, folds and resolves `candidates`.
pub(super) fn resolve(program: &Program, mut candidates: Vec<Candidate>) -> Resolved {
    let rule = |c: &Candidate| program.rules.get(c.rule);
    candidates.sort_by(|a, b| {
        let (Some(x), Some(y)) = (rule(a), rule(b)) else {
            return Ordering::Equal;
        };
        x.rank
            .cmp(&y.rank)
            .then(x.rrank.cmp(&y.rrank))
            .then_with(|| compare_paths(Some(&x.path), Some(&y.path)))
    });
    let folded = fold(program, &candidates);
    if let Some(conflict) = exclusive(program, &candidates, &folded) {
        return Resolved {
            trace: candidates,
            outcome: Outcome::Empty,
            conflict: Some(conflict),
        };
    }
    let top = top(program, &candidates, &folded);
    let collect_one = program.kind.collect == Collect::One;
    if collect_one && top.len() > 1 {
        let conflict = Failure::Conflict {
            message: format!("collect one: {} candidates at the top rank", top.len()),
            candidates: top,
        };
        return Resolved {
            trace: candidates,
            outcome: Outcome::Empty,
            conflict: Some(conflict),
        };
    }
    let outcome = match (top.is_empty(), program.default.is_some()) {
        (false, _) => Outcome::Top(top),
        (true, true) => Outcome::Default,
        (true, false) => Outcome::Empty,
    };
    Resolved {
        trace: candidates,
        outcome,
        conflict: None,
    }
}

/// The candidates kept by the fold, by number in the sorted list: a
/// candidate equal to a kept one in decision, reason and payload is
/// dropped.
fn fold(program: &Program, sorted: &[Candidate]) -> Vec<usize> {
    let key = |c: &Candidate| program.rules.get(c.rule).map(|r| (r.decision, &*r.reason));
    let mut kept: Vec<usize> = Vec::new();
    for (i, c) in sorted.iter().enumerate() {
        let duplicate = kept.iter().filter_map(|&k| sorted.get(k)).any(|k| {
            key(k) == key(c)
                && k.payload.len() == c.payload.len()
                && k.payload
                    .iter()
                    .zip(c.payload.iter())
                    .all(|((_, a), (_, b))| equal(a, b))
        });
        if !duplicate {
            kept.push(i);
        }
    }
    kept
}

/// The first exclusive set two of whose entries matched folded
/// candidates.
fn exclusive(program: &Program, sorted: &[Candidate], folded: &[usize]) -> Option<Failure> {
    let kind = &program.kind;
    for set in &kind.exclusive {
        let mut matched: Vec<usize> = Vec::new();
        let mut entries_matched = 0;
        for entry in set {
            let hits: Vec<usize> = folded
                .iter()
                .copied()
                .filter(|&i| {
                    sorted
                        .get(i)
                        .and_then(|c| program.rules.get(c.rule))
                        .is_some_and(|r| {
                            kind.decisions.get(r.decision).map(|d| d.name.as_str())
                                == Some(entry.decision.as_str())
                                && entry
                                    .reason
                                    .as_deref()
                                    .is_none_or(|want| *r.reason == *want)
                        })
                })
                .collect();
            if !hits.is_empty() {
                entries_matched += 1;
                matched.extend(hits);
            }
        }
        if entries_matched >= 2 {
            let names: Vec<String> = set
                .iter()
                .map(|e| match &e.reason {
                    Some(r) => format!("{}.{r}", e.decision),
                    None => e.decision.clone(),
                })
                .collect();
            return Some(Failure::Conflict {
                message: format!("exclusive {}: more than one fired", names.join(", ")),
                candidates: matched,
            });
        }
    }
    None
}

/// The top of the folded candidates: with a precedence, the longest
/// prefix sharing the first's rank and reason rank; else all of them.
fn top(program: &Program, sorted: &[Candidate], folded: &[usize]) -> Vec<usize> {
    if program.kind.precedence.is_empty() {
        return folded.to_vec();
    }
    let ranks = |i: usize| {
        sorted
            .get(i)
            .and_then(|c| program.rules.get(c.rule))
            .map(|r| (r.rank, r.rrank))
    };
    let Some(&first) = folded.first() else {
        return Vec::new();
    };
    let want = ranks(first);
    folded
        .iter()
        .copied()
        .take_while(|&i| ranks(i) == want)
        .collect()
}
