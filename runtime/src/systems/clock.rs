//! The clock: hour and day computed from the tick (never accumulated).

use crate::program::Program;
use crate::world::World;

/// Sets the world's hour and day for its tick.
pub(crate) fn clock(p: &Program, w: &mut World) {
    let secs = p.start_hour * 3600.0 + w.tick as f64 * p.dt * p.time_scale;
    let days = (secs / 86_400.0).floor();
    w.day = p.start_day.saturating_add(days as i64);
    w.hour = (secs - days * 86_400.0) / 3600.0;
}
