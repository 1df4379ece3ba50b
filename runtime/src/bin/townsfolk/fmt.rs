//! `townsfolk fmt`: the canonical form of a pack.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn fmt(
    path: &Path,
    output: Option<&Path>,
    check: bool,
    drop_unknown: bool,
) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let loaded = program::load_bytes(&bytes);
    let Some(p) = loaded.pack.as_ref().filter(|_| !loaded.lossy) else {
        print_diags(path, &loaded.diagnostics);
        eprintln!(
            "{}: not formatted: parts of the pack could not be read (fix the errors above first)",
            path.display()
        );
        return Ok(ExitCode::from(1));
    };
    if !loaded.unknown_fields.is_empty() && !check && !drop_unknown {
        print_diags(path, &loaded.diagnostics);
        eprintln!(
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
        eprintln!(
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
