'use strict'
// Every array (and answer object) the binding returns is made with its elements defined, never set: an
// accessor a user put on Array.prototype or Object.prototype (for an index, or for `indices` and
// `snapshot`) never runs and never changes an answer, at any length (1, 16, 17, 100 ids, batches of 10^4
// keys) and from every method. Expected answers come from the same calls made before the accessors exist;
// while they exist, nothing in this file touches an array (answers are kept in a Map), since the
// accessors would run for this file's own arrays too.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous, BoundedLoad, target } = require('..')
/** The WebAssembly build without threads rejects every ...Async call: there only the others run. */
const ASYNC = target !== 'wasm32-wasip1'

const LENGTHS = [1, 16, 17, 100]
const BATCH = 10_000
const idsOf = (n, tag) => Array.from({ length: n }, (_, i) => `${tag}-${i}`)
const domainsOf = (n) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : `zone-${i % 7}`))
const keysOf = (n) => Array.from({ length: n }, (_, i) => `key:${i}:${(i * 2654435761) >>> 0}`)

/** Index accessors: 0..40, and indices only a long answer or a batch reaches. */
const INDICES = [...Array.from({ length: 41 }, (_, i) => i), 99, 1000, 9999]
/** The node ids of this file's sets, which the accessors below recognise as answers. */
const ID = /^(n|b|t|s|o|q)-\d+$/
const ODD_ID = Buffer.from([0xff, 0xfe])
/** Named accessors an answer object would meet on Object.prototype. */
const NAMES = ['indices', 'snapshot']

/**
 * The sets the calls run on: flat, table and skeleton, each with enough nodes for every length, and one
 * flat set of each length (for `nodes`, `weights`, `domains` and `rank` of exactly that many ids).
 */
function fixtures () {
  const sets = []
  for (const n of LENGTHS) {
    sets.push([`flat n=${n}`, new Rendezvous(idsOf(n, 'n'), { domains: domainsOf(n), weights: idsOf(n, '').map((_, i) => 1 + (i % 4)) })])
  }
  sets.push(['flat with a non-UTF-8 id', new Rendezvous([ODD_ID, ...idsOf(20, 'b')])])
  sets.push(['table n=100', Rendezvous.table(idsOf(100, 't'), { bits: 8, replicas: 4, domains: domainsOf(100) })])
  sets.push(['skeleton n=100', Rendezvous.skeleton(idsOf(100, 's'), { domains: domainsOf(100) })])
  return sets
}

/**
 * Each array-returning call, by name, over both classes (a set and its snapshot). `async` calls return a
 * promise. Results go into a Map so that no array of this file is written while the accessors exist.
 */
