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
