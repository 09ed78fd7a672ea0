//! Lexical errors as values, and the only place their texts are written
//! (language-core §2.5–§2.6, §8.1). Each variant names the input that
//! triggers it; [`LexError::message`] and [`LexError::help`] spell the exact
//! reference texts.

use crate::diag::Diagnostic;
use crate::source::Span;

/// The base-prefixed integer notations Sigil doesn't have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    /// `0x1F`, `0X1F`.
    Hex,
    /// `0o17`, `0O17`.
    Octal,
    /// `0b101`, `0B101`.
    Binary,
}

/// What to suggest for a number written with an exponent.
#[derive(Clone, Debug, PartialEq)]
pub enum ExponentFix {
    /// `1e3`: an integer written without a point → ``write the decimal integer `1000` ``.
    Integer(i64),
    /// `1.5e3`, `1e-3`: the float's shortest decimal form, `.0` appended if
    /// needed → ``floats are written with a point and no exponent: `1500.0` ``.
    Float(String),
    /// Unparseable (`1e3x`), infinite (`1e999`) or longer than 24 characters
    /// written out (`1e30`) → a generic instruction.
    Generic,
}

/// One lexical error.
#[derive(Clone, Debug, PartialEq)]
pub enum LexError {
    /// A character that starts no token: `#`, `;`, `*`, `/` alone, `!` alone,
    /// `&`, `&&`, `||`, a control character, a non-ASCII character.
    /// `text` is the offending text (two characters for `&&` and `||`).
    UnexpectedChar {
        /// The character(s), as in the source.
        text: String,
    },
    /// `9223372036854775808`: an integer above `i64::MAX`.
    IntOutOfRange {
        /// The literal.
        text: String,
    },
    /// Text handed to [`int_value`](super::int_value) that isn't decimal
    /// digits (never produced by the lexer).
    InvalidInt {
        /// The text.
        text: String,
    },
    /// `1` followed by 400 digits `.0`: a float that isn't finite.
    FloatOutOfRange {
        /// The literal.
        text: String,
    },
    /// `5.` not followed by a digit. `text` is the digits and the point.
    FloatNeedsDigits {
        /// The digits and the point, e.g. `5.`.
        text: String,
    },
    /// `1.5h`: a float followed by letters.
    FractionalDuration,
    /// `5w`, `1hx`, `1mss`, `1e`: letters after digits that aren't a unit.
    UnknownDurationUnit {
        /// The text from the start of the bad unit (`hx` in `1hx`).
        unit: String,
        /// The whole literal as scanned.
        literal: String,
    },
    /// `1h30`: digits at the end of a duration without a unit.
    MissingDurationUnit {
        /// The unit-less component (`30`).
        component: String,
        /// The whole literal.
        literal: String,
    },
    /// `1h1h`: a unit used twice.
    RepeatedDurationUnit {
        /// The unit (`h`).
        unit: &'static str,
        /// The whole literal.
        literal: String,
    },
    /// `30m1h`: a larger unit after a smaller one.
    DurationUnitsOutOfOrder {
        /// The whole literal.
        literal: String,
    },
    /// `106752d`: more than `i64::MAX` nanoseconds.
    DurationOutOfRange {
        /// The whole literal.
        literal: String,
    },
    /// Text handed to [`duration::parse`](super::duration::parse) that isn't
    /// `(digits unit)+` at all (never produced by the lexer, which reports the
    /// more precise errors above).
    InvalidDuration {
        /// The text.
        literal: String,
    },
    /// `0x1F`, `0o17`, `0B101`: a base prefix after a lone `0`.
    RadixNotation {
        /// The whole malformed number.
        text: String,
        /// Which notation.
        radix: Radix,
        /// Its value when Go's `ParseInt(text, 0, 64)` reads it.
        value: Option<i64>,
    },
    /// `1_000`: `_` followed by a digit.
    DigitSeparator {
        /// The whole malformed number.
        text: String,
    },
    /// `1e3`, `1.5E+3`, `1e-3`: an exponent.
    ExponentNotation {
        /// The whole malformed number.
        text: String,
        /// What to suggest instead.
        fix: ExponentFix,
    },
    /// `"abc` followed by a line break (`at_eof: false`) or by the end of the
    /// input (`at_eof: true`).
    UnterminatedString {
        /// Whether the input ended inside the string.
        at_eof: bool,
    },
    /// `"\q"`, `"\x4"`, `"\'"`: a backslash not starting a valid escape.
    UnknownEscape {
        /// The backslash and the character after it (just `\` at the end).
        sequence: String,
    },
    /// `"\uD800"`, `"\U00110000"`, `"\400"`: a well-formed escape with an
    /// invalid value.
    InvalidString,
    /// `` `abc `` without its closing backtick.
    UnterminatedRawString,
}

const DURATION_UNITS_HELP: &str = "the units are ms, s, m, h and d, like `30m` or `1h30m`";
const ESCAPES_HELP: &str =
    "the escapes are \\n, \\t, \\\\, \\\", \\xhh, \\uhhhh and the other Go string escapes";

