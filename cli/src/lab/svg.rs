//! `lab --svg`: plain SVG bar charts, written without a plotting library.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Report;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A horizontal bar chart: one bar per (label, value), with a marker line per optional reference value.
fn bars(title: &str, unit: &str, items: &[(String, f64, Option<f64>)]) -> String {
    let (w, row, left) = (760.0, 22.0, 190.0);
    let h = 50.0 + row * items.len() as f64;
    let max = items
        .iter()
        .flat_map(|(_, v, r)| [*v, r.unwrap_or(0.0)])
        .fold(0.0f64, f64::max)
        .max(1e-12);
    let scale = (w - left - 90.0) / max;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(s, r#"<text x="10" y="20" font-size="14">{}</text>"#, escape(title));
    for (i, (label, v, reference)) in items.iter().enumerate() {
        let y = 34.0 + row * i as f64;
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + 13.0,
            escape(label)
        );
        let _ = write!(
            s,
            r##"<rect x="{left}" y="{y}" width="{:.1}" height="{}" fill="#4a7ab5"/>"##,
            v * scale,
            row - 6.0
        );
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}">{v:.4}{unit}</text>"#,
            left + v * scale + 4.0,
            y + 13.0
        );
        if let Some(r) = reference {
            let x = left + r * scale;
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" x2="{x:.1}" y1="{}" y2="{}" stroke="#c33" stroke-width="2"/>"##,
                y - 2.0,
                y + row - 4.0
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// Writes one chart per output into `dir`; returns the files written.
pub fn write_charts(r: &Report, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let red = " (red line: optimum)";
    let charts = [
        (
            "share.svg",
            bars(
                "max share / weight share (1 is perfect)",
                "",
                &r.rows
                    .iter()
                    .map(|x| (x.name.clone(), x.max_over_mean, Some(1.0)))
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "add.svg",
            bars(
                &format!("keys moved when one node is added{red}"),
                "",
                &r.rows
                    .iter()
                    .map(|x| (x.name.clone(), x.add.moved, Some(x.add.optimum)))
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "remove.svg",
            bars(
                &format!("keys moved when one node is removed{red}"),
                "",
                &r.rows
                    .iter()
                    .map(|x| (x.name.clone(), x.remove.moved, Some(x.remove.optimum)))
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "reweight.svg",
            bars(
                &format!("keys moved when one weight doubles{red}"),
                "",
                &r.rows
                    .iter()
                    .filter_map(|x| x.reweight.as_ref().map(|m| (x.name.clone(), m.moved, Some(m.optimum))))
                    .collect::<Vec<_>>(),
            ),
        ),
        (
            "lookup.svg",
            bars(
                "lookup time per key (ns, one thread)",
                "",
                &r.rows
                    .iter()
                    .map(|x| (x.name.clone(), x.lookup_ns, None))
                    .collect::<Vec<_>>(),
            ),
        ),
    ];
    let mut written = Vec::new();
    for (name, svg) in charts {
        let path = dir.join(name);
        std::fs::write(&path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
