//! The preview tab's cost per frame on the UI thread: the editor opened on a pack with the
//! preview playing at × 1, frames run headless by egui_kittest (egui's layout and
//! tessellation, no GPU), 60 frames a second. Rows: the bundled samples, and generated towns
//! of 1,000 and 10,000 NPCs walking back and forth, on one grid 3 units apart or in squares
//! of 20 far apart (at the zoom that fits the town, hundreds of labels among thousands of
//! NPCs, where placing them tried every spot against every NPC). Each row is the fastest of three rounds of
//! 60 frames; the simulation's ticks are in it (a tick every six frames at × 1).
//!
//! `taskset -c 1 cargo run --release -p townsfolk-editor --example preview_bench`

use std::time::Instant;

use anyhow::{Context, Result, ensure};
use egui_kittest::Harness;
use serde_json::json;
use townsfolk_editor::EditorApp;

/// Frames timed per round, and rounds (the fastest is kept).
const FRAMES: usize = 60;
const ROUNDS: usize = 3;

/// A pack of `n` NPCs in squares of `per` (rows of 5, 2.5 units apart; `per` 1: one NPC a
/// square) `pitch` units apart, each NPC walking between its place and a point 2 units east
/// of it, over and over.
fn town(n: usize, per: usize, pitch: f64) -> String {
    let squares = (n as f64 / per as f64).sqrt().ceil() as usize;
    let extent = squares as f64 * pitch + 10.0;
    let npcs: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let (q, k) = (i / per, i % per);
            let x = 5.0 + (q % squares) as f64 * pitch + (k % 5) as f64 * 2.5;
            let y = 5.0 + (q / squares) as f64 * pitch + (k / 5) as f64 * 2.5;
            json!({"id": format!("n{i}"), "pos": [x, y], "speed": 1.2, "tree": "walk",
                   "vars": {"a": [x, y], "b": [x + 2.0, y]}})
        })
        .collect();
    json!({
        "format": "townsfolk-pack", "version": 1, "name": format!("town of {n}"),
        "world": {"bounds": {"min": [0.0, 0.0], "max": [extent, extent]}, "npcs": npcs},
        "trees": [{"id": "walk",
            "blackboard": {"a": {"type": "vec2"}, "b": {"type": "vec2"}},
            "root": {"id": "back_and_forth", "type": "sequence", "children": [
                {"id": "to_b", "type": "move_to", "target": {"var": "b"}},
                {"id": "to_a", "type": "move_to", "target": {"var": "a"}}]}}]
    })
    .to_string()
}

/// Milliseconds per frame: the fastest of [`ROUNDS`] rounds of [`FRAMES`] frames.
fn ms_per_frame(text: &str, label: &str) -> Result<(f64, usize, u64)> {
    let app = EditorApp::from_text(text, label);
    ensure!(app.error_count() == 0, "{label}: the pack has errors");
    let npcs = app.pack().world.npcs.len();
    let mut h = Harness::builder()
        .with_size([1600.0, 1000.0])
        .with_step_dt(1.0 / 60.0)
        .build_eframe(|_cc| app);
    h.run_steps(5);
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        h.run_steps(FRAMES);
        best = best.min(t.elapsed().as_secs_f64() * 1e3 / FRAMES as f64);
    }
    let tick = h.state().tick().context("the preview runs")?;
    Ok((best, npcs, tick))
}

fn main() -> Result<()> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples");
    let mut rows: Vec<(String, String)> = Vec::new();
    for name in ["guards", "plaza", "daily_life"] {
        let path = format!("{root}/{name}.json");
        let text = std::fs::read_to_string(&path).with_context(|| path.clone())?;
        rows.push((format!("{name}.json"), text));
    }
    for n in [1_000, 10_000] {
        rows.push((format!("town of {n} on a grid"), town(n, 1, 3.0)));
        rows.push((format!("town of {n} in squares of 20"), town(n, 20, 100.0)));
    }
    println!(
        "| pack | NPCs | ms per frame (fastest of {ROUNDS} × {FRAMES} frames) | tick at the end |"
    );
    println!("|---|---:|---:|---:|");
    for (label, text) in &rows {
        let (ms, npcs, tick) = ms_per_frame(text, label)?;
        println!("| {label} | {npcs} | {ms:.2} | {tick} |");
    }
    Ok(())
}
