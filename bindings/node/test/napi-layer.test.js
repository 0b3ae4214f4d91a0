'use strict'
// The raw Node-API layer (src/node_api/): how it installs the per-key methods, reads arguments (strings
// on both sides of the short-string buffer, surrogates, seeds, counts, options, typed arrays) and
// describes bad values. Expected answers come from Node's own UTF-8 encoder (Buffer.from) and from the
// other argument forms, never from the code under test alone.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous, Snapshot } = require('..')

const NODES = Array.from({ length: 12 }, (_, i) => `node-${i}`)
const LOOKUPS = ['has', 'owner', 'owners', 'partition', 'rank', 'topK', 'topKDistinct']
const PROPERTIES = ['mode', 'size', 'eligible', 'nodes', 'weights', 'domains', 'seed', 'isKeyed', 'placement', 'backend', 'generation',
  'partitionBits', 'partitions', 'replicas', 'distinctDomains', 'balance', 'fanoutBits', 'levels']
const sets = () => [new Rendezvous(NODES), Rendezvous.table(NODES, { bits: 6 }), Rendezvous.skeleton(NODES, { fanoutBits: 1, levels: 2 })]

test('each per-key method and property is one native member per class, non-enumerable like a class member', () => {
  for (const Cls of [Rendezvous, Snapshot]) {
    for (const name of PROPERTIES) {
      const d = Object.getOwnPropertyDescriptor(Cls.prototype, name)
      assert.equal(typeof d.get, 'function', `${Cls.name}.${name}`)
      assert.equal(d.set, undefined)
      assert.deepEqual([d.enumerable, d.configurable], [false, true], `${Cls.name}.${name}`)
    }
  }
  const expected = [[Rendezvous, LOOKUPS], [Snapshot, [...LOOKUPS, 'ownerIndex', 'ownerIndices'].sort()]]
  for (const [Cls, names] of expected) {
    for (const name of names) {
      const d = Object.getOwnPropertyDescriptor(Cls.prototype, name)
      assert.equal(typeof d.value, 'function', `${Cls.name}.${name}`)
      assert.equal(d.value.name, name)
      assert.deepEqual([d.enumerable, d.writable, d.configurable], [false, true, true], `${Cls.name}.${name}`)
    }
    assert.ok(!Object.keys(Cls.prototype).some((k) => names.includes(k)), Cls.name)
  }
  // One body per method: the same native code answers on every class.
  const [r, t, k] = sets()
  for (const s of [r, t, k, r.snapshot(), t.snapshot()]) {
    for (const key of ['a', 'b', 'zz']) assert.deepEqual(s.topK(key, 1), [s.owner(key)])
  }
  assert.equal(Snapshot.prototype.owner === Rendezvous.prototype.owner, false)
})

test('strings around the short-string buffer (64 UTF-16 units) read as their UTF-8 bytes', () => {
  const pieces = ['a', 'é', '€', '😀']
  const strings = []
  for (let units = 60; units <= 70; units++) {
    for (const p of pieces) {
      let s = 'k'.repeat(units - p.length) + p // the last character straddles or meets the boundary
      strings.push(s)
      s = p + 'k'.repeat(units - p.length)
      strings.push(s)
    }
  }
  strings.push('😀'.repeat(32), '😀'.repeat(33), 'k'.repeat(63) + '😀', 'ключ'.repeat(300))
  for (const s of sets()) {
    const snap = s.snapshot()
    for (const str of strings) {
      const bytes = Buffer.from(str, 'utf8')
      assert.equal(s.owner(str), s.owner(bytes), `${str.length} units`)
      assert.deepEqual(s.rank(str), s.rank(bytes))
      assert.equal(snap.ownerIndex(str), snap.ownerIndex(new Uint8Array(bytes)))
    }
    // The batch reads strings its own way (joined per chunk); it agrees with the per-key reads.
    assert.deepEqual(s.owners(strings), strings.map((str) => s.owner(Buffer.from(str))))
  }
})

