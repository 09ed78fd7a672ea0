//! The named classes of Go's syntax: Unicode classes by the names Go
//! accepts (`\pL`, `\p{Greek}`, `\p{Letter}`, `\p{any}`), the POSIX classes
//! of brackets (`[:alpha:]`) and the Perl classes (`\d`, `\s`, `\w`).

use super::class::{Range, clean};
use super::unicode_tables::{CATEGORIES, SCRIPTS};
use super::utf8::MAX_RUNE;

/// A named set and whether the name asks for its complement.
pub(super) struct Group {
    /// The members, clean.
    pub(super) ranges: Vec<Range>,
    /// The name asks for the code points outside `ranges`.
    pub(super) negated: bool,
}

/// The Unicode class `\p{name}` names, as Go's `unicodeTable` finds it:
/// spelling ignores case, `_`, `-` and spaces; general categories (one or
/// two letters, `LC`, `Cn`), their long names (`Uppercase_Letter`), the
/// scripts, and `Any`, `ASCII`, `Assigned`. `None` for any other name.
pub(super) fn unicode_group(name: &[u8]) -> Option<Group> {
    let name: Vec<u8> = canonical_name(name);
    let found = |ranges: Vec<Range>| {
        Some(Group {
            ranges,
            negated: false,
        })
    };
    match name.as_slice() {
        b"Any" => return found(vec![(0, MAX_RUNE)]),
        b"Ascii" => return found(vec![(0, 0x7F)]),
        b"Assigned" => {
            return Some(Group {
                ranges: category(b"Cn")?,
                negated: true,
            });
        }
        b"Lc" => return found(category(b"LC")?),
        _ => {}
    }
    if let Some(ranges) = category(&name) {
        return found(ranges);
    }
    if let Some(&(_, ranges)) = SCRIPTS
        .iter()
        .find(|(script, _)| canonical_name(script.as_bytes()) == name)
    {
        return found(ranges.to_vec());
    }
    let &(_, short) = CATEGORY_ALIASES
        .iter()
        .find(|(alias, _)| canonical_name(alias.as_bytes()) == name)?;
    found(category(short.as_bytes())?)
}

/// Go's `canonicalName`: no `_`, `-` or spaces, the first other byte upper
/// case and the rest lower case (ASCII only).
fn canonical_name(name: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(name.len());
    for &b in name {
        if matches!(b, b'_' | b'-' | b' ') {
            continue;
        }
        out.push(if out.is_empty() {
            b.to_ascii_uppercase()
        } else {
            b.to_ascii_lowercase()
        });
    }
    out
}

/// The members of a general category by its Go name: a leaf (`Lu`), a
/// group (`L`, which unions its leaves; Go's `C` leaves out `Cn`) or `LC`.
fn category(name: &[u8]) -> Option<Vec<Range>> {
    let leaves: &[&str] = match name {
        b"C" => &["Cc", "Cf", "Co", "Cs"],
        b"L" => &["Ll", "Lm", "Lo", "Lt", "Lu"],
        b"LC" => &["Ll", "Lt", "Lu"],
        b"M" => &["Mc", "Me", "Mn"],
        b"N" => &["Nd", "Nl", "No"],
        b"P" => &["Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"],
        b"S" => &["Sc", "Sk", "Sm", "So"],
        b"Z" => &["Zl", "Zp", "Zs"],
        _ => {
            let &(_, ranges) = CATEGORIES
                .iter()
                .find(|(leaf, _)| leaf.as_bytes() == name)?;
            return Some(ranges.to_vec());
        }
    };
    let mut ranges: Vec<Range> = CATEGORIES
        .iter()
        .filter(|(leaf, _)| leaves.contains(leaf))
        .flat_map(|(_, ranges)| ranges.iter().copied())
        .collect();
    clean(&mut ranges);
    Some(ranges)
}

