//! Hit testing through the spatial index: the topmost node or port under a screen point.

use egui::Pos2;

use super::geometry::{PORT_RADIUS, Transform, port_pos};
use super::index::{SpatialIndex, around};
use super::paint::LOD_ZOOM;
use super::scene::{Flow, Scene};

/// Extra pick distance around ports and tiny nodes, in screen points.
const SLOP: f32 = 4.0;

/// A port under the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PortHit {
    pub node: usize,
    pub input: bool,
    pub port: usize,
}

/// The topmost node whose rect contains `screen` (with a few points of slop when nodes are
/// drawn tiny).
pub(crate) fn node_at(
    index: &mut SpatialIndex,
    t: &Transform,
    screen: Pos2,
    buf: &mut Vec<u32>,
) -> Option<usize> {
    let p = t.to_canvas(screen);
    let slop = if t.zoom < LOD_ZOOM {
        SLOP / t.zoom
    } else {
        0.0
    };
    index.nodes_in(around(p, slop.max(0.01)), buf);
    buf.iter()
        .rev()
        .map(|&i| i as usize)
        .find(|&i| index.rects[i].expand(slop).contains(p))
}

/// The topmost port within reach of `screen`. Ports are not drawn (nor hit) when zoomed out.
pub(crate) fn port_at<K>(
    index: &mut SpatialIndex,
    scene: &Scene<K>,
    t: &Transform,
    flow: Flow,
    screen: Pos2,
    buf: &mut Vec<u32>,
) -> Option<PortHit> {
    if t.zoom < LOD_ZOOM {
        return None;
    }
    let p = t.to_canvas(screen);
    let reach = PORT_RADIUS + SLOP / t.zoom;
    index.nodes_in(around(p, reach), buf);
    let mut best: Option<(f32, PortHit)> = None;
    for &i in buf.iter().rev() {
        let i = i as usize;
        let node = &scene.nodes[i];
        let rect = index.rects[i];
        for (input, n) in [(true, node.inputs.len()), (false, node.outputs.len())] {
            for k in 0..n {
                let d = (port_pos(rect, flow, input, k, n) - p).length();
                if d <= reach && best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((
                        d,
                        PortHit {
                            node: i,
                            input,
                            port: k,
                        },
                    ));
                }
            }
        }
    }
    best.map(|(_, h)| h)
}
