// The module the browser test's page WITHOUT cross-origin isolation imports (run.mjs serves it under /plain/,
// with an import map that points `longstraw` at the package's browser entry, which must pick the build without
// threads here: browser/dist-edge/longstraw.edge.js). The vector checks of vectors-check.mjs without the async
// calls, then every ...Async call, which must reject with ERR_LONGSTRAW_NO_THREADS and name its synchronous
// twin, then the same in a module Web Worker. Its `result` is what run.mjs compares with the counts in the
// vector files.
import * as longstraw from 'longstraw'
import { checkKeyed, checkMembershipText, checkPlacement } from './vectors-check.mjs'

const vectors = async (name) => {
  const response = await fetch(new URL(`../../../tests/vectors/${name}`, import.meta.url))
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`)
  return response.json()
}

// The async calls of the Node binding's surface (index.d.ts). The entry must reject each of them; any other
// ...Async it finds on the classes is checked too.
const KNOWN = ['Rendezvous.tableAsync', 'Rendezvous.loadAsync', 'Rendezvous.prototype.ownersAsync',
  'Rendezvous.prototype.ownerIndicesAsync', 'Snapshot.prototype.ownersAsync', 'Snapshot.prototype.ownerIndicesAsync']

async function checkNoThreads (lib) {
  const { Rendezvous } = lib
  const r = new Rendezvous(['a', 'b', 'c'])
  const snap = r.snapshot()
  // The entry's Rendezvous stands in for the class (its static async calls are read-only there): what the
  // constructor and the static factories make must still be its instances.
  const made = { constructor: r, table: Rendezvous.table(['a', 'b'], { bits: 8 }), loads: Rendezvous.loads('[[nodes]]\nid = "a"\n') }
  for (const [how, x] of Object.entries(made)) if (!(x instanceof Rendezvous)) throw new Error(`Rendezvous from ${how} is not instanceof Rendezvous`)
  if (!(snap instanceof lib.Snapshot)) throw new Error('snapshot() is not instanceof Snapshot')
  if (made.table.constructor !== Rendezvous) throw new Error('a set\'s constructor is not the entry\'s Rendezvous')
  if (made.table.owner('k1') !== Rendezvous.table(['a', 'b'], { bits: 8 }).owner('k1')) throw new Error('table: two builds disagree')
  let called = null
  try { Rendezvous(['a']) } catch (e) { called = e }
  if (!(called instanceof TypeError)) throw new Error(`Rendezvous() without new: ${called}, expected a TypeError`)
  const bytes = new TextEncoder().encode('k1k2')
  const offsets = new Uint32Array([0, 2, 4])
  const calls = {
    'Rendezvous.tableAsync': [() => Rendezvous.tableAsync(['a', 'b'], { bits: 8 }), 'Rendezvous.table'],
    'Rendezvous.loadAsync': [() => Rendezvous.loadAsync('members.toml'), 'Rendezvous.load'],
    'Rendezvous.prototype.ownersAsync': [() => r.ownersAsync(['k1']), 'Rendezvous.prototype.owners'],
    'Rendezvous.prototype.ownerIndicesAsync': [() => r.ownerIndicesAsync(bytes, offsets), 'Rendezvous.prototype.ownerIndices'],
    'Snapshot.prototype.ownersAsync': [() => snap.ownersAsync(['k1']), 'Snapshot.prototype.owners'],
    'Snapshot.prototype.ownerIndicesAsync': [() => snap.ownerIndicesAsync(bytes, offsets), 'Snapshot.prototype.ownerIndices']
  }
  const found = []
  for (const [name, cls] of Object.entries(lib)) {
    if (name === 'default' || typeof cls !== 'function' || !cls.prototype) continue
    for (const n of Object.getOwnPropertyNames(cls)) if (n.endsWith('Async')) found.push(`${name}.${n}`)
    for (const n of Object.getOwnPropertyNames(cls.prototype)) if (n.endsWith('Async')) found.push(`${name}.prototype.${n}`)
  }
  for (const name of KNOWN) if (!found.includes(name)) throw new Error(`${name} is missing from the entry without threads`)
  for (const name of found) if (!calls[name]) throw new Error(`${name}: an async call this test does not know; add it to KNOWN and calls`)
  let first = null
  for (const [name, [call, twin]] of Object.entries(calls)) {
    const p = call()
    if (!(p instanceof Promise)) throw new Error(`${name} returned ${p}, not a promise`)
    const outcome = await p.then((v) => ({ value: v }), (e) => ({ error: e }))
    if (!outcome.error) throw new Error(`${name} resolved (${outcome.value}); the build without threads must reject it`)
    const e = outcome.error
    if (e.code !== 'ERR_LONGSTRAW_NO_THREADS') throw new Error(`${name}: rejected with ${e.code} (${e.message}), expected ERR_LONGSTRAW_NO_THREADS`)
    for (const part of [`${name} needs threads`, 'wasm32-wasip1', `Call ${twin} instead`]) {
      if (!e.message.includes(part)) throw new Error(`${name}: the message does not say "${part}": ${e.message}`)
    }
    first = first || e.message
  }
  return { rejected: Object.keys(calls).length, message: first }
}

/** `longstraw` in a module Web Worker (worker-edge.mjs, bundled by run.mjs): keyed-v1 and a rejected tableAsync. */
async function checkWorker () {
  const worker = new Worker(new URL('../../../build/node-browser-test/worker-edge.js', import.meta.url), { type: 'module' })
  try {
    const message = await new Promise((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data)
      worker.onerror = (e) => reject(new Error(`the worker failed: ${e.message}`))
    })
    if (message.error) throw new Error(`in the worker: ${message.error}`)
    if (message.asyncCode !== 'ERR_LONGSTRAW_NO_THREADS') throw new Error(`tableAsync in the worker: ${message.asyncCode}, expected ERR_LONGSTRAW_NO_THREADS`)
    if (message.window !== 'undefined' || message.sharedArrayBuffer !== 'undefined') throw new Error(`the worker has window ${message.window}, SharedArrayBuffer ${message.sharedArrayBuffer}`)
    return { target: message.target, keyed: message.keyed }
  } finally {
    worker.terminate()
  }
}

const placement = await vectors('placement-v1.json')
export const result = {
  target: longstraw.target,
  backend: longstraw.backend(),
  sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
  placement: await checkPlacement(longstraw, placement, { async: false }),
  keyed: checkKeyed(longstraw, await vectors('keyed-v1.json')),
  membershipText: checkMembershipText(longstraw, placement),
  noThreads: await checkNoThreads(longstraw),
  worker: await checkWorker()
}
