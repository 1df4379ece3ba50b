//! Diagnostics: what is wrong with a pack, and where (JSON path, line and column).

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    /// Context for other diagnostics (an asset left out, and the checks of its uses that were
    /// skipped with it): neither an error nor a warning.
    Note,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// One problem found in a pack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// JSON path of the offending value, e.g. `trees[0].root.children[2].expr` (empty: the
    /// whole document): the machine path, to find the item by.
    pub path: String,
    /// The path as shown to people: `path` with the id (or a template's name) of each list
    /// element after its index, e.g. `trees[0] (cycle4).root.children[2] (ask).expr`. Filled
    /// in by [`locate_all`] (from the text) or [`name_paths`]; `None` when no element on the
    /// path has an id. See [`Diagnostic::display_path`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named_path: Option<String>,
    /// 1-based line and column in the source text, when the pack came from text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    pub message: String,
    /// Characters to add to the located column (the position of a problem inside a string
    /// value, such as an expression), applied by [`locate_all`].
    #[serde(skip)]
    pub inner_column: u32,
    /// Locate at the key of the member at `path` (an unknown field), not at its value.
    #[serde(skip)]
    pub at_key: bool,
}

impl Diagnostic {
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            path: path.into(),
            line: None,
            column: None,
            message: message.into(),
            inner_column: 0,
            at_key: false,
            named_path: None,
        }
    }
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, message)
        }
    }
    pub fn note(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(path, message)
        }
    }
    /// Located at the key of the member at `path` (`"wrkplace":`), not at its value.
    pub fn on_key(mut self) -> Self {
        self.at_key = true;
        self
    }
    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
    /// Points inside the string value at `path`: `chars` characters after its opening quote.
    pub fn inside(mut self, chars: usize) -> Self {
        self.inner_column = chars as u32 + 1;
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// The path as shown to people: the named path when there is one
    /// (`trees[12] (cycle4).root`), `(document)` for the root, else the machine path.
    pub fn display_path(&self) -> &str {
        match &self.named_path {
            Some(n) => n,
            None if self.path.is_empty() => "(document)",
            None => &self.path,
        }
    }
    /// `file:line:col: severity: json.path: message`
    pub fn render(&self, file: &str) -> String {
        format!(
            "{}:{}:{}: {}: {}: {}",
            file,
            self.line.unwrap_or(1),
            self.column.unwrap_or(1),
            self.severity,
            self.display_path(),
            self.message
        )
    }
}

/// The one order of diagnostics: by position in the text (unlocated ones first), and at the
/// same position errors, then warnings, then notes; otherwise as found (a stable sort; the
/// checks run in a fixed order, so the order is the same on every run).
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| (d.line, d.column, d.severity));
}

/// Appends a key segment to a JSON path (`a.b`, or `a["odd key"]`).
pub fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .enumerate()
            .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push('[');
        // Serializing a &str to JSON cannot fail.
        path.push_str(&serde_json::to_string(key).unwrap_or_default());
        path.push(']');
    }
}

/// Appends an index segment to a JSON path.
pub fn push_index(path: &mut String, i: usize) {
    use std::fmt::Write;
    let _ = write!(path, "[{i}]");
}

/// `path` + `.key`, as a new string.
pub fn key(path: &str, k: &str) -> String {
    let mut p = path.to_string();
    push_key(&mut p, k);
    p
}

/// `path` + `[i]`, as a new string.
pub fn index(path: &str, i: usize) -> String {
    let mut p = path.to_string();
    push_index(&mut p, i);
    p
}

/// Where a value is in the text: 1-based line and column and byte offset of its first
/// character, and for an object member the line and column of its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub line: u32,
    pub column: u32,
    pub offset: usize,
    pub key: Option<(u32, u32)>,
}

