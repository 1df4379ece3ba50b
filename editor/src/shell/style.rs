//! Colours and small text helpers shared by the shell's panels and the preview.

use egui::Color32;
use townsfolk_runtime::bt::Status;

pub(crate) const ERROR_COLOR: Color32 = Color32::from_rgb(235, 87, 87);
pub(crate) const WARNING_COLOR: Color32 = Color32::from_rgb(240, 180, 50);
pub(crate) const OK_COLOR: Color32 = Color32::from_rgb(90, 200, 120);

/// Colour of a node status in the live inspector.
pub(crate) fn status_color(s: Status) -> Color32 {
    match s {
        Status::Running => Color32::from_rgb(255, 191, 0),
        Status::Success => Color32::from_rgb(90, 200, 120),
        Status::Failure => Color32::from_rgb(235, 87, 87),
        Status::Idle => Color32::from_gray(130),
    }
}

/// A filled dot and a one-line label in `color` (egui's default fonts have no "●", so the dot
/// is painted). The response is the label's, for a hover text.
pub(crate) fn dot_label_ui(
    ui: &mut egui::Ui,
    text: egui::RichText,
    color: Color32,
) -> egui::Response {
    let d = ui.text_style_height(&egui::TextStyle::Body) * 0.55;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(d, d), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), d / 2.0, color);
    ui.add(egui::Label::new(text.color(color)).wrap_mode(egui::TextWrapMode::Extend))
}

/// "1 error", "2 warnings".
pub(crate) fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("{n} {what}")
    } else {
        format!("{n} {what}s")
    }
}
