'use strict'
// ownerIndex, topK, topKDistinct and rank share owner()'s class-private state: the receiver is checked once
// per object, and the ids of a ranked answer of up to 16 nodes come from the same per-node strings. Their
// answers must stay those of the snapshot current at the call, their errors those of the native methods,
// and no setter on Array.prototype may run or change an answer. Expected values come from other native
// paths: the packed batch ownerIndices, owners(string[]), and rank() over more than 16 eligible nodes,
// which the native call builds itself (the frozen vectors check every form in vectors.test.js).
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous, Snapshot } = require('..')

const KEYS = Array.from({ length: 200 }, (_, i) => `key-${i}`)
const nodes = (n, prefix = 'n') => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

/** Each key's owner index by the packed batch (another native path). */
function batchIndices (snap, keys) {
  const bytes = Buffer.from(keys.join(''))
  const offsets = new Uint32Array(keys.length + 1)
  keys.forEach((k, i) => { offsets[i + 1] = offsets[i] + Buffer.byteLength(k) })
  return Array.from(snap.ownerIndices(bytes, offsets))
}

test('a set has no ownerIndex; a snapshot\'s agrees with the packed batch in every mode', () => {
  assert.equal('ownerIndex' in Rendezvous.prototype, false)
  const make = [(n) => new Rendezvous(n), (n) => Rendezvous.table(n, { bits: 8 }), (n) => Rendezvous.skeleton(n, { fanoutBits: 1, levels: 2 })]
  for (const build of make) {
    const s = build(nodes(7))
    for (const change of [() => {}, () => s.remove('n3'), () => s.add('x', 2), () => s.setWeight('n0', 0)]) {
      change()
      const snap = s.snapshot()
      const want = batchIndices(snap, KEYS)
      assert.deepEqual(KEYS.map((k) => snap.ownerIndex(k)), want, `${s.mode}`)
      assert.deepEqual(KEYS.map((k) => snap.nodes[snap.ownerIndex(k)]), s.owners(KEYS), `${s.mode}: ids`)
    }
  }
})

test('topK and rank agree with the natively built ranking (more than 16 eligible nodes)', () => {
  const s = new Rendezvous(nodes(24))
  const snap = s.snapshot()
  for (const target of [s, snap]) {
    for (const key of KEYS.slice(0, 60)) {
      const full = target.rank(key) // 24 ids: built by the native call
      assert.equal(full.length, 24)
      for (const k of [0, 1, 3, 16]) assert.deepEqual(target.topK(key, k), full.slice(0, k), `${key} k=${k}`)
      assert.deepEqual(target.topK(key, 17), full.slice(0, 17))
      assert.equal(target.owner(key), full[0])
    }
  }
})

test('topK, topKDistinct and rank follow every change to the set, called before owner() ever is', () => {
  const s = new Rendezvous(nodes(5))
  const reference = (key, k) => batchIndices(s.snapshot(), [key]).map((i) => s.snapshot().nodes[i])[0]
  for (let round = 0; round < 12; round++) {
    if (round % 3 === 0) s.add(`fresh-${round}`)
    else if (round % 3 === 1) s.remove(s.nodes[round % s.size])
    else s.setWeight(s.nodes[0], round % 2)
    for (const key of KEYS.slice(0, 40)) {
      const ranked = s.rank(key)
      assert.equal(ranked.length, s.eligible)
      assert.deepEqual(s.topK(key, 3), ranked.slice(0, 3))
      assert.equal(s.topK(key, 1)[0], reference(key))
      assert.ok(ranked.every((id) => s.has(id)), `round ${round}: only members`)
    }
  }
})

test('a table\'s topK within and past its replicas, and topKDistinct one node per domain', () => {
  const t = Rendezvous.table(nodes(20), { bits: 6, replicas: 4 })
  for (const key of KEYS.slice(0, 50)) {
    const full = t.rank(key) // 20 ids: built by the native call
    for (const k of [1, 4, 10]) assert.deepEqual(t.topK(key, k), full.slice(0, k), `${key} k=${k}`)
    assert.equal(full[0], t.owner(key))
  }
  const d = new Rendezvous(nodes(12), { domains: nodes(12).map((_, i) => `rack-${i % 3}`) })
  for (const key of KEYS.slice(0, 50)) {
    const got = d.topKDistinct(key, 5)
    assert.equal(got.length, 3)
    const domains = got.map((id) => d.domains[d.nodes.indexOf(id)])
    assert.equal(new Set(domains).size, 3)
    assert.equal(got[0], d.owner(key))
  }
})

