//! Sets of code points as sorted inclusive ranges, and the simple case
//! folding `(?i)` adds to them.

use super::unicode_tables::FOLD_ORBITS;
use super::utf8::MAX_RUNE;

/// An inclusive range of code points.
pub(super) type Range = (u32, u32);

/// Sorts `ranges` and merges the ones that overlap or touch, so the set has
/// one spelling (Go's `cleanClass`).
pub(super) fn clean(ranges: &mut Vec<Range>) {
    ranges.sort_unstable();
    let mut merged: Vec<Range> = Vec::with_capacity(ranges.len());
    for &(lo, hi) in ranges.iter() {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    *ranges = merged;
}

/// The code points not in the clean set `ranges`.
pub(super) fn negate(ranges: &[Range]) -> Vec<Range> {
    let mut out: Vec<Range> = Vec::with_capacity(ranges.len() + 1);
    let mut next: u32 = 0;
    for &(lo, hi) in ranges {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
    }
    if next <= MAX_RUNE {
        out.push((next, MAX_RUNE));
    }
    out
}

/// Whether the clean set `ranges` holds `c`.
pub(super) fn contains(ranges: &[Range], c: u32) -> bool {
    let i: usize = ranges.partition_point(|&(_, hi)| hi < c);
    ranges.get(i).is_some_and(|&(lo, _)| lo <= c)
}

/// The next larger code point equivalent to `c` under simple case folding,
/// wrapping to the smallest (Go's `unicode.SimpleFold`); `c` itself when
/// nothing folds to it.
pub(super) fn simple_fold(c: u32) -> u32 {
    match FOLD_ORBITS.binary_search_by_key(&c, |&(from, _)| from) {
        Ok(i) => FOLD_ORBITS.get(i).map_or(c, |&(_, next)| next),
        Err(_) => c,
    }
}

/// Adds `lo..=hi` and every code point that folds together with one in it
/// (Go's `appendFoldedRange`); `ranges` needs a `clean` afterwards.
pub(super) fn push_folded(ranges: &mut Vec<Range>, lo: u32, hi: u32) {
    ranges.push((lo, hi));
    let start: usize = FOLD_ORBITS.partition_point(|&(from, _)| from < lo);
    for &(from, first) in FOLD_ORBITS.iter().skip(start) {
        if from > hi {
            break;
        }
        // Orbits have at most four members; the walk ends back at `from`.
        let mut c: u32 = first;
        while c != from {
            ranges.push((c, c));
            c = simple_fold(c);
        }
    }
}

/// The clean set with every member's case folding equivalents added.
pub(super) fn fold_closure(ranges: &[Range]) -> Vec<Range> {
    let mut out: Vec<Range> = Vec::with_capacity(ranges.len());
    for &(lo, hi) in ranges {
        push_folded(&mut out, lo, hi);
    }
    clean(&mut out);
    out
}
