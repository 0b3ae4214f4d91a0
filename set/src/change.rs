//! One membership change, applied the same way by every mode (flat, table, skeleton).

use crate::error::{Error, Result};
use crate::members::Members;

/// A membership change, applied to a private copy of a snapshot.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change<'c> {
    Add {
        id: &'c [u8],
        weight: f64,
        domain: Option<&'c [u8]>,
    },
    Remove {
        id: &'c [u8],
    },
    SetWeight {
        id: &'c [u8],
        weight: f64,
    },
    SetDomain {
        id: &'c [u8],
        domain: Option<&'c [u8]>,
    },
}

/// What a change did, for the structures that patch themselves incrementally.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Applied {
    Added { index: u32 },
    Removed { index: u32 },
    Reweighted { index: u32, old_weight: f64 },
    Relabelled,
}

/// Applies `change` to `members` and re-seals it (same generation).
pub(crate) fn apply(members: &mut Members, change: Change<'_>) -> Result<Applied> {
    let generation = members.generation();
    let applied = match change {
        Change::Add { id, weight, domain } => {
            members.push_in_domain(id, weight, domain)?;
            Applied::Added {
                index: members.len() as u32 - 1,
            }
        }
        Change::Remove { id } => {
            let index = members
                .index_of(id)
                .ok_or_else(|| Error::UnknownNode { id: id.to_vec() })?;
            members.remove(id)?;
            Applied::Removed { index }
        }
        Change::SetWeight { id, weight } => {
            let index = members
                .index_of(id)
                .ok_or_else(|| Error::UnknownNode { id: id.to_vec() })?;
            let old_weight = members.weights()[index as usize];
            members.set_weight(id, weight)?;
            Applied::Reweighted { index, old_weight }
        }
        Change::SetDomain { id, domain } => {
            members.set_domain(id, domain)?;
            Applied::Relabelled
        }
    };
    members.seal(generation)?;
    Ok(applied)
}

/// Applies `change` to `members` without sealing it: for several changes
/// sealed once at the end.
pub(crate) fn apply_unsealed(members: &mut Members, change: Change<'_>) -> Result<()> {
    match change {
        Change::Add { id, weight, domain } => members.push_in_domain(id, weight, domain),
        Change::Remove { id } => members.remove(id),
        Change::SetWeight { id, weight } => members.set_weight(id, weight),
        Change::SetDomain { id, domain } => members.set_domain(id, domain),
    }
}

/// Builds a sealed membership from `(id, weight, domain)` triples.
pub(crate) fn members_of<I, T, D>(nodes: I, options: &crate::Options) -> Result<Members>
where
    I: IntoIterator<Item = (T, f64, Option<D>)>,
    T: AsRef<[u8]>,
    D: AsRef<[u8]>,
{
    let hashing = options.hashing()?;
    let backend = match options.backend {
        Some(b) => b,
        None => crate::backend_env::backend_from_env()?,
    };
    // Resolved as every snapshot reports them: the backend chosen, and the
    // seed or the secret that `hashing` uses (a v1 set without a seed has
    // seed 0). Options that placement does not read are kept as given.
    let resolved = crate::Options {
        seed: hashing.seed(),
        secret: match hashing {
            longstraw::Hashing::Keyed(k) => Some(k.secret()),
            longstraw::Hashing::Seeded(_) => None,
        },
        backend: Some(backend),
        ..options.clone()
    };
    Members::build(std::sync::Arc::new(resolved), hashing, backend, nodes)
}
