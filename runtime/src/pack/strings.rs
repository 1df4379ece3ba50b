//! The cap on string length in a pack file ([`MAX_PACK_STRING_CHARS`]): a cheap look at the
//! raw text decides whether any string could be over it (then the careful reader reads the
//! pack), and a walk of the parsed value reports each one over it at its JSON path.

use serde_json::Value;

use super::diag::{self, Diagnostic};

/// Longest string (value or key) a pack file may hold, in characters.
pub const MAX_PACK_STRING_CHARS: usize = 64 * 1024;

/// The longest run of raw text between a string's quotes (escapes as written), in bytes: an
/// upper bound of every string's length in characters, since a character takes at least one
/// byte and an escape at least two. Escaped quotes (`\"`, after an odd number of
/// backslashes) do not end a string. Text that is not JSON gives some bound; the parser
/// reports it.
pub(super) fn longest_raw_string(text: &str) -> usize {
    let mut pieces = text.split('"');
    // Before the first quote: outside every string.
    pieces.next();
    let (mut inside, mut run, mut longest) = (true, 0usize, 0usize);
    for piece in pieces {
        if !inside {
            inside = true;
            continue;
        }
        run += piece.len();
        let backslashes = piece.bytes().rev().take_while(|&b| b == b'\\').count();
        if backslashes % 2 == 1 {
            // The quote after this piece is escaped: the string goes on (and holds it).
            run += 1;
        } else {
            longest = longest.max(run);
            run = 0;
            inside = false;
        }
    }
    longest.max(run)
}

/// An error for every string (value or object key) of `v` longer than the cap, at its path.
pub(super) fn check_lengths(v: &Value, diags: &mut Vec<Diagnostic>) {
    let mut path = String::new();
    walk(v, &mut path, diags);
}

fn too_long(path: &str, what: &str, s: &str, diags: &mut Vec<Diagnostic>) {
    // Characters, counted only past the byte bound (cheap for every normal string).
    if s.len() > MAX_PACK_STRING_CHARS {
        let chars = s.chars().count();
        if chars > MAX_PACK_STRING_CHARS {
            diags.push(Diagnostic::error(
                path,
                format!(
                    "{what} is {chars} characters long; strings in a pack are limited to \
                     {MAX_PACK_STRING_CHARS} characters"
                ),
            ));
        }
    }
}

fn walk(v: &Value, path: &mut String, diags: &mut Vec<Diagnostic>) {
    match v {
        Value::String(s) => too_long(path, "this string", s, diags),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                diag::push_index(path, i);
                walk(item, path, diags);
                path.truncate(len);
            }
        }
        Value::Object(m) => {
            for (k, item) in m {
                let len = path.len();
                too_long(path, "a key here", k, diags);
                diag::push_key(path, k);
                walk(item, path, diags);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raw_bound_sees_through_escaped_quotes() {
        assert_eq!(longest_raw_string(r#"{"a": "bcd"}"#), 3);
        // `x\"y` is one string of 4 raw bytes, not two of 2 and 1.
        assert_eq!(longest_raw_string(r#"["x\"y", "z"]"#), 4);
        // An escaped backslash before the quote ends the string.
        assert_eq!(longest_raw_string(r#"["x\\", "yz"]"#), 3);
        assert_eq!(longest_raw_string("no strings"), 0);
        assert_eq!(longest_raw_string(r#"["unterminated"#), 12);
    }

    fn pack_with_comment(comment: &str) -> String {
        format!(
            r#"{{"format": "townsfolk-pack", "version": 1, "name": "s", "comment": "{comment}"}}"#
        )
    }

    #[test]
    fn a_string_over_the_cap_is_an_error_at_its_path_and_the_pack_still_opens() {
        let long = "é".repeat(MAX_PACK_STRING_CHARS + 1);
        let l = crate::pack::load_str(&pack_with_comment(&long));
        let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{:?}", l.diagnostics);
        assert_eq!(errors[0].path, "comment");
        assert!(
            errors[0].message.contains("65537 characters long"),
            "{}",
            errors[0].message
        );
        assert!(l.pack.is_some());
        // An escaped quote in the middle does not hide it from the fast reader's check.
        let half = "a".repeat(MAX_PACK_STRING_CHARS / 2 + 1);
        let l = crate::pack::load_str(&pack_with_comment(&format!("{half}\\\"{half}")));
        assert!(l.has_errors(), "{:?}", l.diagnostics);
    }

    #[test]
    fn strings_at_the_cap_are_fine_even_when_their_escapes_are_longer() {
        // 65,536 characters, half of them written as `\"` escapes (98,304 bytes): at the cap.
        let escaped = "\\\"".repeat(MAX_PACK_STRING_CHARS / 2);
        let at_cap = format!("{escaped}{}", "b".repeat(MAX_PACK_STRING_CHARS / 2));
        let l = crate::pack::load_str(&pack_with_comment(&at_cap));
        assert!(!l.has_errors(), "{:?}", l.diagnostics);
        assert_eq!(
            l.pack.and_then(|p| p.comment).map(|c| c.chars().count()),
            Some(MAX_PACK_STRING_CHARS)
        );
    }
}
