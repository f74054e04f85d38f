//! Splitting a command line as a POSIX shell would (words, single quotes),
//! for flags given as one string (`compare --against`).

/// The words of `cmd`.
pub fn words(cmd: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in cmd.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn splits_words_and_single_quotes() {
        let w = super::words("--workload 'uts:args=-t 0 -b 4' --pes  16 ''");
        assert_eq!(w, ["--workload", "uts:args=-t 0 -b 4", "--pes", "16", ""]);
    }
}
