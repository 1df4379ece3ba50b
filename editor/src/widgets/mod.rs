//! Inspector widgets shared by every view: typed numbers, enums, id pickers, expressions.
