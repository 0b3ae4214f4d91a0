//! Bounded loads (SPEC.md §16): request-level caps over the HRW ranking.
//!
//! A [`BoundedLoad`] counts the requests in flight on every node. A request
//! for a key goes to the first node of the key's ranking whose load is below
//! its cap `ceil(c * T * w_i / W)`, where `T` is the number of requests in
//! flight counting this one. When the owner has room (the usual case) that is
//! the owner, found with one `owner` lookup and one compare-and-swap.
//!
//! # What holds under concurrency
//!
//! There is no lock on the acquire or release path. A node's load only grows
//! through a compare-and-swap that checks the cap against the load it
//! replaces, so two threads can never both take a node's last free place.
//! The total `T` has no shared counter: every thread counts the requests it
//! announces and releases in a lane of its own (two monotone counters that
//! only it writes, so no locked instruction; see `lanes.rs`), and `T` is
//! read by summing the lanes, announcements first. Each acquire announces
//! itself before it checks any cap, and reads `T` again before every check.
//! So (SPEC.md §16.4):
//!
//! - in one thread, every admission satisfies the rule of SPEC.md §16
//!   exactly;
//! - under concurrency, every admission satisfies
//!   `load_i <= ceil(c * T_read * w_i / W)`, where `T_read` is at most the
//!   total at one moment during that acquire. That total counts requests
//!   that racing threads have announced but not yet placed, so the cap can
//!   be exceeded by at most the share `c * w_i / W` of those racing requests
//!   (one per other thread inside `acquire`), and never otherwise;
//! - the total is never below the sum of the node loads: acquire raises the
//!   total before a node, release lowers a node before the total;
//! - some node always has room (SPEC.md §16.3), so a pass down the ranking
//!   fails only if another thread acquired or released during it. The walk
//!   then starts again: acquire is lock-free, not wait-free.
//!
//! # Membership
//!
//! Membership changes publish a new snapshot; a node that stays keeps its
//! counter. A removed node's counter is retired, not freed, while anything
//! may still point to it: a [`Lease`] (which borrows the set, so acquire and
//! release touch no reference count) or an [`OwnedLease`] (which holds a
//! reference, for leases that outlive the set, as in the language bindings).
//! So a lease on a removed node still releases cleanly and the total stays
//! right: leases on removed or drained nodes still count in `T` until they
//! end.

#[cfg(not(loom))]
use std::hint;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::Arc;
#[cfg(not(loom))]
use std::sync::{
    atomic::{AtomicU64, Ordering},
    Mutex,
};

#[cfg(not(loom))]
use arc_swap::ArcSwap;
use longstraw::Ranked;

// Under `--cfg loom` (make test-loom) the counters, locks and the published
// state are loom's, so that loom checks every interleaving.
#[cfg(loom)]
mod loom_sync;
#[cfg(loom)]
use loom_sync::{hint, ArcSwap, AtomicU64, Mutex, Ordering};

mod lanes;
use lanes::Total;

use crate::change::{apply, members_of, Change};
use crate::error::{Error, Result};
use crate::members::Members;
use crate::rendezvous::Options;

/// The balance factor `c` used when none is given (brpc's default).
pub const DEFAULT_BALANCE_FACTOR: f64 = 1.25;

/// The smallest balance factor accepted, `1 + 2^-16`: far enough above 1
/// that f64 rounding of the caps cannot break the guarantee that some node
/// has room (SPEC.md §16.3).
pub const MIN_BALANCE_FACTOR: f64 = 1.0 + 1.0 / 65536.0;

/// Checks a balance factor: finite and at least [`MIN_BALANCE_FACTOR`].
pub fn validate_balance_factor(factor: f64) -> Result<f64> {
    if factor.is_finite() && factor >= MIN_BALANCE_FACTOR {
        Ok(factor)
    } else {
        Err(Error::InvalidBalanceFactor { factor })
    }
}

/// How many ranks the walk takes from one `top_k` call before it goes on
/// one node at a time. With `c = 1.25`, needing more is vanishingly rare.
const WALK_BATCH: usize = 16;

