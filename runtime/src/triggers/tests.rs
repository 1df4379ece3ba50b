//! Tests of trigger systems.
