//! Safra's token ring (EWD998) as a trace shows it: the rules
//! `detector_conformance` checks for `--termination safra` (its module doc
//! lists them; the rules are numbered as in [`crate::protocol::safra`]).

use crate::event::Data;
use crate::protocol::safra::Token;
use rustc_hash::FxHashMap as HashMap;

/// Safra's token ring as the trace shows it (EWD998; the rules as
/// numbered in [`crate::protocol::safra`]).
pub(super) struct Ring {
    /// The initiator (Safra's PE 0): the header's announcer.
    initiator: u32,
    /// Per PE: c_i, work messages sent − received (rule 0).
    count: Vec<i64>,
    /// Per PE: it received work since it last passed the token on (the
    /// initiator: since it last started a round), so it is black (rule 3).
    black: Vec<bool>,
    /// Tokens in flight, by message id, and held, by PE.
    in_flight: HashMap<u64, Token>,
    held: HashMap<u32, Token>,
    /// Rounds the initiator started.
    pub(super) rounds: u64,
}

impl Ring {
    pub(super) fn new(pes: u32, initiator: u32) -> Ring {
        let n = pes.clamp(1, super::MAX_PES) as usize;
        let (in_flight, held) = (HashMap::default(), HashMap::default());
        Ring { initiator, count: vec![0; n], black: vec![false; n], in_flight, held, rounds: 0 }
    }

    /// PE `pe`'s count c_i and colour (black: it received work since it
    /// last passed the token).
    pub(super) fn of(&self, pe: u32) -> (i64, bool) {
        let i = pe as usize;
        (self.count.get(i).copied().unwrap_or(0), self.black.get(i).copied().unwrap_or(false))
    }

    /// PE `pe` sent (`delta` = 1) or received (−1: it turns black) a work message.
    pub(super) fn work(&mut self, pe: u32, delta: i64) {
        if let Some(c) = self.count.get_mut(pe as usize) {
            *c += delta;
            self.black[pe as usize] |= delta < 0;
        }
    }

    pub(super) fn token_received(&mut self, pe: u32, id: u64) {
        if let Some(token) = self.in_flight.remove(&id) {
            self.held.insert(pe, token);
        }
    }

    /// PE `from` sent the token `data` to `to` (message `id`).
    pub(super) fn token_sent(&mut self, from: u32, to: u32, id: u64, data: &Data) -> Result<(), String> {
        let token = data.as_deref().and_then(Token::of).ok_or_else(|| {
            format!("PE {from} sent a `control` message whose `data` is not Safra's token {{\"q\": integer, \"black\": bool}}")
        })?;
        let pes = self.count.len() as u32;
        if from >= pes || to >= pes {
            return Ok(()); // trace_well_formed reports it
        }
        let next = (from + pes - 1) % pes;
        if to != next {
            return Err(format!(
                "PE {from} passed the token to PE {to}; the ring runs PE {from} → PE {next} (EWD998 rule 2)"
            ));
        }
        let held = self.held.remove(&from);
        match from == self.initiator {
            true => self.start_round(held, token)?,
            false => {
                let Some(held) = held else {
                    return Err(format!(
                        "PE {from} passed the token on, but it has not received it since it last passed it"
                    ));
                };
                self.passes(from, held, token)?;
            }
        }
        self.black[from as usize] = false; // rules 6, 7
        self.in_flight.insert(id, token);
        Ok(())
    }

    /// The initiator starts a round with `token`, holding `back`.
    pub(super) fn start_round(&mut self, back: Option<Token>, token: Token) -> Result<(), String> {
        let a = self.initiator;
        if back.is_none() && self.rounds > 0 {
            return Err(format!("PE {a} started a round, but the token has not come back since it started the last"));
        }
        if token != Token::FRESH {
            return Err(format!(
                "PE {a} started a round with q = {}, {}; a round starts with a white token and q = 0 (EWD998 rules 1, 6)",
                token.q,
                colour(token.black)
            ));
        }
        let (c, black) = self.of(a);
        if back.is_some_and(|b| !b.black && !black && sum(b.q, c) == 0) {
            return Err(format!(
                "PE {a} started a new round, but the token came back white with q + c_{a} = 0 and PE {a} white: it announces then (EWD998 rule 5)"
            ));
        }
        self.rounds += 1;
        Ok(())
    }

    /// PE `pe`, holding `held`, passes `token` on (rules 2, 4).
    pub(super) fn passes(&self, pe: u32, held: Token, token: Token) -> Result<(), String> {
        let (c, black) = self.of(pe);
        if i128::from(token.q) != sum(held.q, c) {
            return Err(format!(
                "PE {pe} passed the token with q = {}, but it came with q = {} and c_{pe} (work sent − received) is {c}: q + c_{pe} = {} (EWD998 rule 2)",
                token.q,
                held.q,
                sum(held.q, c)
            ));
        }
        if token.black != (held.black || black) {
            let why = match (held.black, black) {
                (true, _) => "it came in black (EWD998 rule 4)".to_string(),
                (false, true) => "it received work since it last passed it (EWD998 rules 3, 4: that turned it black, and a black PE blackens the token)".to_string(),
                (false, false) => format!("it came in white and PE {pe} received no work since it last passed it (EWD998 rule 4)"),
            };
            return Err(format!("PE {pe} passed the token {}, but {why}", colour(token.black)));
        }
        Ok(())
    }

    /// Rule 5: the initiator announces holding the returned token, white,
    /// with q + c_0 = 0, itself white.
    pub(super) fn may_announce(&self) -> Result<(), String> {
        let a = self.initiator;
        let Some(back) = self.held.get(&a) else {
            return Err(format!("PE {a} announced termination without the token back (EWD998 rule 5)"));
        };
        let (c, black) = self.of(a);
        if back.black {
            return Err(format!("PE {a} announced termination on a black token (EWD998 rule 5)"));
        }
        if black {
            return Err(format!(
                "PE {a} announced termination, but it received work since its round started (it is black; EWD998 rules 3, 5)"
            ));
        }
        if sum(back.q, c) != 0 {
            return Err(format!(
                "PE {a} announced termination with q + c_{a} = {} + {c} = {}, not 0 (EWD998 rule 5)",
                back.q,
                sum(back.q, c)
            ));
        }
        Ok(())
    }
}

/// q + c without overflow (a trace's q is any i64).
fn sum(q: i64, c: i64) -> i128 {
    i128::from(q) + i128::from(c)
}

fn colour(black: bool) -> &'static str {
    match black {
        true => "black",
        false => "white",
    }
}
