//! NPC names and animation texts in the preview, placed so that none covers another. NPCs
//! standing together (bodies less than a few points apart, e.g. two keepers behind one bar)
//! share one label ("red_keeper, blue_keeper") and one animation line ("*sleep*" once),
//! placed around the group; a label with no free place is left out, and its names show on
//! hover instead.

use std::collections::{BTreeMap, HashMap};

use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, pos2, vec2};

/// Bodies closer than this (edge to edge, in points) stand together.
pub(crate) const TOGETHER_GAP: f32 = 4.0;
/// How far the preview's selection ring reaches beyond an NPC's body, in points.
const SELECTION_RING: f32 = 6.0;
/// Names one group label lists; the others are counted ("a, b, c +2").
const MAX_NAMES: usize = 3;

/// One NPC as drawn: where, its name as shown, its colour, its animation text.
pub(crate) struct NpcMark {
    pub at: Pos2,
    pub name: String,
    pub color: Color32,
    /// `*sleep*`-style text of an animation it is playing.
    pub anim: Option<String>,
    pub selected: bool,
}

/// NPCs standing together: their marks (in mark order), centre and the radius around the
/// centre that covers their bodies.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Group {
    pub members: Vec<usize>,
    pub center: Pos2,
    pub radius: f32,
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Groups the marks whose bodies (radius `r`) are less than [`TOGETHER_GAP`] apart, chained
/// (a touches b, b touches c: one group). Groups come in the order of their first member.
/// A grid of cells one link long keeps this linear in the number of NPCs.
pub(crate) fn groups(marks: &[NpcMark], r: f32) -> Vec<Group> {
    let link = 2.0 * r + TOGETHER_GAP;
    let cell = |p: Pos2| ((p.x / link).floor() as i64, (p.y / link).floor() as i64);
    let mut grid: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    let mut parent: Vec<usize> = (0..marks.len()).collect();
    for (i, m) in marks.iter().enumerate() {
        if !m.at.x.is_finite() || !m.at.y.is_finite() {
            continue;
        }
        let (cx, cy) = cell(m.at);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(near) = grid.get(&(cx.saturating_add(dx), cy.saturating_add(dy))) else {
                    continue;
                };
                for &j in near {
                    if marks[j].at.distance(m.at) < link {
                        let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
        grid.entry((cx, cy)).or_default().push(i);
    }
    let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..marks.len() {
        let root = find(&mut parent, i);
        by_root.entry(root).or_default().push(i);
    }
    let mut out: Vec<Group> = by_root
        .into_values()
        .map(|members| {
            let n = members.len() as f32;
            let sum = members
                .iter()
                .fold(vec2(0.0, 0.0), |s, &i| s + marks[i].at.to_vec2());
            let center = (sum / n).to_pos2();
            let radius = members
                .iter()
                .map(|&i| marks[i].at.distance(center))
                .fold(0.0, f32::max)
                + r;
            Group {
                members,
                center,
                radius,
            }
        })
        .collect();
    out.sort_by_key(|g| g.members[0]);
    out
}

/// A group's label: its names in order, at most [`MAX_NAMES`] and a count of the rest.
pub(crate) fn group_text(marks: &[NpcMark], g: &Group) -> String {
    let mut names: Vec<&str> = g
        .members
        .iter()
        .take(MAX_NAMES)
        .map(|&i| marks[i].name.as_str())
        .collect();
    let more = g.members.len().saturating_sub(MAX_NAMES);
    let more = (more > 0).then(|| format!("+{more}"));
    names.extend(more.as_deref());
    names.join(", ")
}

/// A group's animation texts, each once, in member order ("*sleep*", "*sleep* *eat*").
fn group_anims(marks: &[NpcMark], g: &Group) -> Option<(String, Color32)> {
    let mut texts: Vec<&str> = Vec::new();
    let mut color = None;
    for &i in &g.members {
        if let Some(a) = &marks[i].anim
            && !texts.contains(&a.as_str())
        {
            texts.push(a);
            color.get_or_insert(marks[i].color);
        }
    }
    let color = if texts.len() == 1 {
        color?
    } else {
        Color32::from_gray(200)
    };
    (!texts.is_empty()).then(|| (texts.join(" "), color))
}

/// Where a label of `size` may go around a group at `at` of radius `r`: right, left, above,
/// below, then the diagonals.
fn label_candidates(at: Pos2, r: f32, size: egui::Vec2) -> [Rect; 6] {
    let gap = 3.0;
    [
        Rect::from_min_size(pos2(at.x + r + gap, at.y - size.y * 0.5), size),
        Rect::from_min_size(pos2(at.x - r - gap - size.x, at.y - size.y * 0.5), size),
        Rect::from_min_size(pos2(at.x - size.x * 0.5, at.y - r - gap - size.y), size),
        Rect::from_min_size(pos2(at.x - size.x * 0.5, at.y + r + gap), size),
        Rect::from_min_size(pos2(at.x + r, at.y - r - size.y), size),
        Rect::from_min_size(pos2(at.x + r, at.y + r), size),
    ]
}

/// What [`draw`] placed: each group's label rectangle (`None`: no room) and the animation
/// texts' rectangles.
pub(crate) struct Placed {
    pub groups: Vec<Group>,
    pub labels: Vec<Option<Rect>>,
    #[cfg_attr(not(test), allow(dead_code))] // the tests check them against the labels
    pub anims: Vec<Rect>,
}

impl Placed {
    /// The names whose label had no room (shown on hover instead).
    pub fn hidden(&self, marks: &[NpcMark]) -> Vec<String> {
        self.groups
            .iter()
            .zip(&self.labels)
            .filter(|(_, l)| l.is_none())
            .flat_map(|(g, _)| g.members.iter().map(|&i| marks[i].name.clone()))
            .collect()
    }
}

/// Rectangles bucketed by the cells of a uniform grid they cover, so that asking which of them
/// a rectangle meets looks only at those near it: placing the labels of a town of 10,000 NPCs
/// tried each spot against every body (30 ms a frame; every frame). Cells are kept within
/// `bounds` (the visible area); a rectangle reaching beyond is filed under the edge cells its
/// clamped extent covers, so two rectangles that meet anywhere share a cell and none is
/// missed: the answers are those of a scan of all of them.
struct RectGrid {
    min: Pos2,
    cell: f32,
    cols: i64,
    rows: i64,
    cells: HashMap<(i64, i64), Vec<usize>>,
    rects: Vec<Rect>,
}

impl RectGrid {
    /// Most cells along one side.
    const MAX_SIDE: f32 = 256.0;

    fn new(bounds: Rect) -> RectGrid {
        let bounds = if bounds.is_finite() {
            bounds
        } else {
            Rect::from_min_size(Pos2::ZERO, egui::Vec2::splat(1.0))
        };
        let cell = 32.0_f32
            .max(bounds.width() / Self::MAX_SIDE)
            .max(bounds.height() / Self::MAX_SIDE);
        RectGrid {
            min: bounds.min,
            cell,
            cols: (bounds.width() / cell).ceil().max(1.0) as i64,
            rows: (bounds.height() / cell).ceil().max(1.0) as i64,
            cells: HashMap::new(),
            rects: Vec::new(),
        }
    }

    /// The cells `r` covers, clamped to the grid (`as` saturates; NaN gives 0).
    fn span(&self, r: Rect) -> (i64, i64, i64, i64) {
        let at = |v: f32, lo: f32, n: i64| (((v - lo) / self.cell).floor() as i64).clamp(0, n - 1);
        (
            at(r.min.x, self.min.x, self.cols),
            at(r.max.x, self.min.x, self.cols),
            at(r.min.y, self.min.y, self.rows),
            at(r.max.y, self.min.y, self.rows),
        )
    }

    /// Files `r`; its number is its order of insertion.
    fn insert(&mut self, r: Rect) {
        let k = self.rects.len();
        self.rects.push(r);
        let (x0, x1, y0, y1) = self.span(r);
        for x in x0..=x1 {
            for y in y0..=y1 {
                self.cells.entry((x, y)).or_default().push(k);
            }
        }
    }

    /// Whether `r` meets a filed rectangle whose number `skip` does not exclude.
    fn meets(&self, r: Rect, skip: impl Fn(usize) -> bool) -> bool {
        let (x0, x1, y0, y1) = self.span(r);
        (x0..=x1).any(|x| {
            (y0..=y1).any(|y| {
                self.cells
                    .get(&(x, y))
                    .is_some_and(|ks| ks.iter().any(|&k| !skip(k) && self.rects[k].intersects(r)))
            })
        })
    }
}

/// Draws the animation texts (one line under each group), then each group's label in the
/// first place where it covers no other label, no NPC of another group, no animation text
/// and none of the `obstacles` (texts already drawn). The selected NPC's group goes first.
pub(crate) fn draw(
    painter: &Painter,
    marks: &[NpcMark],
    r: f32,
    obstacles: &[Rect],
    font: &FontId,
) -> Placed {
    let groups = groups(marks, r);
    let mut anims = Vec::new();
    for g in &groups {
        if let Some((text, color)) = group_anims(marks, g) {
            anims.push(painter.text(
                g.center + vec2(0.0, g.radius + 3.0),
                Align2::CENTER_TOP,
                text,
                FontId::proportional(12.0),
                color,
            ));
        }
    }
    let group_of: Vec<usize> = {
        let mut v = vec![0; marks.len()];
        for (k, g) in groups.iter().enumerate() {
            for &i in &g.members {
                v[i] = k;
            }
        }
        v
    };
    let bounds = painter.clip_rect();
    // The NPCs' bodies, numbered as the marks; and what every label stays clear of: the
    // obstacles, the animation texts and the labels placed so far.
    let mut bodies = RectGrid::new(bounds);
    for m in marks {
        bodies.insert(Rect::from_center_size(m.at, egui::Vec2::splat(2.0 * r)));
    }
    let mut taken = RectGrid::new(bounds);
    for &o in obstacles.iter().chain(&anims) {
        taken.insert(o);
    }
    let mut order: Vec<usize> = (0..groups.len()).collect();
    // Stable: the selected NPC's group first, then in world order.
    order.sort_by_key(|&k| !groups[k].members.iter().any(|&i| marks[i].selected));
    let mut labels = vec![None; groups.len()];
    for k in order {
        let g = &groups[k];
        // Clear of the selection ring drawn around the selected NPC.
        let ring = if g.members.iter().any(|&i| marks[i].selected) {
            SELECTION_RING
        } else {
            0.0
        };
        let galley =
            painter.layout_no_wrap(group_text(marks, g), font.clone(), Color32::from_gray(235));
        let spot = label_candidates(g.center, g.radius + ring, galley.size())
            .into_iter()
            .find(|c| {
                let c = c.shrink(1.0);
                !taken.meets(c, |_| false) && !bodies.meets(c, |j| group_of[j] == k)
            });
        if let Some(rect) = spot {
            painter.rect_filled(rect.expand(1.0), 3.0, Color32::from_black_alpha(110));
            painter.galley(rect.min, galley, Color32::from_gray(235));
            taken.insert(rect);
            labels[k] = Some(rect);
        }
    }
    Placed {
        groups,
        labels,
        anims,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(x: f32, y: f32, name: &str, anim: Option<&str>) -> NpcMark {
        NpcMark {
            at: pos2(x, y),
            name: name.to_string(),
            color: Color32::WHITE,
            anim: anim.map(str::to_string),
            selected: false,
        }
    }

    /// Runs `f` with a painter inside one frame of a headless context.
    fn with_painter<T>(f: impl FnOnce(&Painter) -> T) -> T {
        let ctx = egui::Context::default();
        let mut result = None;
        let mut f = Some(f);
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            if let Some(f) = f.take() {
                result = Some(f(ui.painter()));
            }
        });
        // The font atlas this frame filled is not uploaded anywhere.
        out.textures_delta.clear();
        result.expect("the frame ran")
    }

    #[test]
    fn npcs_standing_together_share_one_group_and_others_stay_apart() {
        let r = 6.0;
        // ed and ada 3 points apart at the smithy (touching), a third one chained to ada,
        // and bo far away.
        let marks = [
            mark(100.0, 100.0, "ed", None),
            mark(103.0, 100.0, "ada", None),
            mark(300.0, 100.0, "bo", None),
            mark(103.0, 114.0, "cy", None),
        ];
        let g = groups(&marks, r);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].members, [0, 1, 3]);
        assert_eq!(g[1].members, [2]);
        assert_eq!(group_text(&marks, &g[0]), "ed, ada, cy");
        assert_eq!(group_text(&marks, &g[1]), "bo");
        // Just over the gap: apart.
        let apart = [
            mark(0.0, 0.0, "a", None),
            mark(2.0 * r + TOGETHER_GAP + 0.5, 0.0, "b", None),
        ];
        assert_eq!(groups(&apart, r).len(), 2);
        let many: Vec<NpcMark> = (0..5)
            .map(|i| mark(i as f32 * 2.0, 0.0, &format!("n{i}"), None))
            .collect();
        assert_eq!(group_text(&many, &groups(&many, r)[0]), "n0, n1, n2, +2");
    }

    /// The keepers at home_inn: two NPCs side by side, both sleeping. Their names and their
    /// animation texts never cover each other (one label, one `*sleep*`).
    #[test]
    fn labels_and_animation_texts_of_npcs_together_do_not_overlap() {
        let r = 6.0;
        let font = FontId::proportional(13.0);
        let marks = [
            mark(200.0, 200.0, "di", Some("*sleep*")),
            mark(240.0, 200.0, "red_keeper", Some("*sleep*")),
            mark(252.0, 200.0, "blue_keeper", Some("*sleep*")),
        ];
        let placed = with_painter(|painter| draw(painter, &marks, r, &[], &font));
        assert_eq!(placed.groups.len(), 2);
        assert_eq!(placed.anims.len(), 2, "one *sleep* per group");
        let mut rects: Vec<Rect> = placed.labels.iter().flatten().copied().collect();
        assert_eq!(rects.len(), 2, "both groups labelled");
        rects.extend(&placed.anims);
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(
                    !a.shrink(1.0).intersects(b.shrink(1.0)),
                    "{a:?} overlaps {b:?}"
                );
            }
        }
        // No label covers an NPC of another group.
        for (k, l) in placed.labels.iter().enumerate() {
            let l = l.expect("placed").shrink(1.0);
            for (i, m) in marks.iter().enumerate() {
                let body = Rect::from_center_size(m.at, egui::Vec2::splat(2.0 * r));
                if !placed.groups[k].members.contains(&i) {
                    assert!(!l.intersects(body), "label {k} covers {}", m.name);
                }
            }
        }
        assert!(placed.hidden(&marks).is_empty());
    }

    /// The grid answers as a scan of every rectangle would, for rectangles inside, across and
    /// far outside its bounds, touching ones included.
    #[test]
    fn the_rect_grid_finds_what_a_scan_finds() {
        let bounds = Rect::from_min_size(pos2(100.0, 50.0), egui::vec2(800.0, 600.0));
        let mut seed: u32 = 12345;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut rect = |far: bool| {
            let span = if far { 20_000.0 } else { 1_200.0 };
            let (x, y) = (next() * span - span * 0.4, next() * span - span * 0.4);
            let (w, h) = (next() * 120.0, next() * 40.0);
            // A third of them on the 32-point lines, where touching rectangles meet.
            if next() < 0.33 {
                let snap = |v: f32| (v / 32.0).round() * 32.0;
                Rect::from_min_max(pos2(snap(x), snap(y)), pos2(snap(x + w), snap(y + h)))
            } else {
                Rect::from_min_size(pos2(x, y), egui::vec2(w, h))
            }
        };
        let filed: Vec<Rect> = (0..400).map(|i| rect(i % 5 == 0)).collect();
        let mut grid = RectGrid::new(bounds);
        for &r in &filed {
            grid.insert(r);
        }
        let mut met = 0;
        for i in 0..4_000 {
            let q = rect(i % 7 == 0);
            let skip = |k: usize| k % 3 == i % 3;
            let scan = filed
                .iter()
                .enumerate()
                .any(|(k, r)| !skip(k) && r.intersects(q));
            assert_eq!(grid.meets(q, skip), scan, "{q:?}");
            met += usize::from(scan);
        }
        assert!(
            met > 400 && met < 3_600,
            "{met} of 4,000 met one: too few cases either way"
        );
    }
}