/// Unicode's other names of the general categories (PropertyValueAliases,
/// as Go's `unicode.CategoryAliases` holds them).
const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Cased_Letter", "LC"),
    ("Close_Punctuation", "Pe"),
    ("Combining_Mark", "M"),
    ("Connector_Punctuation", "Pc"),
    ("Control", "Cc"),
    ("Currency_Symbol", "Sc"),
    ("Dash_Punctuation", "Pd"),
    ("Decimal_Number", "Nd"),
    ("Enclosing_Mark", "Me"),
    ("Final_Punctuation", "Pf"),
    ("Format", "Cf"),
    ("Initial_Punctuation", "Pi"),
    ("Letter", "L"),
    ("Letter_Number", "Nl"),
    ("Line_Separator", "Zl"),
    ("Lowercase_Letter", "Ll"),
    ("Mark", "M"),
    ("Math_Symbol", "Sm"),
    ("Modifier_Letter", "Lm"),
    ("Modifier_Symbol", "Sk"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Open_Punctuation", "Ps"),
    ("Other", "C"),
    ("Other_Letter", "Lo"),
    ("Other_Number", "No"),
    ("Other_Punctuation", "Po"),
    ("Other_Symbol", "So"),
    ("Paragraph_Separator", "Zp"),
    ("Private_Use", "Co"),
    ("Punctuation", "P"),
    ("Separator", "Z"),
    ("Space_Separator", "Zs"),
    ("Spacing_Mark", "Mc"),
    ("Surrogate", "Cs"),
    ("Symbol", "S"),
    ("Titlecase_Letter", "Lt"),
    ("Unassigned", "Cn"),
    ("Uppercase_Letter", "Lu"),
    ("cntrl", "Cc"),
    ("digit", "Nd"),
    ("punct", "P"),
];

/// The Perl class `\d`, `\s`, `\w` or its upper-case complement, by the
/// letter after the backslash (ASCII only, as in Go).
pub(super) fn perl_group(letter: u8) -> Option<Group> {
    let ranges: &[Range] = match letter.to_ascii_lowercase() {
        b'd' => DIGIT,
        b's' => PERL_SPACE,
        b'w' => WORD,
        _ => return None,
    };
    Some(Group {
        ranges: ranges.to_vec(),
        negated: letter.is_ascii_uppercase(),
    })
}

/// The POSIX class of brackets by its whole spelling, `[:alpha:]` or
/// `[:^alpha:]`.
pub(super) fn posix_group(spelling: &[u8]) -> Option<Group> {
    let inner: &[u8] = spelling.strip_prefix(b"[:")?.strip_suffix(b":]")?;
    let (negated, name) = match inner.strip_prefix(b"^") {
        Some(name) => (true, name),
        None => (false, inner),
    };
    let ranges: &[Range] = match name {
        b"alnum" => &[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
        b"alpha" => &[(0x41, 0x5A), (0x61, 0x7A)],
        b"ascii" => &[(0x00, 0x7F)],
        b"blank" => &[(0x09, 0x09), (0x20, 0x20)],
        b"cntrl" => &[(0x00, 0x1F), (0x7F, 0x7F)],
        b"digit" => DIGIT,
        b"graph" => &[(0x21, 0x7E)],
        b"lower" => &[(0x61, 0x7A)],
        b"print" => &[(0x20, 0x7E)],
        b"punct" => &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        b"space" => &[(0x09, 0x0D), (0x20, 0x20)],
        b"upper" => &[(0x41, 0x5A)],
        b"word" => WORD,
        b"xdigit" => &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        _ => return None,
    };
    Some(Group {
        ranges: ranges.to_vec(),
        negated,
    })
}

const DIGIT: &[Range] = &[(0x30, 0x39)];
/// `\s` is `[\t\n\f\r ]`: no vertical tab, unlike `[[:space:]]`.
const PERL_SPACE: &[Range] = &[(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)];
const WORD: &[Range] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
