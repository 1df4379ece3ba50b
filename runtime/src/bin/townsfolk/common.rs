//! Shared by the subcommands: printing (a closed pipe ends a command quietly), loading
//! packs, reading line scripts, printing diagnostics.

#[allow(unused_imports)]
use super::*;

/// `outln!` to standard output that hands back the write error with `?` instead of
/// panicking: a reader that went away (`townsfolk schema | head -1`) ends the command, and
/// [`ends_quietly`] turns that into exit code 0.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `out!` to standard output, like [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `errln!` that never panics: when nobody reads standard error any more
/// (`townsfolk validate bad.json 2>&1 | head -1`) the message is dropped.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Whether an error is standard output's reader having gone away (a broken pipe), which
/// ends a command quietly with exit code 0, as it does for `cat` or `grep`.
pub(super) fn ends_quietly(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Output format of the commands that print either text or JSON.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(super) enum Format {
    Text,
    Json,
}

/// Loads a pack for the story commands and picks the scenario.
pub(super) fn story_program(
    path: &Path,
    scenario: Option<&str>,
) -> Result<(std::sync::Arc<Program>, u32), ExitCode> {
    let (_, program) = load_program(path, "use")?;
    let lib = &program.events;
    let known: Vec<&str> = lib.scenarios.iter().map(|s| s.id.as_str()).collect();
    let chosen = match scenario {
        Some(id) => lib.scenario(id),
        None if lib.scenarios.len() == 1 => Some(0),
        None => lib.world_scenario,
    };
    let Some(s) = chosen else {
        match scenario {
            Some(id) => errln!(
                "error: {}: unknown scenario `{id}`; scenarios: {}",
                path.display(),
                if known.is_empty() {
                    "(none)".to_string()
                } else {
                    known.join(", ")
                }
            ),
            None => errln!(
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
    Ok((program, s))
}

/// Loads a pack; a pack with errors is refused (its diagnostics printed, the exit code to
/// return comes back). `what` completes "cannot … a pack with errors".
pub(super) fn load_valid(path: &Path, what: &str) -> Result<pack::Pack, ExitCode> {
    let loaded = program::load_file(path);
    match loaded.pack {
        Some(p) if !loaded.diagnostics.iter().any(|d| d.is_error()) => Ok(p),
        _ => {
            print_diags(path, &loaded.diagnostics);
            errln!("{}: cannot {what} a pack with errors", path.display());
            Err(ExitCode::from(1))
        }
    }
}

/// Loads a pack and keeps the program its checks compiled (one build). A pack with errors is
/// refused: its diagnostics are printed and the exit code to return comes back.
pub(super) fn load_program(
    path: &Path,
    what: &str,
) -> Result<(pack::Pack, std::sync::Arc<Program>), ExitCode> {
    let (loaded, program) = program::load_file_built(path);
    match (loaded.pack, program) {
        (Some(p), Some(program)) if !loaded.diagnostics.iter().any(|d| d.is_error()) => {
            Ok((p, std::sync::Arc::new(program)))
        }
        _ => {
            print_diags(path, &loaded.diagnostics);
            errln!("{}: cannot {what} a pack with errors", path.display());
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
    let Some(dt) = dt else {
        // The program the checks compiled is the session's.
        let (p, program) = load_program(path, what)?;
        return Ok((p, Session::new(program, seed)));
    };
    // Another tick length changes the compiled durations: build again with it.
    let mut p = load_valid(path, what)?;
    p.world.dt = dt;
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
    format: Format,
) -> anyhow::Result<ExitCode> {
    let mut input: Box<dyn std::io::BufRead> = match script {
        Some(f) => Box::new(std::io::BufReader::new(
            std::fs::File::open(f).with_context(|| format!("cannot read {}", f.display()))?,
        )),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let format = match format {
        Format::Text => townsfolk_runtime::tools::Format::Text,
        Format::Json => townsfolk_runtime::tools::Format::Json,
    };
    let bad = townsfolk_runtime::tools::run_as(tool, &mut input, &mut out, format)?;
    if bad > 0 {
        errln!(
            "error: {bad} line{} refused (their replies say where and why)",
            if bad == 1 { " was" } else { "s were" }
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn print_diags(file: &Path, diags: &[Diagnostic]) {
    for d in diags {
        errln!("{}", d.render(&file.display().to_string()));
    }
}
