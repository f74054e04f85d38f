//! One exploration in a forked child process, for a seed that is expected
//! to fail: when loom reports a deadlock, its panic unwinds through loom's
//! coroutines, which may overflow their stacks or hang on the panic hook's
//! lock, so such a report cannot be caught in the process that made it.
//! The child sends the report (the panic's text) through a pipe; the
//! parent reads it, and kills a child that reported and then did not exit
//! within [`GRACE`], or that ran past its limit.

use std::time::{Duration, Instant};

/// How long a child that has sent its report may take to exit.
pub const GRACE: Duration = Duration::from_secs(2);

/// Runs `explore` in a forked child: `Ok` if it returned `Ok` and sent
/// nothing, else `Err` with what it sent (a panic's text, or its error).
pub fn in_child(limit: Duration, explore: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array it is given.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return explore(); // no pipe: explore here
    }
    // SAFETY: the child only runs `explore` (loom's model, on its one
    // thread) and writes with raw system calls before `_exit`.
    match unsafe { libc::fork() } {
        0 => child(fds, explore),
        -1 => explore(),
        pid => parent(pid, fds, limit),
    }
}

/// The child: the panic hook and the result go to the pipe, then `_exit`.
fn child(fds: [i32; 2], explore: impl FnOnce() -> Result<(), String>) -> ! {
    let w = fds[1];
    super::FORKED.store(true, std::sync::atomic::Ordering::Relaxed);
    // SAFETY: closing the parent's end in the child, and pointing its
    // standard error at /dev/null: the report goes through the pipe, and
    // the runtime's "thread caused non-unwinding panic. aborting." that
    // follows loom's deadlock report would only alarm the user reading
    // `lbcheck check`'s output.
    unsafe {
        libc::close(fds[0]);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if null >= 0 {
            libc::dup2(null, 2);
            libc::close(null);
        }
    }
    std::panic::set_hook(Box::new(move |info| send(w, &format!("{info}\n"))));
    let code = match explore() {
        Ok(()) => 0,
        Err(e) => {
            send(w, &e);
            1
        }
    };
    // SAFETY: ends the child without running the parent's exit handlers.
    unsafe { libc::_exit(code) }
}

fn send(fd: i32, text: &str) {
    let mut bytes = text.as_bytes();
    while !bytes.is_empty() {
        // SAFETY: writes from a live buffer of the given length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// The parent: reads the child's report until it exits or is killed.
fn parent(pid: i32, fds: [i32; 2], limit: Duration) -> Result<(), String> {
    let r = fds[0];
    // SAFETY: closing the child's end, making ours non-blocking.
    unsafe {
        libc::close(fds[1]);
        libc::fcntl(r, libc::F_SETFL, libc::O_NONBLOCK);
    }
    let (start, mut text, mut reported) = (Instant::now(), Vec::new(), None::<Instant>);
    let success = loop {
        drain(r, &mut text);
        reported = reported.or_else(|| (!text.is_empty()).then(Instant::now));
        let mut status = 0;
        // SAFETY: polls our own child.
        if unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } == pid {
            drain(r, &mut text);
            break libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
        }
        if reported.is_some_and(|t| t.elapsed() > GRACE) || start.elapsed() > limit {
            // SAFETY: kills and reaps our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            break false;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    // SAFETY: our end of the pipe.
    unsafe { libc::close(r) };
    let text = String::from_utf8_lossy(&text).into_owned();
    match (success && text.is_empty(), text.is_empty()) {
        (true, _) => Ok(()),
        (false, true) => Err(format!("the child exploring it failed silently or ran over {limit:?}")),
        (false, false) => Err(text),
    }
}

fn drain(fd: i32, into: &mut Vec<u8>) {
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: reads into a live buffer of its length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            return;
        }
        into.extend_from_slice(&buf[..n as usize]);
    }
}
