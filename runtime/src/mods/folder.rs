//! Folder packs (SPEC §7): `pack.json` holds the envelope (`format`, `version`, `name`,
//! `comment`, `extends`), the `world` and the `editor` section, and lists each section's
//! asset ids in order (`"trees": ["cycle4", …]`); each asset is its own file
//! `SECTION/ID.json` (`trees/cycle4.json`, `areas/pub_red.json`, …) in canonical bytes, so
//! version control shows one asset per file. An asset file not listed in `pack.json` is read
//! too (after the listed ones, by name) with a warning; a listed one that is missing is an
//! error. Ids that are not safe file names are refused when writing (see [`file_name`]).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::limits::{MAX_FOLDER_FILES, MAX_ID_FILE_CHARS, MAX_PACK_BYTES};
use super::locate::Texts;
use super::merge::TOP_SECTIONS;
use super::{AssetKey, FileDiagnostic};
use crate::pack::{self, Diagnostic, Pack, diag};

/// The envelope file of a folder pack.
pub const PACK_JSON: &str = "pack.json";

/// Whether `path` is a folder pack (a folder holding `pack.json`).
pub fn is_folder_pack(path: &Path) -> bool {
    path.is_dir() && path.join(PACK_JSON).is_file()
}

/// `pack.json`'s name as shown, for a folder pack shown as `name`.
pub(super) fn pack_json_name(name: &str) -> String {
    Path::new(name).join(PACK_JSON).display().to_string()
}

/// Why an id cannot name a file, or `None` when it can: ids are written as file names as
/// they are (never escaped, so the file is where a person looks for it), and refused when
/// they hold anything but ASCII letters, digits, `_`, `-` and `.` (so no `/`, `\` or `..`),
/// start with `.` or `-`, are longer than [`MAX_ID_FILE_CHARS`], or are a name Windows
/// reserves (`CON`, `NUL`, `COM1`, …, with any extension).
pub fn file_name_problem(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("it is empty".into());
    }
    if id.chars().count() > MAX_ID_FILE_CHARS {
        return Some(format!("it is longer than {MAX_ID_FILE_CHARS} characters"));
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Some(format!(
            "it holds `{c}`; file names of a folder pack use letters, digits, `_`, `-` and `.`"
        ));
    }
    if id.starts_with(['.', '-']) || id.ends_with('.') || id.contains("..") {
        return Some("it starts with `.` or `-`, ends with `.` or holds `..`".into());
    }
    let stem = id.split('.').next().unwrap_or(id).to_ascii_uppercase();
    let reserved = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && stem[3..].chars().all(|c| c.is_ascii_digit()));
    if reserved {
        return Some(format!("`{stem}` is a device name on Windows"));
    }
    None
}

/// The file of an asset inside a folder pack: `SECTION/ID.json`, or why it cannot be.
pub fn file_name(section: &str, id: &str) -> Result<PathBuf, String> {
    match file_name_problem(id) {
        None => Ok(Path::new(section).join(format!("{id}.json"))),
        Some(why) => Err(format!(
            "id `{id}` cannot be a file name in a folder pack: {why}; rename it, or keep the pack as one file"
        )),
    }
}

/// Canonical text of one JSON value (as [`pack::to_canonical_string`] writes a pack).
pub fn canonical_value(v: &Value) -> String {
    pack::value_to_canonical_string(v)
}

/// The files of a folder pack for `doc` (a pack's JSON document, or a mod's): relative path
/// → canonical text. Refuses ids that cannot be file names, and two ids of a section that
/// differ only in case (they would be one file on some systems).
pub fn folder_files(doc: &Map<String, Value>) -> Result<BTreeMap<PathBuf, String>, String> {
    let mut files = BTreeMap::new();
    let mut head = Map::new();
    for (k, v) in doc {
        let Some(&(section, _)) = TOP_SECTIONS.iter().find(|(s, _)| *s == k) else {
            head.insert(k.clone(), v.clone());
            continue;
        };
        let Value::Array(items) = v else {
            return Err(format!("`{section}` is not a list"));
        };
        let mut ids = Vec::new();
        let mut folded = BTreeSet::new();
        for (i, it) in items.iter().enumerate() {
            let Some(id) = it.get("id").and_then(Value::as_str) else {
                return Err(format!(
                    "{}: an asset without a string `id`",
                    diag::index(section, i)
                ));
            };
            if !folded.insert(id.to_ascii_lowercase()) {
                return Err(format!(
                    "two {section} ids are `{id}` when case is ignored; they would be one file on some systems"
                ));
            }
            let name = file_name(section, id)?;
            files.insert(name, canonical_value(it));
            ids.push(Value::String(id.to_string()));
        }
        head.insert(k.clone(), Value::Array(ids));
    }
    if files.len() + 1 > MAX_FOLDER_FILES {
        return Err(format!(
            "{} assets: a folder pack holds at most {MAX_FOLDER_FILES} files",
            files.len()
        ));
    }
    files.insert(
        PathBuf::from(PACK_JSON),
        canonical_value(&Value::Object(head)),
    );
    Ok(files)
}

