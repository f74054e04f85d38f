//! Output for people and machines: aligned tables and JSON.

/// Formats `(label, value)` rows as a two-column table with aligned values.
pub fn table(rows: &[(&str, String)]) -> String {
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    rows.iter().map(|(k, v)| format!("{k:<width$}  {v}\n")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn aligns_values() {
        let t = super::table(&[("a", "1".into()), ("long", "2".into())]);
        assert_eq!(t, "a     1\nlong  2\n");
    }
}