/// Finds where the values at the given JSON paths start (and their keys), in one pass over
/// the text. Paths not found are absent from the result. Never panics, even on malformed
/// text (it then finds what it can).
pub fn locate(
    text: &str,
    wanted: &std::collections::HashSet<String>,
) -> std::collections::HashMap<String, Spot> {
    let mut found: std::collections::HashMap<String, Spot> = std::collections::HashMap::new();
    // The key of the member being read, while its value has not started.
    let mut key_at: Option<(u32, u32)> = None;
    if wanted.is_empty() {
        return found;
    }
    enum Frame {
        Obj { base: usize },
        Arr { base: usize, idx: usize },
    }
    let b = text.as_bytes();
    let mut i = 0usize;
    let mut line = 1u32;
    let mut col = 1u32;
    let mut path = String::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Whether the next token is a value (true) or, inside an object, a key (false).
    let mut expect_value = true;

    // Advance one byte, keeping line/column (columns count characters).
    macro_rules! bump {
        () => {{
            let c = b[i];
            if c == b'\n' {
                line += 1;
                col = 1;
            } else if (c & 0xC0) != 0x80 {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b':' {
            bump!();
            continue;
        }
        if c == b',' {
            if let Some(f) = stack.last_mut() {
                match f {
                    Frame::Obj { base } => {
                        path.truncate(*base);
                        expect_value = false;
                    }
                    Frame::Arr { base, idx } => {
                        *idx += 1;
                        path.truncate(*base);
                        push_index(&mut path, *idx);
                        expect_value = true;
                    }
                }
            }
            bump!();
            continue;
        }
        if c == b'}' || c == b']' {
            if let Some(Frame::Obj { base } | Frame::Arr { base, .. }) = stack.pop() {
                path.truncate(base);
            }
            expect_value = true;
            bump!();
            continue;
        }
        if !expect_value {
            // An object key.
            if c == b'"' {
                let start = i;
                key_at = Some((line, col));
                bump!();
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        bump!();
                        if i >= b.len() {
                            break;
                        }
                    }
                    bump!();
                }
                let end = i.min(b.len());
                if i < b.len() {
                    bump!();
                }
                let raw = text.get(start..(end + 1).min(b.len())).unwrap_or("\"\"");
                let k: String =
                    serde_json::from_str(raw).unwrap_or_else(|_| raw.trim_matches('"').to_string());
                if let Some(Frame::Obj { base }) = stack.last() {
                    path.truncate(*base);
                }
                push_key(&mut path, &k);
                expect_value = true;
            } else {
                bump!();
            }
            continue;
        }
        // A value starts here.
        let key = key_at.take();
        if wanted.contains(&path) {
            found.entry(path.clone()).or_insert(Spot {
                line,
                column: col,
                offset: i,
                key,
            });
            if found.len() == wanted.len() {
                return found;
            }
        }
        match c {
            b'{' => {
                stack.push(Frame::Obj { base: path.len() });
                expect_value = false;
                bump!();
            }
            b'[' => {
                let base = path.len();
                stack.push(Frame::Arr { base, idx: 0 });
                push_index(&mut path, 0);
                expect_value = true;
                bump!();
            }
            b'"' => {
                bump!();
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        bump!();
                        if i >= b.len() {
                            break;
                        }
                    }
                    bump!();
                }
                if i < b.len() {
                    bump!();
                }
                expect_value = false;
                if matches!(stack.last(), Some(Frame::Arr { .. })) {
                    expect_value = true;
                }
            }
            _ => {
                while i < b.len()
                    && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
                {
                    bump!();
                }
                expect_value = matches!(stack.last(), Some(Frame::Arr { .. }));
            }
        }
    }
    found
}

/// Fills in line/column of diagnostics from the source text (an unknown field's at its key,
/// see [`Diagnostic::on_key`]), and the named path of every diagnostic (the ids written in
/// the text, see [`named`]).
pub fn locate_all(text: &str, diags: &mut [Diagnostic]) {
    // Every path and its ancestors, for the fallback below; `id` and `name` of every list
    // element on a path, for the named paths.
    let mut wanted = std::collections::HashSet::new();
    for d in diags.iter() {
        let unplaced = d.line.is_none();
        let mut p = d.path.as_str();
        if unplaced {
            wanted.insert(p.to_string());
            wanted.insert(String::new());
        }
        loop {
            if p.ends_with(']') {
                wanted.insert(key(p, "id"));
                wanted.insert(key(p, "name"));
            }
            match p.rfind(['.', '[']) {
                Some(cut) => p = &p[..cut],
                None => break,
            }
            if unplaced {
                wanted.insert(p.to_string());
            }
        }
    }
    if wanted.is_empty() {
        return;
    }
    let found = locate(text, &wanted);
    for d in diags.iter_mut() {
        d.named_path = named(&d.path, |element| {
            ["id", "name"].iter().find_map(|k| {
                let spot = found.get(&key(element, k))?;
                string_at(text, spot.offset).filter(|s| !s.is_empty())
            })
        });
        if d.line.is_some() {
            continue;
        }
        // Fall back to the nearest enclosing path that was found.
        let mut p = d.path.as_str();
        loop {
            if let Some(spot) = found.get(p) {
                let exact = p.len() == d.path.len();
                let (line, column) = match spot.key {
                    Some(k) if exact && d.at_key => k,
                    _ if exact && d.inner_column > 0 => (
                        spot.line,
                        spot.column + raw_columns(text, spot.offset, d.inner_column - 1) + 1,
                    ),
                    _ => (spot.line, spot.column),
                };
                d.line = Some(line);
                d.column = Some(column);
                break;
            }
            match p.rfind(['.', '[']) {
                Some(cut) => p = &p[..cut],
                None => {
                    d.line = Some(1);
                    d.column = Some(1);
                    break;
                }
            }
        }
    }
}

