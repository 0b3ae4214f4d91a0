//! What a membership file says, validated but not yet built.

use std::path::PathBuf;

use longstraw::{Placement, SkeletonShape};

/// The version of the file format this crate reads and writes (`format = 1`).
pub const FORMAT_VERSION: u32 = 1;

/// One membership file's content.
#[derive(Clone, Debug, PartialEq)]
pub struct Membership {
    /// The hash seed (ignored by keyed placement, which uses the secret).
    pub seed: u64,
    /// The placement version.
    pub placement: Placement,
    /// Flat, table or skeleton, with the mode's shape.
    pub mode: Mode,
    /// Where a keyed set's secret comes from; the secret itself is never in the file.
    pub secret: Option<SecretSource>,
    /// The nodes in file order (node index `i` is the `i`-th `[[nodes]]` entry).
    pub nodes: Vec<NodeSpec>,
}

/// How keys are placed over the nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Placement v1 over every node (SPEC.md §1-§9).
    Flat,
    /// A partition table (SPEC.md §10).
    Table {
        /// `P = 2^bits` partitions; `None` picks the default for the node count.
        bits: Option<u8>,
        /// Nodes stored per partition.
        replicas: usize,
        /// Whether stored lists keep one node per failure domain.
        distinct_domains: bool,
        /// The balanced-table cap factor (SPEC.md §17); `None` for a plain table.
        balance: Option<f64>,
    },
    /// Skeleton HRW (SPEC.md §11); `None` picks the default shape for the node count.
    Skeleton {
        /// Fan-out and levels.
        shape: Option<SkeletonShape>,
    },
}

impl Mode {
    /// The mode's name as the file spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Flat => "flat",
            Mode::Table { .. } => "table",
            Mode::Skeleton { .. } => "skeleton",
        }
    }
}

/// Where a keyed set reads its secret. The file names the source only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SecretSource {
    /// A file holding the secret (a path relative to the membership file's folder is resolved against it).
    File(PathBuf),
    /// An environment variable holding the secret.
    Env(String),
    /// A keyed set built in code, whose secret source no file named. Parsing
    /// never gives it; writing it is an error, so that a keyed set is never
    /// saved as a file that would silently place keys without its secret.
    Unnamed,
}

impl SecretSource {
    /// The secret this source holds (32 hexadecimal digits), or a message that
    /// names the source and never its content.
    pub fn read(&self) -> std::result::Result<longstraw::Secret, String> {
        crate::secret::read(self)
    }

    /// The source in words, for messages (never the secret).
    pub fn describe(&self) -> String {
        match self {
            SecretSource::File(path) => format!("secret file {}", path.display()),
            SecretSource::Env(var) => format!("environment variable {var}"),
            SecretSource::Unnamed => "an unnamed secret source".into(),
        }
    }
}

/// One node of the file. Two nodes are equal when id, weight and domain are
/// (the line they were read from does not count).
#[derive(Clone, Debug)]
pub struct NodeSpec {
    /// The id bytes.
    pub id: Vec<u8>,
    /// The weight (0 means drained: in the set, never chosen).
    pub weight: f64,
    /// The failure domain label; `None` is a domain of its own.
    pub domain: Option<Vec<u8>>,
    /// The 1-based line of the node's id in the file it was read from (0 when not read from a file).
    pub line: usize,
}

impl NodeSpec {
    /// A node made in code (not read from a file).
    pub fn new(id: impl Into<Vec<u8>>, weight: f64, domain: Option<Vec<u8>>) -> NodeSpec {
        NodeSpec {
            id: id.into(),
            weight,
            domain,
            line: 0,
        }
    }
}

impl PartialEq for NodeSpec {
    fn eq(&self, other: &NodeSpec) -> bool {
        self.id == other.id && self.weight.to_bits() == other.weight.to_bits() && self.domain == other.domain
    }
}
