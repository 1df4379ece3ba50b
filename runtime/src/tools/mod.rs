//! The line tools behind the CLI's scripted subcommands: one JSON object per line in, one
//! per line out (or a report), over a session or a story.
//!
//! - [`debug`]: the `townsfolk debug` protocol over a [`crate::debug::Debugger`];
//! - [`events`]: scripted story-tracker sessions (`townsfolk events`);
//! - [`replay`]: Monte Carlo playthroughs of a scenario (`townsfolk replay`);
//! - [`triggers`]: scripted world changes fed to the triggers (`townsfolk triggers`);
//! - [`talk`]: the conversation metrics report and `--sweep` (`townsfolk talk`);
//! - [`info`]: a pack's assets and who uses what (`townsfolk info`);
//! - [`diff`]: what changed between two packs, asset by asset and node by node
//!   (`townsfolk diff`);
//! - [`trace_view`]: a recorded trace filtered and shown readably (`townsfolk trace`).
//!
//! The three line protocols (`debug`, `events`, `triggers`) share one shape, [`LineTool`],
//! run by [`run`]: blank lines and `#` comments are skipped; every other line gets one JSON
//! reply line; a bad line gets a located error reply ([`fault_reply`]: line, column, what was
//! expected) and the session goes on; the caller learns how many lines were bad (the CLI then
//! exits with 1).

use std::io::{BufRead, Write};

use serde_json::{Map, Value, json};

pub mod content_tests;
pub mod coverage;
pub mod debug;
pub mod diff;
pub mod diverge;
pub mod events;
pub mod info;
pub mod replay;
pub mod talk;
pub mod trace_view;
pub mod triggers;

#[cfg(test)]
mod tests;

