//! Reading a membership file or a secret file: a regular file or a pipe, read
//! once, with a size limit and a limit on how long a read may make no progress.
//!
//! A pipe (a FIFO, or `<(command)` in a shell) is read until its writer closes
//! it; a read that gets no data for [`STALL`] fails, so that a pipe nobody
//! writes never hangs a load. Directories, devices (such as `/dev/zero`) and
//! sockets are refused. Paths with a NUL byte are refused with one message
//! everywhere.

use std::cell::Cell;
use std::io::{self, Read};
use std::path::Path;
use std::time::Duration;

use crate::error::ErrorKind;

/// The most a membership file may hold.
pub(crate) const MEMBERSHIP_LIMIT: u64 = 1 << 30;
/// The most a secret file may hold (the secret is 32 hex digits and white space).
pub(crate) const SECRET_LIMIT: u64 = 4096;
/// How long a read from a pipe may get no data before it fails.
pub(crate) const STALL: Duration = Duration::from_secs(10);

/// The message for a path with a NUL byte, the same for every path.
pub(crate) const NUL_IN_PATH: &str = "path contains a NUL byte";

thread_local! {
    /// [`STALL`], shortened by tests on their own thread.
    static STALL_LIMIT: Cell<Duration> = const { Cell::new(STALL) };
}

/// Shortens (or restores) the stall limit of reads made on this thread.
#[cfg(test)]
pub(crate) fn set_stall_limit(limit: Duration) {
    STALL_LIMIT.with(|s| s.set(limit));
}

/// The path as errors name it (a NUL byte shown as `\0`).
pub(crate) fn origin(path: &Path) -> String {
    path.display().to_string().replace('\0', "\\0")
}

/// Refuses a path with a NUL byte (the OS would read it as a shorter path).
pub(crate) fn refuse_nul(path: &Path) -> Result<(), ErrorKind> {
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(ErrorKind::Io(io::Error::new(io::ErrorKind::InvalidInput, NUL_IN_PATH)));
    }
    Ok(())
}

/// The text of a membership file.
pub(crate) fn read_membership_file(path: &Path) -> Result<String, ErrorKind> {
    refuse_nul(path)?;
    let bytes = read_limited(path, MEMBERSHIP_LIMIT, "1 GiB, the limit for a membership file").map_err(ErrorKind::Io)?;
    String::from_utf8(bytes)
        .map_err(|_| ErrorKind::Io(io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text")))
}

/// The content of a secret file, or a plain message (never the content).
pub(crate) fn read_secret_file(path: &Path) -> Result<Vec<u8>, String> {
    let why = |e: io::Error| format!("cannot read secret file {}: {}", origin(path), plain(&e));
    if let Err(ErrorKind::Io(e)) = refuse_nul(path) {
        return Err(why(e));
    }
    read_limited(path, SECRET_LIMIT, "4096 bytes, the limit for a secret file").map_err(why)
}

/// An io error's message without Rust's " (os error N)".
pub(crate) fn plain(e: &io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .map_or_else(|| text.clone(), str::to_string),
        None => text,
    }
}

fn too_large(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("the file is larger than {what}"))
}

fn not_a_file(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what}, not a regular file or a pipe"),
    )
}

/// Reads a regular file or a pipe to its end, refusing more than `limit` bytes.
#[cfg(unix)]
fn read_limited(path: &Path, limit: u64, limit_text: &str) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    // Non-blocking, so that opening a FIFO nobody writes does not wait for a writer.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_dir() {
        return Err(not_a_file("it is a directory"));
    }
    if kind.is_char_device() || kind.is_block_device() {
        return Err(not_a_file("it is a device"));
    }
    if kind.is_socket() {
        return Err(not_a_file("it is a socket"));
    }
    let mut out = Vec::new();
    if kind.is_file() {
        // O_NONBLOCK does not apply to regular files.
        file.take(limit + 1).read_to_end(&mut out)?;
        if out.len() as u64 > limit {
            return Err(too_large(limit_text));
        }
        return Ok(out);
    }
    read_pipe(file, limit, limit_text, STALL_LIMIT.with(Cell::get))
}

/// Reads a non-blocking pipe until its writer closes it, failing when no data
/// comes for `stall`.
#[cfg(unix)]
fn read_pipe(mut file: std::fs::File, limit: u64, limit_text: &str, stall: Duration) -> io::Result<Vec<u8>> {
    use std::os::fd::AsRawFd;

    let mut out = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    let timeout = libc::c_int::try_from(stall.as_millis()).unwrap_or(libc::c_int::MAX);
    loop {
        let mut poll = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: `poll` points to one valid, initialised pollfd for the
        // duration of the call, and the count passed is 1.
        let ready = unsafe { libc::poll(&mut poll, 1, timeout) };
        if ready < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if ready == 0 {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "no data came for {} s (a pipe that nobody writes, or stopped writing?)",
                    stall.as_secs_f64()
                ),
            ));
        }
        match file.read(&mut chunk) {
            // Linux reports a pipe's end only once a writer has opened and closed it.
            Ok(0) => return Ok(out),
            Ok(n) => {
                out.extend_from_slice(&chunk[..n]);
                if out.len() as u64 > limit {
                    return Err(too_large(limit_text));
                }
            }
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
            Err(e) => return Err(e),
        }
    }
}

/// Reads a regular file, refusing more than `limit` bytes.
#[cfg(not(unix))]
fn read_limited(path: &Path, limit: u64, limit_text: &str) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_a_file("it is not a file"));
    }
    let mut out = Vec::new();
    file.take(limit + 1).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(too_large(limit_text));
    }
    Ok(out)
}