impl LexError {
    /// The message: one sentence, no final period.
    pub fn message(&self) -> String {
        match self {
            LexError::UnexpectedChar { text } => {
                format!("unexpected character {}", describe_char(text))
            }
            LexError::IntOutOfRange { text } => format!("integer literal `{text}` is out of range"),
            LexError::InvalidInt { text } => format!("invalid integer literal `{text}`"),
            LexError::FloatOutOfRange { text } => format!("float literal `{text}` is out of range"),
            LexError::FloatNeedsDigits { .. } => {
                "a float literal needs digits on both sides of the point".to_owned()
            }
            LexError::FractionalDuration => {
                "a duration can't have a fractional component".to_owned()
            }
            LexError::UnknownDurationUnit { unit, literal } => {
                format!("unknown duration unit `{unit}` in `{literal}`")
            }
            LexError::MissingDurationUnit { component, literal } => {
                format!("`{component}` in `{literal}` is missing a unit")
            }
            LexError::RepeatedDurationUnit { unit, literal } => {
                format!("unit `{unit}` appears twice in `{literal}`")
            }
            LexError::DurationUnitsOutOfOrder { literal } => {
                format!("units in `{literal}` aren't in descending order")
            }
            LexError::DurationOutOfRange { literal } => {
                format!("duration literal `{literal}` is out of range")
            }
            LexError::InvalidDuration { literal } => {
                format!("invalid duration literal `{literal}`")
            }
            LexError::RadixNotation { text, radix, .. } => {
                let name = match radix {
                    Radix::Hex => "hex",
                    Radix::Octal => "octal",
                    Radix::Binary => "binary",
                };
                format!("`{text}` is {name} notation, which Sigil doesn't have")
            }
            LexError::DigitSeparator { text } => {
                format!("`{text}` uses `_` as a digit separator, which Sigil doesn't have")
            }
            LexError::ExponentNotation { text, .. } => {
                format!("`{text}` uses exponent notation, which Sigil doesn't have")
            }
            LexError::UnterminatedString { .. } => "unterminated string literal".to_owned(),
            LexError::UnknownEscape { sequence } => {
                format!("unknown escape sequence `{sequence}`")
            }
            LexError::InvalidString => "invalid string literal".to_owned(),
            LexError::UnterminatedRawString => "unterminated raw string literal".to_owned(),
        }
    }

    /// The help, or `None` where the reference gives none.
    pub fn help(&self) -> Option<String> {
        let help = match self {
            LexError::UnexpectedChar { text } => match text.as_str() {
                "!" => "use `not` to negate a condition, or `!=` to compare",
                "&" | "&&" => "use `and`",
                "||" => "use `or`",
                _ => return None,
            }
            .to_owned(),
            LexError::IntOutOfRange { .. } => {
                format!("integers are signed 64-bit, at most {}", i64::MAX)
            }
            LexError::FloatOutOfRange { .. }
            | LexError::InvalidInt { .. }
            | LexError::InvalidDuration { .. }
            | LexError::InvalidString => return None,
            LexError::FloatNeedsDigits { text } => format!("write `{text}0`"),
            LexError::FractionalDuration => {
                "write the fraction as a smaller unit, like `1h30m` instead of `1.5h`".to_owned()
            }
            LexError::UnknownDurationUnit { .. } => DURATION_UNITS_HELP.to_owned(),
            LexError::MissingDurationUnit { component, .. } => {
                format!("every component of a duration needs a unit, like `{component}m`")
            }
            LexError::RepeatedDurationUnit { .. } => {
                "each unit may appear once in a duration; add the components together".to_owned()
            }
            LexError::DurationUnitsOutOfOrder { .. } => {
                "write the largest unit first, like `1h30m`".to_owned()
            }
            LexError::DurationOutOfRange { .. } => {
                "a duration is at most about 292 years".to_owned()
            }
            LexError::RadixNotation { value, .. } => match value {
                Some(v) => format!("write the decimal integer `{v}`"),
                None => "write the number in decimal".to_owned(),
            },
            LexError::DigitSeparator { text } => {
                format!("write the digits without it: `{}`", text.replace('_', ""))
            }
            LexError::ExponentNotation { fix, .. } => match fix {
                ExponentFix::Integer(v) => format!("write the decimal integer `{v}`"),
                ExponentFix::Float(f) => {
                    format!("floats are written with a point and no exponent: `{f}`")
                }
                ExponentFix::Generic => {
                    "write the number out in full, like `1000` or `0.001`".to_owned()
                }
            },
            LexError::UnterminatedString { at_eof: true } => "close it with `\"`".to_owned(),
            LexError::UnterminatedString { at_eof: false } => {
                "a double-quoted string can't span lines; close it with `\"` or use a raw string in backticks"
                    .to_owned()
            }
            LexError::UnknownEscape { sequence } => {
                if sequence == "\\'" {
                    "a single quote needs no escape in a double-quoted string".to_owned()
                } else {
                    ESCAPES_HELP.to_owned()
                }
            }
            LexError::UnterminatedRawString => "close it with a backtick".to_owned(),
        };
        Some(help)
    }

    /// The diagnostic for this error at `span`.
    pub fn to_diagnostic(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_optional_help(self.help())
    }
}

/// A character for a message: printable ones in backticks, control
/// characters, DEL, NBSP and U+FFFD as `U+XXXX` (only the first character
/// decides, as in the reference).
fn describe_char(text: &str) -> String {
    match text.chars().next() {
        Some(c) if c < ' ' || matches!(c, '\u{7f}' | '\u{a0}' | '\u{fffd}') => {
            format!("U+{:04X}", u32::from(c))
        }
        _ => format!("`{text}`"),
    }
}
