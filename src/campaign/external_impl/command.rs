//! The user's command line (`lbcheck check --impl CMD`): split into words
//! once, with the quoting of [`crate::harness::replay::words`] (whitespace
//! separates words, single quotes group them), then each run's values
//! substituted word by word, so that a value with spaces
//! (`uts:args=-t 1 -a 3 …`) reaches the program as one argument. The
//! program runs without a shell; the same values are in `LBCHECK_*`
//! environment variables.

use std::collections::BTreeMap;

use crate::harness::replay::words;

/// A value lbcheck hands the program: `{name}` in the command, `LBCHECK_NAME`
/// in its environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Placeholder {
    /// `{pes}`: P.
    Pes,
    /// `{seed}`: the run's seed.
    Seed,
    /// `{workload}`: the workload's canonical name.
    Workload,
    /// `{termination}`: the declared detector.
    Termination,
    /// `{dt}`: Δt, work units between polls.
    Dt,
    /// `{t_split}`: T_split, the time one split costs the splitter.
    TSplit,
    /// `{latency}`: message latencies, uniform in `a..b` (a = b: fixed).
    Latency,
    /// `{trace}`: the path to write the trace to (absent: standard output is the trace).
    Trace,
    /// `{spec}`: the path of the run's `RunSpec` as JSON.
    Spec,
}

impl Placeholder {
    /// Every placeholder, in the order the docs list them.
    pub const ALL: [Placeholder; 9] = [
        Placeholder::Pes,
        Placeholder::Seed,
        Placeholder::Workload,
        Placeholder::Termination,
        Placeholder::Dt,
        Placeholder::TSplit,
        Placeholder::Latency,
        Placeholder::Trace,
        Placeholder::Spec,
    ];

    /// The machine's parameters: a program that takes one of them as an
    /// argument must take all (or `{spec}`), or it would not run the
    /// configuration it is checked against.
    pub const MACHINE: [Placeholder; 5] =
        [Placeholder::Pes, Placeholder::Seed, Placeholder::Dt, Placeholder::TSplit, Placeholder::Latency];

    /// The name between the braces.
    pub fn name(self) -> &'static str {
        match self {
            Placeholder::Pes => "pes",
            Placeholder::Seed => "seed",
            Placeholder::Workload => "workload",
            Placeholder::Termination => "termination",
            Placeholder::Dt => "dt",
            Placeholder::TSplit => "t_split",
            Placeholder::Latency => "latency",
            Placeholder::Trace => "trace",
            Placeholder::Spec => "spec",
        }
    }

    /// The environment variable with the same value (`LBCHECK_T_SPLIT`).
    pub fn env(self) -> String {
        format!("LBCHECK_{}", self.name().to_ascii_uppercase())
    }

    fn lookup(name: &str) -> Option<Placeholder> {
        Placeholder::ALL.into_iter().find(|p| p.name() == name)
    }

    /// `{pes}, {seed}, …`: the list for messages.
    pub fn listing() -> String {
        Placeholder::ALL.map(|p| format!("{{{}}}", p.name())).join(", ")
    }
}

/// What is wrong with `--impl CMD`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// No words at all.
    #[error("--impl is empty: give the command that makes one run of your program, e.g. 'python3 mine.py --pes {{pes}} --seed {{seed}} --trace {{trace}}'")]
    Empty,
    /// `{name}` with a name lbcheck does not know.
    #[error("--impl: unknown placeholder `{{{0}}}`; the placeholders are {list}", list = Placeholder::listing())]
    Unknown(String),
    /// Some of the machine's parameters are passed, others not.
    #[error("--impl passes {given} but not {missing}: lbcheck varies all of them from run to run, so the program would not run the configuration it is checked against; pass them all (or {{spec}}, the whole run as JSON), or none and read the LBCHECK_* environment variables")]
    Partial {
        /// The ones passed, as `{pes}, …`.
        given: String,
        /// The ones missing.
        missing: String,
    },
}

/// One piece of a word: text, or a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Slot(Placeholder),
}

/// The command, split into words of text and placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    words: Vec<Vec<Piece>>,
    line: String,
}

/// The values of one run, by placeholder.
pub type Values = BTreeMap<Placeholder, String>;

impl Template {
    /// Parses `cmd`: `{name}` (lowercase letters and `_`) is a placeholder
    /// and must be one of [`Placeholder::ALL`]; any other brace is text.
    pub fn parse(cmd: &str) -> Result<Template, TemplateError> {
        let words: Vec<Vec<Piece>> = words(cmd).iter().map(|w| pieces(w)).collect::<Result<_, _>>()?;
        if words.is_empty() || words[0].is_empty() {
            return Err(TemplateError::Empty);
        }
        Ok(Template { words, line: cmd.to_string() })
    }

    /// The command as the user gave it.
    pub fn line(&self) -> &str {
        &self.line
    }

    /// True if the command names `p`.
    pub fn uses(&self, p: Placeholder) -> bool {
        self.words.iter().flatten().any(|piece| *piece == Piece::Slot(p))
    }

