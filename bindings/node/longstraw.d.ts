/*
 * The typed layer over index.d.ts (which napi generates from the Rust source and `make test-node`
 * checks). It adds one thing napi cannot express: every class is generic over the type of its node ids.
 * A set built from string ids is a `Rendezvous<string>` whose `owner()` is a `string`; one built with
 * Buffers or Uint8Arrays is a `Rendezvous<string | Buffer>` (an id comes back as a string when its bytes
 * are UTF-8, as a Buffer otherwise). test/types/conformance.ts checks that, at `string | Buffer`, every
 * class here has exactly the generated class's members and signatures, so the two cannot drift apart.
 */

/** What a node id or key may be given as. */
export type NodeInput = string | Buffer | Uint8Array
/** What a node id comes back as. */
export type NodeId = string | Buffer
/** What a failure domain label comes back as (`null`: no label). */
export type DomainLabel = string | Buffer | null
/** The ids a set of `Id` takes: strings only for a set of strings, so that its ids stay strings. */
export type NodeInputOf<Id extends NodeId> = Id extends string ? string : NodeInput

/**
 * The options every constructor takes. napi generates it into index.d.ts from its one declaration in the
 * Rust source (src/construct.rs), so a new set-wide option reaches every constructor's type from there.
 */
export type { SetOptions } from './index'
import type { SetOptions } from './index'
export interface TableOptions extends SetOptions {
  bits?: number
  replicas?: number
  distinctDomains?: boolean
  /** A balanced table (docs/SPEC.md section 17): no node holds more than ceil(balance * P * w / W) partitions per rank. */
  balance?: number
}
/**
 * Where a keyed set's secret is read from when the saved file is loaded: at most one of the two.
 * A set loaded from a keyed file saves the source it was loaded with unless one is named here.
 * The secret itself is never written.
 */
export interface SaveOptions {
  /** A file holding the secret as 32 hexadecimal digits; a relative path is read relative to the saved file's folder. */
  secretFile?: string
  /** An environment variable holding the secret as 32 hexadecimal digits. */
  secretEnv?: string
}
export interface SkeletonOptions extends SetOptions {
  fanoutBits?: number
  levels?: number
}

/**
 * The per-key methods of every set and snapshot. They have no napi-generated form (index.d.ts does not
 * list them): the addon installs one native body for each on every class when it loads.
 */
export interface Lookups<Id extends NodeId = NodeId> {
  /** Whether a node with this id is a member. */
  has(node: NodeInput): boolean
  /** The node that owns `key`. */
  owner(key: NodeInput): Id
  /** The best `k` eligible nodes for `key`, best first (for a table, a table read up to `replicas`). */
  topK(key: NodeInput, k: number): Array<Id>
  /**
   * At most one node per failure domain for `key`: the first `k` nodes of `topK`'s order that are each
   * the first of their domain. Fewer come back when fewer domains have an eligible node.
   */
  topKDistinct(key: NodeInput, k: number): Array<Id>
  /** Every eligible node for `key`, best first. */
  rank(key: NodeInput): Array<Id>
}

/** The per-key methods only a snapshot has: their indices are positions in its `nodes`. */
export interface SnapshotLookups<Id extends NodeId = NodeId> extends Lookups<Id> {
  /** The index in `nodes` of the node that owns `key`. */
  ownerIndex(key: NodeInput): number
  /**
   * Zero-copy batch: key `i` is `bytes[offsets[i]..offsets[i + 1]]`. Returns (or fills `out` with) the
   * index in `nodes` of each key's owner.
   */
  ownerIndices(bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array, out?: Uint32Array): Uint32Array
}

/** How a set places keys: every node races (`flat`), a partition table, or a skeleton tree. */
export type Mode = 'flat' | 'table' | 'skeleton'

/**
 * The properties of every set and snapshot (a set's read its current snapshot). They have no
 * napi-generated form: the addon installs one native getter for each on both classes when it loads.
 * A mode-specific property is `null` on a set of another mode.
 */
