//! `townsfolk pack`: a folder pack into one pack file.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Convert a folder pack (`pack.json` + one file per asset) into one pack file.
///
/// The pack file is the canonical form of the folder's pack: `townsfolk unpack` of it gives
/// the folder back, byte for byte. Refused while parts of the folder cannot be read, or
/// when unknown fields would be dropped.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk unpack samples/guards.json -o guards/
  townsfolk pack guards/ -o guards.json")]
pub(super) struct Args {
    /// The folder pack to convert.
    folder: PathBuf,
    /// The pack file to write.
    #[arg(short, long)]
    output: PathBuf,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    if !mods::folder::is_folder_pack(&a.folder) {
        errln!(
            "error: {} is not a folder pack (a folder with {})",
            a.folder.display(),
            mods::folder::PACK_JSON
        );
        return Ok(ExitCode::from(1));
    }
    let r = mods::resolve_files(std::slice::from_ref(&a.folder));
    if r.layers.len() > 1 {
        errln!(
            "error: {} extends other packs; `townsfolk merge` resolves a mod into one pack",
            a.folder.display()
        );
        return Ok(ExitCode::from(1));
    }
    let Some(p) = r.pack.as_ref().filter(|_| !r.lossy) else {
        print_file_diags(&r.diagnostics);
        errln!(
            "{}: not converted: parts of the pack could not be read (fix the errors above first)",
            a.folder.display()
        );
        return Ok(ExitCode::from(1));
    };
    if !r.unknown_fields.is_empty() {
        print_file_diags(&r.diagnostics);
        errln!(
            "{}: not converted: it would drop {} unknown field(s) listed above",
            a.folder.display(),
            r.unknown_fields.len()
        );
        return Ok(ExitCode::from(1));
    }
    write_file(&a.output, &pack::to_canonical_string(p))?;
    Ok(ExitCode::SUCCESS)
}

/// Writes a file atomically: readers see the old bytes or the new ones, never half.
pub(super) fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut f = atomic_write_file::AtomicWriteFile::open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.commit()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// `townsfolk fmt FOLDER`: every file of a folder pack in canonical form (`--check`: exit 1
/// when one is not, or when an asset file is not listed in `pack.json`).
pub(super) fn fmt_folder(
    folder: &Path,
    output: Option<&Path>,
    check: bool,
    drop_unknown: bool,
) -> anyhow::Result<ExitCode> {
    let r = mods::resolve_files(&[folder.to_path_buf()]);
    if r.layers.len() > 1 {
        errln!(
            "error: {} extends other packs; only a whole folder pack is formatted",
            folder.display()
        );
        return Ok(ExitCode::from(1));
    }
    let Some(p) = r.pack.as_ref().filter(|_| !r.lossy) else {
        print_file_diags(&r.diagnostics);
        errln!(
            "{}: not formatted: parts of the pack could not be read (fix the errors above first)",
            folder.display()
        );
        return Ok(ExitCode::from(1));
    };
    if !r.unknown_fields.is_empty() && !check && !drop_unknown {
        print_file_diags(&r.diagnostics);
        errln!(
            "{}: not formatted: formatting would drop {} unknown field(s) listed above; fix their names or pass --drop-unknown",
            folder.display(),
            r.unknown_fields.len()
        );
        return Ok(ExitCode::from(1));
    }
    if check {
        let doc = match serde_json::to_value(p)? {
            serde_json::Value::Object(m) => m,
            _ => anyhow::bail!("the pack cannot be written as JSON"),
        };
        let files = mods::folder::folder_files(&doc).map_err(anyhow::Error::msg)?;
        let mut bad = Vec::new();
        for (rel, text) in &files {
            if std::fs::read(folder.join(rel)).ok().as_deref() != Some(text.as_bytes()) {
                bad.push(rel.display().to_string());
            }
        }
        // Files not listed (read with a warning) are not canonical either.
        bad.extend(
            r.diagnostics
                .iter()
                .filter(|d| d.diagnostic.message.contains("is not listed in"))
                .map(|d| d.diagnostic.message.clone()),
        );
        if bad.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
        errln!(
            "{}: not canonical: {} (run `townsfolk fmt {}`)",
            folder.display(),
            bad.join(", "),
            folder.display()
        );
        return Ok(ExitCode::from(1));
    }
    if let Err(e) = mods::folder::write_pack(p, output.unwrap_or(folder)) {
        errln!("error: {e}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
