//! Replacing a file atomically and safely: a new temporary file in the same
//! folder, with an unpredictable name, created exclusively (never through a
//! symlink), written and synced, renamed over the target, and the folder synced.

use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How many names are tried before giving up (each collision is an existing file).
const ATTEMPTS: usize = 64;

/// Writes `content` to `path` through a temporary file renamed over it.
pub(crate) fn write(path: &Path, content: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mode = target_mode(path);
    let (tmp, mut file) = create_temporary(folder, name, mode)?;
    let result = (|| {
        file.write_all(content)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        sync_folder(folder)
    })();
    if result.is_err() {
        // The rename did not happen (or the folder sync failed after it, and
        // then the name is gone already): never leave a temporary file behind.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// 64 unpredictable bits: SipHash keyed by the standard library's per-process
/// random keys, over a counter, the time and the thread.
fn random_u64() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    // WASI has no process id (the standard library panics): there the random
    // keys and the time make the name unpredictable.
    #[cfg(not(target_os = "wasi"))]
    h.write_u32(std::process::id());
    std::hash::Hash::hash(&std::thread::current().id(), &mut h);
    h.finish()
}

/// Creates a new file `.NAME.RANDOM.tmp` in `folder`, retrying on a name that exists.
fn create_temporary(folder: &Path, name: &std::ffi::OsStr, mode: u32) -> io::Result<(PathBuf, File)> {
    // Keep the temporary name within the usual 255-byte limit of a file name.
    let shown: String = name.to_string_lossy().chars().take(100).collect();
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let mut tmp_name = OsString::from(".");
        tmp_name.push(&shown);
        tmp_name.push(format!(".{:016x}{:016x}.tmp", random_u64(), random_u64()));
        let tmp = folder.join(tmp_name);
        match open_new(&tmp, mode) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary name was free")))
}

#[cfg(unix)]
fn open_new(tmp: &Path, mode: u32) -> io::Result<File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    // O_CREAT | O_EXCL never follows a symlink at the name; O_NOFOLLOW says so twice.
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(tmp)?;
    if mode != DEFAULT_MODE {
        // The target's own permissions, which the umask must not narrow.
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    Ok(file)
}

#[cfg(not(unix))]
fn open_new(tmp: &Path, _mode: u32) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(tmp)
}

/// The mode a new file gets (less the umask).
const DEFAULT_MODE: u32 = 0o644;

/// The permission bits of the file being replaced, or [`DEFAULT_MODE`].
fn target_mode(path: &Path) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => m.permissions().mode() & 0o777,
            _ => DEFAULT_MODE,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        DEFAULT_MODE
    }
}

/// Makes the rename durable: syncs the folder's entry list.
#[cfg(unix)]
fn sync_folder(folder: &Path) -> io::Result<()> {
    match File::open(folder)?.sync_all() {
        // Some file systems cannot sync a folder; the rename itself happened.
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
        other => other,
    }
}

#[cfg(not(unix))]
fn sync_folder(_folder: &Path) -> io::Result<()> {
    Ok(())
}
