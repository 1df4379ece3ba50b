//! Every keyboard shortcut of the editor in one table. Menus show them (with
//! `egui::Context::format_shortcut`), handlers match them, and a test checks that the README's
//! shortcut table lists every row. Add a command here first, then handle it where it belongs.
//!
//! Copy, cut and paste arrive from egui as `Event::Copy` / `Event::Cut` / `Event::Paste` rather
//! than as key presses; they are listed here for the menus and the README all the same.

use egui::{Key, KeyboardShortcut, Modifiers};

/// Where a shortcut applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Anywhere in the window.
    Global,
    /// While a graph canvas has the pointer or keyboard focus (and no text field is focused).
    Canvas,
    /// While the preview tab is focused or no text field is focused.
    Preview,
}

/// A user command that has a keyboard shortcut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    New,
    Open,
    Save,
    SaveAs,
    Undo,
    Redo,
    RedoAlt,
    Find,
    Copy,
    Cut,
    Paste,
    Duplicate,
    Delete,
    Rename,
    SelectAll,
    FitView,
    AutoLayout,
    ToggleDisabled,
    ToggleCollapsed,
    InsertNode,
    MoveChildLeft,
    MoveChildRight,
    PlayPause,
    StepTick,
    Restart,
    CloseTab,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Shortcut {
    pub command: Command,
    pub keys: KeyboardShortcut,
    pub scope: Scope,
    /// What it does, as the README and the menus say it.
    pub label: &'static str,
}

const fn s(
    command: Command,
    modifiers: Modifiers,
    key: Key,
    scope: Scope,
    label: &'static str,
) -> Shortcut {
    Shortcut {
        command,
        keys: KeyboardShortcut::new(modifiers, key),
        scope,
        label,
    }
}

const CMD: Modifiers = Modifiers::COMMAND;
const CMD_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);
const NONE: Modifiers = Modifiers::NONE;

/// The whole table, in the order the README lists it.
pub const SHORTCUTS: &[Shortcut] = &[
    s(Command::New, CMD, Key::N, Scope::Global, "New pack"),
    s(Command::Open, CMD, Key::O, Scope::Global, "Open a pack"),
    s(Command::Save, CMD, Key::S, Scope::Global, "Save"),
    s(Command::SaveAs, CMD_SHIFT, Key::S, Scope::Global, "Save as"),
    s(Command::Undo, CMD, Key::Z, Scope::Global, "Undo"),
    s(Command::Redo, CMD_SHIFT, Key::Z, Scope::Global, "Redo"),
    s(Command::RedoAlt, CMD, Key::Y, Scope::Global, "Redo"),
    s(
        Command::Find,
        CMD,
        Key::F,
        Scope::Global,
        "Find in every asset",
    ),
    s(
        Command::CloseTab,
        CMD,
        Key::W,
        Scope::Global,
        "Close the document tab",
    ),
    s(
        Command::Copy,
        CMD,
        Key::C,
        Scope::Canvas,
        "Copy the selected nodes",
    ),
    s(
        Command::Cut,
        CMD,
        Key::X,
        Scope::Canvas,
        "Cut the selected nodes",
    ),
    s(
        Command::Paste,
        CMD,
        Key::V,
        Scope::Canvas,
        "Paste under the selected node",
    ),
    s(
        Command::Duplicate,
        CMD,
        Key::D,
        Scope::Canvas,
        "Duplicate the selected nodes",
    ),
    s(
        Command::Delete,
        NONE,
        Key::Delete,
        Scope::Canvas,
        "Delete the selected nodes",
    ),
    s(
        Command::Rename,
        NONE,
        Key::F2,
        Scope::Canvas,
        "Rename the selected id",
    ),
    s(
        Command::SelectAll,
        CMD,
        Key::A,
        Scope::Canvas,
        "Select every node",
    ),
    s(
        Command::FitView,
        NONE,
        Key::F,
        Scope::Canvas,
        "Fit the graph in view",
    ),
    s(
        Command::AutoLayout,
        NONE,
        Key::L,
        Scope::Canvas,
        "Auto-layout the tree (or the selection)",
    ),
    s(
        Command::ToggleDisabled,
        NONE,
        Key::D,
        Scope::Canvas,
        "Disable / enable the selected nodes",
    ),
    s(
        Command::ToggleCollapsed,
        NONE,
        Key::C,
        Scope::Canvas,
        "Collapse / expand the selected subtree",
    ),
    s(
        Command::InsertNode,
        NONE,
        Key::Tab,
        Scope::Canvas,
        "Type to insert a node under the selection",
    ),
    s(
        Command::MoveChildLeft,
        Modifiers::ALT,
        Key::ArrowLeft,
        Scope::Canvas,
        "Move the child one place earlier",
    ),
    s(
        Command::MoveChildRight,
        Modifiers::ALT,
        Key::ArrowRight,
        Scope::Canvas,
        "Move the child one place later",
    ),
    s(
        Command::PlayPause,
        NONE,
        Key::Space,
        Scope::Preview,
        "Play / pause the preview",
    ),
    s(
        Command::StepTick,
        NONE,
        Key::Period,
        Scope::Preview,
        "Step one tick",
    ),
    s(
        Command::Restart,
        NONE,
        Key::R,
        Scope::Preview,
        "Restart the preview",
    ),
];

/// The row of a command.
pub fn get(command: Command) -> &'static Shortcut {
    SHORTCUTS
        .iter()
        .find(|s| s.command == command)
        // Invariant: every `Command` variant has a row (checked by a test below).
        .expect("every command has a row in SHORTCUTS")
}

/// Whether the command's shortcut was pressed this frame (and consumes it).
pub fn consume(ctx: &egui::Context, command: Command) -> bool {
    let keys = get(command).keys;
    ctx.input_mut(|i| i.consume_shortcut(&keys))
}

/// The shortcut as the menus show it, e.g. `Ctrl+Shift+S`.
pub fn text(ctx: &egui::Context, command: Command) -> String {
    ctx.format_shortcut(&get(command).keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_one_row_and_no_two_rows_share_keys_in_a_scope() {
        let all = [
            Command::New,
            Command::Open,
            Command::Save,
            Command::SaveAs,
            Command::Undo,
            Command::Redo,
            Command::RedoAlt,
            Command::Find,
            Command::Copy,
            Command::Cut,
            Command::Paste,
            Command::Duplicate,
            Command::Delete,
            Command::Rename,
            Command::SelectAll,
            Command::FitView,
            Command::AutoLayout,
            Command::ToggleDisabled,
            Command::ToggleCollapsed,
            Command::InsertNode,
            Command::MoveChildLeft,
            Command::MoveChildRight,
            Command::PlayPause,
            Command::StepTick,
            Command::Restart,
            Command::CloseTab,
        ];
        assert_eq!(all.len(), SHORTCUTS.len());
        for c in all {
            assert_eq!(
                SHORTCUTS.iter().filter(|s| s.command == c).count(),
                1,
                "{c:?}"
            );
        }
        for (i, a) in SHORTCUTS.iter().enumerate() {
            for b in &SHORTCUTS[i + 1..] {
                assert!(
                    !(a.keys == b.keys && a.scope == b.scope),
                    "{:?} and {:?} share keys",
                    a.command,
                    b.command
                );
            }
        }
    }
}
