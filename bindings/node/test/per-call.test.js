'use strict'
// owner(key) checks its receiver once per object (then reads a class-private field) and hands out each
// node id string made once per snapshot. Its answers must stay those of the snapshot current at the
// call, through every change to the set; a foreign receiver is still a TypeError; ids that are not UTF-8
// come back as a new Buffer each time; and patched builtins cannot change an answer. Expected owners come
// from topK(key, 1) and from snapshot.nodes[snapshot.ownerIndex(key)], which take other native paths.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous, Snapshot } = require('..')

const KEYS = Array.from({ length: 300 }, (_, i) => `key-${i}`)
const expected = (s, key) => s.topK(key, 1)[0]

function agree (s, what) {
  for (const key of KEYS) assert.equal(s.owner(key), expected(s, key), `${what}: ${key}`)
  const snap = s instanceof Snapshot ? s : s.snapshot()
  for (const key of KEYS.slice(0, 50)) assert.equal(s.owner(key), snap.nodes[snap.ownerIndex(key)], `${what}: ${key} (ownerIndex)`)
}

test('owner follows every change to the set, in every mode', () => {
  const make = [(n) => new Rendezvous(n), (n) => Rendezvous.table(n, { bits: 8 }), (n) => Rendezvous.skeleton(n, { fanoutBits: 1, levels: 2 })]
  for (const build of make) {
    const s = build(['a', 'b', 'c', 'd', 'e'])
    agree(s, `${s.mode} fresh`)
    const before = s.snapshot()
    agree(before, `${s.mode} snapshot`)
    s.remove('c')
    agree(s, `${s.mode} after remove`)
    assert.ok(KEYS.every((k) => s.owner(k) !== 'c'), `${s.mode}: a removed node owns nothing`)
    s.add('f')
    s.add('g', 3)
    agree(s, `${s.mode} after add`)
    s.setWeight('a', 0)
    agree(s, `${s.mode} after drain`)
    assert.ok(KEYS.every((k) => s.owner(k) !== 'a'), `${s.mode}: a drained node owns nothing`)
    // A snapshot taken before keeps answering for its own membership.
    agree(before, `${s.mode} old snapshot`)
    assert.ok(KEYS.some((k) => before.owner(k) === 'c'), `${s.mode}: the old snapshot still has c`)
  }
})

test('an index that now names another node gives the new id', () => {
  // Remove then add: positions are reused or shifted, and the answers must follow the ids, not positions.
  const s = new Rendezvous(['n0', 'n1', 'n2', 'n3'])
  agree(s, 'start')
  for (let round = 0; round < 20; round++) {
    const victim = s.nodes[round % s.size]
    s.remove(victim)
    s.add(`fresh-${round}`)
    agree(s, `round ${round}`)
    assert.ok(KEYS.every((k) => s.owner(k) !== victim), `round ${round}: ${victim} was removed`)
  }
})

test('ids that are not UTF-8 come back as a new Buffer each call', () => {
  const raw = Buffer.from([0xff, 0xfe, 0x01])
  const s = new Rendezvous([raw])
  const first = s.owner('k')
  assert.ok(Buffer.isBuffer(first))
  assert.deepEqual(first, raw)
  first[0] = 0
  const second = s.owner('k')
  assert.notEqual(second, first)
  assert.deepEqual(second, raw)
})

test('a foreign receiver is a TypeError, before and after the object was first used', () => {
  const s = new Rendezvous(['a', 'b'])
  const snap = s.snapshot()
  for (const round of [0, 1]) {
    for (const [owner, name] of [[Rendezvous.prototype.owner, 'Rendezvous'], [Snapshot.prototype.owner, 'Snapshot']]) {
      for (const foreign of [{}, [], () => 1, 5, 'x', null, undefined, new Proxy(s, {}), new Proxy(snap, {}), Object.create(s)]) {
        assert.throws(() => owner.call(foreign, 'k'), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: `this must be a ${name} (the method was called on another object)` }, `${name} round ${round}`)
      }
    }
    assert.throws(() => Rendezvous.prototype.owner.call(snap, 'k'), { message: /this must be a Rendezvous/ })
    assert.throws(() => Snapshot.prototype.owner.call(s, 'k'), { message: /this must be a Snapshot/ })
    assert.equal(s.owner('k'), expected(s, 'k'))
    assert.equal(snap.owner('k'), expected(snap, 'k'))
  }
})

test('frozen objects and bad keys keep working as before', () => {
  const s = Object.freeze(new Rendezvous(['a', 'b', 'c']))
  agree(s, 'frozen')
  assert.throws(() => s.owner(5), { name: 'TypeError', message: 'key must be a string, Buffer or Uint8Array; got number 5' })
  assert.throws(() => s.owner(), { name: 'TypeError', message: 'key must be a string, Buffer or Uint8Array; got undefined' })
  const empty = new Rendezvous(['a'], { weights: [0] })
  assert.throws(() => empty.owner('k'), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' })
  empty.setWeight('a', 1)
  assert.equal(empty.owner('k'), 'a')
})

test('patched builtins cannot change an answer', { skip: require('..').target === 'wasm32-wasi' && 'the WebAssembly build: its runtime (emnapi) is JavaScript whose own arrays read the Array.prototype indices this test patches' }, () => {
  const s = new Rendezvous(Array.from({ length: 8 }, (_, i) => `node-${i}`))
  const descriptors = []
  try {
    for (let i = 0; i < 8; i++) {
      descriptors.push(i)
      Object.defineProperty(Array.prototype, i, { get () { return 'evil' }, set () {}, configurable: true })
    }
    Object.defineProperty(Object.prototype, 'ids', { get () { return ['evil'] }, set () {}, configurable: true })
    const fresh = new Rendezvous(Array.from({ length: 8 }, (_, i) => `node-${i}`))
    for (const t of [s, fresh, fresh.snapshot()]) {
      for (const key of KEYS.slice(0, 100)) {
        const owner = t.owner(key)
        assert.match(owner, /^node-\d$/, key)
      }
    }
  } finally {
    for (const i of descriptors) delete Array.prototype[i]
    delete Object.prototype.ids
  }
  agree(s, 'after the patch')
})