test('a lone surrogate is a TypeError at its index, in short and long strings and in batches', () => {
  const s = new Rendezvous(NODES)
  const cases = [
    ['\ud800', 0, 'D800'],
    ['ab\udc00', 2, 'DC00'],
    ['k'.repeat(63) + '\ud83d', 63, 'D83D'], // the last unit of the short buffer
    ['k'.repeat(64) + '\ud83d', 64, 'D83D'], // the first unit past it (the long path)
    ['k'.repeat(100) + '\ude00' + 'k', 100, 'DE00'],
    ['😀'.repeat(40) + '\ud800😀', 80, 'D800']
  ]
  for (const [str, at, unit] of cases) {
    const error = { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING', message: new RegExp(`^key ".*"(\\.\\.\\. \\(\\d+ UTF-16 units\\))? has a lone surrogate U\\+${unit} at index ${at};`) }
    assert.throws(() => s.owner(str), error, `${str.length} units`)
    assert.throws(() => s.has(str), { code: 'ERR_LONGSTRAW_INVALID_STRING', message: /^node / })
    const keys = Array.from({ length: 5000 }, (_, i) => `key-${i}`)
    keys[4100] = str // in the third chunk of the batch
    assert.throws(() => s.owners(keys), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING', message: new RegExp(`^keys\\[4100\\] ".*"(\\.\\.\\. \\(\\d+ UTF-16 units\\))? has a lone surrogate U\\+${unit} at index ${at};`) })
  }
  // A well-formed pair is not a lone surrogate, even when a batch mixes it with ASCII keys.
  assert.deepEqual(s.owners(['a', '\ud83d\ude00', 'b']), ['a', '😀', 'b'].map((k) => s.owner(Buffer.from(k))))
})

test('error messages describe the bad value, cut long strings, and never show a value given as a seed', () => {
  const s = new Rendezvous(NODES)
  const describe = [
    [5, 'number 5'], [-0, 'number -0'], [NaN, 'number NaN'], [5n, 'bigint 5n'], [true, 'boolean true'],
    [null, 'null'], [undefined, 'undefined'], [Symbol('x'), 'a symbol'], [() => 1, 'a function'],
    [{}, 'an object'], [[1], 'an array'], [new Int8Array(1), 'an Int8Array'], [new Float64Array(1), 'a Float64Array']
  ]
  for (const [v, shown] of describe) {
    assert.throws(() => s.owner(v), { message: `key must be a string, Buffer or Uint8Array; got ${shown}` })
  }
  assert.throws(() => s.topK('k', 'x'.repeat(100)), { message: `k must be a non-negative integer; got string "${'x'.repeat(60)}"... (100 UTF-16 units)` })
  assert.throws(() => s.owner(), { message: 'key must be a string, Buffer or Uint8Array; got undefined' })
  const seedError = (re) => ({ name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_SEED', message: re })
  assert.throws(() => new Rendezvous(NODES, { seed: 2 ** 53 }), seedError(/^seed 9007199254740992 is outside 0\.\.=2\^53-1/))
  assert.throws(() => new Rendezvous(NODES, { seed: 1.5 }), seedError(/^seed 1\.5 is not an integer$/))
  assert.throws(() => new Rendezvous(NODES, { seed: -1 }), seedError(/^seed -1 is outside/))
  assert.throws(() => new Rendezvous(NODES, { seed: 2n ** 64n }), seedError(/^seed 18446744073709551616n is outside 0n\.\.=2n\*\*64n-1n$/))
  assert.throws(() => new Rendezvous(NODES, { seed: -1n }), seedError(/^seed -1n is outside/))
  const secretLike = 0x5ec12e75ec12e75ec12e75ec12e75ec1n
  assert.throws(() => new Rendezvous(NODES, { seed: secretLike }), (e) => {
    assert.equal(e.code, 'ERR_LONGSTRAW_INVALID_SEED')
    assert.equal(e.message, 'seed (a bigint of more than 20 digits) is outside 0n..=2n**64n-1n')
    return true
  })
  assert.throws(() => new Rendezvous(NODES, { seed: '5ec12e75' }), { name: 'TypeError', message: 'seed must be a number or bigint; got a string' })
  // The largest seeds of each form are taken, and the same seed as a number or a bigint is one seed.
  assert.equal(new Rendezvous(NODES, { seed: 2n ** 64n - 1n }).seed, 2n ** 64n - 1n)
  assert.deepEqual(new Rendezvous(NODES, { seed: 2 ** 53 - 1 }).rank('k'), new Rendezvous(NODES, { seed: 2n ** 53n - 1n }).rank('k'))
})

test('options: only plain objects with known names; getters run once and their errors propagate', () => {
  const bad = { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^options must be an object; got / }
  for (const options of [null, 5, 'seed', [], [1]]) assert.throws(() => new Rendezvous(NODES, options), bad)
  const inherited = Object.create({ sed: 1 })
  assert.throws(() => new Rendezvous(NODES, inherited), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_OPTION', message: /^unknown option "sed" \(known: weights, seed, placement, domains, secret\)$/ })
  assert.throws(() => Rendezvous.table(NODES, { levels: 2 }), { code: 'ERR_LONGSTRAW_INVALID_OPTION', message: /known: .*bits, replicas, distinctDomains/ })
  let reads = 0
  const counted = { get seed () { reads++; return 7 } }
  assert.equal(new Rendezvous(NODES, counted).seed, 7n)
  assert.equal(reads, 1)
  const boom = new Error('from a getter')
  assert.throws(() => new Rendezvous(NODES, { get weights () { throw boom } }), (e) => e === boom)
  assert.throws(() => new Rendezvous(NODES, { placement: 2 }), { name: 'RangeError', code: 'ERR_LONGSTRAW_UNKNOWN_PLACEMENT' })
  assert.throws(() => new Rendezvous(NODES, { placement: '1' }), { name: 'TypeError', message: 'placement must be a number; got string "1"' })
  assert.throws(() => Rendezvous.table(NODES, { bits: 1.5 }), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_PARAMETER', message: /^options\.bits must be an integer from 0 to 255; got 1\.5$/ })
  assert.throws(() => Rendezvous.table(NODES, { distinctDomains: 1 }), { name: 'TypeError', message: 'options.distinctDomains must be a boolean; got number 1' })
  assert.throws(() => new Rendezvous(NODES).add('x', '2'), { name: 'TypeError', message: 'weight must be a number; got string "2"' })
})

test('packed batches: offsets of either width agree, and bad offsets or outputs are refused', () => {
  const keys = ['alpha', 'βeta', 'gamma', '', 'δ'.repeat(40)]
  const bytes = Buffer.from(keys.join(''))
  const ends = keys.reduce((acc, k) => [...acc, acc[acc.length - 1] + Buffer.byteLength(k)], [0])
  const snap = new Rendezvous(NODES).snapshot()
  const want = keys.map((k) => snap.ownerIndex(Buffer.from(k)))
  assert.deepEqual([...snap.ownerIndices(bytes, new Uint32Array(ends))], want)
  assert.deepEqual([...snap.ownerIndices(bytes, new BigUint64Array(ends.map(BigInt)))], want)
  const out = new Uint32Array(keys.length).fill(99)
  assert.equal(snap.ownerIndices(bytes, new Uint32Array(ends), out), out)
  assert.deepEqual([...out], want)
  assert.throws(() => snap.ownerIndices(bytes, new Uint32Array(ends), new Uint32Array(keys.length + 1)), { name: 'RangeError', code: 'ERR_LONGSTRAW_LENGTH_MISMATCH' })
  assert.throws(() => snap.ownerIndices(bytes, new Uint32Array([0, 3, 2])), { name: 'RangeError', code: 'ERR_LONGSTRAW_BAD_OFFSETS' })
  assert.throws(() => snap.ownerIndices(bytes, new Uint32Array([0, bytes.length + 1])), { code: 'ERR_LONGSTRAW_BAD_OFFSETS' })
  // An output that shares memory with an input is refused before anything is written.
  const shared = new ArrayBuffer(64)
  const offs = new Uint32Array(shared, 0, 3)
  offs.set([0, 1, 2])
  const alias = new Uint32Array(shared, 4, 2)
  assert.throws(() => snap.ownerIndices(Buffer.from('ab'), offs, alias), { name: 'RangeError', code: 'ERR_LONGSTRAW_ALIASED_OUTPUT' })
  assert.deepEqual([...offs], [0, 1, 2])
  const keyMemory = new Uint8Array(shared, 32, 8)
  assert.throws(() => snap.ownerIndices(keyMemory, new Uint32Array([0, 4, 8]), new Uint32Array(shared, 32, 2)), { code: 'ERR_LONGSTRAW_ALIASED_OUTPUT' })
  // Adjacent but separate memory is fine.
  assert.equal(snap.ownerIndices(keyMemory, new Uint32Array([0, 4, 8]), new Uint32Array(shared, 40, 2)).length, 2)
})