export interface Properties<Id extends NodeId = NodeId> {
  readonly mode: Mode
  /** How many nodes, including drained (weight 0) ones. */
  readonly size: number
  /** How many nodes have a non-zero weight. */
  readonly eligible: number
  /** Node ids in index order (strings; Buffers for ids that are not UTF-8). */
  readonly nodes: Array<Id>
  readonly weights: Array<number>
  readonly domains: Array<DomainLabel>
  /** The seed; `null` for a keyed set (built with a secret, it has no seed). */
  readonly seed: bigint | null
  readonly isKeyed: boolean
  readonly placement: number
  /** The kernel lookups run on (`scalar`, `avx2`, ...). */
  readonly backend: string
  /** Increases by one with every change published by the set. */
  readonly generation: number
  /** table: the table has `2^partitionBits` partitions. */
  readonly partitionBits: number | null
  /** table: `2^partitionBits`. */
  readonly partitions: number | null
  /** table: nodes stored per partition. */
  readonly replicas: number | null
  /** table: whether the stored nodes are at most one per failure domain. */
  readonly distinctDomains: boolean | null
  /** table: the balance of a balanced table (docs/SPEC.md section 17); `null` for a plain one too. */
  readonly balance: number | null
  /** skeleton: each group has up to `2^fanoutBits` children. */
  readonly fanoutBits: number | null
  /** skeleton: levels of groups above the nodes (0: flat). */
  readonly levels: number | null
}

/**
 * The per-key methods of every set and snapshot. Like `Properties`, they have no napi-generated form:
 * the addon installs one native body for each on both classes when it loads.
 */
export interface Lookups<Id extends NodeId = NodeId> {
  /** Whether a node with this id is a member. */
  has(node: NodeInput): boolean
  /** The node that owns `key`. */
  owner(key: NodeInput): Id
  /** The best `k` eligible nodes for `key`, best first (for a table, a table read up to `replicas`). */
  topK(key: NodeInput, k: number): Array<Id>
  /**
   * At most one node per failure domain for `key`: the first `k` nodes of `topK`'s order that are each
   * the first of their domain. Fewer come back when fewer domains have an eligible node.
   */
  topKDistinct(key: NodeInput, k: number): Array<Id>
  /** Every eligible node for `key`, best first. */
  rank(key: NodeInput): Array<Id>
  /** table: the partition of `key`. On another mode, a TypeError with code `ERR_LONGSTRAW_WRONG_MODE`. */
  partition(key: NodeInput): number
  /** The owner of each key. */
  owners(keys: Array<NodeInput>): Array<Id>
}

/** The per-key methods only a snapshot has: their indices are positions in its `nodes`. */
export interface SnapshotLookups<Id extends NodeId = NodeId> extends Lookups<Id> {
  /** The index in `nodes` of the node that owns `key`. */
  ownerIndex(key: NodeInput): number
  /**
   * Zero-copy batch: key `i` is `bytes[offsets[i]..offsets[i + 1]]`. Returns (or fills `out` with) the
   * index in `nodes` of each key's owner.
   */
  ownerIndices(bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array, out?: Uint32Array): Uint32Array
}

/** One immutable membership of a set, placing keys as that set does (`mode`). */
export interface Snapshot<Id extends NodeId = NodeId> extends Properties<Id>, SnapshotLookups<Id> {
  ownerIndicesAsync(bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array): Promise<Uint32Array>
  ownersAsync(keys: Array<NodeInput>): Promise<Array<Id>>
}

/** What `ownerIndices` on a set returns: indices into `snapshot.nodes`, with that snapshot. */
export interface OwnerIndices<Id extends NodeId = NodeId> {
  indices: Uint32Array
  snapshot: Snapshot<Id>
}

