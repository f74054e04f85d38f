//! The checked side of a run: the trace header written first, then every
//! event numbered, fed to the checker and written to the trace. The
//! checker runs on its own thread where that pays ([`Online`]).

use std::io::{self, Write};

use crate::check::{CheckReport, Checker, Online, Reference};
use crate::event::{write_event, Event, TraceHeader};

/// One run's checker and trace writer.
pub(super) struct Session<'w> {
    checker: Online,
    trace: Option<&'w mut dyn Write>,
    /// The line of the last event written (the header is line 1).
    line: usize,
    io_err: Option<io::Error>,
}

impl<'w> Session<'w> {
    /// Starts checking a run of `header` against `reference`, writing the
    /// header to `trace` if given.
    pub(super) fn new(
        header: &TraceHeader,
        reference: Reference,
        mut trace: Option<&'w mut dyn Write>,
    ) -> io::Result<Self> {
        if let Some(w) = trace.as_deref_mut() {
            write_event(w, &Event::Header(Box::new(header.clone())))?;
        }
        Ok(Session { checker: Online::new(Checker::new(header, reference)), trace, line: 1, io_err: None })
    }

    /// Writes and checks one event (the first write error is kept for [`Session::finish`]).
    pub(super) fn event(&mut self, e: Event) {
        self.line += 1;
        if let (Some(w), None) = (self.trace.as_deref_mut(), &self.io_err) {
            self.io_err = write_event(w, &e).err();
        }
        self.checker.observe(self.line, e);
    }

    /// The line of the last event checked (the header is line 1).
    pub(super) fn line(&self) -> usize {
        self.line
    }

    /// The verdicts, or the first error writing the trace.
    pub(super) fn finish(self) -> io::Result<CheckReport> {
        if let Some(w) = self.trace {
            w.flush()?;
        }
        match self.io_err {
            Some(e) => Err(e),
            None => Ok(self.checker.finish()),
        }
    }
}
