//! Go's `%q` quoting (`strconv.Quote`), which several reference messages
//! embed (`did you mean "x"?`, ``unknown field "x"``; language-core §12).

/// `s` in double quotes with Go's escapes (`strconv.Quote`, `%q`): `\"`, `\\`,
/// `\a \b \f \n \r \t \v`, other non-printable characters as `\xhh` (below
/// U+0080), `\uhhhh` or `\Uhhhhhhhh`; printable characters, including
/// non-ASCII ones, as they are.
pub fn go_quote(s: &str) -> String {
    go_quote_bytes(s.as_bytes())
}

/// Quotes `bytes` as Go's `strconv.Quote` (and so `%q`) does: printable
/// characters as they are, the rest escaped; a byte of invalid UTF-8 as `\x..`.
pub fn go_quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    push_go_quoted(&mut out, bytes, '"');
    out.push('"');
    out
}

fn push_go_quoted(out: &mut String, mut bytes: &[u8], quote: char) {
    while !bytes.is_empty() {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                text.chars()
                    .for_each(|c| push_go_quoted_char(out, c, quote));
                return;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                std::str::from_utf8(valid)
                    .unwrap_or_default()
                    .chars()
                    .for_each(|c| push_go_quoted_char(out, c, quote));
                if let Some(bad) = rest.first() {
                    out.push_str(&format!("\\x{bad:02x}"));
                }
                bytes = rest.get(1..).unwrap_or_default();
            }
        }
    }
}

/// Appends `c` as Go quotes it inside `quote` marks.
pub fn push_go_quoted_char(out: &mut String, c: char, quote: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        _ if c == quote => {
            out.push('\\');
            out.push(c);
        }
        _ if is_printable(c) => out.push(c),
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        _ if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", u32::from(c))),
        _ if u32::from(c) < 0x10000 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
        _ => out.push_str(&format!("\\U{:08x}", u32::from(c))),
    }
}

/// Go's `strconv.IsPrint`, approximated: ASCII space and graphic characters,
/// and every other character except controls, non-ASCII spaces, format
/// characters and private use. Go also escapes unassigned code points;
/// without Unicode tables this keeps them as they are.
fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        return c == ' ' || c.is_ascii_graphic();
    }
    let code = u32::from(c);
    let format = matches!(code,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x8E2 | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE007F);
    let private_or_noncharacter = matches!(code, 0xE000..=0xF8FF | 0xF0000..)
        || (code & 0xFFFE) == 0xFFFE
        || (0xFDD0..=0xFDEF).contains(&code);
    !(c.is_control() || c.is_whitespace() || format || private_or_noncharacter)
}

#[cfg(test)]
mod tests {
    use super::{go_quote, go_quote_bytes};

    #[rustfmt::skip]
    const CASES: &[(&str, &str)] = &[
        ("", r#""""#),
        ("unused-let", r#""unused-let""#),
        ("a\"b\\c", r#""a\"b\\c""#),
        ("\u{7}\u{8}\u{c}\n\r\t\u{b}", r#""\a\b\f\n\r\t\v""#),
        ("\u{0}\u{1b}\u{7f}", r#""\x00\x1b\x7f""#),
        ("é😀", "\"é😀\""),
        (
            "\u{a0}\u{ad}\u{feff}\u{2028}",
            r#""\u00a0\u00ad\ufeff\u2028""#,
        ),
        ("\u{85}", r#""\u0085""#),
        ("\u{e0001}", r#""\U000e0001""#),
        ("\u{fffd}", "\"\u{fffd}\""),
    ];

    #[test]
    fn quote_table() {
        for &(input, want) in CASES {
            assert_eq!(go_quote(input), want, "input {input:?}");
        }
    }

    #[test]
    fn bytes_quote_as_go_quotes_them() {
        let cases: &[(&[u8], &str)] = &[
            (b"timeoutMs", r#""timeoutMs""#),
            (b"a\"b\\c", r#""a\"b\\c""#),
            (b"\n\t\x07\x00\x7f", r#""\n\t\a\x00\x7f""#),
            ("é😀".as_bytes(), "\"é😀\""),
            ("\u{a0}\u{200b}\u{85}".as_bytes(), r#""\u00a0\u200b\u0085""#),
            (b"\xff", r#""\xff""#),
            ("\u{f0000}".as_bytes(), r#""\U000f0000""#),
        ];
        for (input, want) in cases {
            assert_eq!(go_quote_bytes(input), *want, "input {input:?}");
        }
    }
}
