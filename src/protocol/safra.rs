//! Safra's token-ring termination detection: E. W. Dijkstra, "Shmuel
//! Safra's version of termination detection", EWD998 (1987), after the
//! ring token of E. W. Dijkstra, W. H. J. Feijen and A. J. M. van Gasteren,
//! "Derivation of a termination detection algorithm for distributed
//! computations", Inf. Proc. Letters 16 (1983) (EWD840). Beyond the five
//! papers; the TLA+ Examples' `EWD998.tla` models it.
//!
//! For load balancing a PE is *active* while it holds work, and the basic
//! messages are the work messages, the only ones that activate a PE. The
//! token travels the ring P−1 → P−2 → … → 0 as a control message
//! ([`Msg::Control`]) with `data` `{"q": <i64>, "black": <bool>}`
//! (docs/trace-format.md, "Safra's token"). The rules, numbered as in
//! EWD998 (and in `EWD998.tla`):
//!
//! - **Rule 0.** A PE counts c_i: +1 per work message sent, −1 per work
//!   message received (all start at 0).
//! - **Rule 1.** PE 0 starts a round (a probe) by sending a white token
//!   with q = 0 to PE P−1.
//! - **Rule 2.** A PE holding the token keeps it while active; once
//!   passive it passes it to PE i−1 with q := q + c_i.
//! - **Rule 3.** A PE receiving a work message turns black.
//! - **Rule 4.** A black PE passing the token makes it black.
//! - **Rule 5.** PE 0, holding the returned token while passive, announces
//!   termination iff the token is white, PE 0 is white and q + c_0 = 0;
//!   otherwise it starts a new round.
//! - **Rule 6.** PE 0 starting a round turns white (the token is white).
//! - **Rule 7.** A PE passing the token turns white.
//!
//! **Why it is safe** (EWD998's invariant). Let t be the token's position
//! and B the work messages in flight, so B = Σ c_i (rule 0). While the
//! token goes round, either every PE it passed is passive and q is the
//! sum of their counts, or Σ_{i ≤ t} c_i + q > 0, or some PE i ≤ t is
//! black, or the token is black: a PE that passed the token becomes active
//! again only by receiving work, which some PE i ≤ t sent (raising its
//! count) or which turns a PE black (rule 3). A white token back at a
//! white, passive PE 0 with q + c_0 = 0 leaves only the first: every PE is
//! passive and B = 0. Without rule 3 (the mutant `safra-no-blacken`) a PE
//! the token passed may receive work from one it has not yet passed, pass
//! work on to a third before the token gets there, and the counts balance
//! while work remains.
//!
//! P = 1 needs no special case: PE 0's round sends the token to itself.

use serde_json::{json, Value};

use super::{Command, Ctx, Detector, Msg, PeId};
use crate::base::Fraction;

/// Safra's token: the sum q of the counts of the PEs it passed this round,
/// and its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Σ c_i over the PEs that passed it this round.
    pub q: i64,
    /// Black: some PE it passed had received work since it last passed it.
    pub black: bool,
}

impl Token {
    /// The token PE 0 starts a round with (rules 1 and 6).
    pub const FRESH: Token = Token { q: 0, black: false };

    /// The token as a message.
    pub fn message<T>(self) -> Msg<T> {
        Msg::Control(Box::new(self.data()))
    }

    /// The token's `data` in the event stream: `{"q": q, "black": black}`.
    pub fn data(self) -> Value {
        json!({"q": self.q, "black": self.black})
    }

    /// The token in a control message's `data`, if it is one.
    pub fn of(data: &Value) -> Option<Token> {
        Some(Token { q: data.get("q")?.as_i64()?, black: data.get("black")?.as_bool()? })
    }
}

/// The rule a variant may change, at its seam.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Rule 3: a PE receiving a work message turns black.
    pub blackens_on_receive: bool,
}

impl Rules {
    /// EWD998's rules.
    pub const PAPER: Rules = Rules { blackens_on_receive: true };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::PAPER
    }
}