/// Why one line of a line tool was refused; its text is the `error` of the reply.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    /// The line is not JSON (`prefix`: how the tool words it; `column`: where the parser
    /// stopped, 1-based within the line's content).
    #[error("{prefix}: {detail}")]
    NotJson {
        prefix: &'static str,
        detail: String,
        column: usize,
    },
    /// The line is JSON but not an object (`expected`: what the tool wants, as a sentence).
    #[error("{0}")]
    NotAnObject(&'static str),
    /// A name the pack does not have (`what`: NPC, area, object, trigger, event, …).
    #[error("unknown {what} `{id}`")]
    Unknown { what: &'static str, id: String },
    /// Fields the command does not have (`known`: the ones it has).
    #[error("{}", unknown_fields_text(fields, known))]
    UnknownFields {
        fields: Vec<String>,
        known: Vec<String>,
    },
    /// A field is missing (`expected`: what it should hold).
    #[error("missing `{field}` ({expected})")]
    Missing {
        field: &'static str,
        expected: String,
    },
    /// A field holds the wrong kind of value (`expected`: what it should hold; `found`:
    /// what it held, when worth saying).
    #[error("`{field}` must be {expected}{}", found.as_ref().map(|f| format!(", found {f}")).unwrap_or_default())]
    Field {
        field: &'static str,
        expected: String,
        found: Option<String>,
    },
    /// The debugger cannot go back there.
    #[error(transparent)]
    Back(#[from] crate::debug::BackError),
    /// A malformed or refused line, as a sentence saying what is wrong.
    #[error("{0}")]
    Invalid(String),
}

fn unknown_fields_text(fields: &[String], known: &[String]) -> String {
    let list = |v: &[String]| {
        v.iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "unknown field{} {} (known: {})",
        if fields.len() == 1 { "" } else { "s" },
        list(fields),
        if known.is_empty() {
            "none".to_string()
        } else {
            list(known)
        }
    )
}

impl From<String> for LineError {
    fn from(s: String) -> Self {
        LineError::Invalid(s)
    }
}

impl From<&str> for LineError {
    fn from(s: &str) -> Self {
        LineError::Invalid(s.to_string())
    }
}

impl LineError {
    pub fn unknown(what: &'static str, id: &str) -> LineError {
        LineError::Unknown {
            what,
            id: id.to_string(),
        }
    }

    /// `field` holds the wrong kind of value.
    pub fn field(field: &'static str, expected: impl Into<String>) -> LineError {
        LineError::Field {
            field,
            expected: expected.into(),
            found: None,
        }
    }

    /// `field` holds `found`, which is not what it should.
    pub fn found(
        field: &'static str,
        expected: impl Into<String>,
        found: impl ToString,
    ) -> LineError {
        LineError::Field {
            field,
            expected: expected.into(),
            found: Some(found.to_string()),
        }
    }

    /// `field` is missing.
    pub fn missing(field: &'static str, expected: impl Into<String>) -> LineError {
        LineError::Missing {
            field,
            expected: expected.into(),
        }
    }

    /// What was expected where the line went wrong, when the error knows it.
    pub fn expected(&self) -> Option<String> {
        match self {
            LineError::NotJson { .. } => Some("one JSON object on the line".into()),
            LineError::NotAnObject(e) => Some((*e).to_string()),
            LineError::Unknown { what, .. } => Some(format!("the id of one of the pack's {what}s")),
            LineError::UnknownFields { known, .. } => Some(if known.is_empty() {
                "no other field".to_string()
            } else {
                format!("one of the fields {}", known.join(", "))
            }),
            LineError::Missing { expected, .. } | LineError::Field { expected, .. } => {
                Some(expected.clone())
            }
            LineError::Back(_) | LineError::Invalid(_) => None,
        }
    }

    /// The text in the line the error is about (a field's key, an unknown id), to locate it.
    fn anchor(&self) -> Option<String> {
        match self {
            LineError::UnknownFields { fields, .. } => fields.first().map(|f| format!("\"{f}\"")),
            LineError::Field { field, .. } => Some(format!("\"{field}\"")),
            LineError::Unknown { id, .. } => Some(format!("\"{id}\"")),
            _ => None,
        }
    }
}

/// Refuses the fields of `obj` that are not in `known`, naming them.
pub fn only_fields(obj: &Map<String, Value>, known: &[&str]) -> Result<(), LineError> {
    let fields: Vec<String> = obj
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .cloned()
        .collect();
    if fields.is_empty() {
        Ok(())
    } else {
        Err(LineError::UnknownFields {
            fields,
            known: known.iter().map(|k| k.to_string()).collect(),
        })
    }
}

/// The reading half every line tool shares: the content of a script line, or None for a
/// blank line or a `#` comment.
pub fn content(line: &str) -> Option<&str> {
    let t = line.trim();
    (!t.is_empty() && !t.starts_with('#')).then_some(t)
}

/// Parses a line's content as one JSON object. `not_json` prefixes the parser's message;
/// `expected` is the whole refusal when the JSON is not an object.
pub fn parse_object(
    line: &str,
    not_json: &'static str,
    expected: &'static str,
) -> Result<Map<String, Value>, LineError> {
    match serde_json::from_str(line) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(LineError::NotAnObject(expected)),
        Err(e) => Err(LineError::NotJson {
            prefix: not_json,
            detail: e.to_string(),
            column: char_column(line, e.column()),
        }),
    }
}

/// serde_json's column (1-based, in bytes) as a 1-based column in characters of `line`
/// (a byte column inside a multi-byte character counts as that character).
fn char_column(line: &str, byte_column: usize) -> usize {
    let mut end = byte_column.saturating_sub(1).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].chars().count() + 1
}

/// A refused line: where (1-based line of the script, 1-based column in that line) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct LineFault {
    pub line: usize,
    pub column: usize,
    pub error: LineError,
}

impl LineFault {
    /// Locates `error` in the raw line `raw` (number `line`): where the JSON parser stopped,
    /// the key of the field or the id it names, or else the start of the line's content.
    pub fn locate(line: usize, raw: &str, error: LineError) -> LineFault {
        let lead = raw.len() - raw.trim_start().len();
        let chars_before = |byte: usize| raw[..byte].chars().count();
        let column = match &error {
            LineError::NotJson { column, .. } => chars_before(lead) + column,
            e => match e.anchor().and_then(|a| raw.find(&a)) {
                Some(at) => chars_before(at) + 1,
                None => chars_before(lead) + 1,
            },
        };
        LineFault {
            line,
            column,
            error,
        }
    }
}

