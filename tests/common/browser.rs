//! The report opened in headless Chromium: its plots render, captioned,
//! with legends that cover no data (the campaign's and `testing`'s tests).

/// The script the page is probed with: for every SVG, whether it sits in
/// a `figure.plot` with a caption of a sentence or more, whether it has a
/// legend, and every mark of its data (`.data`) whose box meets the
/// legend's; the counts go into `<pre id="probe">`.
const PROBE: &str = r#"<script>
let svgs = 0, uncaptioned = 0, legends = 0, marks = 0; const over = [];
for (const svg of document.querySelectorAll('svg')) {
  svgs++;
  const cap = svg.closest('figure.plot')?.querySelector('figcaption');
  if (!cap || cap.textContent.trim().length < 80) uncaptioned++;
  const legend = svg.querySelector('.legend');
  if (!legend) continue;
  legends++;
  const l = legend.getBoundingClientRect();
  for (const m of svg.querySelectorAll('.data circle, .data path, .data rect, .data line, .data polygon')) {
    marks++;
    const r = m.getBoundingClientRect();
    if (r.right > l.left && r.left < l.right && r.bottom > l.top && r.top < l.bottom) over.push(m.outerHTML.slice(0, 120));
  }
}
const pre = document.createElement('pre');
pre.id = 'probe';
pre.textContent = `svgs=${svgs} uncaptioned=${uncaptioned} legends=${legends} marks=${marks} overlaps=${over.length} ${over.slice(0, 3).join(' ')}`;
document.body.appendChild(pre);
</script>"#;

/// Headless Chromium, 1400 pixels wide, loads the page (its DOM then holds
/// `loaded`): at least `svgs` plots with `marks` data marks in all render,
/// every plot has a caption and a legend, and no legend covers a data
/// mark (point, line or band; the boxes of the laid-out DOM compared by
/// [`PROBE`]).
pub fn assert_renders_with_plots(page: &std::path::Path, loaded: &str, (svgs, marks): (usize, usize)) {
    if std::env::var("LBCHECK_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("LBCHECK_SKIP_BROWSER=1: the report is not opened in a browser");
        return;
    }
    let html = std::fs::read_to_string(page).unwrap();
    let probe = page.with_file_name("probe.html");
    std::fs::write(&probe, html.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let url = format!("file://{}", probe.display());
    let args = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000", "--dump-dom", &url];
    let out = std::process::Command::new("chromium").args(args).output().unwrap_or_else(|e| {
        panic!("chromium is needed to check the report renders ({e}): apt-get install -y chromium, or LBCHECK_SKIP_BROWSER=1")
    });
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains(loaded), "the browser did not load the page: {dom:.300}");
    let at = dom.find("<pre id=\"probe\">").unwrap_or_else(|| panic!("the probe did not run: {dom:.300}")) + 16;
    let line = &dom[at..at + dom[at..].find("</pre>").unwrap()];
    let count = |key: &str| -> usize {
        let v = line.split_whitespace().find_map(|w| w.strip_prefix(&format!("{key}=")));
        v.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{key} in {line}"))
    };
    assert!(count("svgs") >= svgs && count("marks") >= marks, "the plots did not render: {line}");
    assert_eq!(count("uncaptioned"), 0, "every plot has a caption: {line}");
    assert_eq!(count("legends"), count("svgs"), "every plot has a legend: {line}");
    assert_eq!(count("overlaps"), 0, "no legend over a data point: {line}");
    std::fs::remove_file(probe).ok();
}
