//! One run of the user's program: started without a shell in a process
//! group of its own, its standard output and error to files, killed with
//! its whole group when it outlives the timeout. Whatever the program
//! does (hang, crash, fork), lbcheck neither hangs nor crashes.

use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a run of the program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status (0: success).
    Code(i32),
    /// A signal killed it (a crash: SIGSEGV, SIGABRT, …).
    Signal(i32),
    /// It was still running at the timeout; its process group was killed.
    Timeout(Duration),
    /// It could not be started.
    Spawn(String),
}

impl Exit {
    /// True for exit status 0.
    pub fn success(&self) -> bool {
        *self == Exit::Code(0)
    }

    /// The name of the failure for the report (`failed` of the case).
    pub fn failure(&self) -> Option<&'static str> {
        match self {
            Exit::Code(0) => None,
            Exit::Code(_) => Some("exit_status"),
            Exit::Signal(_) => Some("crash"),
            Exit::Timeout(_) => Some("timeout"),
            Exit::Spawn(_) => Some("not_started"),
        }
    }

    /// In words, for the case's detail.
    pub fn describe(&self, program: &str) -> String {
        match self {
            Exit::Code(c) => format!("the program exited with status {c}"),
            Exit::Signal(s) => format!("the program crashed: killed by signal {s} ({})", signal_name(*s)),
            Exit::Timeout(d) => format!(
                "timeout: the program was still running after {} s (--impl-timeout); its process group was killed",
                d.as_secs_f64()
            ),
            Exit::Spawn(why) => format!("cannot start `{program}`: {why}"),
        }
    }
}

fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGINT => "SIGINT",
        _ => "a signal",
    }
}

/// Where a run's output goes.
pub struct Output<'a> {
    /// Standard output.
    pub stdout: &'a Path,
    /// Standard error.
    pub stderr: &'a Path,
}

/// Runs `argv` with `env` added to lbcheck's environment, output to `out`,
/// for at most `timeout`.
pub fn run(argv: &[String], env: &[(String, String)], out: &Output, timeout: Duration) -> Exit {
    let files = File::create(out.stdout).and_then(|o| Ok((o, File::create(out.stderr)?)));
    let (stdout, stderr) = match files {
        Ok(f) => f,
        Err(e) => return Exit::Spawn(format!("cannot create its output files: {e}")),
    };
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).envs(env.iter().cloned()).stdin(Stdio::null()).stdout(stdout).stderr(stderr);
    cmd.process_group(0);
    match cmd.spawn() {
        Ok(child) => wait(child, timeout),
        Err(e) => Exit::Spawn(e.to_string()),
    }
}

/// Waits for `child` until `timeout`, then kills its process group.
fn wait(mut child: std::process::Child, timeout: Duration) -> Exit {
    let start = Instant::now();
    let mut nap = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return status.code().map_or_else(|| Exit::Signal(status.signal().unwrap_or(0)), Exit::Code)
            }
            Ok(None) if start.elapsed() < timeout => {
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(50));
            }
            Ok(None) => return kill(child, timeout),
            Err(e) => return Exit::Spawn(format!("waiting for it failed: {e}")),
        }
    }
}

/// Kills the child's process group (the child leads it, so its id is the
/// group's) and reaps the child.
fn kill(mut child: std::process::Child, timeout: Duration) -> Exit {
    let group = child.id() as libc::pid_t;
    // SAFETY: kill(2) with a negative pid signals that process group; the
    // child is not reaped yet, so the group id is still its own.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
    let _ = child.wait();
    Exit::Timeout(timeout)
}

/// The last lines of a file (at most `lines` lines and about 2,000
/// characters), for a failed case's detail.
pub fn tail(path: &Path, lines: usize) -> String {
    let Ok(bytes) = std::fs::read(path) else { return String::new() };
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<&str> = text.trim_end().lines().collect();
    let mut out = all[all.len().saturating_sub(lines)..].join("\n");
    if out.len() > 2000 {
        let cut = out.char_indices().map(|(i, _)| i).find(|&i| i >= out.len() - 2000).unwrap_or(0);
        out = format!("…{}", &out[cut..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, timeout: Duration) -> (Exit, String, String) {
        let dir = std::env::temp_dir().join(format!("lbcheck-child-{}-{}", std::process::id(), script.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let (o, e) = (dir.join("out"), dir.join("err"));
        let argv = ["sh".to_string(), "-c".into(), script.into()];
        let exit = run(&argv, &[("LBCHECK_PES".into(), "3".into())], &Output { stdout: &o, stderr: &e }, timeout);
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        let got = (exit, read(&o), tail(&e, 2));
        std::fs::remove_dir_all(&dir).unwrap();
        got
    }

    #[test]
    fn exit_status_output_and_environment() {
        let (exit, out, err) =
            sh("echo P=$LBCHECK_PES; echo one >&2; echo two >&2; echo three >&2; exit 3", Duration::from_secs(20));
        assert_eq!((exit, out.as_str(), err.as_str()), (Exit::Code(3), "P=3\n", "two\nthree"));
        assert_eq!(Exit::Code(3).describe("p"), "the program exited with status 3");
    }

    /// A hanging program and the child it forked are killed at the timeout.
    #[test]
    fn a_hang_is_killed_with_its_group() {
        let start = Instant::now();
        let (exit, _, _) = sh("sleep 1000 & sleep 1000", Duration::from_millis(300));
        assert_eq!(exit, Exit::Timeout(Duration::from_millis(300)));
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
        assert_eq!(exit.failure(), Some("timeout"));
    }

    #[test]
    fn crashes_and_missing_programs() {
        let (exit, _, _) = sh("kill -SEGV $$", Duration::from_secs(20));
        assert_eq!(exit, Exit::Signal(libc::SIGSEGV));
        assert!(exit.describe("p").contains("SIGSEGV"));
        let dir = std::env::temp_dir();
        let out = Output { stdout: &dir.join("lbcheck-child-none-o"), stderr: &dir.join("lbcheck-child-none-e") };
        let exit = run(&["/no/such/program".into()], &[], &out, Duration::from_secs(1));
        assert!(matches!(&exit, Exit::Spawn(why) if why.contains("No such file")), "{exit:?}");
    }
}
