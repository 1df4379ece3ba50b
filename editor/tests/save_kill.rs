//! Killing the editor (SIGKILL) during a save never leaves a truncated or half-written pack
//! (issue 11 acceptance).
//!
//! The test runs itself again as a child process (the same test binary, this test's exact
//! name, and `TOWNSFOLK_SAVE_LOOP` naming the pack): the child saves a large pack through the
//! editor's save path (`townsfolk_editor::io::save`) in a loop, alternating two versions. The
//! parent kills it with SIGKILL at random moments, many times, and checks after each kill that
//! the file parses cleanly and holds exactly the old or the new canonical bytes.

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use townsfolk_runtime::pack::{self, Pack};

/// Set in the child: the pack file to save over and over.
const CHILD_ENV: &str = "TOWNSFOLK_SAVE_LOOP";
/// This test's name, for the child's command line.
const TEST_NAME: &str = "sigkill_during_save_never_leaves_a_truncated_pack";
/// What the child prints once it starts saving.
const READY: &str = "save-loop ready";
/// What the child prints after each completed save.
const SAVED: &str = "save-loop saved";

/// A large pack (a few MB of canonical text): the guards sample with `copies` renamed copies
/// of its trees. The two versions differ in name and size, so a file cut short or mixed from
/// both matches neither.
fn big_pack(copies: usize, name: &str) -> Pack {
    let text = include_str!("../../samples/guards.json");
    let mut p = pack::load_str(text).pack.expect("the guards sample reads");
    let originals = p.trees.clone();
    for i in 0..copies {
        for t in &originals {
            let mut c = t.clone();
            c.id = format!("{}_copy{i}", t.id);
            p.trees.push(c);
        }
    }
    p.name = name.to_string();
    p
}

fn old_pack() -> Pack {
    big_pack(150, "Big guards (old)")
}

fn new_pack() -> Pack {
    big_pack(160, "Big guards (new)")
}

/// The child: save the new and the old version in turn until killed.
fn save_loop(path: &Path) -> ! {
    let versions = [new_pack(), old_pack()];
    println!("{READY}");
    let mut k = 0usize;
    loop {
        if let Err(e) = townsfolk_editor::io::save(path, &versions[k % 2]) {
            eprintln!("save failed: {e}");
            std::process::exit(3);
        }
        println!("{SAVED}");
        k += 1;
    }
}

/// A small deterministic generator for the kill moments (its seed is printed on failure).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("townsfolk-save-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn sigkill_during_save_never_leaves_a_truncated_pack() {
    if let Some(path) = std::env::var_os(CHILD_ENV) {
        save_loop(Path::new(&path));
    }
    let old = pack::to_canonical_string(&old_pack());
    let new = pack::to_canonical_string(&new_pack());
    assert!(old.len() > 2_000_000, "a large pack: {} bytes", old.len());
    assert_ne!(old, new);
    // Both versions parse cleanly, so a file with exactly their bytes does too.
    for text in [&old, &new] {
        let loaded = townsfolk_runtime::program::load_str(text);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics.first());
    }

    let dir = scratch();
    let file = dir.join("big.json");
    townsfolk_editor::io::save(&file, &old_pack()).expect("the first save");
    let exe = std::env::current_exe().expect("the test binary");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut rng = Rng(seed);

    let started = Instant::now();
    let (mut kills, mut saw_old, mut saw_new) = (0, 0, 0);
    // How long one save takes on this machine now (a loaded machine is much slower than a
    // quiet one): measured from the child's reports, so the kill moments spread over whole
    // saves whatever the load.
    let mut save_time = Duration::from_millis(200);
    // Enough kills to land in every part of a save, within the time budget of a debug run.
    while kills < 40 && started.elapsed() < Duration::from_secs(20) {
        let mut child = Command::new(&exe)
            .args([TEST_NAME, "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, &file)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the saving child");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let ready = lines.any(|l| l.is_ok_and(|l| l.contains(READY)));
        assert!(ready, "the child never started saving (seed {seed})");
        // Let 0, 1 or 2 saves complete (the file then holds the old, the new or the old
        // version), then kill at a random moment inside one save.
        let complete = rng.below(3);
        let mut last = Instant::now();
        for _ in 0..complete {
            let saved = lines.any(|l| l.is_ok_and(|l| l.contains(SAVED)));
            assert!(saved, "the child stopped saving (seed {seed})");
            save_time = last.elapsed();
            last = Instant::now();
        }
        let micros = save_time.as_micros().clamp(1, 5_000_000) as u64;
        std::thread::sleep(Duration::from_micros(rng.below(micros)));
        child.kill().expect("SIGKILL the child");
        let status = child.wait().expect("reap the child");
        assert!(
            status.code().is_none(),
            "the child exited by itself ({status}), seed {seed}"
        );
        kills += 1;

        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("kill {kills} (seed {seed}): cannot read the pack: {e}"));
        if text == old {
            saw_old += 1;
        } else if text == new {
            saw_new += 1;
        } else {
            let loaded = pack::load_str(&text);
            panic!(
                "kill {kills} (seed {seed}): the pack is neither version ({} bytes, {} problems)",
                text.len(),
                loaded.diagnostics.len()
            );
        }
    }
    eprintln!("{kills} kills: old {saw_old}, new {saw_new} (seed {seed})");
    assert!(kills >= 10, "only {kills} kills in the time budget");
    // The kills landed between saves of both versions, not only before the first one.
    assert!(
        saw_old > 0 && saw_new > 0,
        "old {saw_old}, new {saw_new} (seed {seed})"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
