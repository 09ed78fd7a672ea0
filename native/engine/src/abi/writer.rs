//! The JSON text of a response being written: the envelope, members,
//! names and strings escaped as Go's `json.Marshal` escapes them (by
//! [`crate::wire`], which values share), so responses are byte-identical
//! to the reference's: `<`, `>` and `&` as `\u003c`, `\u003e` and
//! `\u0026`; U+2028 and U+2029 as `\u2028` and `\u2029`; control
//! characters as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`. Every record
//! writes itself with it.

use crate::wire::write_str;

/// A response being written.
pub(crate) struct Json {
    text: String,
}

impl Json {
    /// Starts a response with its envelope: `{"id":…,"ok":…`.
    pub(super) fn envelope(id: Option<&str>, ok: bool, capacity: usize) -> Self {
        let mut json = Self {
            text: String::with_capacity(capacity),
        };
        if let Some(id) = id {
            json.raw("{\"id\":");
            json.raw(id);
            json.raw(",");
        } else {
            json.raw("{");
        }
        json.raw(if ok { "\"ok\":true" } else { "\"ok\":false" });
        json
    }

    /// A record's members written on their own, to follow an envelope.
    pub(crate) fn body() -> Self {
        Self {
            text: String::with_capacity(512),
        }
    }

    /// The members written, as text.
    pub(crate) fn into_members(self) -> String {
        self.text
    }

    /// The text written so far, for writers that append to a `String`
    /// (values, [`crate::wire`]).
    pub(crate) fn text_mut(&mut self) -> &mut String {
        &mut self.text
    }

    /// Appends JSON text as it is.
    pub(crate) fn raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Appends `,"name":`, the start of a member after the first. The
    /// punctuation goes in byte by byte: a copy per piece costs more.
    pub(crate) fn member(&mut self, name: &str) {
        self.text.reserve(name.len() + 4);
        self.text.push(',');
        self.text.push('"');
        self.text.push_str(name);
        self.text.push('"');
        self.text.push(':');
    }

    /// Appends a JSON string of a name: a policy, decision, reason or field
    /// name, which the language spells with ASCII letters, digits, `_` and
    /// `.` (lexer), so it needs no escaping and no search for escapes.
    /// Anything else is escaped as [`Json::string`] escapes it.
    pub(crate) fn name(&mut self, text: &str) {
        let plain = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
        if !text.bytes().all(plain) {
            return self.string(text);
        }
        self.text.reserve(text.len() + 2);
        self.text.push('"');
        self.text.push_str(text);
        self.text.push('"');
    }

    /// Appends a JSON string, escaped as Go escapes it.
    pub(crate) fn string(&mut self, text: &str) {
        write_str(text, &mut self.text);
    }

    /// Appends a JSON array of strings.
    pub(crate) fn strings<S: AsRef<str>>(&mut self, items: &[S]) {
        self.list(items, |json, s| json.string(s.as_ref()));
    }

    /// Appends a JSON array of `items`, each written by `write`.
    pub(crate) fn list<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut write: impl FnMut(&mut Self, T),
    ) {
        self.raw("[");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            write(self, item);
        }
        self.raw("]");
    }

    pub(super) fn finish(mut self) -> Vec<u8> {
        self.text.push('}');
        self.text.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_written_as_they_are_and_anything_else_escaped() {
        let mut json = Json::body();
        json.name("refund.desk_2");
        json.name("a<b\"");
        json.name("é");
        assert_eq!(json.into_members(), r#""refund.desk_2""a\u003cb\"""é""#);
    }

    #[test]
    fn strings_are_escaped_as_go_marshals_them() {
        let mut json = Json::body();
        json.string("a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}<>&\u{2028}\u{2029}\u{7f}é😀");
        assert_eq!(
            json.into_members(),
            concat!(
                r#""a\"b\\c\n\r\t\b\f\u0001\u001f\u003c\u003e\u0026\u2028\u2029"#,
                "\u{7f}é😀\""
            )
        );
    }
}