/// One node's in-flight counter, on its own cache line so that busy nodes do
/// not slow each other down.
#[derive(Debug)]
#[repr(align(64))]
struct Slot {
    load: AtomicU64,
    id: Arc<[u8]>,
    total: Arc<Total>,
}

/// One published membership and its counters, by node index.
#[derive(Debug)]
struct State {
    members: Arc<Members>,
    slots: Vec<Arc<Slot>>,
    /// `c * w_i / W` per node (0 for a drained node).
    shares: Vec<f64>,
}

/// A node set that caps every node's in-flight requests at `c` times its
/// fair share. See the module documentation for what holds under
/// concurrency.
///
/// ```
/// use longstraw_set::{BoundedLoad, Options};
///
/// let b = BoundedLoad::new(["a", "b", "c"], Options::default(), 1.25).unwrap();
/// let lease = b.acquire(b"user:42").unwrap();
/// assert_eq!(lease.node_id(), b.snapshot().owner(b"user:42").unwrap().id());
/// drop(lease); // the request is over
/// assert_eq!(b.in_flight(), 0);
/// ```
#[derive(Debug)]
pub struct BoundedLoad {
    state: ArcSwap<State>,
    writer: Mutex<()>,
    /// Counters of removed nodes that a borrowed [`Lease`] may still point
    /// to; each is freed once no state refers to it and its load is 0.
    retired: Mutex<Vec<Arc<Slot>>>,
    total: Arc<Total>,
    factor: f64,
}

/// One admitted request, borrowed from its [`BoundedLoad`] (no reference
/// count to touch: the fast path). Dropping it (or calling
/// [`Lease::release`]) ends the request and frees its place on the node.
/// [`BoundedLoad::acquire_owned`] gives an [`OwnedLease`] that may outlive
/// the set.
#[must_use = "dropping a lease ends the request at once"]
pub struct Lease<'a> {
    /// Points into a counter that the set keeps alive for its whole life
    /// (in its current state or its retired list), so for at least `'a`.
    slot: NonNull<Slot>,
    index: u32,
    owner: bool,
    _set: PhantomData<&'a BoundedLoad>,
}

// SAFETY: a Lease only reads `Slot::id` and does atomic operations on the
// slot's counters, all of which are shared safely between threads (Slot is
// Send + Sync); the pointee outlives 'a wherever the lease goes.
unsafe impl Send for Lease<'_> {}
// SAFETY: as above; `&Lease` exposes only reads of immutable data.
unsafe impl Sync for Lease<'_> {}

/// One admitted request that owns a reference to its node's counter, so it
/// may outlive its [`BoundedLoad`] (what the language bindings hand out).
#[derive(Debug)]
#[must_use = "dropping a lease ends the request at once"]
pub struct OwnedLease {
    slot: Arc<Slot>,
    index: u32,
    owner: bool,
}

macro_rules! lease_accessors {
    ($t:ty) => {
        impl $t {
            /// The id of the node that took the request.
            pub fn node_id(&self) -> &[u8] {
                &self.slot().id
            }
            /// The node's shared id (no copy).
            pub fn node_id_shared(&self) -> Arc<[u8]> {
                self.slot().id.clone()
            }
            /// The node's index in the snapshot that admitted the request (it
            /// may differ in later snapshots; use `node_id` for identity).
            pub fn index(&self) -> u32 {
                self.index
            }
            /// Whether the node is the key's owner (it had room).
            pub fn is_owner(&self) -> bool {
                self.owner
            }
            /// Ends the request (the same as dropping the lease).
            pub fn release(self) {}
        }

        impl Drop for $t {
            fn drop(&mut self) {
                let slot = self.slot();
                // Node first, then total: the total never falls below the sum
                // of the loads. The node counter guards no other data, so
                // Relaxed is enough: its read-modify-writes are totally
                // ordered on their own.
                slot.load.fetch_sub(1, Ordering::Relaxed);
                slot.total.released(lanes::current());
            }
        }
    };
}

impl Lease<'_> {
    fn slot(&self) -> &Slot {
        // SAFETY: the set keeps every slot it ever handed out alive until it
        // is dropped (current state or retired list), and `'a` borrows the set.
        unsafe { self.slot.as_ref() }
    }
}

