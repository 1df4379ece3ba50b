//! Canvas frame time: CPU per frame (egui pass and tessellation, median and p90) of the graph
//! canvas drawing a complete binary tree, headless (`egui::Context::run_ui` + `tessellate`, no
//! window, no AccessKit), viewport 1600×1000. The same graph as the egui_graph twin in
//! `shared/canvas-bench/egui_graph`: node i → 2i+1 via output "ok" and 2i+2 via output "fail",
//! a tidy left-to-right layout (230 units between depths, 85 between leaves), each node a title,
//! one input, two outputs and two body labels.
//!
//!     taskset -c 1 cargo run --release -p townsfolk-editor --example canvas_bench [frames] [warmup]
//!
//! Prints one markdown table row per (nodes, view).

use std::time::Instant;

use egui::{Color32, Pos2, Rect, pos2, vec2};
use townsfolk_editor::canvas::{
    CanvasState, CanvasStats, EdgeView, Flow, NodeView, Port, Scene, canvas_ui,
};

const VIEW: egui::Vec2 = egui::Vec2::new(1600.0, 1000.0);
const COL_W: f32 = 230.0;
const ROW_H: f32 = 85.0;
/// Node card size in canvas units (egui_graph measures 121×65 for the twin's node; ours puts
/// the port labels inside the card, hence a little wider).
const NODE: egui::Vec2 = egui::Vec2::new(140.0, 65.0);

/// Same placement as the twin: x = depth * COL_W, leaves on consecutive rows, parents centred.
fn tree_positions(n: usize) -> Vec<Pos2> {
    fn place(i: usize, depth: usize, n: usize, pos: &mut [Pos2], next_row: &mut f32) -> f32 {
        let (a, b) = (2 * i + 1, 2 * i + 2);
        let y = if a >= n {
            let y = *next_row * ROW_H;
            *next_row += 1.0;
            y
        } else if b >= n {
            place(a, depth + 1, n, pos, next_row)
        } else {
            let ya = place(a, depth + 1, n, pos, next_row);
            let yb = place(b, depth + 1, n, pos, next_row);
            (ya + yb) * 0.5
        };
        pos[i] = pos2(depth as f32 * COL_W, y);
        y
    }
    let mut pos = vec![Pos2::ZERO; n];
    let mut next_row = 0.0;
    if n > 0 {
        place(0, 0, n, &mut pos, &mut next_row);
    }
    pos
}

fn build_scene(n: usize) -> Scene<String> {
    let kinds = [
        "Sequence",
        "Selector",
        "Parallel",
        "MoveTo",
        "Wait",
        "CheckFlag",
    ];
    let colors = [
        Color32::from_rgb(70, 110, 180),
        Color32::from_rgb(150, 90, 170),
        Color32::from_rgb(60, 140, 130),
        Color32::from_rgb(190, 120, 50),
        Color32::from_rgb(120, 120, 120),
        Color32::from_rgb(80, 150, 70),
    ];
    let pos = tree_positions(n);
    let nodes = (0..n)
        .map(|i| {
            let mut v = NodeView::new(
                format!("bt-node-{i}"),
                Rect::from_min_size(pos[i], NODE),
                format!("{} #{i}", kinds[i % 6]),
            );
            v.color = colors[i % 6];
            v.body = vec![
                "status: Idle".to_owned(),
                format!("ticks: {}", i * 7 % 1000),
            ];
            v.inputs = vec![Port::labeled("in", Color32::LIGHT_GRAY)];
            v.outputs = vec![
                Port::labeled("ok", Color32::GREEN),
                Port::labeled("fail", Color32::RED),
            ];
            v
        })
        .collect();
    let mut edges = Vec::new();
    for i in 0..n {
        for k in 0..2 {
            let c = 2 * i + 1 + k;
            if c < n {
                let mut e = EdgeView::new(format!("bt-node-{i}"), format!("bt-node-{c}"));
                e.from_port = k;
                e.color = if k == 0 { Color32::GREEN } else { Color32::RED };
                edges.push(e);
            }
        }
    }
    Scene {
        revision: 1,
        nodes,
        edges,
    }
}

/// The twin's "zoom100" window: the viewport-sized window (100% zoom) holding the most nodes.
fn zoom100_window(rects: &[Rect], size: egui::Vec2) -> Rect {
    let bb = rects.iter().fold(Rect::NOTHING, |a, r| a.union(*r));
    let (w, h) = (size.x, size.y);
    let mut best = (0usize, Pos2::ZERO);
    let xs: Vec<f32> = (0..8)
        .map(|k| (bb.max.x - w - k as f32 * COL_W * 0.5).max(bb.min.x))
        .collect();
    let steps = 400;
    for &x0 in &xs {
        for k in 0..=steps {
            let y0 = bb.min.y + (bb.height() - h).max(0.0) * k as f32 / steps as f32;
            let win = Rect::from_min_size(pos2(x0, y0), vec2(w, h));
            let c = rects.iter().filter(|r| r.intersects(win)).count();
            if c > best.0 {
                best = (c, win.min);
            }
        }
    }
    Rect::from_min_size(best.1, vec2(w, h))
}

