//! Serde's messages in the words of the pack's users: the one place where `expected f64`
//! becomes `expected a number` (every message of the reader goes through [`user_words`]).

/// Rewrites a serde / serde_json message without Rust type names: `invalid type: string
/// "fast", expected f64` → `expected a number, found the string "fast"`; `invalid value:
/// integer `5000000000`, expected u32` → `expected a whole number ≥ 0 (at most 4294967295),
/// found 5000000000`. Messages it does not recognise are kept, cut before serde_json's
/// ` at line L column C`.
pub fn user_words(msg: &str) -> String {
    let mut m = msg;
    if let Some(cut) = m.rfind(" at line ") {
        m = &m[..cut];
    }
    if m.starts_with("data did not match any variant of untagged enum Literal") {
        return "expected true or false, a number, a string or [x, y]".into();
    }
    for (prefix, with_range) in [("invalid type: ", false), ("invalid value: ", true)] {
        if let Some((found, expected)) = m
            .strip_prefix(prefix)
            .and_then(|rest| rest.split_once(", expected "))
        {
            return format!(
                "expected {}, found {}",
                expected_words(expected, with_range),
                found_words(found)
            );
        }
    }
    if let Some((n, expected)) = m
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.split_once(", expected "))
    {
        let items = if n == "1" { "item" } else { "items" };
        return format!(
            "expected {}, found an array of {n} {items}",
            expected_words(expected, false)
        );
    }
    if let Some(rest) = m.strip_prefix("data did not match any variant of untagged enum ") {
        return format!(
            "this value has none of the accepted forms (of {})",
            spaced(rest.trim())
        );
    }
    m.to_string()
}

/// What serde expected, in user words; `with_range` adds the limits of integer types (for
/// `invalid value`, a number out of range).
fn expected_words(e: &str, with_range: bool) -> String {
    let range = |lo: &str, hi: &str| {
        if with_range {
            format!(" (from {lo} to {hi})")
        } else {
            String::new()
        }
    };
    let at_most = |hi: &str| {
        if with_range {
            format!(" (at most {hi})")
        } else {
            String::new()
        }
    };
    match e {
        "f32" | "f64" => "a number".into(),
        "u8" => format!("a whole number ≥ 0{}", at_most("255")),
        "u16" => format!("a whole number ≥ 0{}", at_most("65535")),
        "u32" => format!("a whole number ≥ 0{}", at_most("4294967295")),
        "u64" | "usize" => format!("a whole number ≥ 0{}", at_most("18446744073709551615")),
        "i8" => format!("a whole number{}", range("-128", "127")),
        "i16" => format!("a whole number{}", range("-32768", "32767")),
        "i32" => format!("a whole number{}", range("-2147483648", "2147483647")),
        "i64" | "isize" => format!(
            "a whole number{}",
            range("-9223372036854775808", "9223372036854775807")
        ),
        "a boolean" | "bool" => "true or false".into(),
        "a string" | "a borrowed string" | "a char" | "String" | "char" => "a string".into(),
        "a sequence" | "a sequence of strings" => "an array".into(),
        "a map" | "a map or struct" => "an object".into(),
        "unit" => "null".into(),
        _ => {
            if let Some(n) = e
                .strip_prefix("a tuple of size ")
                .or_else(|| e.strip_prefix("tuple of size "))
            {
                return format!("an array of {n} items");
            }
            if let Some(rest) = e.strip_prefix("tuple struct ") {
                let n = rest.rsplit(' ').nth(1).unwrap_or("");
                return format!("an array of {n} items");
            }
            if e.starts_with("struct ") || e.starts_with("internally tagged enum ") {
                return "an object".into();
            }
            if let Some(name) = e.strip_prefix("enum ") {
                return format!("one of the names of a {}", spaced(name));
            }
            e.to_string()
        }
    }
}

/// What serde found, in user words (`string "x"` → `the string "x"`, `integer `5`` → `5`).
fn found_words(f: &str) -> String {
    let ticked = |p: &str| {
        f.strip_prefix(p)
            .and_then(|r| r.strip_prefix('`'))
            .and_then(|r| r.strip_suffix('`'))
            .map(str::to_string)
    };
    if let Some(s) = f.strip_prefix("string ") {
        return format!("the string {s}");
    }
    if let Some(n) = ticked("integer ").or_else(|| ticked("floating point ")) {
        return n;
    }
    if let Some(b) = ticked("boolean ") {
        return b;
    }
    match f {
        "sequence" => "an array".into(),
        "map" => "an object".into(),
        "unit value" | "null" | "Option value" => "null".into(),
        _ => f.to_string(),
    }
}

/// `TriggerSystemDef` → `trigger system` (a Rust type name as words; `Def` dropped).
fn spaced(name: &str) -> String {
    let name = name.strip_suffix("Def").unwrap_or(name);
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push(' ');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::user_words;

    #[test]
    fn serde_messages_lose_their_rust_type_names() {
        let cases = [
            (
                "invalid type: string \"fast\", expected f64 at line 3 column 9",
                "expected a number, found the string \"fast\"",
            ),
            (
                "invalid value: integer `5000000000`, expected u32",
                "expected a whole number ≥ 0 (at most 4294967295), found 5000000000",
            ),
            (
                "invalid type: floating point `1.5`, expected u64",
                "expected a whole number ≥ 0, found 1.5",
            ),
            (
                "invalid type: string \"x\", expected i64",
                "expected a whole number, found the string \"x\"",
            ),
            (
                "invalid type: integer `1`, expected a boolean",
                "expected true or false, found 1",
            ),
            (
                "invalid type: boolean `true`, expected a string",
                "expected a string, found true",
            ),
            (
                "invalid type: map, expected a sequence",
                "expected an array, found an object",
            ),
            (
                "invalid type: sequence, expected struct AreaDef",
                "expected an object, found an array",
            ),
            (
                "invalid type: null, expected usize",
                "expected a whole number ≥ 0, found null",
            ),
            (
                "invalid length 1, expected a tuple of size 2",
                "expected an array of 2 items, found an array of 1 item",
            ),
            ("missing field `id`", "missing field `id`"),
        ];
        for (serde, ours) in cases {
            assert_eq!(user_words(serde), ours, "{serde}");
        }
    }

    #[test]
    fn no_rust_type_name_survives() {
        for ty in [
            "f32", "f64", "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
        ] {
            for found in [
                "string \"a\"",
                "integer `-1`",
                "floating point `0.5`",
                "map",
            ] {
                for kind in ["invalid type", "invalid value"] {
                    let m = user_words(&format!("{kind}: {found}, expected {ty}"));
                    assert!(!m.contains(ty), "{m}");
                    assert!(m.starts_with("expected a "), "{m}");
                }
            }
        }
    }
}