impl OwnedLease {
    fn slot(&self) -> &Slot {
        &self.slot
    }
}

lease_accessors!(Lease<'_>);
lease_accessors!(OwnedLease);

impl std::fmt::Debug for Lease<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lease")
            .field("node", &crate::error::show_id(self.node_id()))
            .field("index", &self.index)
            .field("owner", &self.owner)
            .finish()
    }
}

/// SPEC.md §16.1's test: a node holding `load` requests, with share
/// `share = c * (w_i / W)`, may take one more when `t` requests are in
/// flight counting this one: `load + 1 <= ceil(share * t)`. For an integer
/// load that is `load < share * t`, which spares a call to `ceil` (not an
/// instruction on baseline x86-64). The one copy of the rule: the counting
/// [`BoundedLoad`] and the stateless [`BoundedRule`] both ask it.
#[inline]
fn may_take(load: u64, share: f64, t: u64) -> bool {
    (load as f64) < share * t as f64
}

/// `c * (w_i / W)` for every node of `members`, by index (0 for a drained
/// node), with `W` the f64 nearest the exact sum of the weights (SPEC.md
/// §16.1): no node order matters.
fn shares_of(members: &Members, factor: f64) -> Vec<f64> {
    let weights = members.weights();
    let weight_sum = longstraw::weight_sum(weights.iter().copied());
    weights
        .iter()
        .map(|&w| if w == 0.0 { 0.0 } else { factor * (w / weight_sum) })
        .collect()
}

/// One pass down the ranking of the key hash `kh` in `members`, from rank
/// `from`, asking `take` of each node in turn. Returns the first node that
/// `take` accepts, and whether it is the owner (rank 0).
#[inline]
fn walk(members: &Members, kh: u64, from: usize, mut take: impl FnMut(u32) -> bool) -> Option<(u32, bool)> {
    let table = members.table();
    let mut ranks = [Ranked::EMPTY; WALK_BATCH];
    let len = table.top_k_of_hash(kh, &mut ranks);
    if len == 0 {
        return None;
    }
    for (rank, r) in ranks[..len].iter().enumerate().skip(from) {
        if take(r.index) {
            return Some((r.index, rank == 0));
        }
    }
    let mut at = ranks[len - 1];
    while let Some(next) = table.next_in_ranking_of_hash(kh, &at) {
        if take(next.index) {
            return Some((next.index, false));
        }
        at = next;
    }
    None
}

/// Node `slot` takes one more request if [`may_take`] says so, with `T`
/// (the total read afresh: it counts this request's announcement) for
/// every attempt.
#[inline]
fn try_admit(slot: &Slot, share: f64, total: &Total) -> bool {
    let mut load = slot.load.load(Ordering::Relaxed);
    loop {
        if !may_take(load, share, total.read()) {
            return false;
        }
        match slot
            .load
            .compare_exchange_weak(load, load + 1, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => return true,
            Err(now) => load = now,
        }
    }
}

impl State {
    fn new(members: Arc<Members>, factor: f64, previous: Option<&State>, total: &Arc<Total>) -> State {
        let shares = shares_of(&members, factor);
        let slots = members
            .ids()
            .iter()
            .map(|id| {
                let kept = previous.and_then(|p| Some(p.slots[p.members.index_of(id)? as usize].clone()));
                kept.unwrap_or_else(|| {
                    Arc::new(Slot {
                        load: AtomicU64::new(0),
                        id: id.clone(),
                        total: total.clone(),
                    })
                })
            })
            .collect();
        State { members, slots, shares }
    }

    #[inline]
    fn admit(&self, index: u32, total: &Total) -> bool {
        let i = index as usize;
        try_admit(&self.slots[i], self.shares[i], total)
    }

    /// One pass down the ranking from rank `from` (1 after a failed owner
    /// check; 0 on later passes, when the owner may have room again).
    /// Returns the admitting node's index and whether it is the owner.
    fn walk(&self, kh: u64, from: usize, total: &Total) -> Option<(u32, bool)> {
        walk(&self.members, kh, from, |i| self.admit(i, total))
    }
}

