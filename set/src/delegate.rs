/// The membership accessors every snapshot kind shares, delegated to its
/// flat [`Members`](crate::Members) in `self.members`, so that a table or a
/// skeleton answers `ids()`, `node(i)`, `len()`... exactly as its members do.
macro_rules! delegate_membership {
    () => {
        /// Seed (`None` for a keyed set, which has no seed).
        pub fn seed(&self) -> Option<u64> {
            self.members.seed()
        }
        /// Whether this snapshot places by keyed-v1 (built with a secret).
        pub fn is_keyed(&self) -> bool {
            self.members.is_keyed()
        }
        /// Placement version of the rankings this mode builds on.
        pub fn placement(&self) -> longstraw::Placement {
            self.members.placement()
        }
        /// Kernel lookups and builds run on.
        pub fn backend(&self) -> longstraw::Backend {
            self.members.backend()
        }
        /// Increases by one with every published change.
        pub fn generation(&self) -> u64 {
            self.members.generation()
        }
        /// How many nodes, including drained ones.
        pub fn len(&self) -> usize {
            self.members.len()
        }
        /// Whether there are no nodes.
        pub fn is_empty(&self) -> bool {
            self.members.is_empty()
        }
        /// How many nodes have a non-zero weight.
        pub fn eligible(&self) -> usize {
            self.members.eligible()
        }
        /// Node ids by index.
        pub fn ids(&self) -> $crate::Ids<'_> {
            self.members.ids()
        }
        /// Weights by index.
        pub fn weights(&self) -> &[f64] {
            self.members.weights()
        }
        /// Node hashes by index.
        pub fn hashes(&self) -> &[u64] {
            self.members.hashes()
        }
        /// Node `index`.
        pub fn node(&self, index: u32) -> Option<Node<'_>> {
            self.members.node(index)
        }
        /// Every node in index order.
        pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
            self.members.nodes()
        }
        /// The index of the node with this id.
        pub fn index_of(&self, id: &[u8]) -> Option<u32> {
            self.members.index_of(id)
        }
        /// Whether a node with this id is in the set.
        pub fn contains(&self, id: &[u8]) -> bool {
            self.members.contains(id)
        }
    };
}
pub(crate) use delegate_membership;
