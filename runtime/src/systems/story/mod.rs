//! The executor (SPEC §3) and its place in the world loop.
//!
//! Once per story day it: advances the tracker to the day; ends the active events whose
//! simulated duration is over (success with the event's `success_probability`); launches
//! every available mandatory event; then, if fewer than `max_active` events are active and
//! at least `min_wait` days passed since the last launch (if any), launches one available event
//! chosen uniformly with probability `launch_probability` (or surely, once `max_wait` days
//! passed without a launch). Random draws come from the world's seeded RNG.
//!
//! Story days: with the scenario's `ticks_per_day`, day = `start_day + tick / ticks_per_day`;
//! without it, story days are the world clock's days (`start_day + (day() - clock start
//! day)`), so `day()` in expressions and the story agree.

use crate::program::Program;
use crate::trace::Out;
use crate::world::World;
use crate::world::story::world_day;

use crate::systems::effects::story::check;

/// The world loop's step (after triggers, before NPC trees): one executor check for each
/// story day reached since the last one.
pub fn tick(p: &Program, w: &mut World, out: &mut Out) {
    let Some(story) = &w.story else {
        return;
    };
    let Some(today) = world_day(p, w, story.scenario) else {
        return;
    };
    while let Some(day) = w.story.as_ref().map(|s| s.checked + 1)
        && day <= today
    {
        check(p, w, day, out);
        if out.stop {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
