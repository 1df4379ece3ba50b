//! `townsfolk validate`: every problem of each pack, as text or JSON.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn validate(packs: &[PathBuf], format: Format) -> anyhow::Result<ExitCode> {
    let mut any_error = false;
    let mut all = Vec::new();
    for path in packs {
        let loaded = program::load_file(path);
        any_error |= loaded.has_errors();
        match format {
            Format::Text => {
                for d in &loaded.diagnostics {
                    println!("{}", d.render(&path.display().to_string()));
                }
                let errors = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
                let warnings = loaded.diagnostics.len() - errors;
                eprintln!(
                    "{}: {} error{}, {} warning{}",
                    path.display(),
                    errors,
                    if errors == 1 { "" } else { "s" },
                    warnings,
                    if warnings == 1 { "" } else { "s" }
                );
            }
            Format::Json => {
                for d in loaded.diagnostics {
                    let mut v = serde_json::to_value(&d)?;
                    if let Some(o) = v.as_object_mut() {
                        o.insert("file".into(), path.display().to_string().into());
                    }
                    all.push(v);
                }
            }
        }
    }
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(if any_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