impl BoundedLoad {
    /// A set of nodes of weight 1 with balance factor `balance_factor`
    /// ([`DEFAULT_BALANCE_FACTOR`] is the usual choice).
    pub fn new<I, T>(ids: I, options: Options, balance_factor: f64) -> Result<BoundedLoad>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Self::with_weights(ids.into_iter().map(|id| (id, 1.0)), options, balance_factor)
    }

    /// A set of `(id, weight)` nodes with balance factor `balance_factor`.
    pub fn with_weights<I, T>(nodes: I, options: Options, balance_factor: f64) -> Result<BoundedLoad>
    where
        I: IntoIterator<Item = (T, f64)>,
        T: AsRef<[u8]>,
    {
        let factor = validate_balance_factor(balance_factor)?;
        let members = members_of(nodes.into_iter().map(|(id, w)| (id, w, None::<&[u8]>)), &options)?;
        let total = Arc::new(Total::new());
        let state = State::new(Arc::new(members), factor, None, &total);
        Ok(BoundedLoad {
            state: ArcSwap::from_pointee(state),
            writer: Mutex::new(()),
            retired: Mutex::new(Vec::new()),
            total,
            factor,
        })
    }

    /// Places one request for `key`: the first node of the key's ranking
    /// with room (SPEC.md §16). Errors only when no node is eligible.
    #[inline]
    pub fn acquire(&self, key: &[u8]) -> Result<Lease<'_>> {
        self.place(key, |slot, index, owner| Lease {
            slot: NonNull::from(&**slot),
            index,
            owner,
            _set: PhantomData,
        })
    }

    /// [`BoundedLoad::acquire`], with a lease that may outlive the set.
    pub fn acquire_owned(&self, key: &[u8]) -> Result<OwnedLease> {
        self.place(key, |slot, index, owner| OwnedLease {
            slot: slot.clone(),
            index,
            owner,
        })
    }

    #[inline]
    fn place<L>(&self, key: &[u8], lease: impl FnOnce(&Arc<Slot>, u32, bool) -> L) -> Result<L> {
        let state = self.state.load();
        let table = state.members.table();
        let kh = table.key_hash(key);
        let owner = table.owner_of_hash(kh).ok_or(longstraw::Error::NoEligibleNodes)?;
        // Announce first (SPEC.md §16.4): the total never falls below the
        // sum of the node loads.
        let lane = lanes::current();
        self.total.acquired(lane);
        if state.admit(owner, &self.total) {
            return Ok(lease(&state.slots[owner as usize], owner, true));
        }
        let mut from = 1;
        loop {
            if let Some((index, is_owner)) = state.walk(kh, from, &self.total) {
                return Ok(lease(&state.slots[index as usize], index, is_owner));
            }
            from = 0;
            // Only another thread's acquire or release can make a pass fail
            // (SPEC.md §16.3); try again.
            hint::spin_loop();
        }
    }

    /// The balance factor `c`.
    pub fn balance_factor(&self) -> f64 {
        self.factor
    }

    /// Requests in flight, including those on removed nodes and those being
    /// placed right now. Exact when no other thread acquires or releases
    /// meanwhile; otherwise at most the number at one moment of the call.
    pub fn in_flight(&self) -> u64 {
        self.total.read()
    }

    /// The current membership (for rankings, owners and node ids).
    pub fn snapshot(&self) -> Arc<Members> {
        self.state.load().members.clone()
    }

    /// The in-flight requests of every current node, as `(id, load)` in node
    /// index order. Leases on removed nodes are in [`BoundedLoad::in_flight`]
    /// only.
    pub fn loads(&self) -> Vec<(Arc<[u8]>, u64)> {
        let state = self.state.load();
        state
            .slots
            .iter()
            .map(|s| (s.id.clone(), s.load.load(Ordering::Relaxed)))
            .collect()
    }

    /// The current membership and the in-flight requests of each of its
    /// nodes (by node index), read together so that indices agree.
    pub fn loads_with_snapshot(&self) -> (Arc<Members>, Vec<u64>) {
        let state = self.state.load();
        let loads = state.slots.iter().map(|s| s.load.load(Ordering::Relaxed)).collect();
        (state.members.clone(), loads)
    }

    /// The cap node `index` of the current snapshot would have for one more
    /// request now: `ceil(c * (in_flight + 1) * w_i / W)` (0 when drained).
    pub fn cap(&self, index: u32) -> Option<u64> {
        let state = self.state.load();
        let share = *state.shares.get(index as usize)?;
        Some((share * (self.in_flight() + 1) as f64).ceil() as u64)
    }

    /// Adds a node.
    pub fn add(&self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.change(&[Change::Add {
            id: id.as_ref(),
            weight,
            domain: None,
        }])
    }

    /// Removes a node. Its leases stay valid and release cleanly.
    pub fn remove(&self, id: impl AsRef<[u8]>) -> Result<()> {
        self.change(&[Change::Remove { id: id.as_ref() }])
    }

    /// Changes a node's weight; 0 drains it (no new requests, its leases run out).
    pub fn set_weight(&self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.change(&[Change::SetWeight {
            id: id.as_ref(),
            weight,
        }])
    }

    fn change(&self, changes: &[Change<'_>]) -> Result<()> {
        // A poisoned lock only means another writer panicked before
        // publishing; the published state is intact.
        let _w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let current = self.state.load_full();
        let mut members = current.members.try_clone()?;
        for &change in changes {
            apply(&mut members, change)?;
        }
        members.seal(current.members.generation() + 1)?;
        let next = State::new(Arc::new(members), self.factor, Some(&current), &self.total);
        let mut retired = self.retired.lock().unwrap_or_else(|p| p.into_inner());
        retired.extend(
            current
                .slots
                .iter()
                .filter(|s| {
                    next.members
                        .index_of(&s.id)
                        .is_none_or(|i| !Arc::ptr_eq(&next.slots[i as usize], s))
                })
                .cloned(),
        );
        self.state.store(Arc::new(next));
        drop(current);
        // A retired counter can go once no state refers to it (so no acquire
        // can reach it: checked first) and no lease holds it (load 0).
        retired.retain(|s| {
            if Arc::strong_count(s) > 1 {
                return true;
            }
            // Pairs with the Release of the last state's drop: the admissions
            // made through that state are visible to the load below.
            std::sync::atomic::fence(Ordering::Acquire);
            s.load.load(Ordering::Relaxed) > 0
        });
        Ok(())
    }
}

