//! Runs of plain bytes in JSON strings: how far text goes before a byte
//! that needs a look (a quote, a backslash, and as the caller asks a
//! control byte, an HTML-sensitive byte or a non-ASCII byte).
//!
//! Reading a request and writing a response spend most of their time in
//! the strings of sources, so the search looks at eight bytes at a time
//! (one 64-bit word, a single instruction in wasm too) with the classic
//! bit tricks for "has a zero byte" and "has a byte below n"; the last
//! bytes, and short strings (most names are), go through a table. Which
//! bytes stop a run is a constant of each caller ([`QUOTES`], [`CONTROLS`],
//! [`ESCAPES`]), so each gets a search compiled for its set.

/// Stops at `"` and `\` only: a string's end or escape.
pub(crate) const QUOTES: u8 = 0;
/// Also at bytes below 0x20, which a JSON string can't hold.
pub(crate) const CONTROLS: u8 = 1;
/// Also at `<`, `>` and `&`.
const HTML: u8 = 2;
/// Also at bytes from 0x80 on.
const NON_ASCII: u8 = 4;
/// Every byte that may start a character Go's encoder escapes.
pub(crate) const ESCAPES: u8 = CONTROLS | HTML | NON_ASCII;

/// Whether a run with the stops `STOPS` ends at a byte, by byte.
struct Table<const STOPS: u8>;

impl<const STOPS: u8> Table<STOPS> {
    const STOPS_AT: [bool; 256] = stops_at(STOPS);
}

#[expect(
    clippy::indexing_slicing,
    reason = "b < 256 indexes a table of 256; a const fn can't use get_mut"
)]
const fn stops_at(stops: u8) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b == b'"' as usize
            || b == b'\\' as usize
            || (stops & CONTROLS != 0 && b < 0x20)
            || (stops & HTML != 0
                && (b == b'<' as usize || b == b'>' as usize || b == b'&' as usize))
            || (stops & NON_ASCII != 0 && b >= 0x80);
        b += 1;
    }
    table
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks the bytes of `word` equal to `b` with their high bit. The lowest
/// mark is always exact (higher ones may be wrong: a borrow runs upwards),
/// and it is the only one read.
fn equal_bytes(word: u64, b: u8) -> u64 {
    let zeroed = word ^ (ONES * u64::from(b));
    zeroed.wrapping_sub(ONES) & !zeroed & HIGHS
}

/// Marks each byte of `word` that stops a run (see [`equal_bytes`]).
fn marks<const STOPS: u8>(word: u64) -> u64 {
    let mut marks = equal_bytes(word, b'"') | equal_bytes(word, b'\\');
    if STOPS & CONTROLS != 0 {
        marks |= word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    }
    if STOPS & HTML != 0 {
        marks |= equal_bytes(word, b'<') | equal_bytes(word, b'>') | equal_bytes(word, b'&');
    }
    if STOPS & NON_ASCII != 0 {
        marks |= word & HIGHS;
    }
    marks
}

/// How many bytes from `from` on go before the first that ends a run with
/// the stops `STOPS` (or the end of `bytes`).
pub(crate) fn plain_run<const STOPS: u8>(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    let mut words = rest.chunks_exact(8);
    let mut run = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or_default());
        let marks = marks::<STOPS>(word);
        if marks != 0 {
            return run + (marks.trailing_zeros() / 8) as usize;
        }
        run += 8;
    }
    let tail = words.remainder();
    let stops_at = &Table::<STOPS>::STOPS_AT;
    run + tail
        .iter()
        .position(|&b| stops_at.get(usize::from(b)).copied().unwrap_or(true))
        .unwrap_or(tail.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    fn byte_by_byte(bytes: &[u8], from: usize, stops: u8) -> usize {
        let stops_at = |b: u8| {
            matches!(b, b'"' | b'\\')
                || (stops & CONTROLS != 0 && b < 0x20)
                || (stops & HTML != 0 && matches!(b, b'<' | b'>' | b'&'))
                || (stops & NON_ASCII != 0 && b >= 0x80)
        };
        let rest = &bytes[from..];
        rest.iter().position(|&b| stops_at(b)).unwrap_or(rest.len())
    }

    #[test]
    fn a_run_ends_at_the_first_byte_that_stops_it() {
        let text = b"abcdefghijklmnop\"qrs";
        assert_eq!(plain_run::<QUOTES>(text, 0), 16);
        assert_eq!(plain_run::<QUOTES>(text, 3), 13);
        assert_eq!(plain_run::<QUOTES>(text, 17), 3, "to the end");
        assert_eq!(plain_run::<QUOTES>(text, 20), 0);
        assert_eq!(plain_run::<QUOTES>(text, 99), 0);
        assert_eq!(plain_run::<QUOTES>(b"a\\b", 0), 1);
        assert_eq!(plain_run::<QUOTES>(b"abcdefgh\nij", 0), 11);
        assert_eq!(plain_run::<CONTROLS>(b"abcdefgh\nij", 0), 8);
        assert_eq!(plain_run::<ESCAPES>("abcdé".as_bytes(), 0), 4);
        assert_eq!(plain_run::<ESCAPES>(b"x<y", 0), 1);
    }

    /// Every byte, at every place in a word, with every set of stops,
    /// after bytes that could borrow into it.
    #[test]
    fn the_word_search_agrees_with_a_byte_by_byte_search() {
        let mut rng = Rng(0x00c0_ffee);
        for _ in 0..20_000 {
            let len = rng.below(40);
            let bytes: Vec<u8> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => [
                        0, 1, 0x1f, 0x20, b'"', b'\\', b'<', b'>', b'&', 0x7f, 0x80, 0xe2, 0xff,
                    ][rng.below(13)],
                    _ => b'a' + rng.below(26) as u8,
                })
                .collect();
            let from = rng.below(len + 1);
            let want = |stops| byte_by_byte(&bytes, from, stops);
            let context = format!("{bytes:?} from {from}");
            assert_eq!(plain_run::<QUOTES>(&bytes, from), want(QUOTES), "{context}");
            assert_eq!(
                plain_run::<CONTROLS>(&bytes, from),
                want(CONTROLS),
                "{context}"
            );
            assert_eq!(
                plain_run::<ESCAPES>(&bytes, from),
                want(ESCAPES),
                "{context}"
            );
        }
    }
}
