//! Runs of plain bytes in JSON strings: how far text goes before a byte
//! that needs a look (a quote, a backslash, and as the caller asks a
//! control byte, an HTML-sensitive byte or a non-ASCII byte).
//!
//! Reading a request and writing a response spend most of their time in
//! the strings of sources, so the search looks at eight bytes at a time
//! (one 64-bit word, a single instruction in wasm too) with the classic
//! bit tricks for "has a zero byte" and "has a byte below n".

/// The bytes a run stops at besides `"` and `\`, which always end it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stops {
    /// Bytes below 0x20.
    pub(crate) controls: bool,
    /// `<`, `>` and `&`.
    pub(crate) html: bool,
    /// Bytes from 0x80 on.
    pub(crate) non_ascii: bool,
}

impl Stops {
    /// Marks each byte of `word` that stops a run with its high bit. The
    /// lowest mark is always exact (higher ones may be wrong: a borrow
    /// runs upwards), and it is the only one read.
    fn marks(self, word: u64) -> u64 {
        let mut marks = equal_bytes(word, b'"') | equal_bytes(word, b'\\');
        if self.controls {
            marks |= word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
        }
        if self.html {
            marks |= equal_bytes(word, b'<') | equal_bytes(word, b'>') | equal_bytes(word, b'&');
        }
        if self.non_ascii {
            marks |= word & HIGHS;
        }
        marks
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks the bytes of `word` equal to `b` (see [`Stops::marks`]).
fn equal_bytes(word: u64, b: u8) -> u64 {
    let zeroed = word ^ (ONES * u64::from(b));
    zeroed.wrapping_sub(ONES) & !zeroed & HIGHS
}

/// How many bytes from `from` on go before the first that `stops` (or the
/// end of `bytes`) ends the run at.
pub(crate) fn plain_run(bytes: &[u8], from: usize, stops: Stops) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    let mut words = rest.chunks_exact(8);
    let mut run = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or_default());
        let marks = stops.marks(word);
        if marks != 0 {
            return run + (marks.trailing_zeros() / 8) as usize;
        }
        run += 8;
    }
    // The last bytes, padded with a byte no run stops at, as one more word:
    // most strings are short, and one look beats one per byte.
    let tail = words.remainder();
    let mut padded = [b'a'; 8];
    for (slot, &b) in padded.iter_mut().zip(tail) {
        *slot = b;
    }
    let marks = stops.marks(u64::from_le_bytes(padded));
    run + ((marks.trailing_zeros() / 8) as usize).min(tail.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    const ALL: Stops = Stops {
        controls: true,
        html: true,
        non_ascii: true,
    };

    fn byte_by_byte(bytes: &[u8], from: usize, stops: Stops) -> usize {
        let stops_at = |b: u8| {
            matches!(b, b'"' | b'\\')
                || (stops.controls && b < 0x20)
                || (stops.html && matches!(b, b'<' | b'>' | b'&'))
                || (stops.non_ascii && b >= 0x80)
        };
        let rest = &bytes[from..];
        rest.iter().position(|&b| stops_at(b)).unwrap_or(rest.len())
    }

    #[test]
    fn a_run_ends_at_the_first_byte_that_stops_it() {
        let text = b"abcdefghijklmnop\"qrs";
        assert_eq!(plain_run(text, 0, Stops::default()), 16);
        assert_eq!(plain_run(text, 3, Stops::default()), 13);
        assert_eq!(plain_run(text, 17, Stops::default()), 3, "to the end");
        assert_eq!(plain_run(text, 20, Stops::default()), 0);
        assert_eq!(plain_run(text, 99, Stops::default()), 0);
        assert_eq!(plain_run(b"a\\b", 0, Stops::default()), 1);
        assert_eq!(plain_run(b"abcdefgh\nij", 0, Stops::default()), 11);
        assert_eq!(plain_run(b"abcdefgh\nij", 0, ALL), 8);
        assert_eq!(plain_run("abcdé".as_bytes(), 0, ALL), 4);
        assert_eq!(plain_run(b"x<y", 0, ALL), 1);
    }

    /// Every byte, at every place in a word, with every set of stops,
    /// after bytes that could borrow into it.
    #[test]
    fn the_word_search_agrees_with_a_byte_by_byte_search() {
        let mut rng = Rng(0x00c0_ffee);
        let sets = [
            Stops::default(),
            Stops {
                controls: true,
                ..Stops::default()
            },
            ALL,
        ];
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
            for stops in sets {
                assert_eq!(
                    plain_run(&bytes, from, stops),
                    byte_by_byte(&bytes, from, stops),
                    "{bytes:?} from {from}, {stops:?}"
                );
            }
        }
    }
}
