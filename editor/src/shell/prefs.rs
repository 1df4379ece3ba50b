//! What persists between runs through eframe storage: theme, UI scale, the dock layout and the
//! recent files. Nothing here is ever written into a pack.

use serde::{Deserialize, Serialize};

/// Storage keys.
pub(crate) const PREFS_KEY: &str = "townsfolk.prefs";
pub(crate) const DOCK_KEY: &str = "townsfolk.dock";
pub(crate) const RECENT_KEY: &str = "townsfolk.recent";

/// The UI scales the View menu offers.
pub(crate) const SCALES: [f32; 5] = [1.0, 1.25, 1.5, 1.75, 2.0];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Theme {
    Dark,
    Light,
}

impl Theme {
    pub fn label(self) -> &'static str {
        match self {
            Theme::Dark => "Dark",
            Theme::Light => "Light",
        }
    }
    fn egui(self) -> egui::Theme {
        match self {
            Theme::Dark => egui::Theme::Dark,
            Theme::Light => egui::Theme::Light,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Prefs {
    pub theme: Theme,
    /// egui zoom factor: 1.0 = 100%.
    pub scale: f32,
}

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            theme: Theme::Dark,
            scale: 1.0,
        }
    }
}

impl Prefs {
    /// A scale as the menu shows it: "125%".
    pub fn scale_label(scale: f32) -> String {
        format!("{:.0}%", scale * 100.0)
    }

    /// Keeps the scale within what the menu offers (a stored value could be anything).
    pub fn sanitized(mut self) -> Prefs {
        if !self.scale.is_finite() {
            self.scale = 1.0;
        }
        self.scale = self.scale.clamp(0.5, 3.0);
        self
    }

    /// Applies theme and scale to the context.
    pub fn apply(self, ctx: &egui::Context) {
        ctx.set_theme(egui::ThemePreference::from(self.theme.egui()));
        if (ctx.zoom_factor() - self.scale).abs() > 1e-4 {
            ctx.set_zoom_factor(self.scale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_sanitizing() {
        assert_eq!(Prefs::scale_label(1.25), "125%");
        assert_eq!(Prefs::scale_label(1.0), "100%");
        let p = Prefs {
            theme: Theme::Light,
            scale: f32::NAN,
        }
        .sanitized();
        assert_eq!(p.scale, 1.0);
        let p = Prefs {
            theme: Theme::Light,
            scale: 40.0,
        }
        .sanitized();
        assert_eq!(p.scale, 3.0);
    }
}
