//! `townsfolk merge`: a base pack and mods on it, resolved into one pack.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Merge a base pack and mods into one pack (canonical bytes).
///
/// The first pack is the base; each mod after it is applied in order (its own `extends`
/// resolved first). Two mods that change the same part of an asset, neither extending the
/// other, are a conflict: an error naming both files. Nothing is written while any error
/// remains.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk merge samples/daily_life.json samples/mods/third_pub.json -o town.json
  townsfolk merge samples/daily_life.json samples/mods/cheap_ale.json samples/mods/closed_bar.json # exit 1: a conflict")]
pub(super) struct Args {
    /// The base pack, then the mods (files or folder packs), lowest first.
    #[arg(required = true, value_name = "PACK")]
    packs: Vec<PathBuf>,
    /// Write the merged pack here (standard output without it).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let r = mods::resolve_files(&a.packs);
    print_file_diags(&r.diagnostics);
    let Some(p) = r.pack.as_ref().filter(|_| !r.has_errors() && !r.lossy) else {
        errln!("not merged: fix the errors above first");
        return Ok(ExitCode::from(1));
    };
    let text = pack::to_canonical_string(p);
    match &a.output {
        Some(out) => super::pack_cmd::write_file(out, &text)?,
        None => out!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
