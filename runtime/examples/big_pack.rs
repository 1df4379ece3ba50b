//! How fast oversized packs are refused, and how long a pack just under the size limit takes
//! to load (moved out of the CLI tests, which must not time anything). Run in release:
//!
//! ```sh
//! cargo run --release -p townsfolk-runtime --example big_pack
//! ```
//!
//! Each pack is the guards sample with a long list of strings (`"padding"`, each string under
//! the 65,536-character cap) inserted at the top,
//! written to a temporary file. Timed: `pack::load_file` on the file (what `townsfolk validate`
//! does), best of 5 runs. A refused pack must give exactly one error, at 1:1, naming the limit;
//! the pack under the limit must load with only the unknown-field warning.

use std::time::{Duration, Instant};

use townsfolk_runtime::pack::{self, MAX_PACK_BYTES};

/// Longest padding string: under the pack reader's cap on string length
/// (`MAX_PACK_STRING_CHARS`), so the padding itself is not an error.
const CHUNK: usize = 60_000;

/// The guards sample with a `"padding"` list of strings whose text is `pad` bytes long.
fn padded(pad: usize) -> String {
    let mut list = String::with_capacity(pad);
    let mut left = pad;
    while left > 0 {
        if left <= CHUNK + 2 {
            // The last string: its quotes and `left - 2` letters (a lone byte is a space).
            if left < 2 {
                list.push(' ');
            } else {
                list.push('"');
                list.push_str(&"x".repeat(left - 2));
                list.push('"');
            }
            break;
        }
        // Never leave a single byte for the last string.
        let n = if left - (CHUNK + 3) == 1 {
            CHUNK - 1
        } else {
            CHUNK
        };
        list.push('"');
        list.push_str(&"x".repeat(n));
        list.push_str("\",");
        left -= n + 3;
    }
    let mut s = include_str!("../../samples/guards.json").to_string();
    let at = s.find('{').map_or(0, |i| i + 1);
    s.insert_str(at, &format!("\n  \"padding\": [{list}],"));
    s
}

/// Best of `runs` timings of `load_file`, and the last result.
fn time_load(path: &std::path::Path, runs: usize) -> (Duration, pack::Loaded) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let l = pack::load_file(path);
        best = best.min(t.elapsed());
        last = Some(l);
    }
    (best, last.expect("runs > 0"))
}

fn main() -> std::io::Result<()> {
    let dir = std::env::temp_dir();
    println!("| pack | file size | result | load_file (best of 5) |");
    println!("|---|---:|---|---:|");
    let cases = [
        ("50 MiB file (over the limit)", 50 * 1024 * 1024),
        ("limit + 1 byte (over the limit)", MAX_PACK_BYTES + 1),
        ("1 MiB under the limit", MAX_PACK_BYTES - 1024 * 1024),
    ];
    for (name, target) in cases {
        let text = padded(target.saturating_sub(padded(0).len()));
        assert_eq!(text.len(), target);
        let path = dir.join(format!("townsfolk-big-pack-{}.json", std::process::id()));
        std::fs::write(&path, &text)?;
        let (t, l) = time_load(&path, 5);
        std::fs::remove_file(&path)?;
        let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
        let result = if text.len() > MAX_PACK_BYTES {
            assert_eq!(errors.len(), 1, "{:#?}", l.diagnostics);
            assert_eq!((errors[0].line, errors[0].column), (Some(1), Some(1)));
            assert!(errors[0].message.contains("limited to 32 MiB"));
            "refused: one error at 1:1"
        } else {
            assert!(errors.is_empty(), "{errors:#?}");
            assert!(l.pack.is_some());
            "loaded"
        };
        println!(
            "| {name} | {:.1} MiB | {result} | {:.3} ms |",
            text.len() as f64 / (1024.0 * 1024.0),
            t.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
