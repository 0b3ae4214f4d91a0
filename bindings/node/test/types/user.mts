// A user's ES module over every public API, type-checked by `tsc --strict --noEmit` (test/types.test.js).
import { Rendezvous, Snapshot, backend, PLACEMENT } from 'longstraw'
import type { Mode, NodeId, OwnerIndices } from 'longstraw'

const r = new Rendezvous(['cache-a', 'cache-b', 'cache-c'], { weights: [1, 1, 2], seed: 7n, placement: PLACEMENT })
const owner: string = r.owner('user:42')
const replicas: string[] = r.topK(Buffer.from('user:42'), 2)
const spread: string[] = r.topKDistinct(new Uint8Array([0x6b]), 2)
const ranking: string[] = r.rank('user:42')
const owners: string[] = r.owners(['k1', Buffer.from('k2')])
const later: string[] = await r.ownersAsync(['k1', 'k2'])
r.add('cache-d', 2)
r.addInDomain('cache-e', 1, 'rack-1')
r.setWeight('cache-a', 0)
r.setDomain('cache-b', null)
r.remove('cache-c')
const facts: [number, boolean, bigint | null, number, string] = [r.size, r.has('cache-a'), r.seed, r.placement, r.backend] // seed: null for a keyed set
const ids: string[] = r.nodes
const weights: number[] = r.weights
const labels: Array<string | Buffer | null> = r.domains

const bytes = Buffer.from('user:1user:2')
const offsets = new Uint32Array([0, 6, 12])
const batch: OwnerIndices<string> = r.ownerIndices(bytes, offsets)
const byIndex: string | undefined = batch.snapshot.nodes[batch.indices[0] ?? 0]
const asyncBatch = await r.ownerIndicesAsync(bytes, new BigUint64Array([0n, 6n, 12n]))
const asyncIds: string[] = Array.from(asyncBatch.indices, (i) => asyncBatch.snapshot.nodes[i] ?? '')

const snap: Snapshot<string> = r.snapshot()
const snapOwner: string = snap.owner('k')
const index: number = snap.ownerIndex('k')
const indices: Uint32Array = snap.ownerIndices(bytes, offsets, new Uint32Array(2))
const moreIndices: Uint32Array = await snap.ownerIndicesAsync(bytes, offsets)
const snapLists: string[] = [...snap.topK('k', 2), ...snap.topKDistinct('k', 2), ...snap.rank('k'), ...snap.owners(['k'])]
const snapAsync: string[] = await snap.ownersAsync(['k'])
const mode: 'flat' | 'table' | 'skeleton' = snap.mode
const snapFacts: [number, number, number, bigint | null, number, string, boolean] = [
  snap.size, snap.eligible, snap.generation, snap.seed, snap.placement, snap.backend, snap.has('cache-a'),
]
const snapIds: string[] = snap.nodes
const snapWeights: number[] = snap.weights
const snapLabels: Array<string | Buffer | null> = snap.domains
const isSnapshot: boolean = snap instanceof Snapshot

const t: Rendezvous<string> = Rendezvous.table(['cache-a', 'cache-b'], { bits: 10, replicas: 2, distinctDomains: true, domains: ['r1', null] })
const tableOwner: string = t.owner('user:42')
const tableShape: [number | null, number | null, number | null, boolean | null, number | null] = [t.partitionBits, t.partitions, t.replicas, t.distinctDomains, t.balance]
const part: number = t.partition('user:42')
const setMode: Mode = t.mode
const builtOwner: Promise<string> = Rendezvous.tableAsync(['cache-a', 'cache-b'], { bits: 10 }).then((built) => built.owner('user:42'))
const k = Rendezvous.skeleton(['cache-a', 'cache-b'], { fanoutBits: 2, levels: 1 })
const skeletonOwner: string = k.owner('user:42')
const skeletonShape: [number | null, number | null] = [k.fanoutBits, k.levels]

// Buffer ids: each comes back as a string when its bytes are UTF-8, as a Buffer otherwise.
const raw = new Rendezvous([Buffer.from([0xff, 0x00]), 'text'])
const rawOwner: NodeId = raw.owner('k')
raw.add(new Uint8Array([1, 2, 3]))
const kernel: string = backend()

// Membership files: a keyed set names where its secret is read from; loadAsync keeps the loop turning.
const keyed = new Rendezvous(['cache-a', 'cache-b'], { secret: Buffer.alloc(16, 1) })
keyed.save('/tmp/members.toml', { secretFile: 'secret.hex' })
keyed.save('/tmp/members.toml', { secretEnv: 'LONGSTRAW_SECRET' })
t.save('/tmp/table.toml')
const loaded: Rendezvous<NodeId> = await Rendezvous.loadAsync('/tmp/members.toml')
const loadedTable: Rendezvous<NodeId> = await Rendezvous.loadAsync('/tmp/table.toml')
const loadedSkeleton: Promise<Rendezvous<NodeId>> = Rendezvous.loadAsync('/tmp/skeleton.toml')
const fromText: Rendezvous<NodeId> = Rendezvous.loads('format = 1\nmode = "flat"\n\n[[nodes]]\nid = "a"\n')
const fromBytes: Rendezvous<NodeId> = Rendezvous.loads(Buffer.from('format = 1\nmode = "flat"\n\n[[nodes]]\nid = "a"\n'))

export const used = [owner, replicas, spread, ranking, owners, later, facts, ids, weights, labels, byIndex, asyncIds,
  snapOwner, index, indices, moreIndices, snapLists, snapAsync, mode, snapFacts, snapIds, snapWeights, snapLabels,
  isSnapshot, tableOwner, tableShape, part, setMode, builtOwner, skeletonOwner, skeletonShape, rawOwner, kernel, loaded, loadedTable,
  loadedSkeleton, fromText, fromBytes]
