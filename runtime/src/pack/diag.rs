//! Diagnostics: what is wrong with a pack, and where (JSON path, line and column).

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One problem found in a pack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// JSON path of the offending value, e.g. `trees[0].root.children[2].expr` (empty: the
    /// whole document).
    pub path: String,
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
        }
    }
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, message)
        }
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
    /// The path as shown to people: `(document)` for the root.
    pub fn display_path(&self) -> &str {
        if self.path.is_empty() {
            "(document)"
        } else {
            &self.path
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

/// Finds the 1-based line and column (and byte offset) where the values at the given JSON
/// paths start, in one pass over the text. Paths not found are absent from the result. Never
/// panics, even on malformed text (it then finds what it can).
pub fn locate(
    text: &str,
    wanted: &std::collections::HashSet<String>,
) -> std::collections::HashMap<String, (u32, u32, usize)> {
    let mut found = std::collections::HashMap::new();
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
        if wanted.contains(&path) {
            found.entry(path.clone()).or_insert((line, col, i));
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

/// Fills in line/column of diagnostics from the source text.
pub fn locate_all(text: &str, diags: &mut [Diagnostic]) {
    // Every path and its ancestors, for the fallback below.
    let mut wanted = std::collections::HashSet::new();
    for d in diags.iter().filter(|d| d.line.is_none()) {
        let mut p = d.path.as_str();
        wanted.insert(p.to_string());
        while let Some(cut) = p.rfind(['.', '[']) {
            p = &p[..cut];
            wanted.insert(p.to_string());
        }
        wanted.insert(String::new());
    }
    let found = locate(text, &wanted);
    for d in diags.iter_mut().filter(|d| d.line.is_none()) {
        // Fall back to the nearest enclosing path that was found.
        let mut p = d.path.as_str();
        loop {
            if let Some(&(l, c, at)) = found.get(p) {
                d.line = Some(l);
                d.column = Some(if p.len() == d.path.len() && d.inner_column > 0 {
                    c + raw_columns(text, at, d.inner_column - 1) + 1
                } else {
                    c
                });
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
        let lc = |p: &str| (f[p].0, f[p].1);
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
    fn falls_back_to_parent_path() {
        let text = "{\"trees\": [{\"id\": \"t\"}]}";
        let mut d = vec![Diagnostic::error("trees[0].missing", "m")];
        locate_all(text, &mut d);
        assert_eq!((d[0].line, d[0].column), (Some(1), Some(12)));
    }
}
