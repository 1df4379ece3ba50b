//! Background checks. A worker thread keeps its own copy of the pack (a mirror), kept in step
//! by the edits the document applies (small values, sent over a channel), so the UI thread
//! never clones the pack per edit. When edits stop arriving for [`DEBOUNCE`], the worker runs
//! the runtime's checks on its mirror and sends the diagnostics back, tagged with the
//! revision they describe. Results for an older revision than the document's are dropped.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use townsfolk_runtime::pack::{Diagnostic, Pack};

use super::edit::{Edit, apply};

/// Quiet time after the last edit before the checks run.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// The one function through which the editor runs the runtime's semantic checks.
pub fn run_checks(pack: &Pack) -> Vec<Diagnostic> {
    townsfolk_runtime::program::check(pack)
}

enum ToWorker {
    /// Edits applied on the UI thread, in order; the document is now at `revision`.
    Edits { edits: Vec<Edit>, revision: u64 },
    /// A fresh copy of the pack (after the mirror could not follow).
    Reset { pack: Box<Pack>, revision: u64 },
}

pub(crate) enum FromWorker {
    Checked {
        revision: u64,
        diagnostics: Vec<Diagnostic>,
    },
    /// The mirror could not apply an edit; it needs a fresh copy.
    Diverged,
}

/// The UI side of the worker.
pub(crate) struct Checker {
    tx: Option<Sender<ToWorker>>,
    rx: Receiver<FromWorker>,
}

impl Checker {
    /// Starts a worker on a copy of `pack` at `revision`.
    pub fn start(pack: Pack, revision: u64) -> Checker {
        let (tx, worker_rx) = mpsc::channel();
        let (worker_tx, rx) = mpsc::channel();
        // The worker ends when the document (the sending side) is dropped.
        let spawned = std::thread::Builder::new()
            .name("townsfolk-checks".into())
            .spawn(move || worker(pack, revision, worker_rx, worker_tx))
            .is_ok();
        Checker {
            tx: spawned.then_some(tx),
            rx,
        }
    }

    pub fn send_edits(&self, edits: Vec<Edit>, revision: u64) -> bool {
        match &self.tx {
            Some(tx) => tx.send(ToWorker::Edits { edits, revision }).is_ok(),
            None => false,
        }
    }

    pub fn reset(&self, pack: Pack, revision: u64) -> bool {
        match &self.tx {
            Some(tx) => tx
                .send(ToWorker::Reset {
                    pack: Box::new(pack),
                    revision,
                })
                .is_ok(),
            None => false,
        }
    }

    pub fn try_recv(&self) -> Option<FromWorker> {
        self.rx.try_recv().ok()
    }

    /// Waits up to `timeout` for one message (tests and benchmarks).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<FromWorker> {
        self.rx.recv_timeout(timeout).ok()
    }
}

fn worker(mut pack: Pack, mut revision: u64, rx: Receiver<ToWorker>, tx: Sender<FromWorker>) {
    let mut pending = false;
    let mut diverged = false;
    loop {
        let msg = if pending {
            match rx.recv_timeout(DEBOUNCE) {
                Ok(m) => Some(m),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match rx.recv() {
                Ok(m) => Some(m),
                Err(_) => return,
            }
        };
        match msg {
            Some(ToWorker::Edits { edits, revision: r }) => {
                if !diverged {
                    for e in edits {
                        if apply(&mut pack, e).is_err() {
                            diverged = true;
                            let _ = tx.send(FromWorker::Diverged);
                            break;
                        }
                    }
                }
                revision = r;
                pending = !diverged;
            }
            Some(ToWorker::Reset {
                pack: p,
                revision: r,
            }) => {
                pack = *p;
                revision = r;
                diverged = false;
                pending = true;
            }
            None => {
                pending = false;
                let diagnostics = run_checks(&pack);
                if tx
                    .send(FromWorker::Checked {
                        revision,
                        diagnostics,
                    })
                    .is_err()
                {
                    return;
                }
            }
        }
    }
}
