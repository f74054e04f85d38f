//! Output for people and machines: what every subcommand prints.
//!
//! - [`table`], [`rows`], [`print()`]: aligned tables and the JSON-or-table choice.
//! - [`run`]: the JSON of a checked run, the same keys in the same units
//!   for every driver, and its human form.
//! - [`verdicts`]: failed properties, the replay command and the exit code.
//! - [`listing`]: the registry as a table or Markdown (`lbcheck list`).
//! - [`bounds`]: the claims of `lbcheck bounds` as a table.
//! - [`campaign`], [`junit`], [`html`]: `lbcheck check`'s summary table,
//!   JUnit XML, and HTML page; the page's parts: [`front`] (verdict, what
//!   was checked, the first failure), [`matrix`] (the mutant matrix),
//!   [`charts`] (captioned figures drawn by [`plots`]) and [`runs`] (the
//!   runs it shows as timelines).
//! - [`timeline`], [`gantt`], [`perfetto`]: a trace as a timeline, drawn
//!   as an SVG Gantt chart ([`svg`]) or written as Chrome trace events
//!   (`lbcheck timeline`).

pub mod bounds;
pub mod campaign;
pub mod charts;
pub mod claim_plot;
pub mod compare;
pub mod front;
pub mod gantt;
pub mod html;
pub mod junit;
pub mod listing;
pub mod matrix;
pub mod paper;
pub mod perfetto;
pub mod plots;
pub mod run;
pub mod runs;
pub mod svg;
pub mod timeline;
pub mod verdicts;

use std::io::Write;

use serde_json::Value;

/// Formats `(label, value)` rows as a two-column table with aligned values.
pub fn table(rows: &[(&str, String)]) -> String {
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    rows.iter().map(|(k, v)| format!("{k:<width$}  {v}\n")).collect()
}

/// The rows of `out`'s non-null `keys`, strings without their quotes.
pub fn rows<'k>(out: &Value, keys: &[&'k str]) -> Vec<(&'k str, String)> {
    keys.iter().filter_map(|&k| out.get(k).filter(|v| !v.is_null()).map(|v| (k, text(v)))).collect()
}

/// A JSON value as text (strings without quotes).
pub fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Standard output could not be written (a full disk, a closed file): the
/// subcommands return it rather than panicking in `println!`. (A closed
/// pipe never gets here: the binary dies quietly of SIGPIPE.)
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output")]
pub struct StdoutError(#[from] std::io::Error);

/// Writes `text` to standard output and flushes it.
pub fn emit(text: &str) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(out.flush()?)
}

/// `out` as pretty JSON if `json`, else `human(out)`, on standard output.
pub fn print(out: &Value, json: bool, human: impl FnOnce(&Value) -> String) -> Result<(), StdoutError> {
    match json {
        true => emit(&(serde_json::to_string_pretty(out).expect("a JSON value serialises") + "\n")),
        false => emit(&human(out)),
    }
}

/// Formats rows of cells as columns separated by two spaces, with a header.
pub fn columns<const N: usize>(head: [&str; N], rows: &[[String; N]]) -> String {
    let mut w = head.map(|h| h.chars().count());
    for r in rows {
        for (i, s) in r.iter().enumerate() {
            w[i] = w[i].max(s.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let padded: Vec<String> =
            cells.iter().enumerate().map(|(i, s)| format!("{s}{}", " ".repeat(w[i] - s.chars().count()))).collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(head.to_vec());
    for r in rows {
        out += &line(r.iter().map(String::as_str).collect());
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn aligns_values() {
        let t = super::table(&[("a", "1".into()), ("long", "2".into())]);
        assert_eq!(t, "a     1\nlong  2\n");
    }

    #[test]
    fn rows_skip_nulls_and_unquote_strings() {
        let out = json!({"a": "x", "b": null, "c": 3});
        assert_eq!(super::rows(&out, &["a", "b", "c", "d"]), [("a", "x".to_string()), ("c", "3".to_string())]);
    }

    #[test]
    fn columns_pad_to_the_widest_cell() {
        let t = super::columns(["k", "value"], &[["long".into(), "1".into()]]);
        assert_eq!(t, "k     value\nlong  1\n");
    }
}
