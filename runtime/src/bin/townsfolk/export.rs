//! `townsfolk export btcpp PACK -o FILE.xml`: a pack's trees as BehaviorTree.CPP v4 XML.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::interop;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(super) enum ExportFormat {
    /// BehaviorTree.CPP v4 XML; Townsfolk-only nodes become `tf_*` custom nodes declared in
    /// `TreeNodesModel`.
    Btcpp,
}

/// Export a pack's behavior trees to another tool's format. Exits 1 when the pack cannot
/// be read.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk export btcpp samples/daily_life.json -o daily_life.xml
  townsfolk export btcpp samples/nope.json -o x.xml  # exit 1: cannot be read")]
pub(super) struct ExportArgs {
    /// The target format.
    #[arg(value_enum)]
    format: ExportFormat,
    /// The pack file (`.json`) whose trees are exported.
    pack: PathBuf,
    /// The file to write.
    #[arg(short, long)]
    output: PathBuf,
}

pub(super) fn export(a: ExportArgs) -> anyhow::Result<ExitCode> {
    let loaded = pack::load_file(&a.pack);
    let Some(p) = loaded
        .pack
        .filter(|_| !loaded.diagnostics.iter().any(|d| d.is_error()))
    else {
        common::print_diags(&a.pack, &loaded.diagnostics);
        errln!(
            "error: {}: cannot be read; nothing exported",
            a.pack.display()
        );
        return Ok(ExitCode::from(1));
    };
    let text = match a.format {
        ExportFormat::Btcpp => interop::export_btcpp(&p)?,
    };
    std::fs::write(&a.output, text).with_context(|| format!("writing {}", a.output.display()))?;
    outln!("exported {} trees to {}", p.trees.len(), a.output.display());
    Ok(ExitCode::SUCCESS)
}
