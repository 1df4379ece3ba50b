//! The expression field: parses and type-checks as you type with the runtime's own compiler
//! (`townsfolk_runtime::expr::Expr::compile_typed`, no second parser) and underlines the error
//! at its column.

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Response, Stroke, TextEdit, Ui};
use townsfolk_runtime::expr::{Expr, ExprError, Resolver, Scope};
use townsfolk_runtime::pack::{Literal, Pack};
use townsfolk_runtime::value::{EntityId, Sym, Type};

/// The colour of errors in fields and on cards.
pub const ERROR_COLOR: Color32 = Color32::from_rgb(235, 87, 87);

/// Resolves names the way the pack loader does, read from the pack itself: the blackboard is
/// every tree's declarations plus NPC variables, area variables are every area's, flags and
/// counters always exist, entities are NPC, object and area ids.
pub struct PackResolver<'a> {
    pack: &'a Pack,
    strings: Vec<String>,
}

impl<'a> PackResolver<'a> {
    pub fn new(pack: &'a Pack) -> Self {
        PackResolver {
            pack,
            strings: Vec::new(),
        }
    }
}

fn literal_type(l: &Literal) -> Type {
    match l {
        Literal::Bool(_) => Type::Bool,
        Literal::Int(_) => Type::Int,
        Literal::Float(_) => Type::Float,
        Literal::Str(_) => Type::Str,
        Literal::Vec2(_) => Type::Vec2,
    }
}

impl Resolver for PackResolver<'_> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        match scope {
            Scope::Blackboard => {
                let declared = self
                    .pack
                    .trees
                    .iter()
                    .find_map(|t| t.blackboard.get(name).map(|d| d.ty));
                declared
                    .or_else(|| {
                        self.pack
                            .world
                            .npcs
                            .iter()
                            .find_map(|n| n.vars.get(name).map(literal_type))
                    })
                    .map(|t| (0, t))
            }
            Scope::Area => self
                .pack
                .areas
                .iter()
                .find_map(|a| a.vars.get(name).map(|d| (0, d.ty))),
            Scope::Flag => Some((0, Type::Bool)),
            Scope::Counter => Some((0, Type::Int)),
        }
    }

    fn intern(&mut self, s: &str) -> Sym {
        match self.strings.iter().position(|x| x == s) {
            Some(i) => Sym(i as u32),
            None => {
                self.strings.push(s.to_string());
                Sym(self.strings.len() as u32 - 1)
            }
        }
    }

    fn entity(&mut self, id: &str) -> Option<EntityId> {
        let w = &self.pack.world;
        if let Some(i) = w.npcs.iter().position(|n| n.id == id) {
            return Some(EntityId::Npc(i as u32));
        }
        if let Some(i) = w.objects.iter().position(|o| o.id == id) {
            return Some(EntityId::Object(i as u32));
        }
        self.pack
            .areas
            .iter()
            .position(|a| a.id == id)
            .map(|i| EntityId::Area(i as u32))
    }
}

/// Parses and type-checks an expression against the pack; `want` is the type it must have
/// (`Bool` for conditions), `None` for any. Returns the expression's type.
pub fn check_expr(pack: &Pack, src: &str, want: Option<Type>) -> Result<Type, ExprError> {
    let mut r = PackResolver::new(pack);
    let e = match want {
        Some(t) => Expr::compile_typed(src, t, &mut r)?,
        None => Expr::compile(src, &mut r)?,
    };
    Ok(e.ty())
}

/// Byte range of a character span of `s` (clamped to the text; a span at the very end covers
/// the last character so that the underline stays visible).
pub fn char_span_to_bytes(s: &str, offset: usize, len: usize) -> std::ops::Range<usize> {
    let n = s.chars().count();
    if n == 0 {
        return 0..0;
    }
    let start = offset.min(n - 1);
    let end = (offset + len.max(1)).clamp(start + 1, n);
    let byte = |c: usize| s.char_indices().nth(c).map_or(s.len(), |(b, _)| b);
    byte(start)..byte(end)
}

