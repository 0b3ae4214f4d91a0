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
    let bytes =
        read_limited(path, MEMBERSHIP_LIMIT, "1 GiB, the limit for a membership file").map_err(ErrorKind::Io)?;
    membership_text(bytes)
}

/// A membership file's bytes as text.
pub(crate) fn membership_text(bytes: Vec<u8>) -> Result<String, ErrorKind> {
    String::from_utf8(bytes).map_err(|_| not_text())
}

/// Membership file bytes that are not UTF-8 text.
pub(crate) fn not_text() -> ErrorKind {
    ErrorKind::Io(io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}

/// The content of a secret file, or a plain message (never the content).
pub(crate) fn read_secret_file(path: &Path) -> Result<Vec<u8>, String> {
    let why = |e: io::Error| format!("cannot read secret file {}: {}", origin(path), plain(&e));
    if let Err(ErrorKind::Io(e)) = refuse_nul(path) {
        return Err(why(e));
    }
    read_limited(path, SECRET_LIMIT, "4096 bytes, the limit for a secret file").map_err(why)
}

/// What a reader outside this crate found at a secret file's path.
///
/// A WebAssembly module has no file system of its own: its host reads the
/// secret file the membership names ([`Membership::secret`](crate::Membership))
/// and reports here what it found, so that the rules (a regular file or a
/// pipe, at most 4096 bytes, the 32 hexadecimal digits) and every message stay
/// this crate's. The host reads as [`Membership::read_secret`](crate::Membership::read_secret)
/// does natively: a path with a NUL byte is refused here whatever the host
/// reports; a regular file or a pipe is read once, to its end (or to its
/// 4097th byte), a pipe failing when no data comes for 10 s.
///
/// It has no `Debug`: [`SecretFileRead::Content`] holds the secret.
pub enum SecretFileRead {
    /// What a regular file or a pipe held: all of it, or its first 4097
    /// bytes or more (more than 4096 is refused as too large).
    Content(Vec<u8>),
    /// The path names a directory.
    Directory,
    /// The path names a device (character or block).
    Device,
    /// The path names a socket.
    Socket,
    /// A pipe gave no data for 10 s.
    Stalled,
    /// The OS could not open or read it: its message ("No such file or
    /// directory"), which never holds the content.
    Failed(String),
}

/// The content a host read from a secret file (see [`SecretFileRead`]), or a
/// plain message (never the content), the same as [`read_secret_file`] gives.
pub(crate) fn secret_file_read_by_host(path: &Path, read: SecretFileRead) -> Result<Vec<u8>, String> {
    let why = |e: io::Error| format!("cannot read secret file {}: {}", origin(path), plain(&e));
    if let Err(ErrorKind::Io(e)) = refuse_nul(path) {
        return Err(why(e));
    }
    let limit_text = "4096 bytes, the limit for a secret file";
    match read {
        SecretFileRead::Content(bytes) if bytes.len() as u64 > SECRET_LIMIT => Err(why(too_large(limit_text))),
        SecretFileRead::Content(bytes) => Ok(bytes),
        SecretFileRead::Directory => Err(why(not_a_file("it is a directory"))),
        SecretFileRead::Device => Err(why(not_a_file("it is a device"))),
        SecretFileRead::Socket => Err(why(not_a_file("it is a socket"))),
        SecretFileRead::Stalled => Err(why(stalled(STALL))),
        SecretFileRead::Failed(message) => Err(why(io::Error::other(message))),
    }
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

/// The error of a read that got no data for `stall`.
pub(crate) fn stalled(stall: Duration) -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        format!(
            "no data came for {} s (a pipe that nobody writes, or stopped writing?)",
            stall.as_secs_f64()
        ),
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
        if file.metadata()?.len() > limit {
            return Err(too_large(limit_text));
        }
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
            return Err(stalled(stall));
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

#[cfg(all(test, unix))]
mod tests {
    use std::io::Write as _;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use super::*;
    use crate::model::SecretSource;

    const SECRET: &str = "000102030405060708090a0b0c0d0e0f";

    fn fifo(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        let status = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(status.success());
        path
    }

    /// Writes `text` into the FIFO once, from another thread, after `delay`.
    fn write_once(path: &Path, text: &str, delay: Duration) -> std::thread::JoinHandle<()> {
        let (path, text) = (path.to_path_buf(), text.to_string());
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            f.write_all(text.as_bytes()).unwrap();
        })
    }

    #[test]
    fn a_secret_written_once_into_a_fifo_loads_and_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let secret = fifo(dir.path(), "secret");
        let members = dir.path().join("m.toml");
        std::fs::write(&members, "[secret]\nfile = \"secret\"\n[[nodes]]\nid = \"a\"\n").unwrap();
        let writer = write_once(&secret, &format!("{SECRET}\n"), Duration::from_millis(200));
        let loaded = crate::load(&members).expect("the FIFO's secret");
        writer.join().unwrap();
        assert!(loaded.snapshot().members().is_keyed());
        // The one write was read once: a second load would wait for a second writer.
        set_stall_limit(Duration::from_millis(300));
        let again = crate::load(&members).unwrap_err().to_string();
        set_stall_limit(STALL);
        assert!(again.contains("no data came for 0.3 s"), "{again}");
    }

    #[test]
    fn a_membership_file_from_a_fifo_loads() {
        let dir = tempfile::tempdir().unwrap();
        let members = fifo(dir.path(), "m.toml");
        let writer = write_once(
            &members,
            "seed = 3\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n",
            Duration::from_millis(100),
        );
        let loaded = crate::load(&members).unwrap();
        writer.join().unwrap();
        assert_eq!(loaded.snapshot().members().len(), 2);
    }

    #[test]
    fn a_fifo_nobody_writes_fails_after_the_stall_limit_naming_the_file() {
        assert_eq!(STALL, Duration::from_secs(10));
        let dir = tempfile::tempdir().unwrap();
        let members = fifo(dir.path(), "m.toml");
        set_stall_limit(Duration::from_secs(1));
        let start = Instant::now();
        let e = crate::load(&members).unwrap_err().to_string();
        let waited = start.elapsed();
        set_stall_limit(STALL);
        assert_eq!(
            e,
            format!(
                "{}: no data came for 1 s (a pipe that nobody writes, or stopped writing?)",
                members.display()
            )
        );
        assert!(
            waited >= Duration::from_millis(950) && waited < Duration::from_secs(5),
            "{waited:?}"
        );
        // The same for a secret file.
        let secret = fifo(dir.path(), "secret");
        set_stall_limit(Duration::from_secs(1));
        let e = SecretSource::File(secret.clone()).read().unwrap_err();
        set_stall_limit(STALL);
        assert_eq!(
            e,
            format!(
                "cannot read secret file {}: no data came for 1 s (a pipe that nobody writes, or stopped writing?)",
                secret.display()
            )
        );
    }

    #[test]
    fn devices_and_folders_are_refused() {
        let e = crate::load("/dev/zero").unwrap_err().to_string();
        assert_eq!(e, "/dev/zero: it is a device, not a regular file or a pipe");
        let e = SecretSource::File("/dev/zero".into()).read().unwrap_err();
        assert_eq!(
            e,
            "cannot read secret file /dev/zero: it is a device, not a regular file or a pipe"
        );
        let dir = tempfile::tempdir().unwrap();
        let e = crate::load(dir.path()).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{}: it is a directory, not a regular file or a pipe",
                dir.path().display()
            )
        );
    }

    #[test]
    fn reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("secret");
        std::fs::write(&big, vec![b'0'; SECRET_LIMIT as usize + 1]).unwrap();
        let e = SecretSource::File(big.clone()).read().unwrap_err();
        assert_eq!(
            e,
            format!(
                "cannot read secret file {}: the file is larger than 4096 bytes, the limit for a secret file",
                big.display()
            )
        );
        // A pipe that never ends stops at the limit too.
        let endless = fifo(dir.path(), "endless");
        let path = endless.clone();
        let writer = std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            let block = [b'a'; 1024];
            while f.write_all(&block).is_ok() {}
        });
        let e = SecretSource::File(endless).read().unwrap_err();
        assert!(
            e.ends_with("the file is larger than 4096 bytes, the limit for a secret file"),
            "{e}"
        );
        writer.join().unwrap();
    }

    /// A host that reads the secret file for a WebAssembly module reports
    /// what it found; each report gives the message the native reader gives
    /// for the same file, and content gives the same set.
    #[test]
    fn a_secret_file_read_by_a_host_gives_the_native_messages() {
        use crate::SecretFileRead as Read;
        let dir = tempfile::tempdir().unwrap();
        let members = dir.path().join("m.toml");
        let keyed = |file: &Path| {
            let text = format!(
                "[secret]\nfile = {:?}\n[[nodes]]\nid = \"a\"\n",
                file.display().to_string()
            );
            std::fs::write(&members, text).unwrap();
            crate::Membership::read(&members).unwrap()
        };
        let native = |m: &crate::Membership| m.read_secret().err().map(|e| e.to_string());
        let host = |m: &crate::Membership, read: Read| {
            let mut asked = None;
            let got = m.read_secret_with(|p| {
                asked = Some(p.to_path_buf());
                read
            });
            (got.err().map(|e| e.to_string()), asked)
        };
        // A regular file: the same secret, read from the path the file names.
        let secret = dir.path().join("secret");
        std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
        let m = keyed(Path::new("secret"));
        let (e, asked) = host(&m, Read::Content(format!("{SECRET}\n").into_bytes()));
        assert_eq!((e, asked.as_deref()), (None, Some(secret.as_path())));
        let via_host = m
            .read_secret_with(|_| Read::Content(format!("{SECRET}\n").into_bytes()))
            .unwrap()
            .unwrap();
        assert!(via_host.expose_bytes() == m.read_secret().unwrap().unwrap().expose_bytes());
        // Malformed content: the shape, never the content.
        let (e, _) = host(&m, Read::Content(b"not-a-secret-at-all".to_vec()));
        std::fs::write(&secret, "not-a-secret-at-all").unwrap();
        assert_eq!(e, native(&m));
        assert!(!e.unwrap().contains("not-a-secret"));
        // Too large, a directory, a device, a missing file, a silent pipe.
        std::fs::write(&secret, vec![b'0'; SECRET_LIMIT as usize + 1]).unwrap();
        let (e, _) = host(&m, Read::Content(vec![b'0'; SECRET_LIMIT as usize + 1]));
        assert_eq!(e, native(&m));
        let m = keyed(dir.path());
        assert_eq!(host(&m, Read::Directory).0, native(&m));
        let m = keyed(Path::new("/dev/zero"));
        assert_eq!(host(&m, Read::Device).0, native(&m));
        let m = keyed(Path::new("missing"));
        assert_eq!(host(&m, Read::Failed("No such file or directory".into())).0, native(&m));
        let m = keyed(&fifo(dir.path(), "silent"));
        set_stall_limit(STALL);
        let e = host(&m, Read::Stalled).0.unwrap();
        assert!(
            e.ends_with("no data came for 10 s (a pipe that nobody writes, or stopped writing?)"),
            "{e}"
        );
        // Not asked for an environment variable or an unkeyed file.
        std::fs::write(
            &members,
            "[secret]\nenv = \"LONGSTRAW_HOST_READ_UNSET\"\n[[nodes]]\nid = \"a\"\n",
        )
        .unwrap();
        let m = crate::Membership::read(&members).unwrap();
        let (e, asked) = host(&m, Read::Directory);
        assert_eq!((e, asked), (native(&m), None));
        std::fs::write(&members, "[[nodes]]\nid = \"a\"\n").unwrap();
        let m = crate::Membership::read(&members).unwrap();
        assert!(m.read_secret_with(|_| unreachable!()).unwrap().is_none());
    }
}
