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

/// A pack as the commands open it: a pack file, a folder pack, or a mod with its bases
/// resolved (`extends`, and the bases given with `--with`), each diagnostic with its file.
pub(super) struct Opened {
    pub pack: Option<pack::Pack>,
    pub program: Option<Program>,
    pub diagnostics: Vec<FileDiagnostic>,
    /// The layer of each mod-made asset (`mods::layer_names`; empty for a plain pack).
    pub layers: std::collections::BTreeMap<mods::AssetKey, String>,
}

impl Opened {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(FileDiagnostic::is_error)
    }
}

/// Opens `path` with the bases `with` under it. A plain pack file (no `extends`, no `--with`)
/// is read as before, by `program::load_file_built`; a folder pack or a mod is resolved by
/// `mods::resolve_files_built`.
pub(super) fn open_pack(path: &Path, with: &[PathBuf]) -> Opened {
    if with.is_empty() && !path.is_dir() {
        let (loaded, program) = program::load_file_built(path);
        if !loaded.unknown_fields.iter().any(|f| f == "extends") {
            let file = path.display().to_string();
            return Opened {
                pack: loaded.pack,
                program,
                layers: Default::default(),
                diagnostics: loaded
                    .diagnostics
                    .into_iter()
                    .map(|diagnostic| FileDiagnostic {
                        file: file.clone(),
                        diagnostic,
                    })
                    .collect(),
            };
        }
    }
    let mut paths = with.to_vec();
    paths.push(path.to_path_buf());
    let (r, program) = mods::resolve_files_built(&paths);
    Opened {
        layers: mods::layer_names(&r),
        pack: r.pack,
        program,
        diagnostics: r.diagnostics,
    }
}

/// Loads a pack; a pack with errors is refused (its diagnostics printed, the exit code to
/// return comes back). `what` completes "cannot … a pack with errors".
pub(super) fn load_valid(path: &Path, what: &str) -> Result<pack::Pack, ExitCode> {
    load_valid_with(path, &[], what)
}

/// [`load_valid`] with bases given on the command line (`--with`).
pub(super) fn load_valid_with(
    path: &Path,
    with: &[PathBuf],
    what: &str,
) -> Result<pack::Pack, ExitCode> {
    Ok(load_program_with(path, with, what)?.0)
}

/// Loads a pack and keeps the program its checks compiled (one build). A pack with errors is
/// refused: its diagnostics are printed and the exit code to return comes back.
pub(super) fn load_program(
    path: &Path,
    what: &str,
) -> Result<(pack::Pack, std::sync::Arc<Program>), ExitCode> {
    load_program_with(path, &[], what)
}

/// [`load_program`] with bases given on the command line (`--with`).
pub(super) fn load_program_with(
    path: &Path,
    with: &[PathBuf],
    what: &str,
) -> Result<(pack::Pack, std::sync::Arc<Program>), ExitCode> {
    load_program_layered(path, with, what).map(|(p, program, _)| (p, program))
}

/// The layer of each mod-made asset, beside the pack and program.
type Layers = std::collections::BTreeMap<mods::AssetKey, String>;

/// [`load_program_with`], also giving the layer of each mod-made asset.
fn load_program_layered(
    path: &Path,
    with: &[PathBuf],
    what: &str,
) -> Result<(pack::Pack, std::sync::Arc<Program>, Layers), ExitCode> {
    let opened = open_pack(path, with);
    let errors = opened.has_errors();
    match (opened.pack, opened.program) {
        (Some(p), Some(program)) if !errors => Ok((p, std::sync::Arc::new(program), opened.layers)),
        _ => {
            print_file_diags(&opened.diagnostics);
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
    open_session_with(path, &[], seed, dt, what)
}

/// [`open_session`] with bases given on the command line (`--with`).
pub(super) fn open_session_with(
    path: &Path,
    with: &[PathBuf],
    seed: u64,
    dt: Option<f64>,
    what: &str,
) -> Result<(pack::Pack, Session), ExitCode> {
    open_session_layered(path, with, seed, dt, what).map(|(p, s, _)| (p, s))
}

/// [`open_session_with`], also giving the layer of each mod-made asset (for the trace and the
/// debugger to name).
pub(super) fn open_session_layered(
    path: &Path,
    with: &[PathBuf],
    seed: u64,
    dt: Option<f64>,
    what: &str,
) -> Result<(pack::Pack, Session, Layers), ExitCode> {
    let (p, program, layers) = load_program_layered(path, with, what)?;
    let Some(dt) = dt else {
        // The program the checks compiled is the session's.
        return Ok((p, Session::new(program, seed), layers));
    };
    // Another tick length changes the compiled durations: build again with it.
    let mut p = p;
    p.world.dt = dt;
    match Session::from_pack(&p, seed) {
        Ok(s) => Ok((p, s, layers)),
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

/// Prints diagnostics that carry their file (a mod's layers, a folder pack's files).
pub(super) fn print_file_diags(diags: &[FileDiagnostic]) {
    for d in diags {
        errln!("{}", d.render());
    }
}

pub(super) fn print_diags(file: &Path, diags: &[Diagnostic]) {
    for d in diags {
        errln!("{}", d.render(&file.display().to_string()));
    }
}
