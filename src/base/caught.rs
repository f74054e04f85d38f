//! Protocol assertions as verdicts: a reference protocol's or driver's
//! assertion that a broken peer trips (a catalogue mutant, a user's
//! balancer or detector) ends the run with the property
//! [`PROTOCOL_ASSERTION`] failed, its message and place given, instead of a
//! crash (the guide: "no input may crash, hang or fool it"). One mechanism
//! for every driver and every caller (`lbcheck simulate`, `run`, `explore`,
//! the campaign, the user layer; the explorer's transitions): [`caught`].

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// The property a caught assertion fails (it appears in a report only then).
pub const PROTOCOL_ASSERTION: &str = "protocol_assertion";

thread_local! {
    /// How many [`caught`] calls this thread is inside (their panics are not printed).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Where the last caught panic was raised (`file:line:column`).
    static PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// `run`'s value, or the message of its panic with the place it was raised
/// (`assertion … at src/protocol/x.rs:12:5`). The panic is not printed: the
/// caller reports it.
pub fn caught<R>(run: impl FnOnce() -> R) -> Result<R, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let printing = panic::take_hook();
        panic::set_hook(Box::new(move |info| match DEPTH.with(Cell::get) {
            0 => printing(info),
            _ => PLACE.with(|p| *p.borrow_mut() = info.location().map(|l| l.to_string())),
        }));
    });
    DEPTH.with(|d| d.set(d.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(run));
    DEPTH.with(|d| d.set(d.get() - 1));
    result.map_err(|p| {
        let place = PLACE.with(|p| p.borrow_mut().take());
        let at = place.map(|l| format!(" at {l}")).unwrap_or_default();
        format!("{}{at}", message(p.as_ref()))
    })
}

/// A panic's message, if it is text.
pub fn message(p: &(dyn Any + Send)) -> &str {
    let text = p.downcast_ref::<String>().map(String::as_str).or_else(|| p.downcast_ref::<&str>().copied());
    text.unwrap_or("(a panic without a message)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_its_message_and_place() {
        let why = caught(|| assert!(1 + 1 == 3, "arithmetic broke")).unwrap_err();
        assert!(why.starts_with("arithmetic broke at src/base/caught.rs:"), "{why}");
        assert_eq!(caught(|| 7), Ok(7));
        let nested = caught(|| caught(|| panic!("inner")).unwrap_err()).unwrap();
        assert!(nested.starts_with("inner at "), "{nested}");
    }
}