/// Where [`BoundedRule::admit`] places a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admission {
    /// The node's index in the rule's snapshot.
    pub index: u32,
    /// Whether the node is the key's owner.
    pub owner: bool,
    /// Whether the node is past its cap: only when the caller marked nodes
    /// unavailable and every available node was at its cap (SPEC.md §16.7).
    pub over_cap: bool,
}

/// SPEC.md §16's rule over counts that the caller keeps (§16.7): for
/// processes that share their in-flight counts (a load balancer's worker
/// processes over shared memory), where a [`BoundedLoad`]'s in-process
/// counters cannot be used.
///
/// The rule holds one membership and its shares `c * (w_i / W)`, computed
/// once; [`BoundedRule::admit`] takes the caller's counts and total, walks the
/// key's ranking and names the node that may take the request. It changes no
/// count: the caller then adds one to that node's count and to the total,
/// and takes both off when the request ends.
///
/// ```
/// use std::sync::Arc;
/// use longstraw_set::{BoundedRule, Options, Rendezvous};
///
/// let set = Rendezvous::flat(["a", "b", "c", "d"], Options::default()).unwrap();
/// let rule = BoundedRule::new(set.snapshot(), 1.25).unwrap();
/// let mut loads = [0u64; 4];
/// let mut total = 0;
/// for _ in 0..8 {
///     let a = rule.admit(b"hot", &loads, total).unwrap();
///     loads[a.index as usize] += 1;
///     total += 1;
/// }
/// // No node holds more than ceil(1.25 * 8 / 4) = 3 of the 8 requests.
/// assert!(loads.iter().all(|&l| l <= 3));
/// ```
#[derive(Debug)]
pub struct BoundedRule {
    snapshot: Arc<crate::Snapshot>,
    shares: Vec<f64>,
    factor: f64,
}

