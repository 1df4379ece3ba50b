//! Typed fields: numbers with their ranges, enums as combo boxes, optional values, labelled
//! rows whose label names the widget for screen readers (and for UI tests).

use std::ops::RangeInclusive;

use egui::{DragValue, Response, Ui};

/// A label in the left column of a `Grid` and the widget `add` draws in the right one; the
/// widget is labelled by the label (AccessKit), so a test can find the field by its name.
pub fn row_ui(
    ui: &mut Ui,
    label: &str,
    hover: &str,
    add: impl FnOnce(&mut Ui) -> Response,
) -> Response {
    let l = ui.label(label);
    if !hover.is_empty() {
        l.clone().on_hover_text(hover);
    }
    let r = add(ui).labelled_by(l.id);
    ui.end_row();
    r
}

/// A float with its allowed range. Values already outside the range (a hand-edited pack) are
/// shown as they are, not silently clamped.
pub fn number_ui(
    ui: &mut Ui,
    value: &mut f64,
    range: RangeInclusive<f64>,
    suffix: &str,
) -> Response {
    let span = (range.end() - range.start()).abs();
    let speed = if span.is_finite() && span <= 2.0 {
        0.01
    } else {
        0.1
    };
    ui.add(
        DragValue::new(value)
            .range(range)
            .clamp_existing_to_range(false)
            .speed(speed)
            .max_decimals(4)
            .suffix(suffix),
    )
}

/// A whole number with its allowed range.
pub fn count_ui(ui: &mut Ui, value: &mut u32, range: RangeInclusive<u32>) -> Response {
    ui.add(
        DragValue::new(value)
            .range(range)
            .clamp_existing_to_range(false)
            .speed(0.05),
    )
}

/// An enum as a combo box of its options. The response is marked changed when a different
/// option was picked.
pub fn choice_ui<T: PartialEq + Copy>(
    ui: &mut Ui,
    id_salt: impl std::hash::Hash + std::fmt::Debug,
    value: &mut T,
    options: &[(T, &str)],
) -> Response {
    let current = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or("?", |(_, l)| *l);
    let mut changed = false;
    let mut inner = egui::ComboBox::from_id_salt(id_salt)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (v, label) in options {
                if ui.selectable_label(v == value, *label).clicked() && v != value {
                    *value = *v;
                    changed = true;
                }
            }
        })
        .response;
    if changed {
        inner.mark_changed();
    }
    inner
}

/// An optional value: a checkbox that sets or clears it, and the value's own widget while it
/// is set. `make` gives the value a freshly ticked box starts with.
pub fn optional_ui<T>(
    ui: &mut Ui,
    value: &mut Option<T>,
    none_text: &str,
    make: impl FnOnce() -> T,
    add: impl FnOnce(&mut Ui, &mut T) -> Response,
) -> Response {
    ui.horizontal(|ui| {
        let mut on = value.is_some();
        let mut r = ui.checkbox(&mut on, "");
        if r.changed() {
            *value = if on { Some(make()) } else { None };
        }
        match value {
            Some(v) => {
                let inner = add(ui, v);
                if inner.changed() {
                    r.mark_changed();
                }
                r.union(inner)
            }
            None => {
                ui.weak(none_text);
                r
            }
        }
    })
    .inner
}