/// One PE's Safra state.
#[derive(Clone, Debug, Default)]
pub struct Safra {
    /// c_i (rule 0).
    count: i64,
    black: bool,
    active: bool,
    /// The token, while this PE keeps it (rule 2).
    token: Option<Token>,
    rules: Rules,
}

impl Safra {
    /// A PE's detector, following `rules`.
    pub fn new(rules: Rules) -> Self {
        Safra { rules, ..Default::default() }
    }

    /// Rules 1 and 6: PE 0 turns white and sends a fresh token to PE P−1.
    fn start_round<T>(&mut self, ctx: &mut Ctx<T>) {
        self.black = false;
        ctx.send(ctx.pes - 1, Token::FRESH.message());
    }

    /// Rule 2: the token is passed on once the PE is passive.
    fn hold_or_pass<T>(&mut self, ctx: &mut Ctx<T>, token: Token) {
        match self.active {
            true => self.token = Some(token),
            false => self.pass(ctx, token),
        }
    }

    /// A passive PE holding `token`: PE 0 concludes (rule 5), another PE
    /// passes it to PE i−1 (rules 2, 4, 7).
    fn pass<T>(&mut self, ctx: &mut Ctx<T>, token: Token) {
        if ctx.me == 0 {
            return match !token.black && !self.black && token.q + self.count == 0 {
                true => ctx.out.push(Command::Announce),
                false => self.start_round(ctx),
            };
        }
        let on = Token { q: token.q + self.count, black: token.black || self.black };
        self.black = false;
        ctx.send(ctx.me - 1, on.message());
    }
}

impl<T> Detector<T> for Safra {
    fn start(&mut self, ctx: &mut Ctx<T>, holds_work: bool, _share: Option<Fraction>) {
        self.active = holds_work;
        if ctx.me == 0 {
            self.start_round(ctx);
        }
    }

    fn on_work_sent(&mut self, _ctx: &mut Ctx<T>, _parts: u32) -> Option<Fraction> {
        self.count += 1; // rule 0
        None
    }

    fn on_work_received(&mut self, _ctx: &mut Ctx<T>, _from: PeId, _energy: Option<Fraction>) {
        self.count -= 1; // rule 0
        self.black |= self.rules.blackens_on_receive; // rule 3
        self.active = true;
    }

