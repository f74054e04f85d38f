//! A [`Msg`] on the wire (the MPI driver, [`crate::runtime::mpi`]): a tag
//! byte, then the fields; a work message's subproblem in the problem
//! layer's encoding ([`crate::problem::wire`], decoded against the
//! workload's root), energy in its exact string form (`m/2^e`), a control
//! message's payload as JSON text.

use crate::base::Fraction;
use crate::problem::wire::{Put, Reader, Wire, WireError};

use super::Msg;

impl<T: Wire> Msg<T> {
    /// Appends the message.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Msg::Request => out.put_u8(0),
            Msg::Reject => out.put_u8(1),
            Msg::Work { task, energy } => {
                out.put_u8(2);
                put_opt_fraction(out, energy.as_ref());
                task.encode(out);
            }
            Msg::Energy(e) => {
                out.put_u8(3);
                put_opt_fraction(out, Some(e));
            }
            Msg::WaveDown { wave } => {
                out.put_u8(4);
                out.put_u64(*wave);
            }
            Msg::WaveUp { wave, sent, recv } => {
                out.put_u8(5);
                [*wave, *sent, *recv].iter().for_each(|&x| out.put_u64(x));
            }
            Msg::GetTarget => out.put_u8(6),
            Msg::Target(pe) => {
                out.put_u8(7);
                out.put_u32(*pe);
            }
            Msg::Bound(v) => {
                out.put_u8(8);
                out.put_u64(*v);
            }
            Msg::Stop => out.put_u8(9),
            Msg::Terminate => out.put_u8(10),
            Msg::Control(v) => {
                out.put_u8(11);
                put_text(out, &v.to_string());
            }
        }
    }

    /// The message `encode` wrote; a subproblem is decoded against `template`.
    pub fn decode(template: &T, r: &mut Reader<'_>) -> Result<Msg<T>, WireError> {
        Ok(match r.u8()? {
            0 => Msg::Request,
            1 => Msg::Reject,
            2 => {
                let energy = get_opt_fraction(r)?;
                Msg::Work { task: T::decode(template, r)?, energy }
            }
            3 => Msg::Energy(get_opt_fraction(r)?.ok_or_else(|| WireError("energy message without energy".into()))?),
            4 => Msg::WaveDown { wave: r.u64()? },
            5 => Msg::WaveUp { wave: r.u64()?, sent: r.u64()?, recv: r.u64()? },
            6 => Msg::GetTarget,
            7 => Msg::Target(r.u32()?),
            8 => Msg::Bound(r.u64()?),
            9 => Msg::Stop,
            10 => Msg::Terminate,
            11 => {
                let s = get_text(r, "control message")?;
                let v = serde_json::from_str(s).map_err(|e| WireError(format!("control message `{s}`: {e}")))?;
                Msg::Control(Box::new(v))
            }
            tag => return Err(WireError(format!("message tag {tag}"))),
        })
    }
}

fn put_opt_fraction(out: &mut Vec<u8>, f: Option<&Fraction>) {
    out.put_bool(f.is_some());
    if let Some(f) = f {
        let s = f.to_string();
        out.put_count(s.len());
        out.extend_from_slice(s.as_bytes());
    }
}

fn get_opt_fraction(r: &mut Reader<'_>) -> Result<Option<Fraction>, WireError> {
    if !r.bool()? {
        return Ok(None);
    }
    let n = r.count(1)?;
    let s = std::str::from_utf8(r.take(n)?).map_err(|e| WireError(format!("energy: {e}")))?;
    s.parse().map(Some).map_err(|e| WireError(format!("energy `{s}`: {e}")))
}

/// A string: its length, then its UTF-8 bytes.
fn put_text(out: &mut Vec<u8>, s: &str) {
    out.put_count(s.len());
    out.extend_from_slice(s.as_bytes());
}

/// The string `put_text` wrote (`what` names it in errors).
fn get_text<'a>(r: &mut Reader<'a>, what: &str) -> Result<&'a str, WireError> {
    let n = r.count(1)?;
    std::str::from_utf8(r.take(n)?).map_err(|e| WireError(format!("{what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{dfs::Strategy, Subproblem, Task, WorkLog, Workload};

    fn round_trip(template: &Task, m: &Msg<Task>) -> Msg<Task> {
        let mut bytes = Vec::new();
        m.encode(&mut bytes);
        let mut r = Reader::new(&bytes);
        let back = Msg::decode(template, &mut r).unwrap();
        r.finish().unwrap();
        back
    }

    #[test]
    fn every_message_round_trips() {
        let w: Workload = "uts:default".parse().unwrap();
        let template = w.root(Strategy::BottomHalf);
        let mut task = template.clone();
        task.work(20, &mut WorkLog::default());
        let part = task.split().unwrap();
        let third = Fraction::one().div(3).half();
        let msgs = vec![
            Msg::Request,
            Msg::Reject,
            Msg::Work { task: part, energy: Some(third.clone()) },
            Msg::Work { task: task.clone(), energy: None },
            Msg::Energy(third),
            Msg::Energy(Fraction::zero()),
            Msg::WaveDown { wave: 7 },
            Msg::WaveUp { wave: 3, sent: u64::MAX, recv: 5 },
            Msg::GetTarget,
            Msg::Target(12),
            Msg::Bound(99),
            Msg::Stop,
            Msg::Terminate,
            Msg::Control(Box::new(serde_json::json!({"q": i64::MIN, "black": false}))),
            Msg::Control(Box::new(serde_json::json!({"nested": [1.5, "é", null], "empty": {}}))),
        ];
        for m in msgs {
            assert_eq!(format!("{:?}", round_trip(&template, &m)), format!("{m:?}"));
        }
    }

    #[test]
    fn unknown_tags_are_errors() {
        let template: Task = "loop:n=4".parse::<Workload>().unwrap().root(Strategy::BottomHalf);
        assert!(Msg::decode(&template, &mut Reader::new(&[12])).is_err());
        assert!(Msg::decode(&template, &mut Reader::new(&[11, 2, 0, 0, 0, b'{', b'x'])).is_err());
        assert!(Msg::decode(&template, &mut Reader::new(&[3, 0])).is_err());
        assert!(Msg::decode(&template, &mut Reader::new(&[3, 1, 3, 0, 0, 0, b'x', b'/', b'y'])).is_err());
    }
}
