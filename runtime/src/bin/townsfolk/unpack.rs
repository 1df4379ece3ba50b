//! `townsfolk unpack`: a pack file into a folder pack.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Convert a pack file into a folder pack: `pack.json` (envelope, world, editor section and
/// each section's ids in order) and one canonical file per asset, `SECTION/ID.json`.
///
/// The folder may be new, empty or a folder pack (its asset files no longer in the pack are
/// removed); each file is written atomically. Ids that are not safe file names (`/`, `..`,
/// device names such as `CON`) are refused, never escaped.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk unpack samples/daily_life.json -o daily_life/
  townsfolk validate daily_life/")]
pub(super) struct Args {
    /// The pack file to convert.
    pack: PathBuf,
    /// The folder to write.
    #[arg(short, long)]
    output: PathBuf,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let loaded = program::load_file(&a.pack);
    if loaded.unknown_fields.iter().any(|f| f == "extends") {
        errln!(
            "error: {} extends other packs; `townsfolk merge` resolves a mod into one pack first",
            a.pack.display()
        );
        return Ok(ExitCode::from(1));
    }
    let Some(p) = loaded.pack.as_ref().filter(|_| !loaded.lossy) else {
        print_diags(&a.pack, &loaded.diagnostics);
        errln!(
            "{}: not converted: parts of the pack could not be read (fix the errors above first)",
            a.pack.display()
        );
        return Ok(ExitCode::from(1));
    };
    if !loaded.unknown_fields.is_empty() {
        print_diags(&a.pack, &loaded.diagnostics);
        errln!(
            "{}: not converted: it would drop {} unknown field(s) listed above",
            a.pack.display(),
            loaded.unknown_fields.len()
        );
        return Ok(ExitCode::from(1));
    }
    if let Err(e) = mods::folder::write_pack(p, &a.output) {
        errln!("error: {e}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
