//! `townsfolk fmt`: the canonical form of a pack.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Rewrite a pack in canonical form (stable key order, 2-space indent, final newline).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk fmt --check samples/guards.json
  townsfolk fmt samples/guards.json -o guards.json")]
pub(super) struct Args {
    /// The pack file (`.json`) or folder pack to format; rewritten in place unless -o or
    /// --check.
    pack: PathBuf,
    /// Write here instead of rewriting the pack in place.
    #[arg(short, long, conflicts_with = "check")]
    output: Option<PathBuf>,
    /// Change nothing; exit 1 if the pack is not canonical.
    #[arg(long)]
    check: bool,
    /// Rewrite even if the pack has unknown fields (they are dropped).
    #[arg(long)]
    drop_unknown: bool,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, output, check, drop_unknown) = (
        a.pack.as_path(),
        a.output.as_deref(),
        a.check,
        a.drop_unknown,
    );
    if path.is_dir() {
        return super::pack_cmd::fmt_folder(path, output, check, drop_unknown);
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let loaded = program::load_bytes(&bytes);
    if loaded.unknown_fields.iter().any(|f| f == "extends") {
        // Formatting a mod as a pack would drop its `extends` and its patch markers.
        errln!(
            "{}: not formatted: it is a mod (it has `extends`); fmt formats whole packs and folder packs",
            path.display()
        );
        return Ok(ExitCode::from(1));
    }
    let Some(p) = loaded.pack.as_ref().filter(|_| !loaded.lossy) else {
        print_diags(path, &loaded.diagnostics);
        errln!(
            "{}: not formatted: parts of the pack could not be read (fix the errors above first)",
            path.display()
        );
        return Ok(ExitCode::from(1));
    };
    if !loaded.unknown_fields.is_empty() && !check && !drop_unknown {
        print_diags(path, &loaded.diagnostics);
        errln!(
            "{}: not formatted: formatting would drop {} unknown field(s) listed above; fix their names or pass --drop-unknown",
            path.display(),
            loaded.unknown_fields.len()
        );
        return Ok(ExitCode::from(1));
    }
    let text = pack::to_canonical_string(p);
    if check {
        if text.as_bytes() == bytes.as_slice() {
            return Ok(ExitCode::SUCCESS);
        }
        errln!(
            "{}: not canonical (run `townsfolk fmt {}`)",
            path.display(),
            path.display()
        );
        return Ok(ExitCode::from(1));
    }
    let out = output.unwrap_or(path);
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(ExitCode::SUCCESS)
}
