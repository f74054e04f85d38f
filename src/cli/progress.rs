//! The campaign's progress on stderr (`lbcheck check`, `check --mpi`): a
//! bar on a terminal, a few plain lines otherwise.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use lbcheck::campaign::{Case, Progress, Verdict};

/// A progress bar on a terminal, plain lines otherwise.
pub struct Display {
    bar: Option<ProgressBar>,
    /// (layer, total, done, failed) of the layer running.
    state: Mutex<(String, usize, usize, usize)>,
}

impl Display {
    /// A bar on a terminal, plain lines otherwise.
    pub fn new() -> Display {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template("{prefix:>9} [{bar:40}] {pos}/{len} {msg} ({elapsed})")
                .expect("a valid template")
                .progress_chars("=> ");
            ProgressBar::new(0).with_style(style)
        });
        Display { bar, state: Mutex::new((String::new(), 0, 0, 0)) }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Display {
    fn start(&self, layer: &str, total: usize) {
        *self.state.lock().expect("not poisoned") = (layer.to_string(), total, 0, 0);
        match &self.bar {
            Some(bar) => {
                bar.set_prefix(layer.to_string());
                bar.set_length(total as u64);
                bar.set_position(0);
                bar.set_message("");
            }
            None if total > 0 => eprintln!("{layer}: {total} cases"),
            None => {}
        }
    }

    fn done(&self, _layer: &str, case: &Case) {
        let mut s = self.state.lock().expect("not poisoned");
        s.2 += 1;
        s.3 += usize::from(case.verdict == Verdict::Fail);
        let (layer, total, done, failed) = s.clone();
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(if failed > 0 { format!("{failed} failed") } else { String::new() });
            }
            None if done == total || done % (total / 4).max(1) == 0 => {
                eprintln!("{layer}: {done}/{total} done, {failed} failed")
            }
            None => {}
        }
    }
}
