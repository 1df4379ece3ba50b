//! Files: open, save (atomic, canonical bytes), recent files, autosave and crash recovery,
//! export, and noticing changes on disk.
