//! The docked shell: menu bar, asset browser, document tabs, inspector, problems, status bar.