/// The JSON string that starts at byte `at` of `text`, decoded (None if no string starts
/// there).
fn string_at(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    if !rest.starts_with('"') {
        return None;
    }
    serde_json::Deserializer::from_str(rest)
        .into_iter::<String>()
        .next()?
        .ok()
}

/// `path` as shown to people: after every `[N]` whose element `name_of` names (called with
/// the path up to and including that `]`), the name in parentheses:
/// `trees[12] (cycle4).root.children[2] (ask).expr`. None when no element is named.
pub fn named(path: &str, mut name_of: impl FnMut(&str) -> Option<String>) -> Option<String> {
    let mut out = String::with_capacity(path.len() + 16);
    let mut any = false;
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        // A quoted key `["a]b"]`: up to its closing quote and bracket, not named.
        let close = if after[1..].starts_with('"') {
            quoted_end(after)
        } else {
            after.find(']').map(|c| c + 1)
        };
        let Some(close) = close else {
            out.push_str(after);
            rest = "";
            break;
        };
        out.push_str(&after[..close]);
        let is_index = after[1..close - 1].bytes().all(|b| b.is_ascii_digit()) && close > 2;
        if is_index {
            let end = path.len() - rest.len() + open + close;
            if let Some(n) = name_of(&path[..end]) {
                out.push_str(" (");
                out.push_str(&n);
                out.push(')');
                any = true;
            }
        }
        rest = &after[close..];
    }
    out.push_str(rest);
    any.then_some(out)
}

/// The length of the quoted key segment `["…"]` at the start of `s`, escapes skipped.
fn quoted_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 2;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' if b.get(i + 1) == Some(&b']') => return Some(i + 2),
            _ => i += 1,
        }
    }
    None
}

/// The `id` (else `name`) of the element at the relative JSON path `path` inside `value`:
/// the names of [`named`] from a value instead of text (an in-memory pack).
pub fn element_name(value: &serde_json::Value, path: &str) -> Option<String> {
    let mut v = value;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else if rest.starts_with("[\"") {
            let end = quoted_end(rest)?;
            let k: String = serde_json::from_str(&rest[1..end - 1]).ok()?;
            v = v.get(k.as_str())?;
            rest = &rest[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            v = v.get(r[..end].parse::<usize>().ok()?)?;
            rest = &r[end + 1..];
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            v = v.get(&rest[..end])?;
            rest = &rest[end..];
        }
    }
    ["id", "name"]
        .iter()
        .find_map(|k| v.get(k)?.as_str().filter(|s| !s.is_empty()))
        .map(str::to_string)
}

