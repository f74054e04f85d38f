//! The mutant matrix of the campaign page: one row per mutant of the
//! `mutants` layer, one column per checker that has a cell in the report
//! (simulate, bounds, loom, explore, bitonic, compare: whichever ran), so
//! every row shows where its mutant is caught and in how long. A row with
//! no caught cell is marked: the catalogue says some checker catches it.

use std::fmt::Write;

use super::svg::escape;
use crate::campaign::{Case, Report, Verdict};
use crate::mutants::{Catcher, Mutant};

/// Every checker, in the catalogue's order (the columns' order).
const CATCHERS: [Catcher; 6] =
    [Catcher::Run, Catcher::Bounds, Catcher::Loom, Catcher::Explore, Catcher::Bitonic, Catcher::Compare];

/// One cell: the case named `{mutant}/{checker}`.
struct Cell<'a> {
    mutant: &'a str,
    checker: &'a str,
    case: &'a Case,
}

/// The matrix as an HTML section (empty without a `mutants` layer).
pub fn section(r: &Report) -> String {
    let cells: Vec<Cell> = r.cases.iter().filter(|c| c.layer == "mutants").filter_map(cell).collect();
    if cells.is_empty() {
        return String::new();
    }
    let columns = columns(&cells);
    let mut out = String::from("<h2 id=\"mutant-matrix\">Mutant matrix</h2>\n");
    out += "<p>Each deliberately broken variant (rows) against each checker the catalogue says catches it \
            (columns): <i>caught</i> is the checker failing the mutant as it should, <i>missed</i> a campaign \
            failure, an empty cell a checker the catalogue does not list for that mutant.</p>\n";
    out += "<table class=\"matrix\"><tr><th>mutant</th><th>caught by</th>";
    columns.iter().for_each(|k| out += &format!("<th>{k}</th>"));
    out += "</tr>\n";
    for m in mutants(&cells) {
        out += &row(m, &cells, &columns);
    }
    out + "</table>\n"
}

/// A case of the `mutants` layer as a cell (`None` for a name that is not
/// `{mutant}/{checker}`, say a mutant under test's own comparison).
fn cell(c: &Case) -> Option<Cell<'_>> {
    let (mutant, checker) = c.name.split_once('/')?;
    Some(Cell { mutant, checker, case: c })
}

/// The checkers with a cell, in the catalogue's order, then any other.
fn columns<'a>(cells: &[Cell<'a>]) -> Vec<&'a str> {
    let mut out: Vec<&str> =
        CATCHERS.iter().map(|c| c.name()).filter(|k| cells.iter().any(|c| c.checker == *k)).collect();
    for c in cells {
        if !out.contains(&c.checker) {
            out.push(c.checker);
        }
    }
    out
}

/// The mutants in order of first appearance.
fn mutants<'a>(cells: &[Cell<'a>]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for c in cells {
        if !out.contains(&c.mutant) {
            out.push(c.mutant);
        }
    }
    out
}

/// A mutant's row: its name (with what it breaks), how many of its cells
/// caught it, and one cell per column.
fn row(m: &str, cells: &[Cell], columns: &[&str]) -> String {
    let mine: Vec<&Cell> = cells.iter().filter(|c| c.mutant == m).collect();
    let caught = mine.iter().filter(|c| c.case.verdict == Verdict::Pass).count();
    let ran = mine.iter().filter(|c| c.case.verdict != Verdict::Skip).count();
    let (cls, summary) = match (caught, ran) {
        (0, 0) => ("skip", "not run".to_string()),
        (0, _) => ("fail", "NOT CAUGHT".to_string()),
        _ => ("pass", format!("{caught} of {}", mine.len())),
    };
    let what = m.parse::<Mutant>().map(|x| x.entry().info.what).unwrap_or_default();
    let mut out =
        format!("<tr data-mutant=\"{m}\"><td title=\"{}\">{m}</td><td class=\"{cls}\">{summary}</td>", escape(what));
    for k in columns {
        out += &match mine.iter().find(|c| c.checker == *k) {
            Some(c) => td(c.case),
            None => "<td></td>".to_string(),
        };
    }
    out + "</tr>\n"
}

fn td(c: &Case) -> String {
    let (cls, word) = match c.verdict {
        Verdict::Pass => ("pass", "caught"),
        Verdict::Fail => ("fail", "missed"),
        Verdict::Skip => ("skip", "not run"),
    };
    let mut s = format!("<td class=\"{cls}\" title=\"{}\">{word}", escape(&c.detail));
    if c.verdict != Verdict::Skip {
        let _ = write!(s, " ({:.1} s)", c.secs);
    }
    s + "</td>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::CATALOGUE;

    /// The cells of `html`'s row for mutant `m`.
    fn row_of<'h>(html: &'h str, m: &str) -> Vec<&'h str> {
        let start = html.find(&format!("<tr data-mutant=\"{m}\">")).unwrap_or_else(|| panic!("no row for {m}"));
        let row = &html[start..start + html[start..].find("</tr>").unwrap()];
        row.split("<td").skip(3).collect()
    }

    /// One caught cell per (mutant, checker) of the catalogue: every
    /// mutant has its row, every checker its column, and each row shows
    /// each of its catalogue cells caught, in its checker's column.
    #[test]
    fn every_catalogue_cell_is_drawn_in_its_column() {
        let cases = CATALOGUE
            .iter()
            .flat_map(|e| e.caught_by.iter().map(move |(c, _)| format!("{}/{}", e.mutant, c.name())))
            .map(|name| Case { verdict: Verdict::Pass, detail: "caught".into(), ..Case::skip("mutants", name, "") })
            .collect();
        let html = section(&Report::of(cases));
        let head = &html[html.find("<tr><th>mutant").unwrap()..];
        let head = &head[..head.find("</tr>").unwrap()];
        let columns: Vec<&str> = head.split("<th>").skip(3).map(|h| h.trim_end_matches("</th>")).collect();
        assert_eq!(columns, CATCHERS.map(|c| c.name()), "every checker the catalogue lists has a column");
        for e in CATALOGUE {
            let cells = row_of(&html, &e.mutant.to_string());
            assert_eq!(cells.len(), columns.len(), "{}", e.mutant);
            for (k, cell) in columns.iter().zip(&cells) {
                let listed = e.caught_by.iter().any(|(c, _)| c.name() == *k);
                assert_eq!(cell.contains(">caught"), listed, "{} in column {k}: {cell}", e.mutant);
            }
        }
    }

    #[test]
    fn a_row_with_no_caught_cell_says_so() {
        let case = |name: &str, v| Case { verdict: v, ..Case::skip("mutants", name.into(), "d") };
        let r = Report::of(vec![case("split-loses/simulate", Verdict::Fail), case("lost-wakeup/loom", Verdict::Skip)]);
        let html = section(&r);
        assert!(row_of(&html, "split-loses")[0].contains(">missed"), "{html}");
        assert!(html.contains("<td class=\"fail\">NOT CAUGHT</td>"), "{html}");
        assert!(html.contains("<td class=\"skip\">not run</td>"), "{html}");
        assert_eq!(section(&Report::of(vec![])), "");
    }
}