    /// Checks that the command passes what it needs: all of the machine's
    /// parameters or none (`{spec}` gives them all), and `{workload}`
    /// (or `{spec}`) when it passes them and more than one workload may be drawn.
    pub fn check_needs(&self, one_workload: bool) -> Result<(), TemplateError> {
        if self.uses(Placeholder::Spec) {
            return Ok(());
        }
        let mut needed = Placeholder::MACHINE.to_vec();
        if !one_workload {
            needed.push(Placeholder::Workload);
        }
        let (given, missing): (Vec<Placeholder>, Vec<Placeholder>) = needed.into_iter().partition(|&p| self.uses(p));
        let machine_given = given.iter().any(|p| Placeholder::MACHINE.contains(p));
        if !machine_given || missing.is_empty() {
            return Ok(());
        }
        let list = |ps: &[Placeholder]| ps.iter().map(|p| format!("{{{}}}", p.name())).collect::<Vec<_>>().join(", ");
        Err(TemplateError::Partial { given: list(&given), missing: list(&missing) })
    }

    /// The program and its arguments for one run's `values`.
    pub fn argv(&self, values: &Values) -> Vec<String> {
        self.words.iter().map(|w| w.iter().map(|piece| text(piece, values)).collect()).collect()
    }
}

/// The environment of one run: `LBCHECK_NAME=value` for every value.
pub fn env(values: &Values) -> Vec<(String, String)> {
    values.iter().map(|(p, v)| (p.env(), v.clone())).collect()
}

fn text(piece: &Piece, values: &Values) -> String {
    match piece {
        Piece::Text(t) => t.clone(),
        Piece::Slot(p) => values.get(p).cloned().unwrap_or_default(),
    }
}

/// The pieces of one word.
fn pieces(word: &str) -> Result<Vec<Piece>, TemplateError> {
    let mut out = Vec::new();
    let mut rest = word;
    while let Some(open) = rest.find('{') {
        let name_len = rest[open + 1..].find(|c: char| !(c.is_ascii_lowercase() || c == '_'));
        let slot = name_len.filter(|&n| n > 0 && rest[open + 1 + n..].starts_with('}'));
        let Some(n) = slot else {
            push_text(&mut out, &rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        };
        push_text(&mut out, &rest[..open]);
        let name = &rest[open + 1..open + 1 + n];
        out.push(Piece::Slot(Placeholder::lookup(name).ok_or_else(|| TemplateError::Unknown(name.into()))?));
        rest = &rest[open + n + 2..];
    }
    push_text(&mut out, rest);
    if word.is_empty() {
        out.push(Piece::Text(String::new())); // '' is an empty argument
    }
    Ok(out)
}

fn push_text(out: &mut Vec<Piece>, s: &str) {
    if s.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(Piece::Text(t)) => t.push_str(s),
        _ => out.push(Piece::Text(s.to_string())),
    }
}

/// `words` as one command line a POSIX shell splits back into them.
pub fn shell_line(words: &[String]) -> String {
    words.iter().map(|w| shell_word(w)).collect::<Vec<_>>().join(" ")
}

/// One word for a POSIX shell: as it is when safe, else single-quoted.
pub fn shell_word(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,:=/+@%".contains(c);
    match !w.is_empty() && w.chars().all(plain) {
        true => w.to_string(),
        false => format!("'{}'", w.replace('\'', r"'\''")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> Values {
        let mut v = Values::new();
        v.insert(Placeholder::Pes, "4".into());
        v.insert(Placeholder::Workload, "uts:args=-t 1 -a 3".into());
        v.insert(Placeholder::Trace, "/tmp/t.jsonl".into());
        v
    }

    #[test]
    fn substitutes_per_word_so_spaces_stay_in_one_argument() {
        let t = Template::parse("prog --pes {pes} --workload {workload} --out=x{trace}y 'a b' {{pes}} {}").unwrap();
        let argv = t.argv(&values());
        assert_eq!(
            argv,
            ["prog", "--pes", "4", "--workload", "uts:args=-t 1 -a 3", "--out=x/tmp/t.jsonly", "a b", "{4}", "{}"]
        );
        assert!(t.uses(Placeholder::Trace) && !t.uses(Placeholder::Seed));
    }

    #[test]
    fn unknown_placeholders_and_empty_commands_are_refused() {
        assert_eq!(Template::parse("prog {pe}").unwrap_err(), TemplateError::Unknown("pe".into()));
        assert_eq!(Template::parse("  ").unwrap_err(), TemplateError::Empty);
        let msg = Template::parse("prog {tsplit}").unwrap_err().to_string();
        assert!(msg.contains("`{tsplit}`") && msg.contains("{t_split}"), "{msg}");
    }

    #[test]
    fn machine_parameters_come_all_or_none() {
        let partial = Template::parse("prog --pes {pes} --seed {seed}").unwrap().check_needs(true).unwrap_err();
        let msg = partial.to_string();
        assert!(msg.contains("passes {pes}, {seed} but not {dt}, {t_split}, {latency}"), "{msg}");
        Template::parse("sleep 1000").unwrap().check_needs(false).unwrap();
        Template::parse("prog {spec} {trace}").unwrap().check_needs(false).unwrap();
        let all = Template::parse("p {pes} {seed} {dt} {t_split} {latency}").unwrap();
        all.check_needs(true).unwrap();
        assert!(all.check_needs(false).unwrap_err().to_string().contains("but not {workload}"));
    }

    #[test]
    fn environment_and_shell_lines() {
        let env = env(&values());
        assert_eq!(env[0], ("LBCHECK_PES".to_string(), "4".to_string()));
        assert_eq!(Placeholder::TSplit.env(), "LBCHECK_T_SPLIT");
        let line = shell_line(&["p".into(), "a b".into(), "it's".into(), String::new()]);
        assert_eq!(line, r"p 'a b' 'it'\''s' ''");
    }
}