/// Writes `pack` as a folder pack at `dir` (see [`write_doc`]).
pub fn write_pack(pack: &Pack, dir: &Path) -> Result<(), String> {
    match serde_json::to_value(pack) {
        Ok(Value::Object(doc)) => write_doc(&doc, dir),
        Ok(_) | Err(_) => Err("the pack cannot be written as JSON".into()),
    }
}

/// Writes a document as a folder pack at `dir`, each file atomically (a reader never sees a
/// half-written file), then removes the asset files of `dir` that are no longer in it. `dir`
/// may be missing, empty, or a folder pack; anything else is refused (nothing is lost).
pub fn write_doc(doc: &Map<String, Value>, dir: &Path) -> Result<(), String> {
    let files = folder_files(doc)?;
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .next()
            .is_none();
        if !empty && !is_folder_pack(dir) {
            return Err(format!(
                "{} is a folder that is not a folder pack (no {PACK_JSON}); choose an empty or new folder",
                dir.display()
            ));
        }
    }
    for (rel, text) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        let mut f = atomic_write_file::AtomicWriteFile::open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        f.write_all(text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        f.commit().map_err(|e| format!("{}: {e}", path.display()))?;
    }
    // Asset files of assets no longer in the pack.
    for (section, _) in TOP_SECTIONS {
        let sdir = dir.join(section);
        let Ok(entries) = std::fs::read_dir(&sdir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let rel = Path::new(section).join(e.file_name());
            if p.extension().is_some_and(|x| x == "json") && !files.contains_key(&rel) {
                std::fs::remove_file(&p).map_err(|err| format!("{}: {err}", p.display()))?;
            }
        }
    }
    Ok(())
}

/// A folder pack read: one document (without `extends`), its `extends`, the texts (for
/// locating diagnostics in each file) and warnings about its files.
pub(super) struct ReadFolder {
    pub doc: Map<String, Value>,
    pub extends: Vec<String>,
    pub texts: Texts,
    pub warnings: Vec<FileDiagnostic>,
}