impl BoundedRule {
    /// The rule over a flat snapshot with balance factor `balance_factor`.
    /// Bounded loads rank by flat HRW, so a table or skeleton snapshot is
    /// [`Error::WrongMode`].
    pub fn new(snapshot: Arc<crate::Snapshot>, balance_factor: f64) -> Result<BoundedRule> {
        let factor = validate_balance_factor(balance_factor)?;
        if snapshot.mode() != crate::Mode::Flat {
            return Err(Error::WrongMode {
                operation: "bounded loads",
                needs: crate::Mode::Flat,
                actual: snapshot.mode(),
            });
        }
        let shares = shares_of(snapshot.members(), factor);
        Ok(BoundedRule {
            snapshot,
            shares,
            factor,
        })
    }

    /// The snapshot the rule ranks by (node indices are its indices).
    pub fn snapshot(&self) -> &Arc<crate::Snapshot> {
        &self.snapshot
    }

    /// The balance factor `c`.
    pub fn balance_factor(&self) -> f64 {
        self.factor
    }

    /// The cap of node `index` for one more request when `in_flight`
    /// requests are in flight: `ceil(c * (in_flight + 1) * w_i / W)` in
    /// SPEC.md §16.1's f64 order (0 when drained); `None` for no such node.
    pub fn cap(&self, index: u32, in_flight: u64) -> Option<u64> {
        let share = *self.shares.get(index as usize)?;
        Some((share * in_flight.saturating_add(1) as f64).ceil() as u64)
    }

    /// The node that takes a request for `key`, when node `i` holds
    /// `loads[i]` requests and `in_flight` requests are in flight in all
    /// (SPEC.md §16.1 with `total = in_flight`).
    ///
    /// Errors: `loads` not one count per node (`LengthMismatch`), no
    /// eligible node (`NoEligibleNodes`), counts that sum to more than
    /// `in_flight` when no node has room ([`Error::InconsistentLoads`]).
    #[inline]
    pub fn admit(&self, key: &[u8], loads: &[u64], in_flight: u64) -> Result<Admission> {
        self.admit_available(key, loads, in_flight, |_| true)
    }

    /// [`BoundedRule::admit`] passing over the nodes for which `available`
    /// is false (down or failing, in the caller's view) as if they were
    /// full; caps stay those of the whole membership. When every available
    /// node is at its cap, the request goes to the first available node of
    /// the ranking, with `over_cap` set (SPEC.md §16.7). `NoEligibleNodes`
    /// when no eligible node is available.
    #[inline]
    pub fn admit_available(
        &self,
        key: &[u8],
        loads: &[u64],
        in_flight: u64,
        available: impl Fn(u32) -> bool,
    ) -> Result<Admission> {
        if loads.len() != self.shares.len() {
            return Err(longstraw::Error::LengthMismatch {
                expected: self.shares.len(),
                actual: loads.len(),
            }
            .into());
        }
        let t = in_flight.saturating_add(1);
        let members = self.snapshot.members();
        let table = members.table();
        let kh = table.key_hash(key);
        let owner = table.owner_of_hash(kh).ok_or(longstraw::Error::NoEligibleNodes)?;
        let take = |i: u32| may_take(loads[i as usize], self.shares[i as usize], t);
        if available(owner) && take(owner) {
            return Ok(Admission {
                index: owner,
                owner: true,
                over_cap: false,
            });
        }
        let mut first_available = None;
        let found = walk(members, kh, 1, |i| {
            if !available(i) {
                return false;
            }
            first_available.get_or_insert(i);
            take(i)
        });
        if let Some((index, owner)) = found {
            return Ok(Admission {
                index,
                owner,
                over_cap: false,
            });
        }
        // §16.3: with consistent counts a pass over every node finds room,
        // so failing here means bad counts or unavailable nodes.
        let sum = loads.iter().fold(0u64, |a, &l| a.saturating_add(l));
        if sum > in_flight {
            return Err(Error::InconsistentLoads { sum, in_flight });
        }
        let first = if available(owner) { Some(owner) } else { first_available };
        let index = first.ok_or(longstraw::Error::NoEligibleNodes)?;
        Ok(Admission {
            index,
            owner: index == owner,
            over_cap: true,
        })
    }
}
