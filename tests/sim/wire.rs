//! A message on the wire (`src/protocol/wire.rs`, the MPI driver's
//! encoding): every kind of message decodes to itself, and bytes that are
//! no message are errors. Here rather than a unit test: cargo-mutants'
//! quick profile runs only this binary, and no other test in it reaches
//! the encoding (the MPI tests need `--features mpi`).

use lbcheck::base::Fraction;
use lbcheck::problem::wire::Reader;
use lbcheck::problem::{dfs::Strategy, Subproblem, Task, WorkLog, Workload};
use lbcheck::protocol::Msg;

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