/// Reads a folder pack into one document (without `extends`), its `extends`, and the texts
/// (for locating diagnostics in each file). `name`: the folder as shown.
pub(super) fn read_doc(dir: &Path, name: &str) -> Result<ReadFolder, Vec<FileDiagnostic>> {
    let pj_name = pack_json_name(name);
    let err = |file: &str, d: Diagnostic| {
        vec![FileDiagnostic {
            file: file.to_string(),
            diagnostic: d,
        }]
    };
    let root = std::fs::canonicalize(dir).map_err(|e| {
        err(
            name,
            Diagnostic::error("", format!("cannot read: {e}")).at(1, 1),
        )
    })?;
    let pj = root.join(PACK_JSON);
    if !pj.is_file() {
        return Err(err(
            name,
            Diagnostic::error(
                "",
                format!("a folder pack needs a `{PACK_JSON}` (the envelope and the world)"),
            )
            .at(1, 1),
        ));
    }
    let mut total = 0usize;
    let text = read_inside(&root, &pj, &mut total).map_err(|d| err(&pj_name, d))?;
    let (mut head, extends) = super::resolve::parse_text(&text).map_err(|d| err(&pj_name, d))?;
    let mut diags: Vec<FileDiagnostic> = Vec::new();
    let mut assets = BTreeMap::new();
    let mut files = 1usize;
    let locate = |text: &str, d: Diagnostic| {
        let mut ds = [d];
        diag::locate_all(text, &mut ds);
        let [d] = ds;
        d
    };
    for (section, kind) in TOP_SECTIONS {
        let listed: Vec<(usize, String)> = match head.remove(section) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => {
                let mut v = Vec::new();
                for (i, it) in items.into_iter().enumerate() {
                    match it {
                        Value::String(s) => v.push((i, s)),
                        _ => diags.push(FileDiagnostic {
                            file: pj_name.clone(),
                            diagnostic: locate(
                                &text,
                                Diagnostic::error(
                                    diag::index(section, i),
                                    format!("expected the id of a file {section}/ID.json"),
                                ),
                            ),
                        }),
                    }
                }
                v
            }
            Some(_) => {
                diags.push(FileDiagnostic {
                    file: pj_name.clone(),
                    diagnostic: locate(
                        &text,
                        Diagnostic::error(
                            section,
                            format!("expected the list of ids of the files in {section}/"),
                        ),
                    ),
                });
                Vec::new()
            }
        };
        // Files present in the section's folder, by id.
        let mut present = BTreeSet::new();
        if let Ok(entries) = std::fs::read_dir(root.join(section)) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "json")
                    && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
                {
                    present.insert(stem.to_string());
                }
            }
        }
        let listed_ids: BTreeSet<String> = listed.iter().map(|(_, s)| s.clone()).collect();
        let mut order: Vec<(Option<usize>, String)> =
            listed.into_iter().map(|(i, s)| (Some(i), s)).collect();
        order.extend(
            present
                .iter()
                .filter(|s| !listed_ids.contains(*s))
                .map(|s| (None, s.clone())),
        );
        let mut items = Vec::new();
        for (listed_at, id) in order {
            let rel = match file_name(section, &id) {
                Ok(r) => r,
                Err(msg) => {
                    // A listed id must be a file; a stray file with an odd name (`._x.json`
                    // left by some tools) is skipped with a warning.
                    let d = match listed_at {
                        Some(i) => Diagnostic::error(diag::index(section, i), msg),
                        None => Diagnostic::warning(
                            section,
                            format!("{section}/{id}.json ignored: {msg}"),
                        ),
                    };
                    diags.push(FileDiagnostic {
                        file: pj_name.clone(),
                        diagnostic: locate(&text, d),
                    });
                    continue;
                }
            };
            let shown = Path::new(name).join(&rel).display().to_string();
            files += 1;
            if files > MAX_FOLDER_FILES {
                return Err(err(
                    name,
                    Diagnostic::error(
                        "",
                        format!("a folder pack holds at most {MAX_FOLDER_FILES} files"),
                    )
                    .at(1, 1),
                ));
            }
            if !present.contains(&id) {
                diags.push(FileDiagnostic {
                    file: pj_name.clone(),
                    diagnostic: locate(
                        &text,
                        Diagnostic::error(
                            listed_at
                                .map_or_else(|| section.to_string(), |i| diag::index(section, i)),
                            format!("lists `{id}`, but {} is missing", rel.display()),
                        ),
                    ),
                });
                continue;
            }
            let atext = match read_inside(&root, &root.join(&rel), &mut total) {
                Ok(t) => t,
                Err(d) => {
                    diags.push(FileDiagnostic {
                        file: shown,
                        diagnostic: d,
                    });
                    continue;
                }
            };
            let value: Value = match serde_json::from_str(&atext) {
                Ok(v) => v,
                Err(e) => {
                    let mut msg = e.to_string();
                    if let Some(cut) = msg.rfind(" at line ") {
                        msg.truncate(cut);
                    }
                    diags.push(FileDiagnostic {
                        file: shown,
                        diagnostic: Diagnostic::error("", format!("invalid JSON: {msg}"))
                            .at(e.line() as u32, e.column().max(1) as u32),
                    });
                    continue;
                }
            };
            if value.get("id").and_then(Value::as_str) != Some(id.as_str()) {
                diags.push(FileDiagnostic {
                    file: shown,
                    diagnostic: locate(
                        &atext,
                        Diagnostic::error(
                            if value.get("id").is_some() { "id" } else { "" },
                            format!("the file of `{id}` must hold `\"id\": \"{id}\"`"),
                        ),
                    ),
                });
                continue;
            }
            if listed_at.is_none() {
                diags.push(FileDiagnostic {
                    file: pj_name.clone(),
                    diagnostic: locate(
                        &text,
                        Diagnostic::warning(
                            section,
                            format!(
                                "{} is not listed in `{section}`; read after the listed ones (add its id to the list to place it)",
                                rel.display()
                            ),
                        ),
                    ),
                });
            }
            assets.insert(AssetKey::new(kind, &id), (shown, atext));
            items.push(value);
        }
        if !items.is_empty() {
            head.insert(section.to_string(), Value::Array(items));
        }
    }
    if diags.iter().any(FileDiagnostic::is_error) {
        return Err(diags);
    }
    Ok(ReadFolder {
        doc: head,
        extends,
        texts: Texts::Folder {
            pack_json: text,
            assets,
        },
        warnings: diags,
    })
}

/// Reads a file of the folder pack rooted at canonical `root`: it must resolve inside it
/// (no symlink out), be a regular file, and keep the whole pack within [`MAX_PACK_BYTES`].
fn read_inside(root: &Path, path: &Path, total: &mut usize) -> Result<String, Diagnostic> {
    let canon = std::fs::canonicalize(path)
        .map_err(|e| Diagnostic::error("", format!("cannot read: {e}")).at(1, 1))?;
    if !canon.starts_with(root) {
        return Err(Diagnostic::error(
            "",
            format!(
                "resolves to {}, outside the folder pack {}; a pack never reads outside its folder",
                canon.display(),
                root.display()
            ),
        )
        .at(1, 1));
    }
    let bytes = pack::read_file(&canon)?;
    *total += bytes.len();
    if *total > MAX_PACK_BYTES {
        return Err(Diagnostic::error(
            "",
            format!(
                "the folder pack's files add up to more than {} MiB, the limit of a pack",
                MAX_PACK_BYTES / (1024 * 1024)
            ),
        )
        .at(1, 1));
    }
    String::from_utf8(bytes)
        .map_err(|e| Diagnostic::error("", format!("not UTF-8 text: {e}")).at(1, 1))
}
