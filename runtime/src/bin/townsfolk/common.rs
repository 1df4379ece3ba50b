//! Shared by the subcommands: loading packs, reading line scripts, printing diagnostics.

#[allow(unused_imports)]
use super::*;

/// Loads a pack for the story commands and picks the scenario.
pub(super) fn story_program(
    path: &Path,
    scenario: Option<&str>,
) -> Result<(std::sync::Arc<Program>, u32), ExitCode> {
    let p = load_valid(path, "use")?;
    let (program, diags) = program::build(&p);
    if diags.iter().any(Diagnostic::is_error) {
        print_diags(path, &diags);
        return Err(ExitCode::from(1));
    }
    let lib = &program.events;
    let known: Vec<&str> = lib.scenarios.iter().map(|s| s.id.as_str()).collect();
    let chosen = match scenario {
        Some(id) => lib.scenario(id),
        None if lib.scenarios.len() == 1 => Some(0),
        None => lib.world_scenario,
    };
    let Some(s) = chosen else {
        match scenario {
            Some(id) => eprintln!(
                "error: {}: unknown scenario `{id}`; scenarios: {}",
                path.display(),
                if known.is_empty() {
                    "(none)".to_string()
                } else {
                    known.join(", ")
                }
            ),
            None => eprintln!(
                "error: {}: say which scenario with --scenario ID; scenarios: {}",
                path.display(),
                if known.is_empty() {
                    "(none)".to_string()
                } else {
                    known.join(", ")
                }
            ),
        }
        return Err(ExitCode::from(1));
    };
    Ok((std::sync::Arc::new(program), s))
}

/// Loads a pack; a pack with errors is refused (its diagnostics printed, the exit code to
/// return comes back). `what` completes "cannot … a pack with errors".
pub(super) fn load_valid(path: &Path, what: &str) -> Result<pack::Pack, ExitCode> {
    let loaded = program::load_file(path);
    match loaded.pack {
        Some(p) if !loaded.diagnostics.iter().any(|d| d.is_error()) => Ok(p),
        _ => {
            print_diags(path, &loaded.diagnostics);
            eprintln!("{}: cannot {what} a pack with errors", path.display());
            Err(ExitCode::from(1))
        }
    }
}

/// Loads a pack and starts a session of it (with `dt` overriding its tick length). A pack
/// with errors is refused: its diagnostics are printed and the exit code to return comes back.
pub(super) fn open_session(
    path: &Path,
    seed: u64,
    dt: Option<f64>,
    what: &str,
) -> Result<(pack::Pack, Session), ExitCode> {
    let mut p = load_valid(path, what)?;
    if let Some(dt) = dt {
        p.world.dt = dt;
    }
    match Session::from_pack(&p, seed) {
        Ok(s) => Ok((p, s)),
        Err(diags) => {
            print_diags(path, &diags);
            Err(ExitCode::from(1))
        }
    }
}

/// Runs a line tool over `script` (or standard input): one JSON reply per line on stdout,
/// a located error reply for a bad line (the session goes on). The exit code: 1 when any
/// line was refused.
pub(super) fn run_tool<T: townsfolk_runtime::tools::LineTool>(
    script: Option<&Path>,
    tool: &mut T,
    text: bool,
) -> anyhow::Result<ExitCode> {
    let mut input: Box<dyn std::io::BufRead> = match script {
        Some(f) => Box::new(std::io::BufReader::new(
            std::fs::File::open(f).with_context(|| format!("cannot read {}", f.display()))?,
        )),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let format = if text {
        townsfolk_runtime::tools::Format::Text
    } else {
        townsfolk_runtime::tools::Format::Json
    };
    let bad = townsfolk_runtime::tools::run_as(tool, &mut input, &mut out, format)?;
    if bad > 0 {
        eprintln!(
            "error: {bad} line{} refused (their replies say where and why)",
            if bad == 1 { " was" } else { "s were" }
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn print_diags(file: &Path, diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{}", d.render(&file.display().to_string()));
    }
}
