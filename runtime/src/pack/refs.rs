//! Who references an id: every place in a pack that names a tree, area, template, NPC, object,
//! inbox, cast, flag, counter or blackboard variable, with its JSON path. The editor's rename
//! and find-usages are built on it.