test('the same errors, in the same order, as the native methods', () => {
  const s = new Rendezvous(['a', 'b', 'c'])
  const snap = s.snapshot()
  for (const target of [s, snap]) {
    assert.throws(() => target.topK('k', -1), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_COUNT', message: 'k must be a non-negative integer; got -1' })
    assert.throws(() => target.topK('k', 1.5), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_COUNT' })
    assert.throws(() => target.topK('k'), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^k must be a non-negative integer/ })
    assert.throws(() => target.topKDistinct('k', '2'), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE' })
    // The key is read first.
    assert.throws(() => target.topK(5, -1), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^key must be a string, Buffer or Uint8Array; got number 5/ })
    assert.throws(() => target.rank(null), { name: 'TypeError', message: /^key must be/ })
    assert.throws(() => target.rank('\ud800'), { name: 'TypeError' })
  }
  assert.throws(() => snap.ownerIndex({}), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^key must be/ })
  assert.throws(() => snap.ownerIndex('\ud800'), { name: 'TypeError' })
  const drained = new Rendezvous(['a'], { weights: [0] })
  assert.throws(() => drained.owner('k'), (e) => { assert.throws(() => drained.snapshot().ownerIndex('k'), { name: e.name, code: e.code, message: e.message }); return true })
  assert.deepEqual(drained.topK('k', 3), [])
  assert.deepEqual(drained.rank('k'), [])
})

test('a foreign receiver is a TypeError for every method, before and after first use', () => {
  const s = new Rendezvous(['a', 'b'])
  const snap = s.snapshot()
  const methods = [
    [Rendezvous, 'topK', ['k', 1]], [Rendezvous, 'topKDistinct', ['k', 1]], [Rendezvous, 'rank', ['k']],
    [Snapshot, 'topK', ['k', 1]], [Snapshot, 'rank', ['k']], [Snapshot, 'ownerIndex', ['k']]
  ]
  for (const round of [0, 1]) {
    for (const [Class, name, args] of methods) {
      for (const foreign of [{}, [], 5, null, undefined, new Proxy(s, {}), new Proxy(snap, {}), Object.create(snap), Class === Rendezvous ? snap : s]) {
        assert.throws(() => Class.prototype[name].call(foreign, ...args), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: `this must be a ${Class.name} (the method was called on another object)` }, `${Class.name}.${name} round ${round}`)
      }
    }
    assert.deepEqual(s.topK('k', 2), s.rank('k'))
    assert.equal(snap.nodes[snap.ownerIndex('k')], s.owner('k'))
  }
})

test('ids that are not UTF-8 come back as new Buffers each call', () => {
  const raw = [Buffer.from([0xff, 0x01]), Buffer.from([0xfe, 0x02])]
  const s = new Rendezvous(raw)
  const first = s.topK('k', 2)
  assert.ok(first.every(Buffer.isBuffer))
  first[0][0] = 0
  const second = s.topK('k', 2)
  assert.notEqual(second[0], first[0])
  assert.ok(second.every((id) => raw.some((r) => r.equals(id))))
})

test('setters on Array.prototype never run, and a re-entrant call cannot change an answer', () => {
  const s = new Rendezvous(nodes(10))
  const snap = s.snapshot()
  const want = KEYS.slice(0, 30).map((k) => [s.topK(k, 3), snap.rank(k)])
  let ran = 0
  const saved = [0, 1, 2, 3].map((i) => Object.getOwnPropertyDescriptor(Array.prototype, i))
  try {
    for (const i of [0, 1, 2, 3]) {
      Object.defineProperty(Array.prototype, i, {
        configurable: true,
        get () { return 'patched' },
        set (v) { ran++; s.topK('other', 3); snap.rank('other') }
      })
    }
    KEYS.slice(0, 30).forEach((k, j) => {
      assert.deepEqual([...s.topK(k, 3)], want[j][0])
      assert.deepEqual([...snap.rank(k)], want[j][1])
      const top = s.topK(k, 3)
      assert.ok(Object.prototype.hasOwnProperty.call(top, 0) && Array.isArray(top) && top.length === 3)
    })
  } finally {
    for (const i of [0, 1, 2, 3]) delete Array.prototype[i]
    saved.forEach((d, i) => d && Object.defineProperty(Array.prototype, i, d))
  }
  assert.equal(ran, 0)
})
