//! `townsfolk import FORMAT FILE -o PACK.json`: trees from BehaviorTree.CPP v4 XML or
//! behavior3 JSON, with the import report (warnings, placeholders to map) on stderr.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::interop;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(super) enum ImportFormat {
    /// BehaviorTree.CPP v4 XML (`<root BTCPP_format="4">`), with its includes.
    Btcpp,
    /// behavior3 JSON: a desktop-editor workspace or tree, or an original-editor tree or
    /// project.
    Behavior3,
}

/// Import behavior trees from another tool into a new pack. Prints every warning as
/// `file:line: warning: construct: message` and every placeholder node to map. Exits 1 when
/// the file cannot be imported.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk export btcpp samples/guards.json -o guards.xml
  townsfolk import btcpp guards.xml -o guards_again.json
  printf '{\"root\": {\"id\": 1, \"name\": \"Log\", \"args\": {\"message\": \"hi\"}}}' > hi.json
  townsfolk import behavior3 hi.json -o hi.pack.json --json
  townsfolk import btcpp missing.xml -o x.json  # exit 1: cannot read")]
pub(super) struct ImportArgs {
    /// The source format.
    #[arg(value_enum)]
    format: ImportFormat,
    /// The file to import (BT.CPP: the main XML file; behavior3: a tree, project or
    /// `.b3-workspace`).
    file: PathBuf,
    /// The pack to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Print the report as JSON instead of lines.
    #[arg(long)]
    json: bool,
}

pub(super) fn import(a: ImportArgs) -> anyhow::Result<ExitCode> {
    let result = match a.format {
        ImportFormat::Btcpp => interop::import_btcpp_file(&a.file),
        ImportFormat::Behavior3 => interop::import_behavior3_file(&a.file),
    };
    let imported = match result {
        Ok(i) => i,
        Err(e) => {
            errln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let text = pack::to_canonical_string(&imported.pack);
    std::fs::write(&a.output, text).with_context(|| format!("writing {}", a.output.display()))?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&imported.report)?);
    } else {
        for line in imported.report.to_string().lines() {
            errln!("{line}");
        }
        outln!(
            "imported {} trees into {} ({} warnings, {} placeholders)",
            imported.pack.trees.len(),
            a.output.display(),
            imported.report.warnings.len(),
            imported.report.placeholders.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