/// The text laid out with the error span underlined (wavy-free: a thick red underline).
fn layout_job(ui: &Ui, text: &str, error: Option<&ExprError>, wrap_width: f32) -> LayoutJob {
    let font = FontId::monospace(ui.style().text_styles[&egui::TextStyle::Monospace].size);
    let color = ui.visuals().text_color();
    let normal = TextFormat::simple(font.clone(), color);
    let mut job = LayoutJob::default();
    job.wrap.max_width = wrap_width;
    match error {
        Some(e) if !text.is_empty() => {
            let span = char_span_to_bytes(text, e.offset, e.len);
            job.append(&text[..span.start], 0.0, normal.clone());
            job.append(
                &text[span.clone()],
                0.0,
                TextFormat {
                    color: ERROR_COLOR,
                    underline: Stroke::new(2.0, ERROR_COLOR),
                    ..TextFormat::simple(font, color)
                },
            );
            job.append(&text[span.end..], 0.0, normal);
        }
        _ => job.append(text, 0.0, normal),
    }
    job
}

/// An expression text field: monospace, checked on every frame it is shown, the error span
/// underlined and the message (`column N: …`) below it. The response is the text field's.
pub fn expr_field_ui(ui: &mut Ui, text: &mut String, pack: &Pack, want: Option<Type>) -> Response {
    let before = check_expr(pack, text, want).err();
    let mut layouter = |ui: &Ui, buf: &dyn egui::TextBuffer, wrap_width: f32| {
        // The text may have changed this frame: check what is laid out.
        let err = check_expr(pack, buf.as_str(), want).err();
        let job = layout_job(ui, buf.as_str(), err.as_ref(), wrap_width);
        ui.fonts_mut(|f| f.layout_job(job))
    };
    ui.vertical(|ui| {
        let resp = ui.add(
            TextEdit::singleline(text)
                .code_editor()
                .desired_width(f32::INFINITY)
                .layouter(&mut layouter),
        );
        let err = if resp.changed() {
            check_expr(pack, text, want).err()
        } else {
            before
        };
        if let Some(e) = err {
            ui.label(
                egui::RichText::new(e.to_string())
                    .color(ERROR_COLOR)
                    .small(),
            );
        }
        resp
    })
    .inner
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack() -> Pack {
        townsfolk_runtime::pack::load_str(crate::DEFAULT_PACK)
            .pack
            .unwrap_or_else(|| Pack::new("empty"))
    }

    #[test]
    fn declared_variables_flags_and_entities_resolve() {
        let p = pack();
        assert_eq!(
            check_expr(&p, "fatigue > 0.5", Some(Type::Bool)),
            Ok(Type::Bool)
        );
        assert_eq!(
            check_expr(&p, "flags.alarm", Some(Type::Bool)),
            Ok(Type::Bool)
        );
        assert_eq!(check_expr(&p, "counters.x + 1", None), Ok(Type::Int));
    }

    #[test]
    fn errors_carry_the_runtime_column() {
        let p = pack();
        let e = check_expr(&p, "fatigue > ", Some(Type::Bool)).unwrap_err();
        assert!(e.offset >= 9, "{e}");
        let e = check_expr(&p, "nope > 1", Some(Type::Bool)).unwrap_err();
        assert_eq!(e.offset, 0, "{e}");
        assert!(e.message.contains("nope"), "{e}");
        let e = check_expr(&p, "fatigue + 1", Some(Type::Bool)).unwrap_err();
        assert!(e.message.contains("bool"), "{e}");
        assert!(check_expr(&p, "", Some(Type::Bool)).is_err());
    }

    #[test]
    fn spans_map_characters_to_bytes() {
        assert_eq!(char_span_to_bytes("ab", 1, 1), 1..2);
        assert_eq!(char_span_to_bytes("ab", 2, 1), 1..2);
        assert_eq!(char_span_to_bytes("é > x", 2, 1), 3..4);
        assert_eq!(char_span_to_bytes("", 0, 1), 0..0);
    }
}