/// How many source characters the first `decoded` characters of the JSON string starting at
/// byte `at` (its opening quote) take, escapes counted as written.
fn raw_columns(text: &str, at: usize, decoded: u32) -> u32 {
    let Some(rest) = text.get(at + 1..) else {
        return decoded;
    };
    let mut chars = rest.chars();
    let mut raw = 0u32;
    let mut seen = 0u32;
    while seen < decoded {
        match chars.next() {
            None | Some('"') => break,
            Some('\\') => {
                raw += 1;
                match chars.next() {
                    Some('u') => {
                        let hex: String = chars.by_ref().take(4).collect();
                        raw += 1 + hex.chars().count() as u32;
                        // A surrogate pair is one character written as two escapes.
                        if u32::from_str_radix(&hex, 16)
                            .is_ok_and(|h| (0xD800..0xDC00).contains(&h))
                        {
                            let low: String = chars.by_ref().take(6).collect();
                            raw += low.chars().count() as u32;
                        }
                    }
                    Some(_) => raw += 1,
                    None => break,
                }
            }
            Some(_) => raw += 1,
        }
        seen += 1;
    }
    raw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_nested_paths() {
        let text = "{\n  \"a\": [1, {\"b\": \"x,y\"}],\n  \"odd key\": {\"c\": true}\n}\n";
        let wanted = ["a", "a[1]", "a[1].b", "[\"odd key\"].c", "a[0]", ""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let f = locate(text, &wanted);
        let lc = |p: &str| (f[p].line, f[p].column);
        assert_eq!(lc(""), (1, 1));
        assert_eq!(lc("a"), (2, 8));
        assert_eq!(lc("a[0]"), (2, 9));
        assert_eq!(lc("a[1]"), (2, 12));
        assert_eq!(lc("a[1].b"), (2, 18));
        assert_eq!(lc("[\"odd key\"].c"), (3, 20));
    }

    #[test]
    fn locate_survives_garbage() {
        let wanted = ["x.y".to_string()].into_iter().collect();
        for t in [
            "",
            "{",
            "{\"x\":",
            "[[[[",
            "\"unterminated",
            "{\"x\\",
            "}}]]",
        ] {
            let _ = locate(t, &wanted);
        }
    }

    #[test]
    fn columns_inside_strings_count_escapes_as_written() {
        let text = r#"{"e": "a \"b\" \u00e9\ud83d\ude00 >"}"#;
        // Decoded: `a "b" é😀 >`; `>` is the 10th decoded character (offset 9).
        let mut d = vec![Diagnostic::error("e", "m").inside(9)];
        locate_all(text, &mut d);
        let col = text.find('>').map(|b| text[..b].chars().count() as u32 + 1);
        assert_eq!(d[0].column, col);
    }

    #[test]
    fn unknown_fields_are_located_at_their_key() {
        let text = "{\"a\": {\"x\": 1,\n  \"wrkplace\": \"forge\"}}";
        let mut d = vec![
            Diagnostic::warning("a.wrkplace", "unknown field").on_key(),
            Diagnostic::warning("a.wrkplace", "at the value"),
        ];
        locate_all(text, &mut d);
        assert_eq!((d[0].line, d[0].column), (Some(2), Some(3)));
        assert_eq!((d[1].line, d[1].column), (Some(2), Some(15)));
    }

    #[test]
    fn at_one_place_errors_come_before_warnings_and_notes() {
        let mut d = vec![
            Diagnostic::note("a", "n").at(3, 1),
            Diagnostic::warning("b", "w1").at(2, 5),
            Diagnostic::error("c", "e").at(2, 5),
            Diagnostic::warning("d", "w2").at(2, 5),
            Diagnostic::error("e", "first").at(1, 9),
        ];
        sort(&mut d);
        let order: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(order, ["first", "e", "w1", "w2", "n"]);
    }

    #[test]
    fn named_paths_carry_the_ids_of_list_elements() {
        let text = r#"{"trees": [{"id": "a", "root": {}}, {"name": "Tree B", "id": "b",
            "root": {"id": "rb", "children": [{"id": "k0"}, {"x": 1}]}}],
            "areas": [{"templates": [{"name": "sleep"}]}]}"#;
        let mut d = vec![
            Diagnostic::error("trees[1].root.children[0].type", "m"),
            Diagnostic::error("trees[1].root.children[1].x", "m"),
            Diagnostic::error("areas[0].templates[0].tree", "m"),
            Diagnostic::error("trees", "m"),
            Diagnostic::error("", "m"),
        ];
        locate_all(text, &mut d);
        let shown: Vec<&str> = d.iter().map(Diagnostic::display_path).collect();
        assert_eq!(
            shown,
            [
                "trees[1] (b).root.children[0] (k0).type",
                "trees[1] (b).root.children[1].x",
                "areas[0].templates[0] (sleep).tree",
                "trees",
                "(document)",
            ]
        );
        // The machine path is kept.
        assert_eq!(d[0].path, "trees[1].root.children[0].type");
        // The same names from a value.
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        let named_from_value = named("trees[1].root.children[0].type", |e| element_name(&v, e));
        assert_eq!(named_from_value.as_deref(), Some(shown[0]));
        // Quoted keys are not indexes.
        assert_eq!(
            named("a[\"x]y\"][0]", |_| Some("n".into())).as_deref(),
            Some("a[\"x]y\"][0] (n)")
        );
    }

    #[test]
    fn falls_back_to_parent_path() {
        let text = "{\"trees\": [{\"id\": \"t\"}]}";
        let mut d = vec![Diagnostic::error("trees[0].missing", "m")];
        locate_all(text, &mut d);
        assert_eq!((d[0].line, d[0].column), (Some(1), Some(12)));
    }
}