function calls (sets, keys) {
  const out = new Map()
  const batch = keysOf(BATCH)
  const small = keys
  for (const [name, set] of sets) {
    for (const [cls, r] of [['Rendezvous', set], ['Snapshot', set.snapshot()]]) {
      const at = `${name} ${cls}`
      out.set(`${at} nodes`, () => r.nodes)
      out.set(`${at} weights`, () => r.weights)
      out.set(`${at} domains`, () => r.domains)
      for (let j = 0; j < 3; j++) {
        const key = small[j]
        out.set(`${at} rank(${key})`, () => r.rank(key))
        for (const k of LENGTHS) {
          out.set(`${at} topK(${key}, ${k})`, () => r.topK(key, k))
          out.set(`${at} topKDistinct(${key}, ${k})`, () => r.topKDistinct(key, k))
        }
      }
      for (const n of [...LENGTHS, BATCH]) {
        const keysN = n === BATCH ? batch : small.slice(0, n)
        out.set(`${at} owners(${n} keys)`, () => r.owners(keysN))
        if (ASYNC) out.set(`${at} ownersAsync(${n} keys)`, () => r.ownersAsync(keysN))
      }
      const packed = Buffer.from(batch.join(''))
      const offsets = new Uint32Array(BATCH + 1)
      for (let i = 0, o = 0; i < BATCH; i++) { o += Buffer.byteLength(batch[i]); offsets[i + 1] = o }
      const plain = (x) => {
        const own = (name) => (Object.getOwnPropertyDescriptor(x, name) || { value: '<missing>' }).value
        const indices = own('indices')
        const snapshot = own('snapshot')
        return { indices: indices instanceof Uint32Array ? [...indices] : indices, nodes: typeof snapshot === 'object' ? snapshot.nodes : snapshot }
      }
      out.set(`${at} ownerIndices(${BATCH} keys)`, () => r.ownerIndices(packed, offsets))
      if (ASYNC) out.set(`${at} ownerIndicesAsync(${BATCH} keys)`, () => r.ownerIndicesAsync(packed, offsets))
      out.set(`${at} ownerIndices:plain`, plain)
    }
  }
  // A set made while the accessors exist: its first owner() fills the id cache then.
  for (const n of LENGTHS) {
    const ids = idsOf(n, 'o')
    for (let j = 0; j < 3; j++) {
      const key = small[j]
      out.set(`fresh n=${n} owner/ownerIndex(${key})`, () => {
        const set = new Rendezvous(ids)
        const snap = set.snapshot()
        return [set.owner(key), snap.owner(key), snap.ownerIndex(key), set.topK(key, n), set.owner(key)]
      })
    }
  }
  for (const n of LENGTHS) {
    const bounded = new BoundedLoad(idsOf(n, 'q'))
    for (let i = 0; i < 2 * n; i++) bounded.acquire(`lease-${i}`)
    out.set(`BoundedLoad n=${n} loads()`, () => bounded.loads())
  }
  return out
}

/** Runs every call; a throw is kept as the error. Touches no array (accessors may be in place). */
async function runAll (table) {
  const results = new Map()
  for (const [name, call] of table) {
    if (name.endsWith(':plain')) continue
    try {
      let value = call()
      if (value instanceof Promise) value = await value
      results.set(name, { value })
    } catch (error) {
      results.set(name, { error })
    }
  }
  return results
}

/** What an answer is, as plain data, with every way its elements could be wrong made visible. */
function describe (value, plainOf) {
  if (value instanceof Uint32Array) return { typed: [...value] }
  if (!Array.isArray(value)) {
    const own = Object.getOwnPropertyNames(value).sort()
    return { object: own, proto: Object.getPrototypeOf(value) === Object.prototype, plain: plainOf ? plainOf(value) : null }
  }
  const own = []
  for (let i = 0; i < value.length; i++) {
    const d = Object.getOwnPropertyDescriptor(value, i)
    own.push(d === undefined ? '<hole>' : Array.isArray(d.value) ? describe(d.value) : d.value)
  }
  return { array: own, length: value.length, proto: Object.getPrototypeOf(value) === Array.prototype }
}

/** Installs accessors on Array.prototype and Object.prototype; returns the function that removes them. */
function installAccessors (mode, hits) {
  const saved = []
  const put = (target, key) => {
    saved.push([target, key, Object.getOwnPropertyDescriptor(target, key)])
    Object.defineProperty(target, key, {
      configurable: true,
      // A read of a missing element sees what it would without the accessor (an answer with a missing
      // element shows as a hole below); Node's and emnapi's own arrays read through here too.
      get () { return undefined },
      set (v) {
        // Node's and emnapi's own arrays (async hooks, streams, the worker threads' messages) are written
        // through here too while the calls run: only this file's node ids, and the values of `indices` and
        // `snapshot`, are answers; any other write goes through, defined as it would be without the accessor.
        const answer = (typeof v === 'string' && ID.test(v)) || (Buffer.isBuffer(v) && v.equals(ODD_ID)) ||
          v instanceof Uint32Array || (typeof v === 'object' && v !== null && typeof v.ownerIndex === 'function')
        if (!answer) {
          Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true })
          return
        }
        hits.set++
        if (mode === 'throw') throw new Error(`setter ${String(key)} ran`)
      }
    })
  }
  for (const i of INDICES) put(Array.prototype, i)
  for (const i of [17, 1000]) put(Object.prototype, i)
  for (const name of NAMES) put(Object.prototype, name)
  return () => {
    for (let i = saved.length - 1; i >= 0; i--) {
      const [target, key, d] = saved[i]
      delete target[key]
      if (d) Object.defineProperty(target, key, d)
    }
  }
}

