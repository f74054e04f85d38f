//! Reading a trace line by line in bounded memory: a line is at most
//! [`MAX_LINE_BYTES`] long (one endless line, `/dev/zero`, is refused
//! after that many bytes), each line is parsed into an [`Event`] as it
//! comes, and an error names its line.

use std::io::{self, BufRead};

use super::Event;

/// The longest line a trace may have by default, 1 MiB (lbcheck's own
/// lines are a few hundred bytes; a header with its spec a few kB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most characters of a parse error's message shown (a field's error
/// may quote the field, which may be a whole line).
const MAX_SHOWN: usize = 300;

/// A line of a trace that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Reading failed.
    #[error("reading the trace: {0}")]
    Io(#[from] io::Error),
    /// A blank line.
    #[error("line {0}: blank line (a trace has one JSON event per line and no blank lines)")]
    Blank(usize),
    /// A line longer than the reader's limit.
    #[error("line {line}: longer than {limit} bytes, the limit of a line (--max-line-bytes raises it)")]
    TooLong {
        /// 1-based line number.
        line: usize,
        /// The limit, in bytes.
        limit: usize,
    },
    /// A line that is not a valid event.
    #[error("line {line}: {}", clip(&error.to_string()))]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What is wrong (a field's own error, such as an energy that is
        /// not a fraction, comes as its message). Part of this error's
        /// message, so not its `source`.
        error: serde_json::Error,
    },
}

/// `text`, cut after [`MAX_SHOWN`] characters.
fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    crate::base::text::clip(text, MAX_SHOWN)
}

/// The events of a trace, one line at a time, with their line numbers:
/// every line must be an event (blank lines are errors too, so nothing is
/// skipped silently). It stops after the first error.
pub struct TraceReader<R> {
    r: R,
    buf: Vec<u8>,
    line: usize,
    max_line: usize,
    failed: bool,
}

impl<R: BufRead> TraceReader<R> {
    /// Reads from `r`, lines of at most [`MAX_LINE_BYTES`].
    pub fn new(r: R) -> TraceReader<R> {
        TraceReader { r, buf: Vec::new(), line: 0, max_line: MAX_LINE_BYTES, failed: false }
    }

    /// Allows lines of `bytes` bytes.
    pub fn max_line_bytes(self, bytes: usize) -> TraceReader<R> {
        TraceReader { max_line: bytes, ..self }
    }

    /// The lines read so far.
    pub fn lines(&self) -> usize {
        self.line
    }

    /// Reads the next line into `buf` (without its `\n` or `\r\n`): false at
    /// the end.
    fn next_line(&mut self) -> Result<bool, TraceError> {
        self.buf.clear();
        loop {
            let chunk = self.r.fill_buf()?;
            if chunk.is_empty() {
                return Ok(!self.buf.is_empty());
            }
            let end = chunk.iter().position(|&b| b == b'\n');
            let take = end.unwrap_or(chunk.len());
            if self.buf.len() + take > self.max_line {
                return Err(TraceError::TooLong { line: self.line + 1, limit: self.max_line });
            }
            self.buf.extend_from_slice(&chunk[..take]);
            self.r.consume(take + usize::from(end.is_some()));
            if end.is_some() {
                return Ok(true);
            }
        }
    }

    fn next_event(&mut self) -> Result<Option<(usize, Event)>, TraceError> {
        if !self.next_line()? {
            return Ok(None);
        }
        self.line += 1;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.iter().all(u8::is_ascii_whitespace) {
            return Err(TraceError::Blank(self.line));
        }
        let parse = |error| TraceError::Parse { line: self.line, error };
        let event = if self.buf.windows(3).any(|w| w == b"\"x-") {
            let mut value: serde_json::Value = serde_json::from_slice(&self.buf).map_err(parse)?;
            drop_own_fields(&mut value);
            serde_json::from_value(value).map_err(parse)?
        } else {
            serde_json::from_slice(&self.buf).map_err(parse)?
        };
        Ok(Some((self.line, event)))
    }
}

