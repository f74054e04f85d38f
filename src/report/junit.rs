//! A campaign as JUnit XML (the schema CI dashboards read): one testsuite
//! per layer, one testcase per case, `<failure>` naming what failed and the
//! replay command, `<skipped>` with the reason.

use crate::campaign::{Case, Report, Verdict};

/// The report as a JUnit XML document.
pub fn xml(r: &Report) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out += &format!(
        "<testsuites name=\"lbcheck check\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{:.3}\">\n",
        r.cases.len(),
        r.count(Verdict::Fail),
        r.count(Verdict::Skip),
        r.seconds
    );
    for layer in layers(r) {
        let cases: Vec<&Case> = r.cases.iter().filter(|c| c.layer == layer).collect();
        out += &suite(layer, &cases);
    }
    out + "</testsuites>\n"
}

/// The layers in order of first appearance.
pub fn layers(r: &Report) -> Vec<&'static str> {
    let mut seen = Vec::new();
    for c in &r.cases {
        if !seen.contains(&c.layer) {
            seen.push(c.layer);
        }
    }
    seen
}

fn suite(layer: &str, cases: &[&Case]) -> String {
    let count = |v| cases.iter().filter(|c| c.verdict == v).count();
    let time: f64 = cases.iter().map(|c| c.secs).sum();
    let mut out = format!(
        "  <testsuite name=\"{layer}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{time:.3}\">\n",
        cases.len(),
        count(Verdict::Fail),
        count(Verdict::Skip)
    );
    for c in cases {
        out += &testcase(c);
    }
    out + "  </testsuite>\n"
}

fn testcase(c: &Case) -> String {
    let head =
        format!("    <testcase classname=\"lbcheck.{}\" name=\"{}\" time=\"{:.3}\"", c.layer, escape(&c.name), c.secs);
    match c.verdict {
        Verdict::Pass => head + "/>\n",
        Verdict::Skip => format!("{head}>\n      <skipped message=\"{}\"/>\n    </testcase>\n", escape(&c.detail)),
        Verdict::Fail => {
            let what = c.failed.join(", ");
            let replay = c.replay.as_deref().map(|r| format!("\nreplay with: {r}")).unwrap_or_default();
            let body = escape(&format!("{}{replay}", c.detail));
            format!(
                "{head}>\n      <failure message=\"{}\" type=\"{}\">{body}</failure>\n    </testcase>\n",
                escape(&what),
                escape(&what)
            )
        }
    }
}

/// Escapes text for XML attributes and content.
pub fn escape(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&apos;".to_string(),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => format!("&#{};", c as u32),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::Profile;

    fn case(layer: &'static str, name: &str, verdict: Verdict) -> Case {
        let failed = if verdict == Verdict::Fail { vec!["work_conserved".into()] } else { vec![] };
        let replay = Some("lbcheck simulate --x 'a<b'".into());
        Case { verdict, detail: "d & e".into(), failed, replay, secs: 0.5, ..Case::skip(layer, name.into(), "") }
    }

    #[test]
    fn suites_count_and_failures_name_the_property() {
        let cases = vec![
            case("simulate", "a", Verdict::Pass),
            case("simulate", "b", Verdict::Fail),
            case("coq", "c", Verdict::Skip),
        ];
        let r = Report {
            profile: Profile::Quick,
            seed: 1,
            mutant: None,
            replay: String::new(),
            seconds: 1.0,
            cases,
            bounds: None,
            suites: vec![],
        };
        let x = xml(&r);
        assert!(x.contains("<testsuites name=\"lbcheck check\" tests=\"3\" failures=\"1\" skipped=\"1\""), "{x}");
        assert!(x.contains("<testsuite name=\"simulate\" tests=\"2\" failures=\"1\" skipped=\"0\""), "{x}");
        assert!(x.contains("<failure message=\"work_conserved\" type=\"work_conserved\">d &amp; e\nreplay with: lbcheck simulate --x &apos;a&lt;b&apos;</failure>"), "{x}");
        assert!(x.contains("<skipped message=\"d &amp; e\"/>"), "{x}");
        assert_eq!(escape("\u{1}"), "&#1;");
    }
}