/** A set of nodes placing keys by rendezvous hashing, in any mode (`mode`). */
export interface Rendezvous<Id extends NodeId = NodeId> extends Properties<Id>, Lookups<Id> {
  add(node: NodeInputOf<Id>, weight?: number): void
  addInDomain(node: NodeInputOf<Id>, weight: number, domain: NodeInput): void
  remove(node: NodeInput): void
  setWeight(node: NodeInput, weight: number): void
  setDomain(node: NodeInput, domain: NodeInput | null): void
  snapshot(): Snapshot<Id>
  /**
   * Writes the membership file (docs/MEMBERSHIP.md) that rebuilds this set's placement. A keyed set
   * names where its secret is read from (`options`, or the source of the file it was loaded from).
   */
  save(path: string, options?: SaveOptions): void
  ownerIndices(bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array): OwnerIndices<Id>
  ownerIndicesAsync(bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array): Promise<OwnerIndices<Id>>
  ownersAsync(keys: Array<NodeInput>): Promise<Array<Id>>
}
export interface RendezvousConstructor {
  /** A flat set: every node races for every key. */
  new (nodes: Array<string>, options?: SetOptions): Rendezvous<string>
  new (nodes: Array<NodeInput>, options?: SetOptions): Rendezvous<NodeId>
  /** A partition table: `2^bits` partitions, each ranked by rendezvous hashing; a lookup is a table read. */
  table (nodes: Array<string>, options?: TableOptions): Rendezvous<string>
  table (nodes: Array<NodeInput>, options?: TableOptions): Rendezvous<NodeId>
  /** The same set as `table(nodes, options)`, built on the thread pool: the event loop keeps turning. */
  tableAsync (nodes: Array<string>, options?: TableOptions): Promise<Rendezvous<string>>
  tableAsync (nodes: Array<NodeInput>, options?: TableOptions): Promise<Rendezvous<NodeId>>
  /** Skeleton (hierarchical) rendezvous hashing over a virtual tree, for the largest fleets. */
  skeleton (nodes: Array<string>, options?: SkeletonOptions): Rendezvous<string>
  skeleton (nodes: Array<NodeInput>, options?: SkeletonOptions): Rendezvous<NodeId>
  readonly prototype: Rendezvous
  /**
   * The set a membership file describes (docs/MEMBERSHIP.md), in the mode it names. It blocks the
   * event loop while the file and a keyed file's secret are read: see `loadAsync`.
   */
  load(path: string): Rendezvous<NodeId>
  /** `load` on the thread pool: the event loop keeps turning while the file and its secret are read. */
  loadAsync(path: string): Promise<Rendezvous<NodeId>>
  /**
   * The set the content of a membership file describes. A relative `secret.file` in it is read relative
   * to the current directory.
   */
  loads(data: string | Buffer | Uint8Array): Rendezvous<NodeId>
}
export declare const Rendezvous: RendezvousConstructor

export interface SnapshotConstructor {
  /** Snapshots come from `set.snapshot()`; the constructor always throws a TypeError. */
  new (): never
  readonly prototype: Snapshot
}
export declare const Snapshot: SnapshotConstructor

/** Request-level caps over the HRW ranking (docs/SPEC.md section 16); not generic over the id type. */
export { BoundedLoad, Lease } from './index'

/** The kernel new sets use: `LONGSTRAW_BACKEND` if set, else the best this CPU supports. */
export declare function backend(): string
/**
 * The build that loaded: `'native'` (this platform's addon), `'wasm32-wasi'` (the threaded WebAssembly
 * build: no native addon matches, or `LONGSTRAW_NODE_WASM=1` or `threads`; in a browser, a cross-origin
 * isolated page) or `'wasm32-wasip1'` (the WebAssembly build without threads, whose ...Async calls reject
 * with ERR_LONGSTRAW_NO_THREADS: where the threaded one cannot start, `LONGSTRAW_NODE_WASM=edge`,
 * `longstraw/edge`, a page that is not cross-origin isolated).
 */
export declare const target: 'native' | 'wasm32-wasi' | 'wasm32-wasip1'
/** The placement version new sets use by default. */
export declare const PLACEMENT: number
/** Which binding artifact the loader loaded (see index.d.ts). */
export declare const __napiBindingTarget: 'native' | 'wasm32-wasi' | 'wasm32-wasip1'
