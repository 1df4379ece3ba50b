//! Items the careful reader left out of the pack (an item that failed to read is skipped
//! whole), and what that does to the checks that follow: the pack the program checks lacks
//! those items, so
//! - its list indexes are shifted: the checks' paths are moved back to the text's
//!   ([`Skips::to_text_path`]), and
//! - every use of a skipped item (an NPC running a tree that failed to read, a subtree
//!   reference, a template) would be reported as unknown: such follow-on problems are held
//!   back ([`Skips::hold_back`]), each skipped item getting at most one note that lists them.
//!
//! A check is a follow-on of a skipped item when the name it is about (the first
//! `` `name` `` of its message) is written in that item: its id, a variable it declares, a
//! name in one of its strings or keys; when the world's own fields could not be read, every
//! check is (bounds, clock, NPCs, objects are all missing). They come back, as real problems
//! or not at all, once the item reads.

use std::collections::BTreeSet;

use serde_json::Value;

use super::diag::{self, Diagnostic};

/// One item the reader left out: where it is in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Skip {
    /// The list it was in (`trees`, `world.npcs`), or the section itself (`world`).
    pub(crate) list: &'static str,
    /// Its index in that list in the text; `None`: the whole section.
    pub(crate) index: Option<usize>,
}

impl Skip {
    fn path(&self) -> String {
        match self.index {
            Some(i) => diag::index(self.list, i),
            None => self.list.to_string(),
        }
    }
    fn kind(&self) -> &'static str {
        if self.index.is_none() {
            return "section";
        }
        match self.list {
            "trees" => "tree",
            "areas" => "area",
            "events" => "event",
            "scenarios" => "scenario",
            "casts" => "cast",
            "triggers" => "trigger system",
            "tests" => "content test",
            "world.objects" => "object",
            "world.npcs" => "NPC",
            _ => "item",
        }
    }
}

/// The items a read left out, in reading order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Skips(pub(crate) Vec<Skip>);

/// What one skipped item says in the text.
struct Written {
    id: Option<String>,
    names: BTreeSet<String>,
}

impl Skips {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A path (or a message naming paths) of the pack as read, moved to the text's indexes:
    /// `trees[3]` is `trees[4]` when `trees[1]` was skipped.
    pub(crate) fn to_text_path(&self, s: &str) -> String {
        let mut lists: Vec<&'static str> = self
            .0
            .iter()
            .filter(|k| k.index.is_some())
            .map(|k| k.list)
            .collect();
        lists.sort_unstable();
        lists.dedup();
        let mut out = s.to_string();
        for list in lists {
            let mut skipped: Vec<usize> = self
                .0
                .iter()
                .filter(|k| k.list == list)
                .filter_map(|k| k.index)
                .collect();
            skipped.sort_unstable();
            out = shift_indexes(&out, list, &skipped);
        }
        out
    }

    /// Splits checks of the pack as read (paths already moved to the text) into those shown
    /// and those held back as follow-ons; gives the shown ones and, for each skipped item
    /// that had some, one note listing them, placed at the first of the reading errors
    /// (`read`, located) in that item, so that it follows the real error.
    pub(crate) fn hold_back(
        &self,
        text: &str,
        read: &[Diagnostic],
        checks: Vec<Diagnostic>,
    ) -> Vec<Diagnostic> {
        if self.is_empty() {
            return checks;
        }
        let written = self.written(text);
        let mut shown = Vec::with_capacity(checks.len());
        let mut held: Vec<Vec<Diagnostic>> = vec![Vec::new(); self.0.len()];
        // Without the world (its clock, bounds, flags, NPCs and objects) every check of the
        // rest is suspect: all wait for it.
        let world = self
            .0
            .iter()
            .position(|k| k.list == "world" && k.index.is_none());
        for d in checks {
            let subject = first_ticked(&d.message);
            let by = world
                .or_else(|| subject.and_then(|s| written.iter().position(|w| w.names.contains(s))));
            match by {
                Some(k) => held[k].push(d),
                None => shown.push(d),
            }
        }
        for ((skip, w), mut held) in self.0.iter().zip(&written).zip(held) {
            if held.is_empty() {
                continue;
            }
            diag::locate_all(text, &mut held);
            let (what, about) = match &w.id {
                _ if skip.list == "world" && skip.index.is_none() => (
                    "the world".to_string(),
                    "of the rest of the pack (which needs its bounds, clock, flags, NPCs and \
                     objects)",
                ),
                Some(id) => (
                    format!("{} `{id}`", skip.kind()),
                    "about names it declares or uses",
                ),
                None => (
                    format!("this {}", skip.kind()),
                    "about names it declares or uses",
                ),
            };
            let n = held.len();
            let mut list: Vec<String> = held
                .iter()
                .take(6)
                .map(|d| d.display_path().to_string())
                .collect();
            if n > 6 {
                list.push(format!("and {} more", n - 6));
            }
            let path = skip.path();
            let cause = read.iter().find(|d| {
                let inside = d.path.strip_prefix(path.as_str());
                d.is_error() && inside.is_some_and(|r| r.is_empty() || r.starts_with(['.', '[']))
            });
            let mut note = Diagnostic::note(
                path,
                format!(
                    "{what} could not be read and was left out, so {} {about} {} not shown \
                     until it reads: {}",
                    if n == 1 {
                        "1 problem".to_string()
                    } else {
                        format!("{n} problems")
                    },
                    if n == 1 { "is" } else { "are" },
                    list.join(", ")
                ),
            );
            if let Some((Some(l), Some(c))) = cause.map(|d| (d.line, d.column)) {
                note = note.at(l, c);
            }
            shown.push(note);
        }
        shown
    }

