//! Trusted paths: cleaning, what they cover, and the files they move into
//! the trusted set.

use super::{Requirement, below, move_into_trusted};
use crate::bundle::NamedFile;

#[test]
fn a_trusted_path_covers_itself_and_what_is_below_it() {
    let cases = [
        ("platform/a.sigil", "platform", true),
        ("platform", "platform", true),
        ("platform/x/y.sigil", "platform", true),
        ("platforms/a.sigil", "platform", false),
        ("a.sigil", "platform", false),
        ("anything/at/all.sigil", ".", true),
        ("platform/a.sigil", "platform/a.sigil", true),
    ];
    for (path, dir, want) in cases {
        assert_eq!(below(path, dir), want, "{path} below {dir}");
    }
}

#[test]
fn trusted_paths_are_cleaned_and_kept_once() {
    let r = Requirement::new("p", ["./platform/", "platform", "a//b/../c"], None);
    assert_eq!(r.trusted, ["platform", "a/c"]);
}

#[test]
fn covered_files_become_trusted_after_the_trusted_files_in_their_order() {
    let file = |path: &str, trusted: bool| NamedFile {
        path: path.to_owned(),
        source: "".into(),
        trusted,
    };
    let files = vec![
        file("vendor/t.sigil", true),
        file("kind.sigil", false),
        file("platform/b.sigil", false),
        file("team.sigil", false),
        file("platform/a.sigil", false),
    ];
    let r = Requirement::new("p", ["platform"], None);
    let moved = move_into_trusted(&[r], files);
    let got: Vec<(&str, bool)> = moved.iter().map(|f| (f.path.as_str(), f.trusted)).collect();
    assert_eq!(
        got,
        [
            ("vendor/t.sigil", true),
            ("platform/b.sigil", true),
            ("platform/a.sigil", true),
            ("kind.sigil", false),
            ("team.sigil", false),
        ]
    );
}