/// (median, p90), nearest rank as in the twin.
fn stats(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let med = if n.is_multiple_of(2) {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    } else {
        v[n / 2]
    };
    let p90 = v[((0.9 * n as f64).ceil() as usize).saturating_sub(1)];
    (med, p90)
}

struct Run {
    pass: (f64, f64),
    tess: (f64, f64),
    total: (f64, f64),
    stats: CanvasStats,
    shapes: usize,
    verts: usize,
}

struct Bench {
    ctx: egui::Context,
    raw: egui::RawInput,
}

impl Bench {
    fn new() -> Self {
        let ctx = egui::Context::default();
        ctx.all_styles_mut(|s| s.animation_time = 0.0);
        let raw = egui::RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, VIEW)),
            ..Default::default()
        };
        Bench { ctx, raw }
    }

    /// One frame: (pass ms, tessellation ms, stats, shapes, vertices).
    fn frame(
        &self,
        state: &mut CanvasState,
        scene: &Scene<String>,
    ) -> (f64, f64, CanvasStats, usize, usize) {
        let mut st = CanvasStats::default();
        let t0 = Instant::now();
        let out = self.ctx.run_ui(self.raw.clone(), |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                st = canvas_ui(ui, state, scene, &[]).stats;
            });
        });
        let pass = t0.elapsed().as_secs_f64() * 1e3;
        let shapes = out.shapes.len();
        let t1 = Instant::now();
        let prims = self.ctx.tessellate(out.shapes, self.ctx.pixels_per_point());
        let tess = t1.elapsed().as_secs_f64() * 1e3;
        let verts = prims
            .iter()
            .map(|p| match &p.primitive {
                egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
                _ => 0,
            })
            .sum();
        (pass, tess, st, shapes, verts)
    }

    fn measure(
        &self,
        state: &mut CanvasState,
        scene: &Scene<String>,
        frames: usize,
        warmup: usize,
    ) -> Run {
        for _ in 0..warmup {
            self.frame(state, scene);
        }
        let (mut p, mut t, mut s) = (Vec::new(), Vec::new(), Vec::new());
        let mut last = (CanvasStats::default(), 0, 0);
        for _ in 0..frames {
            let (a, b, st, shapes, verts) = self.frame(state, scene);
            p.push(a);
            t.push(b);
            s.push(a + b);
            last = (st, shapes, verts);
        }
        Run {
            pass: stats(&mut p),
            tess: stats(&mut t),
            total: stats(&mut s),
            stats: last.0,
            shapes: last.1,
            verts: last.2,
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frames: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let warmup: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let sizes = [200usize, 2_000, 10_000];

    println!(
        "canvas_bench: {frames} frames after {warmup} warm-up, viewport {}x{}",
        VIEW.x, VIEW.y
    );
    println!();
    println!(
        "| nodes | view | drawn | egui pass med / p90 | tessellation med / p90 | sum med / p90 | shapes | vertices |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut first_frames = Vec::new();
    for &n in &sizes {
        let scene = build_scene(n);
        let bench = Bench::new();
        // First frame after loading: a new tab (fit requested), index built, everything laid out.
        let mut state = CanvasState::new();
        state.set_flow(Flow::LeftRight);
        let t0 = Instant::now();
        let (_, tess, ..) = bench.frame(&mut state, &scene);
        first_frames.push((n, t0.elapsed().as_secs_f64() * 1e3, tess));

        let rects: Vec<Rect> = scene.nodes.iter().map(|v| v.rect).collect();
        let area = state
            .visible_rect()
            .map_or(VIEW, |r| r.size() * state.zoom());
        let cases: [(&str, Rect, f32); 3] = [
            ("whole tree", scene.bounds(), 0.0),
            (
                "100% zoom, busiest window",
                zoom100_window(&rects, area),
                1.0,
            ),
            (
                "100% zoom on the root",
                Rect::from_center_size(rects[0].center(), area),
                1.0,
            ),
        ];
        for (name, target, zoom) in cases {
            if zoom == 0.0 {
                state.fit();
            } else {
                state.set_view(target.center(), zoom);
            }
            let r = bench.measure(&mut state, &scene, frames, warmup);
            println!(
                "| {n} | {name} (zoom {:.4}) | {} nodes, {} edges{} | {:.2} / {:.2} ms | {:.2} / {:.2} ms | {:.2} / {:.2} ms | {} | {} |",
                state.zoom(),
                r.stats.nodes_painted,
                r.stats.edges_painted,
                if r.stats.detailed { "" } else { " (boxes)" },
                r.pass.0,
                r.pass.1,
                r.tess.0,
                r.tess.1,
                r.total.0,
                r.total.1,
                r.shapes,
                r.verts,
            );
        }
    }
    println!();
    println!(
        "| nodes | first frame after loading (pass + tessellation, incl. index build and fit) |"
    );
    println!("|---|---|");
    for (n, ms, tess) in first_frames {
        println!("| {n} | {:.1} ms (tessellation {:.2} ms) |", ms, tess);
    }
}
