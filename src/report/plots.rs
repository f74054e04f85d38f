//! SVG plots for the campaign report, drawn with plotters' SVG backend (no
//! fonts or system libraries needed): scatter series against log2 P, with
//! horizontal reference lines for fitted constants.

use plotters::prelude::*;

/// One series of points (x = P, y = the quantity).
pub struct Series<'a> {
    /// Legend label.
    pub label: &'a str,
    /// The points.
    pub points: Vec<(u32, f64)>,
}

/// A horizontal line at `y` with a legend label.
pub struct Line<'a> {
    /// Legend label.
    pub label: &'a str,
    /// Height.
    pub y: f64,
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// A scatter plot of `series` against log2 P with `lines`, as an SVG document
/// (an empty string if there is nothing to draw).
pub fn scatter(title: &str, y_desc: &str, series: &[Series], lines: &[Line]) -> String {
    let xs = || series.iter().flat_map(|s| s.points.iter().map(|&(p, _)| f64::from(p.max(1)).log2()));
    let ys = || series.iter().flat_map(|s| s.points.iter().map(|&(_, y)| y)).filter(|y| y.is_finite());
    let (Some(x_max), Some(y_max)) = (xs().reduce(f64::max), ys().chain(lines.iter().map(|l| l.y)).reduce(f64::max))
    else {
        return String::new();
    };
    let mut svg = String::new();
    let drawn =
        draw(&mut svg, title, y_desc, series, lines, (x_max.max(1.0), y_max.max(1e-9))).map_err(|e| e.to_string());
    match drawn {
        Ok(()) => svg,
        Err(e) => format!("<p>plot {title}: {e}</p>"),
    }
}

fn draw<'s>(
    svg: &'s mut String,
    title: &str,
    y_desc: &str,
    series: &[Series],
    lines: &[Line],
    (x_max, y_max): (f64, f64),
) -> Result<(), Box<dyn std::error::Error + 's>> {
    let root = SVGBackend::with_string(svg, (640, 400)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.3..x_max + 0.3, 0.0..y_max * 1.1)?;
    chart
        .configure_mesh()
        .x_desc("P (log scale)")
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{}", 2f64.powf(x.round()) as u64))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points = s.points.iter().filter(|(_, y)| y.is_finite());
        let dots = points.map(move |&(p, y)| Circle::new((f64::from(p.max(1)).log2(), y), 3, colour.filled()));
        chart.draw_series(dots)?.label(s.label).legend(move |(x, y)| Circle::new((x + 6, y), 4, colour.filled()));
    }
    for (i, l) in lines.iter().enumerate() {
        let colour = if i == 0 { RED } else { BLACK };
        chart
            .draw_series(LineSeries::new([(-0.3, l.y), (x_max + 0.3, l.y)], colour.stroke_width(2)))?
            .label(l.label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 12, y)], colour.stroke_width(2)));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_points_and_lines_as_svg() {
        let series = [Series { label: "energy", points: vec![(1, 1.0), (16, 1.5), (64, 2.0)] }];
        let svg = scatter("T", "y", &series, &[Line { label: "C", y: 2.5 }]);
        assert!(svg.starts_with("<svg") && svg.contains("<circle") && svg.contains("energy"), "{svg}");
        assert_eq!(scatter("T", "y", &[], &[]), "");
    }
}