    fn on_idle(&mut self, ctx: &mut Ctx<T>) {
        self.active = false;
        if let Some(token) = self.token.take() {
            self.pass(ctx, token);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<T>, _from: PeId, msg: Msg<T>, _idle: bool) {
        if let Msg::Control(data) = msg {
            if let Some(token) = Token::of(&data) {
                self.hold_or_pass(ctx, token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::{stream, Purpose};

    /// Runs `f` on PE `me` of `pes`; the commands it gave.
    fn call(me: PeId, pes: u32, f: impl FnOnce(&mut Ctx<()>)) -> Vec<Command<()>> {
        let (mut rng, mut out) = (stream(0, me, Purpose::Protocol), Vec::new());
        f(&mut Ctx { now: 0, me, pes, rng: &mut rng, out: &mut out });
        out
    }

    /// The tokens among `out`, with their receivers.
    fn tokens(out: &[Command<()>]) -> Vec<(PeId, Token)> {
        out.iter()
            .filter_map(|c| match c {
                Command::Send { to, msg: Msg::Control(v) } => Some((*to, Token::of(v).expect("a token"))),
                _ => None,
            })
            .collect()
    }

    fn receive(d: &mut Safra, me: PeId, pes: u32, token: Token) -> Vec<Command<()>> {
        call(me, pes, |ctx| d.on_message(ctx, me + 1, token.message(), true))
    }

    #[test]
    fn the_token_format_round_trips() {
        let t = Token { q: -3, black: true };
        assert_eq!(t.data().to_string(), r#"{"black":true,"q":-3}"#);
        assert_eq!(Token::of(&t.data()), Some(t));
        assert_eq!(Token::of(&json!({"q": 1})), None);
    }

    /// Rules 0, 2, 3, 4, 7: an active PE keeps the token, and passes it
    /// once passive, adding its count and its colour, then turns white.
    #[test]
    fn a_pe_passes_the_token_when_passive_with_its_count_and_colour() {
        let mut d = Safra::new(Rules::PAPER);
        call(2, 4, |ctx| {
            Detector::<()>::start(&mut d, ctx, false, None);
            d.on_work_received(ctx, 1, None);
            d.on_work_sent(ctx, 2);
            d.on_work_sent(ctx, 2);
        });
        assert!(tokens(&receive(&mut d, 2, 4, Token { q: 5, black: false })).is_empty(), "active: kept");
        let out = call(2, 4, |ctx| Detector::<()>::on_idle(&mut d, ctx));
        assert_eq!(tokens(&out), [(1, Token { q: 6, black: true })]);
        let out = receive(&mut d, 2, 4, Token { q: 0, black: false });
        assert_eq!(tokens(&out), [(1, Token { q: 1, black: false })], "white again after passing");
    }

    /// Rules 1, 5, 6: PE 0 starts a round at once, announces only on a white
    /// token with q + c_0 = 0 while white, else starts another.
    #[test]
    fn pe_zero_announces_iff_the_round_was_conclusive() {
        let mut d = Safra::new(Rules::PAPER);
        let out = call(0, 3, |ctx| Detector::<()>::start(&mut d, ctx, true, None));
        assert_eq!(tokens(&out), [(2, Token::FRESH)]);
        call(0, 3, |ctx| {
            Detector::<()>::on_work_sent(&mut d, ctx, 2);
        });
        assert!(receive(&mut d, 0, 3, Token { q: -1, black: false }).is_empty(), "active: kept");
        let out = call(0, 3, |ctx| Detector::<()>::on_idle(&mut d, ctx));
        assert!(matches!(out[..], [Command::Announce]), "{out:?}");
        for returned in [Token { q: 0, black: false }, Token { q: -1, black: true }] {
            assert_eq!(tokens(&receive(&mut d, 0, 3, returned)), [(2, Token::FRESH)], "{returned:?}");
        }
        call(0, 3, |ctx| Detector::<()>::on_work_received(&mut d, ctx, 1, None));
        call(0, 3, |ctx| Detector::<()>::on_idle(&mut d, ctx));
        let out = receive(&mut d, 0, 3, Token { q: 0, black: false });
        assert_eq!(tokens(&out), [(2, Token::FRESH)], "PE 0 was black");
        assert!(matches!(receive(&mut d, 0, 3, Token { q: 0, black: false })[..], [Command::Announce]));
    }

    /// P = 1: PE 0's ring is itself.
    #[test]
    fn one_pe_sends_the_token_to_itself() {
        let mut d = Safra::new(Rules::PAPER);
        let out = call(0, 1, |ctx| Detector::<()>::start(&mut d, ctx, true, None));
        assert_eq!(tokens(&out), [(0, Token::FRESH)]);
        call(0, 1, |ctx| Detector::<()>::on_idle(&mut d, ctx));
        let out = call(0, 1, |ctx| d.on_message(ctx, 0, Token::FRESH.message(), true));
        assert!(matches!(out[..], [Command::Announce]), "{out:?}");
    }

    /// Rule 3 at its seam: without it, a PE that received work passes a white token.
    #[test]
    fn without_rule_3_work_leaves_the_token_white() {
        let mut d = Safra::new(Rules { blackens_on_receive: false });
        call(1, 2, |ctx| Detector::<()>::on_work_received(&mut d, ctx, 1, None));
        call(1, 2, |ctx| Detector::<()>::on_idle(&mut d, ctx));
        assert_eq!(tokens(&receive(&mut d, 1, 2, Token::FRESH)), [(0, Token { q: -1, black: false })]);
    }
}
