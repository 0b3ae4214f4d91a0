//! A validated [`Membership`] to the set it describes.

use std::cell::Cell;

use longstraw::Backend;
use longstraw_set::{ModeOptions, Options, Rendezvous, SkeletonOptions, TableOptions};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Membership, Mode};

impl Membership {
    /// Builds the set, with the backend `LONGSTRAW_BACKEND` names (or the best one).
    pub fn build(&self) -> Result<Rendezvous> {
        self.build_with(None)
    }

    /// Builds the set with a chosen backend (`None`: `LONGSTRAW_BACKEND` or the best).
    /// Placement never depends on the backend.
    pub fn build_with(&self, backend: Option<Backend>) -> Result<Rendezvous> {
        self.build_keyed(self.read_secret()?, backend)
    }

    /// Reads a keyed membership's secret from its source (`None` for an
    /// unkeyed one), for a caller that needs the secret as well as the set:
    /// reading once and passing it to [`Membership::build_keyed`] reads a
    /// source such as a FIFO, which gives its content once, only once.
    pub fn read_secret(&self) -> Result<Option<longstraw::Secret>> {
        self.secret_from(crate::secret::read)
    }

    /// [`Membership::read_secret`] for a caller that reads the secret file
    /// itself (a WebAssembly host, whose module has no file system):
    /// `read_file` is called with the path of a `secret.file` source (never
    /// for an environment variable or an unkeyed membership) and reports what
    /// it found; the rules and the messages are those of `read_secret`.
    pub fn read_secret_with(
        &self,
        read_file: impl FnOnce(&std::path::Path) -> crate::SecretFileRead,
    ) -> Result<Option<longstraw::Secret>> {
        self.secret_from(|source| {
            crate::secret::read_with(source, |path| {
                crate::input::secret_file_read_by_host(path, read_file(path))
            })
        })
    }

    fn secret_from(
        &self,
        read: impl FnOnce(&crate::SecretSource) -> std::result::Result<longstraw::Secret, String>,
    ) -> Result<Option<longstraw::Secret>> {
        match &self.secret {
            None => Ok(None),
            Some(source) => read(source)
                .map(Some)
                .map_err(|why| Error::new("membership", None, Some("secret".into()), ErrorKind::Secret(why))),
        }
    }

    /// Builds the set with a secret already read by [`Membership::read_secret`].
    /// A secret for an unkeyed membership, or none for a keyed one, is an error.
    pub fn build_keyed(&self, secret: Option<longstraw::Secret>, backend: Option<Backend>) -> Result<Rendezvous> {
        let origin = "membership";
        if self.secret.is_some() != secret.is_some() {
            let message = if secret.is_some() {
                "a secret was given for a membership that is not keyed"
            } else {
                "a keyed membership needs its secret to be built"
            };
            return Err(Error::new(
                origin,
                None,
                Some("secret".into()),
                ErrorKind::Secret(message.into()),
            ));
        }
        let set = Options {
            // A keyed file has no seed (the parser refuses one, and the
            // model's 0 stands for none); a keyed membership made in code
            // with a non-zero seed is refused by the set, never ignored.
            seed: (self.secret.is_none() || self.seed != 0).then_some(self.seed),
            secret,
            placement: self.placement,
            backend,
        };
        // The set is built once. It takes the nodes in order and stops at a
        // refused one, so `taken` names the node a node error is about; the
        // sentinel after the last node clears it for errors about the whole set.
        let taken = Cell::new(None);
        let nodes = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                taken.set(Some(i));
                (n.id.as_slice(), n.weight, n.domain.as_deref())
            })
            .chain(std::iter::from_fn(|| {
                taken.set(None);
                None
            }));
        let refused = |e: longstraw_set::Error| match taken.get() {
            Some(i) => Error::new(
                origin,
                Some(self.nodes[i].line).filter(|&l| l > 0),
                Some(format!("nodes[{i}]")),
                self.with_first_line(e),
            ),
            None => Error::new(origin, None, None, ErrorKind::Set(e)),
        };
        let mode = match self.mode {
            Mode::Flat => ModeOptions::Flat,
            Mode::Table {
                bits,
                replicas,
                distinct_domains,
                balance,
            } => {
                let balance = balance
                    .map(longstraw::balanced::Balance::new)
                    .transpose()
                    .map_err(|e| Error::new(origin, None, Some("table.balance".into()), ErrorKind::Set(e.into())))?;
                ModeOptions::Table(TableOptions {
                    partition_bits: bits,
                    replicas,
                    distinct_domains,
                    balance,
                })
            }
            Mode::Skeleton { shape } => ModeOptions::Skeleton(SkeletonOptions { shape }),
        };
        Rendezvous::new(nodes, set, mode).map_err(refused)
    }
}
