//! A set to membership text that rebuilds exactly the same placement.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use longstraw_set::{Members, SkeletonSnapshot, Snapshot, TableSnapshot};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Membership, Mode, NodeSpec, SecretSource, FORMAT_VERSION};

/// Saving a keyed set whose secret source nobody named (one built in code).
const NO_SOURCE: &str = "a keyed set needs a secret source to be saved: name a secret file or an \
     environment variable (the secret itself is never written)";
const GIVE_ONE_SOURCE: &str = "name one secret source, a file or an environment variable, not both";
const EMPTY_SOURCE: &str = "the secret source is empty: name a file or an environment variable";
const NOT_KEYED: &str = "the set is not keyed, so it has no secret source: a saved [secret] section \
     would place keys by a secret the set never used";

impl Membership {
    /// The file content that rebuilds `snap` exactly: its mode with the
    /// mode's shape written out (so that the file does not depend on the
    /// defaults for the node count), the seed and the nodes. A keyed
    /// snapshot's file names no secret source until the caller names one
    /// ([`Membership::name_secret_source`]).
    pub fn of(snap: &Snapshot) -> Membership {
        if let Some(table) = snap.as_table() {
            Membership::of_table(table)
        } else if let Some(skeleton) = snap.as_skeleton() {
            Membership::of_skeleton(skeleton)
        } else {
            Membership::of_members(snap.members())
        }
    }

    /// The file content of a flat set with these members.
    fn of_members(snap: &Members) -> Membership {
        Membership {
            seed: snap.seed().unwrap_or(0),
            placement: snap.placement(),
            mode: Mode::Flat,
            // A keyed snapshot does not know where its secret came from: the
            // caller names the source, or writing refuses (never an unkeyed file).
            secret: snap.is_keyed().then_some(SecretSource::Unnamed),
            nodes: nodes_of(snap),
        }
    }

    fn of_table(table: &TableSnapshot) -> Membership {
        Membership {
            mode: Mode::Table {
                bits: Some(table.partition_bits()),
                replicas: table.replicas(),
                distinct_domains: table.distinct_domains(),
                balance: table.balance().map(|b| b.as_f64()),
            },
            ..Membership::of_members(table.members())
        }
    }

    fn of_skeleton(skeleton: &SkeletonSnapshot) -> Membership {
        Membership {
            mode: Mode::Skeleton {
                shape: Some(skeleton.shape()),
            },
            ..Membership::of_members(skeleton.members())
        }
    }

    /// Names where a keyed set's secret comes from, so that the set can be saved: `file` (a path; a
    /// relative one is read relative to the saved file's folder) or `env` (an environment variable),
    /// at most one of them. Giving neither keeps the source the membership already has (the one a
    /// loaded file named). Naming a source for an unkeyed set is an error: the file would then
    /// place keys by a secret the set never used. The secret itself is never written.
    pub fn name_secret_source(&mut self, file: Option<PathBuf>, env: Option<String>) -> Result<()> {
        let refuse = |message: &str| {
            Err(Error::new(
                "save",
                None,
                Some("secret".into()),
                ErrorKind::Secret(message.into()),
            ))
        };
        let source = match (file, env) {
            (None, None) => return Ok(()),
            (Some(_), Some(_)) => return refuse(GIVE_ONE_SOURCE),
            (Some(file), None) if file.as_os_str().is_empty() => return refuse(EMPTY_SOURCE),
            (None, Some(env)) if env.is_empty() => return refuse(EMPTY_SOURCE),
            (Some(file), None) if file.as_os_str().as_encoded_bytes().contains(&0) => {
                return refuse(crate::input::NUL_IN_PATH)
            }
            (Some(file), None) => SecretSource::File(file),
            (None, Some(env)) => SecretSource::Env(env),
        };
        if self.secret.is_none() {
            return refuse(NOT_KEYED);
        }
        self.secret = Some(source);
        Ok(())
    }

