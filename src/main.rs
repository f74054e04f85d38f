//! The `lbcheck` command line. Exit codes: 0 success, 1 a checked property
//! failed, 2 bad input.

mod cli;

use std::process::ExitCode;

/// mimalloc instead of the system allocator: a checked run allocates each
/// event on the simulator's thread and frees it on the checker's, where
/// glibc's malloc spends its time in locked arenas and consolidation (perf
/// on `lbcheck bounds --balancer priority-bnb --quick`, issue 30).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The most characters of an error message shown (one may quote its
/// input, which may be a line of megabytes).
const MAX_SHOWN: usize = 2000;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", lbcheck::base::text::clip(&format!("{e:#}"), MAX_SHOWN));
            ExitCode::from(2)
        }
    }
}

/// Dies quietly when stdout is a closed pipe (`lbcheck list | head -1`),
/// as command-line tools do, instead of panicking in `println!`: Rust
/// ignores SIGPIPE by default.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first in `main`, before any thread starts; SIG_DFL is a
    // valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
