//! What an import tells its user: warnings naming file, line and construct, the placeholder
//! nodes to map by hand, and the errors that stop an import.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::pack::{Literal, VarDecl};
use crate::value::Type;

/// A construct imported approximately or dropped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Warning {
    /// The file, as given or as reached through includes.
    pub file: String,
    /// 1-based line (0: the whole file).
    pub line: u32,
    /// The construct, e.g. `<RunOnce>` or `_onSuccess`.
    pub construct: String,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: warning: {}: {}",
            self.file, self.line, self.construct, self.message
        )
    }
}

/// An unknown action or condition imported as a placeholder: a `condition` node over the
/// blackboard bool `var` (declared `true`), to be replaced by a Townsfolk node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placeholder {
    pub file: String,
    pub line: u32,
    /// The tree holding it and the node's id there.
    pub tree: String,
    pub node: String,
    /// `Action` or `Condition` (from the source's node model; `Action` when undeclared).
    pub category: String,
    /// The source node type, e.g. `OpenGripper`.
    pub source_type: String,
    /// The blackboard variable standing for its result.
    pub var: String,
}

/// The report of one import.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ImportReport {
    pub warnings: Vec<Warning>,
    pub placeholders: Vec<Placeholder>,
}

impl ImportReport {
    pub fn warn(&mut self, file: &str, line: u32, construct: &str, message: impl Into<String>) {
        self.warnings.push(Warning {
            file: file.to_string(),
            line,
            construct: construct.to_string(),
            message: message.into(),
        });
    }
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for w in &self.warnings {
            writeln!(f, "{w}")?;
        }
        for p in &self.placeholders {
            writeln!(
                f,
                "{}:{}: placeholder: {} `{}` is tree `{}` node `{}`: a condition over blackboard bool `{}` until mapped",
                p.file, p.line, p.category, p.source_type, p.tree, p.node, p.var
            )?;
        }
        Ok(())
    }
}

/// Why an import stopped. Each names the file (and line where there is one).
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
    #[error("{file}: {bytes} bytes is over the {limit}-byte file limit")]
    TooLarge {
        file: String,
        bytes: u64,
        limit: u64,
    },
    #[error("{file}: not well-formed XML: {message}")]
    Xml { file: String, message: String },
    #[error("{file}: not valid JSON: {message}")]
    Json { file: String, message: String },
    #[error("{file}:{line}: {message}")]
    Invalid {
        file: String,
        line: u32,
        message: String,
    },
    #[error("{file}:{line}: include `{path}` refused: {why}")]
    IncludeRefused {
        file: String,
        line: u32,
        path: String,
        why: String,
    },
    #[error("include cycle: {}", chain.join(" -> "))]
    IncludeCycle { chain: Vec<String> },
    #[error("{file}: over the limit of {limit} {what}")]
    Limit {
        file: String,
        what: &'static str,
        limit: usize,
    },
}

/// Declares (once per tree) the blackboard bool that stands for an unmapped `category` node
/// `ty` of `tool` until the user maps it, and gives its name, `stub_TYPE` (characters that
/// cannot be in a variable name become `_`): a placeholder is a `condition` over it.
pub(crate) fn declare_stub(
    blackboard: &mut BTreeMap<String, VarDecl>,
    tool: &str,
    category: &str,
    ty: &str,
) -> String {
    let var: String = std::iter::once("stub_".to_string())
        .chain(ty.chars().map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                "_".into()
            }
        }))
        .collect();
    blackboard.entry(var.clone()).or_insert(VarDecl {
        ty: Type::Bool,
        default: Some(Literal::Bool(true)),
        comment: Some(format!(
            "stands for the result of {tool} {category} `{ty}` until it is mapped"
        )),
    });
    var
}