for (const mode of ['corrupt', 'throw']) {
  test(`no accessor on Array.prototype or Object.prototype runs or changes an answer (${mode})`, async () => {
    const sets = fixtures()
    const table = calls(sets, keysOf(100))
    const want = await runAll(table)
    for (const [name, r] of want) assert.equal(r.error, undefined, `${name} without accessors: ${r.error}`)
    const hits = { set: 0 }
    const remove = installAccessors(mode, hits)
    let got
    try {
      got = await runAll(table)
    } finally {
      remove()
    }
    const mismatches = []
    for (const [name, w] of want) {
      const g = got.get(name)
      const plainOf = / ownerIndices(Async)?\(/.test(name) ? table.get(name.replace(/ ownerIndices(Async)?\(.*$/, ' ownerIndices:plain')) : null
      if (g.error !== undefined) {
        mismatches.push(`${name}: threw ${g.error.message}`)
        continue
      }
      const a = describe(g.value, plainOf)
      const b = describe(w.value, plainOf)
      try {
        assert.deepStrictEqual(a, b)
        if (b.array) assert.ok(b.array.length > 0 && !b.array.includes('<hole>'), `${name}: expected answer has holes`)
      } catch (e) {
        mismatches.push(`${name}: ${JSON.stringify(a).slice(0, 100)} != ${JSON.stringify(b).slice(0, 100)}`)
      }
    }
    // Which calls changed, whatever the set: `Snapshot topK(key, 17)`, `Rendezvous owners(10000 keys)`, ...
    const kinds = [...new Set(mismatches.map((m) => m.slice(0, m.indexOf(':', m.indexOf('(') > 0 ? m.indexOf(')') : 0))
      .replace(/^.*?(Rendezvous|Snapshot|owner\/|loads)/, '$1').replace(/key:\d+:\d+/, 'key')))].sort()
    assert.deepEqual(mismatches.slice(0, 4), [], `${mismatches.length} of ${want.size} answers changed, from ${kinds.join('; ')}`)
    assert.deepEqual(hits, { set: 0 }, 'a setter ran')
  })
}

test('the answers cover every length and a batch', async () => {
  // The table of calls really holds answers of each length (so the test above compares them).
  const r = new Rendezvous(idsOf(100, 'n'))
  for (const n of LENGTHS) {
    assert.equal(r.topK('k', n).length, n)
    assert.equal(new Rendezvous(idsOf(n, 'n')).nodes.length, n)
  }
  assert.equal(r.owners(keysOf(BATCH)).length, BATCH)
  if (ASYNC) assert.equal((await r.ownersAsync(keysOf(BATCH))).length, BATCH)
})

test('a Proxy between Array.prototype and Object.prototype never sees an answer', async () => {
  // Batches of 1024 keys or more write straight into the answer only while neither prototype has an
  // element and Array.prototype inherits from Object.prototype directly: a Proxy in between is noticed.
  const r = new Rendezvous(idsOf(100, 'n'))
  const snap = r.snapshot()
  const batch = keysOf(BATCH)
  const want = [r.owners(batch), snap.owners(batch), ASYNC ? await r.ownersAsync(batch) : [], r.nodes, r.rank('k')]
  let trapped = 0
  const proxy = new Proxy(Object.prototype, {
    set (target, key, value, receiver) {
      if (typeof value === 'string' && ID.test(value)) { trapped++; return true }
      return Reflect.set(target, key, value, receiver)
    }
  })
  let got
  Object.setPrototypeOf(Array.prototype, proxy)
  try {
    got = [r.owners(batch), snap.owners(batch), ASYNC ? await r.ownersAsync(batch) : [], r.nodes, r.rank('k')]
  } finally {
    Object.setPrototypeOf(Array.prototype, Object.prototype)
  }
  assert.equal(trapped, 0)
  assert.equal(Object.getPrototypeOf(Array.prototype), Object.prototype)
  for (let i = 0; i < want.length; i++) {
    assert.deepStrictEqual(describe(got[i]), describe(want[i]))
  }
})
