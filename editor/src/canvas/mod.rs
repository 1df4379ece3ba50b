//! The graph canvas shared by every graph view. Generic: it knows nothing of packs. It draws
//! what the view hands it and reports interactions as actions that the view turns into edits.
