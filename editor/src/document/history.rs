//! The undo history: steps of inverse edits, gestures that gather many edits into one step,
//! and the marker of the saved state.

use townsfolk_runtime::pack::Pack;

use super::edit::{Edit, EditError, apply};

/// One undo step: the edits that undo it (applied last to first) or, once undone, the edits
/// that redo it (applied first to last).
#[derive(Debug)]
struct Step {
    /// Unique among the steps of a history; the saved marker names one.
    serial: u64,
    label: String,
    edits: Vec<Edit>,
}

impl Step {
    fn bytes(&self) -> usize {
        self.label.len() + self.edits.iter().map(Edit::approx_bytes).sum::<usize>()
    }
}

/// Undo and redo stacks with gestures.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// Depth of `begin_gesture` calls still open.
    gesture_depth: u32,
    /// The open gesture has already pushed its step onto `undo`.
    gesture_has_step: bool,
    gesture_label: String,
    next_serial: u64,
    /// Serial of the step on top of `undo` when the pack was saved (0: nothing applied).
    saved: u64,
}

impl History {
    fn top_serial(&self) -> u64 {
        self.undo.last().map_or(0, |s| s.serial)
    }

    /// Records the inverse of an edit just applied: a new step, or part of the open gesture.
    pub fn record(&mut self, label: String, inverse: Edit) {
        self.redo.clear();
        if self.gesture_depth > 0
            && self.gesture_has_step
            && let Some(step) = self.undo.last_mut()
        {
            step.edits.push(inverse);
            return;
        }
        self.next_serial += 1;
        let label = if self.gesture_depth > 0 {
            self.gesture_has_step = true;
            self.gesture_label.clone()
        } else {
            label
        };
        self.undo.push(Step {
            serial: self.next_serial,
            label,
            edits: vec![inverse],
        });
    }

    pub fn begin_gesture(&mut self, label: &str) {
        if self.gesture_depth == 0 {
            self.gesture_label = label.to_string();
            self.gesture_has_step = false;
        }
        self.gesture_depth += 1;
    }

    pub fn end_gesture(&mut self) {
        self.gesture_depth = self.gesture_depth.saturating_sub(1);
        if self.gesture_depth == 0 {
            self.gesture_has_step = false;
        }
    }

    pub fn in_gesture(&self) -> bool {
        self.gesture_depth > 0
    }

    fn close_gesture(&mut self) {
        self.gesture_depth = 0;
        self.gesture_has_step = false;
    }

    /// Undoes one step; returns the edits applied (for mirrors of the pack), or None when
    /// there is nothing to undo. An open gesture is closed first.
    pub fn undo(&mut self, pack: &mut Pack) -> Result<Option<Vec<Edit>>, EditError> {
        self.close_gesture();
        let Some(step) = self.undo.pop() else {
            return Ok(None);
        };
        match run_reversed(pack, &step.edits) {
            Ok(redo) => {
                let applied = step.edits.iter().rev().cloned().collect();
                self.redo.push(Step {
                    serial: step.serial,
                    label: step.label,
                    edits: redo,
                });
                Ok(Some(applied))
            }
            Err(e) => {
                self.undo.push(step);
                Err(e)
            }
        }
    }

    /// Redoes one step; returns the edits applied, or None when there is nothing to redo.
    pub fn redo(&mut self, pack: &mut Pack) -> Result<Option<Vec<Edit>>, EditError> {
        self.close_gesture();
        let Some(step) = self.redo.pop() else {
            return Ok(None);
        };
        match run_reversed(pack, &step.edits) {
            Ok(undo) => {
                let applied = step.edits.iter().rev().cloned().collect();
                self.undo.push(Step {
                    serial: step.serial,
                    label: step.label,
                    edits: undo,
                });
                Ok(Some(applied))
            }
            Err(e) => {
                self.redo.push(step);
                Err(e)
            }
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// The current state is the saved one.
    pub fn mark_saved(&mut self) {
        self.saved = self.top_serial();
    }
    pub fn is_dirty(&self) -> bool {
        self.saved != self.top_serial()
    }
    /// Marks the state as never saved (a new, unsaved document with content).
    pub fn mark_unsaved(&mut self) {
        self.saved = u64::MAX;
    }

    /// Forgets every step. The document stays dirty if it was.
    pub fn clear(&mut self) {
        let dirty = self.is_dirty();
        self.undo.clear();
        self.redo.clear();
        self.close_gesture();
        self.saved = if dirty { u64::MAX } else { 0 };
    }

    /// Number of undo and redo steps.
    pub fn len(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Approximate bytes held by the history's edits.
    pub fn approx_bytes(&self) -> usize {
        self.undo.iter().chain(&self.redo).map(Step::bytes).sum()
    }
}

/// Applies a step's edits last to first and returns their inverses in the order they were
/// produced, which is the order the opposite stack stores them in (it too applies its edits
/// last to first). All or nothing: on error what was applied is rolled back.
fn run_reversed(pack: &mut Pack, edits: &[Edit]) -> Result<Vec<Edit>, EditError> {
    let mut inverses = Vec::with_capacity(edits.len());
    for e in edits.iter().rev() {
        match apply(pack, e.clone()) {
            Ok(inv) => inverses.push(inv),
            Err(err) => {
                for inv in inverses.into_iter().rev() {
                    let _ = apply(pack, inv);
                }
                return Err(err);
            }
        }
    }
    Ok(inverses)
}
