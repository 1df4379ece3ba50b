//! Inspector widgets shared by every view: typed numbers, enums, id pickers, expressions.

mod expr;
mod fields;
mod ids;

pub use expr::{ERROR_COLOR, PackResolver, char_span_to_bytes, check_expr, expr_field_ui};
pub use fields::{choice_ui, count_ui, number_ui, optional_ui, row_ui};
pub use ids::{IdKind, id_picker_ui, ids_of};