    /// The TOML text; [`Membership::parse`] of it gives this membership back.
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        out.push_str("# longstraw membership file (docs/MEMBERSHIP.md)\n");
        let _ = writeln!(out, "format = {FORMAT_VERSION}");
        // A keyed membership has no seed; a non-zero one is still written, so
        // that reading the text back refuses the contradiction (as building
        // does) instead of silently dropping the seed.
        if self.secret.is_none() || self.seed != 0 {
            match i64::try_from(self.seed) {
                Ok(seed) => {
                    let _ = writeln!(out, "seed = {seed}");
                }
                Err(_) => {
                    let _ = writeln!(out, "seed = \"{}\"", self.seed);
                }
            }
        }
        let _ = writeln!(out, "placement = {}", self.placement.number());
        let _ = writeln!(out, "mode = \"{}\"", self.mode.name());
        match self.mode {
            Mode::Flat => {}
            Mode::Table {
                bits,
                replicas,
                distinct_domains,
                balance,
            } => {
                out.push_str("\n[table]\n");
                if let Some(bits) = bits {
                    let _ = writeln!(out, "bits = {bits}");
                }
                let _ = writeln!(out, "replicas = {replicas}");
                let _ = writeln!(out, "distinct_domains = {distinct_domains}");
                if let Some(balance) = balance {
                    let _ = writeln!(out, "balance = {}", float(balance));
                }
            }
            Mode::Skeleton { shape } => {
                if let Some(shape) = shape {
                    out.push_str("\n[skeleton]\n");
                    let _ = writeln!(out, "fanout_bits = {}", shape.fanout_bits());
                    let _ = writeln!(out, "levels = {}", shape.levels());
                }
            }
        }
        match &self.secret {
            None => {}
            Some(SecretSource::File(path)) => {
                let _ = write!(out, "\n[secret]\nfile = {}\n", quoted(&path.to_string_lossy()));
            }
            Some(SecretSource::Env(var)) => {
                let _ = write!(out, "\n[secret]\nenv = {}\n", quoted(var));
            }
            // Neither source: reading this text back is an error, never an unkeyed set.
            Some(SecretSource::Unnamed) => out.push_str("\n[secret]\n"),
        }
        for node in &self.nodes {
            out.push_str("\n[[nodes]]\n");
            write_bytes(&mut out, "id", &node.id);
            if node.weight != 1.0 {
                let _ = writeln!(out, "weight = {}", float(node.weight));
            }
            if let Some(domain) = &node.domain {
                write_bytes(&mut out, "domain", domain);
            }
        }
        out
    }

    /// Writes the file atomically: to a new temporary file beside it (an
    /// unpredictable name, created exclusively, never through a symlink),
    /// synced, then renamed over it, and the folder synced; so a reader sees
    /// the old file or the new one, never half a file, and saves from several
    /// threads or processes do not disturb each other. The new file has the
    /// permissions of the one it replaces (0644, less the umask, for a new one).
    pub fn write(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let origin = crate::input::origin(path);
        let text = self.to_file_text(&origin)?;
        crate::input::refuse_nul(path).map_err(|kind| Error::new(&origin, None, None, kind))?;
        crate::atomic::write(path, text.as_bytes()).map_err(|e| Error::new(&origin, None, None, ErrorKind::Io(e)))
    }

    /// The text [`Membership::write`] would write to the file `origin`
    /// names (used in messages only), for a host that writes the file itself
    /// (WebAssembly, which has no file system). A keyed membership with no
    /// named secret source fails, as `write` does.
    pub fn to_file_text(&self, origin: &str) -> Result<String> {
        if self.secret == Some(SecretSource::Unnamed) {
            return Err(Error::new(
                origin,
                None,
                Some("secret".into()),
                ErrorKind::Secret(NO_SOURCE.into()),
            ));
        }
        Ok(self.to_toml())
    }
}

fn nodes_of(snap: &Members) -> Vec<NodeSpec> {
    snap.nodes()
        .map(|n| NodeSpec::new(n.id(), n.weight(), n.domain().map(<[u8]>::to_vec)))
        .collect()
}

/// A float that TOML reads back bit for bit (Rust prints the shortest round-trip form).
fn float(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E']) {
        s
    } else {
        format!("{s}.0")
    }
}

fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Text ids as `key = "..."`, other bytes as `key_hex = "..."`.
fn write_bytes(out: &mut String, key: &str, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let _ = writeln!(out, "{key} = {}", quoted(text));
        }
        Err(_) => {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let _ = writeln!(out, "{key}_hex = \"{hex}\"");
        }
    }
}