/// Drops the implementer's own fields, keys starting with `x-`, from a
/// record and from its header's `run` record (docs/trace-format.md): they
/// are accepted and ignored; any other unknown key is still an error.
fn drop_own_fields(record: &mut serde_json::Value) {
    let own = |fields: &mut serde_json::Map<String, serde_json::Value>| fields.retain(|k, _| !k.starts_with("x-"));
    if let Some(fields) = record.as_object_mut() {
        own(fields);
        if let Some(run) = fields.get_mut("run").and_then(|r| r.as_object_mut()) {
            own(run);
        }
    }
}

impl<R: BufRead> Iterator for TraceReader<R> {
    type Item = Result<(usize, Event), TraceError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.next_event();
        self.failed = next.is_err();
        next.transpose()
    }
}

/// Reads a whole trace into memory ([`TraceReader`] reads it a line at a
/// time). Returns the events with their line numbers.
pub fn read_trace(r: impl BufRead) -> Result<Vec<(usize, Event)>, TraceError> {
    TraceReader::new(r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8], max: usize) -> Result<Vec<(usize, Event)>, TraceError> {
        TraceReader::new(text).max_line_bytes(max).collect()
    }

    #[test]
    fn reads_lines_with_their_numbers_and_refuses_long_ones() {
        let two = b"{\"ev\":\"busy\",\"t\":0,\"pe\":0}\r\n{\"ev\":\"end\",\"t\":1}";
        let events = read(two, 100).unwrap();
        assert_eq!(events, [(1, Event::Busy { t: 0, pe: 0 }), (2, Event::End { t: 1 })]);
        let err = read(two, 20).unwrap_err();
        assert!(matches!(err, TraceError::TooLong { line: 1, limit: 20 }), "{err}");
        assert!(err.to_string().contains("--max-line-bytes"), "{err}");
        let zeros = std::io::Read::take(std::io::repeat(0), 1 << 30);
        let err = TraceReader::new(std::io::BufReader::new(zeros)).next().unwrap().unwrap_err();
        assert!(matches!(err, TraceError::TooLong { line: 1, limit: MAX_LINE_BYTES }), "{err}");
    }

    #[test]
    fn errors_name_their_line_and_stay_short() {
        let blank = read(b"{\"ev\":\"end\",\"t\":1}\n \n", 100).unwrap_err();
        assert!(matches!(blank, TraceError::Blank(2)), "{blank}");
        let utf8 = read(b"{\"ev\":\"end\",\"t\":1}\n{\"ev\":\"\xff\"}\n", 100).unwrap_err();
        assert!(utf8.to_string().starts_with("line 2: "), "{utf8}");
        let long = format!("{{\"ev\":\"{}\"}}", "x".repeat(100_000));
        let err = read(long.as_bytes(), MAX_LINE_BYTES).unwrap_err().to_string();
        assert!(err.len() < 400 && err.starts_with("line 1: unknown variant"), "{err}");
    }

    /// `x-` keys are the implementer's own: accepted and ignored on any
    /// record and in the header's `run`; other unknown keys stay errors.
    #[test]
    fn own_x_fields_are_ignored_and_other_unknown_fields_refused() {
        let header = br#"{"ev":"header","version":1,"pes":2,"workload":"synthetic:size=8","split":"bottom-half","balancer":"random-polling","detector":"energy","t_split":1,"clock":"work","x-host":"n1","run":{"driver":"external","seed":1,"dt":2,"latency":[1,2],"x-commit":"abc"}}"#;
        let plain = br#"{"ev":"header","version":1,"pes":2,"workload":"synthetic:size=8","split":"bottom-half","balancer":"random-polling","detector":"energy","t_split":1,"clock":"work","run":{"driver":"external","seed":1,"dt":2,"latency":[1,2]}}"#;
        let text = [&header[..], b"\n{\"ev\":\"busy\",\"t\":0,\"pe\":0,\"x-note\":{\"why\":[1]}}\n"].concat();
        let events = read(&text, 1000).unwrap();
        assert_eq!(events[0].1, read(plain, 1000).unwrap()[0].1);
        assert_eq!(events[1], (2, Event::Busy { t: 0, pe: 0 }));
        let err = read(b"{\"ev\":\"busy\",\"t\":0,\"pe\":0,\"note\":1,\"x-a\":2}", 100).unwrap_err();
        assert!(err.to_string().contains("unknown field `note`"), "{err}");
    }
}
