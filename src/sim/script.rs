//! Scripted choices: how the exhaustive searches ([`super::atomic::adversary`],
//! [`super::explore`]) enumerate the choices a run leaves open. A run follows
//! a script's `prefix`, then takes option 0 everywhere, and records every
//! choice with its number of options; [`Script::next`] is the following
//! prefix in odometer order, so running every successor visits every choice
//! sequence exactly once (stateless enumeration).

/// A scripted sequence of choices: `prefix` first, then option 0; every
/// choice taken is recorded with its number of options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// The choices to make first.
    pub prefix: Vec<usize>,
    /// Every choice made: (choice, options).
    pub taken: Vec<(usize, usize)>,
}

impl Script {
    /// A script that makes `prefix` first.
    pub fn new(prefix: Vec<usize>) -> Script {
        Script { prefix, taken: Vec::new() }
    }

    /// One of `k ≥ 1` options (a single option is not recorded).
    pub fn choose(&mut self, k: usize) -> usize {
        if k <= 1 {
            return 0;
        }
        let c = self.prefix.get(self.taken.len()).copied().unwrap_or(0).min(k - 1);
        self.taken.push((c, k));
        c
    }

    /// The choices made, without their option counts.
    pub fn choices(&self) -> Vec<usize> {
        self.taken.iter().map(|&(c, _)| c).collect()
    }

    /// The prefix of the next choice sequence: the last choice with an
    /// option left, advanced (`None`: every sequence was run).
    pub fn next(&self) -> Option<Vec<usize>> {
        let i = self.taken.iter().rposition(|&(c, k)| c + 1 < k)?;
        let mut prefix: Vec<usize> = self.taken[..i].iter().map(|&(c, _)| c).collect();
        prefix.push(self.taken[i].0 + 1);
        Some(prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two choices of 2 and 3 options: the odometer visits all 6 sequences once.
    #[test]
    fn next_enumerates_every_sequence_once() {
        let (mut seen, mut prefix) = (Vec::new(), Some(Vec::new()));
        while let Some(p) = prefix {
            let mut s = Script::new(p);
            seen.push((s.choose(2), s.choose(1), s.choose(3)));
            prefix = s.next();
        }
        assert_eq!(seen, [(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0), (1, 0, 1), (1, 0, 2)]);
    }
}
