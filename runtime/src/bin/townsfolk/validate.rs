//! `townsfolk validate`: every problem of each pack, as text or JSON.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Check packs: every problem with its line, column and JSON path.
///
/// Prints every problem as `file:line:col: severity: json.path: message`, the path naming
/// the id of each list element (`trees[0] (cycle4).root`). Exits 1 when any pack has an
/// error.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk validate samples/guards.json samples/plaza.json
  townsfolk validate --format json samples/dungeon.json
  townsfolk validate --with samples/daily_life.json samples/mods/third_pub.json")]
pub(super) struct Args {
    /// Pack files (`.json`), folder packs or mods (their `extends` followed) to check.
    #[arg(required = true, value_name = "PACK")]
    packs: Vec<PathBuf>,
    /// Output format: `text` (one line per problem, a summary per pack on stderr) or
    /// `json` (one array of every problem, each with its `file`; `path` is the machine path,
    /// `named_path` the one shown, when some element on it has an id).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// A base pack to layer each pack on (repeatable, lowest first): lets a mod extend a base
    /// outside its folder tree.
    #[arg(long = "with", value_name = "BASE")]
    with: Vec<PathBuf>,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    use townsfolk_runtime::pack::Severity;
    let Args {
        packs,
        format,
        with,
    } = a;
    let mut any_error = false;
    let mut all = Vec::new();
    for path in &packs {
        let loaded = open_pack(path, &with);
        any_error |= loaded.has_errors();
        match format {
            Format::Text => {
                for d in &loaded.diagnostics {
                    outln!("{}", d.render());
                }
                let count = |s: Severity| {
                    loaded
                        .diagnostics
                        .iter()
                        .filter(|d| d.diagnostic.severity == s)
                        .count()
                };
                let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
                let notes = match count(Severity::Note) {
                    0 => String::new(),
                    1 => ", 1 note".to_string(),
                    n => format!(", {n} notes"),
                };
                errln!(
                    "{}: {} error{}, {} warning{}{notes}",
                    path.display(),
                    errors,
                    if errors == 1 { "" } else { "s" },
                    warnings,
                    if warnings == 1 { "" } else { "s" }
                );
            }
            Format::Json => {
                for d in loaded.diagnostics {
                    let mut v = serde_json::to_value(&d.diagnostic)?;
                    if let Some(o) = v.as_object_mut() {
                        o.insert("file".into(), d.file.into());
                    }
                    all.push(v);
                }
            }
        }
    }
    if format == Format::Json {
        outln!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(if any_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