    /// Each skipped item's id and the names written in it, read again from the text.
    fn written(&self, text: &str) -> Vec<Written> {
        let wanted = self.0.iter().map(Skip::path).collect();
        let found = diag::locate(text, &wanted);
        self.0
            .iter()
            .map(|k| {
                let value = found.get(&k.path()).and_then(|spot| {
                    let rest = text.get(spot.offset..)?;
                    serde_json::Deserializer::from_str(rest)
                        .into_iter::<Value>()
                        .next()?
                        .ok()
                });
                let mut names = BTreeSet::new();
                if let Some(v) = &value {
                    collect_names(v, &mut names);
                }
                let id = value
                    .as_ref()
                    .filter(|_| k.index.is_some())
                    .and_then(|v| v.get("id").or_else(|| v.get("name")))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                Written { id, names }
            })
            .collect()
    }
}

/// Every key, string and word of a string (an expression's names) in `v`.
fn collect_names(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
            for w in s.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
                if !w.is_empty() {
                    out.insert(w.to_string());
                    // `area.x`: the area variable `x` too.
                    if let Some((_, last)) = w.rsplit_once('.') {
                        out.insert(last.to_string());
                    }
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_names(i, out)),
        Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                collect_names(x, out);
            }
        }
        _ => {}
    }
}

/// The first `` `name` `` of a message: the name a check is about.
fn first_ticked(msg: &str) -> Option<&str> {
    let start = msg.find('`')? + 1;
    let len = msg[start..].find('`')?;
    Some(&msg[start..start + len])
}

/// Every `list[i]` in `s` (at the start or after a character that cannot end a key) with
/// `i` moved past the skipped indexes (ascending).
fn shift_indexes(s: &str, list: &str, skipped: &[usize]) -> String {
    let pat = format!("{list}[");
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(&pat) {
        let boundary = if at > 0 {
            rest[..at].chars().last()
        } else {
            out.chars().last()
        };
        let starts_path =
            boundary.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ']'));
        out.push_str(&rest[..at + pat.len()]);
        rest = &rest[at + pat.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(mut i) if starts_path && rest[digits..].starts_with(']') => {
                for &k in skipped {
                    if k <= i {
                        i += 1;
                    }
                }
                out.push_str(&i.to_string());
                rest = &rest[digits..];
            }
            _ => {}
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_move_past_the_skipped_items() {
        let skips = Skips(vec![
            Skip {
                list: "trees",
                index: Some(0),
            },
            Skip {
                list: "trees",
                index: Some(2),
            },
            Skip {
                list: "world.npcs",
                index: Some(1),
            },
        ]);
        // Read trees 0, 1 are the text's 1, 3; NPC 1 is the text's 2.
        assert_eq!(skips.to_text_path("trees[0].root"), "trees[1].root");
        assert_eq!(skips.to_text_path("trees[1].id"), "trees[3].id");
        assert_eq!(
            skips.to_text_path("world.npcs[1].tree"),
            "world.npcs[2].tree"
        );
        assert_eq!(
            skips.to_text_path("world.npcs[0].tree"),
            "world.npcs[0].tree"
        );
        assert_eq!(
            skips.to_text_path("duplicate id (first at trees[0].root.children[0])"),
            "duplicate id (first at trees[1].root.children[0])"
        );
        // Not a path of the list: a key ending in `trees`, a child list.
        assert_eq!(skips.to_text_path("subtrees[0]"), "subtrees[0]");
        assert_eq!(skips.to_text_path("areas[0].trees[0]"), "areas[0].trees[0]");
    }

    #[test]
    fn the_subject_is_the_first_ticked_name() {
        assert_eq!(
            first_ticked("unknown tree `cycle4` (did you mean `cycle6`?)"),
            Some("cycle4")
        );
        assert_eq!(first_ticked("no names here"), None);
    }
}