/// The reply to a refused line, the same for every line tool:
/// `{"ok": false, "error", "line", "column", "expected"?}`.
pub fn fault_reply(f: &LineFault) -> Value {
    let mut v = json!({"ok": false, "error": f.error.to_string(), "line": f.line,
                       "column": f.column});
    if let Some(e) = f.error.expected() {
        v["expected"] = json!(e);
    }
    v
}

/// One line protocol: a reply for each line, and what it says before the first line and
/// after the last.
pub trait LineTool {
    /// How the tool words a line that is not JSON, and what it wants instead (a sentence
    /// with an example).
    const NOT_JSON: &'static str;
    const EXPECTED: &'static str;
    /// Said before the first line (`events`: the initial state).
    fn start(&mut self) -> Option<Value> {
        None
    }
    /// The reply to one line's JSON object, or why it is refused (nothing changed then).
    fn reply(&mut self, obj: &Map<String, Value>) -> Result<Value, LineError>;
    /// Said after the last line (`triggers`: the explanations asked for).
    fn end(&mut self) -> Vec<Value> {
        Vec::new()
    }
}

/// Handles raw line number `n` (1-based): None for a blank line or a comment, else the reply
/// (Err: the line was refused, its fault reply).
pub fn handle<T: LineTool>(tool: &mut T, n: usize, raw: &str) -> Option<Result<Value, Value>> {
    let t = content(raw)?;
    let r = parse_object(t, T::NOT_JSON, T::EXPECTED).and_then(|o| tool.reply(&o));
    Some(r.map_err(|e| fault_reply(&LineFault::locate(n, raw, e))))
}

/// How a line tool prints its replies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line.
    #[default]
    Json,
    /// One readable line per reply ([`text_line`]).
    Text,
}

/// A reply as one readable line: `key: value` pairs in the reply's order, lists joined with
/// commas (`-` when empty), objects as `name=value`; a refusal as
/// `line L, column C: error (expected: …)`.
pub fn text_line(v: &Value) -> String {
    fn item(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Array(a) if a.is_empty() => "-".into(),
            Value::Array(a) => a.iter().map(item).collect::<Vec<_>>().join(", "),
            Value::Object(o) if o.is_empty() => "-".into(),
            Value::Object(o) => o
                .iter()
                .map(|(k, v)| match v {
                    Value::Object(_) | Value::Array(_) => format!("{k}=[{}]", item(v)),
                    _ => format!("{k}={}", item(v)),
                })
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        }
    }
    let Value::Object(o) = v else {
        return item(v);
    };
    if o.get("ok") == Some(&Value::Bool(false)) {
        let mut s = format!(
            "line {}, column {}: {}",
            item(o.get("line").unwrap_or(&Value::Null)),
            item(o.get("column").unwrap_or(&Value::Null)),
            item(o.get("error").unwrap_or(&Value::Null))
        );
        if let Some(e) = o.get("expected") {
            s.push_str(&format!(" (expected: {})", item(e)));
        }
        return s;
    }
    o.iter()
        .map(|(k, v)| format!("{k}: {}", item(v)))
        .collect::<Vec<_>>()
        .join("  ")
}

/// Runs a line tool over `input` (lines not UTF-8 are read lossily; they then fail to parse,
/// with a reply), writing one JSON line per reply to `out` (flushed after each, for
/// interactive use). Returns how many lines were refused.
pub fn run<T: LineTool>(
    tool: &mut T,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<usize> {
    run_as(tool, input, out, Format::Json)
}

/// [`run`], printing each reply in `format`.
pub fn run_as<T: LineTool>(
    tool: &mut T,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    format: Format,
) -> std::io::Result<usize> {
    let show = |v: &Value| match format {
        Format::Json => v.to_string(),
        Format::Text => text_line(v),
    };
    if let Some(v) = tool.start() {
        writeln!(out, "{}", show(&v))?;
        out.flush()?;
    }
    let mut bad = 0;
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        n += 1;
        match handle(tool, n, &String::from_utf8_lossy(&buf)) {
            None => continue,
            Some(Ok(v)) => writeln!(out, "{}", show(&v))?,
            Some(Err(v)) => {
                bad += 1;
                writeln!(out, "{}", show(&v))?;
            }
        }
        out.flush()?;
    }
    for v in tool.end() {
        writeln!(out, "{}", show(&v))?;
    }
    out.flush()?;
    Ok(bad)
}
