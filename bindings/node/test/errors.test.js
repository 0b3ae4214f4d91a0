'use strict'
// Bad input for every argument: each is a JS error of the right class with a
// stable code and a message naming the value, and nothing is changed or crashes.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous, Snapshot } = require('..')

const TYPE = 'ERR_LONGSTRAW_INVALID_ARG_TYPE'

function throwsCoded (fn, cls, code, message) {
  let caught
  try { fn() } catch (e) { caught = e }
  assert.ok(caught, `expected ${code}, nothing was thrown`)
  assert.ok(caught instanceof cls, `expected ${cls.name} for ${code}, got ${caught && caught.constructor.name}: ${caught.message}`)
  assert.equal(caught.code, code, caught.message)
  if (message) assert.match(caught.message, message)
  return caught
}

async function rejectsCoded (promise, cls, code, message) {
  assert.ok(promise instanceof Promise, 'async variants return a promise even for bad input')
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof cls, `expected ${cls.name}, got ${e.constructor.name}: ${e.message}`)
    assert.equal(e.code, code, e.message)
    if (message) assert.match(e.message, message)
    return true
  })
}

const make = () => new Rendezvous(['a', 'b', 'c'])

test('constructor: nodes of the wrong type', () => {
  for (const bad of [undefined, null, 'a', 5, {}, new Uint8Array(2)]) {
    throwsCoded(() => new Rendezvous(bad), TypeError, TYPE, /nodes must be an array/)
  }
  throwsCoded(() => new Rendezvous(['a', 5]), TypeError, TYPE, /nodes\[1\] must be a string, Buffer or Uint8Array; got number 5/)
  throwsCoded(() => new Rendezvous([null]), TypeError, TYPE, /nodes\[0\].*got null/)
  throwsCoded(() => new Rendezvous([new Uint16Array(2)]), TypeError, TYPE, /got a Uint16Array/)
  throwsCoded(() => new Rendezvous([{ toString: () => 'a' }]), TypeError, TYPE, /got an object/)
  throwsCoded(() => new Rendezvous([Symbol('s')]), TypeError, TYPE, /got a symbol/)
})

test('constructor: lone surrogates, empty, long and duplicate ids', () => {
  throwsCoded(() => new Rendezvous(['ok', 'x\uD800']), TypeError, 'ERR_LONGSTRAW_INVALID_STRING', /nodes\[1\] "x\\u\{d800\}" has a lone surrogate U\+D800 at index 1/)
  throwsCoded(() => new Rendezvous(['']), RangeError, 'ERR_LONGSTRAW_INVALID_NODE_ID', /empty/)
  throwsCoded(() => new Rendezvous([Buffer.alloc(0)]), RangeError, 'ERR_LONGSTRAW_INVALID_NODE_ID', /empty/)
  throwsCoded(() => new Rendezvous([Buffer.alloc(65536, 1)]), RangeError, 'ERR_LONGSTRAW_INVALID_NODE_ID', /65536 bytes/)
  new Rendezvous([Buffer.alloc(65535, 1)]) // the longest allowed id
  throwsCoded(() => new Rendezvous(['a', 'b', 'a']), Error, 'ERR_LONGSTRAW_DUPLICATE_NODE', /duplicate node "a"/)
  // The same bytes as a string and as a Buffer are the same node.
  throwsCoded(() => new Rendezvous(['a', Buffer.from('a')]), Error, 'ERR_LONGSTRAW_DUPLICATE_NODE', /"a"/)
})

test('constructor: options', () => {
  for (const bad of [5, 'x', [], null, true]) {
    throwsCoded(() => new Rendezvous(['a'], bad), TypeError, TYPE, /options must be an object/)
  }
  throwsCoded(() => new Rendezvous(['a'], { weight: [1] }), TypeError, 'ERR_LONGSTRAW_INVALID_OPTION', /unknown option "weight"/)
  throwsCoded(() => new Rendezvous(['a'], { placement: 2 }), RangeError, 'ERR_LONGSTRAW_UNKNOWN_PLACEMENT', /placement version 2/)
  throwsCoded(() => new Rendezvous(['a'], { placement: 1.5 }), RangeError, 'ERR_LONGSTRAW_UNKNOWN_PLACEMENT', /1\.5/)
  throwsCoded(() => new Rendezvous(['a'], { placement: '1' }), TypeError, TYPE, /placement must be a number; got string "1"/)
  assert.equal(new Rendezvous(['a'], { placement: 1 }).placement, 1)
  // A throwing getter's own exception comes through unchanged.
  const boom = new Error('boom')
  assert.throws(() => new Rendezvous(['a'], { get seed () { throw boom } }), (e) => e === boom)
})

test('constructor: weights', () => {
  throwsCoded(() => new Rendezvous(['a', 'b'], { weights: 1 }), TypeError, TYPE, /options.weights must be an array; got number 1/)
  throwsCoded(() => new Rendezvous(['a', 'b'], { weights: [1] }), RangeError, 'ERR_LONGSTRAW_LENGTH_MISMATCH', /1 entries but nodes has 2/)
  throwsCoded(() => new Rendezvous(['a'], { weights: [1, 2] }), RangeError, 'ERR_LONGSTRAW_LENGTH_MISMATCH')
  throwsCoded(() => new Rendezvous(['a'], { weights: ['1'] }), TypeError, TYPE, /options.weights\[0\] must be a number; got string "1"/)
  throwsCoded(() => new Rendezvous(['a'], { weights: [1n] }), TypeError, TYPE, /bigint 1n/)
  throwsCoded(() => new Rendezvous(['a'], { weights: [null] }), TypeError, TYPE, /null/)
  const bad = [
    [NaN, /NaN/], [-1, /-1/], [-0, /-0/], [Infinity, /inf/], [-Infinity, /inf/],
    [Number.MIN_VALUE, /below 2\^-64/], [2 ** -65, /below 2\^-64/], [2 ** 65, /above 2\^64/], [Number.MAX_VALUE, /above 2\^64/]
  ]
  for (const [w, msg] of bad) {
    throwsCoded(() => new Rendezvous(['a', 'b'], { weights: [1, w] }), RangeError, 'ERR_LONGSTRAW_INVALID_WEIGHT', msg)
    const e = throwsCoded(() => new Rendezvous(['a', 'b'], { weights: [1, w] }), RangeError, 'ERR_LONGSTRAW_INVALID_WEIGHT')
    assert.match(e.message, /options.weights\[1\]/)
  }
  // The documented range is accepted, and 0 drains.
  new Rendezvous(['a', 'b', 'c', 'd'], { weights: [2 ** -64, 2 ** 64, 0, 1.5] })
})

test('constructor: seeds', () => {
  const ok = [0, 1, 2 ** 53 - 1, 0n, 2n ** 64n - 1n, 12345678901234567890n, undefined]
  for (const seed of ok) new Rendezvous(['a'], { seed })
  assert.equal(new Rendezvous(['a'], { seed: 2n ** 64n - 1n }).seed, 2n ** 64n - 1n)
  assert.equal(new Rendezvous(['a'], { seed: 42 }).seed, 42n)
  const range = [[-1, /seed -1 /], [1.5, /seed 1\.5 is not an integer/], [NaN, /NaN/], [Infinity, /Infinity/],
    [2 ** 53, /9007199254740992 is outside/], [-1n, /-1n/], [2n ** 64n, /18446744073709551616n/], [-(2n ** 64n), /-18446744073709551616n/]]
  for (const [seed, msg] of range) {
    throwsCoded(() => new Rendezvous(['a'], { seed }), RangeError, 'ERR_LONGSTRAW_INVALID_SEED', msg)
  }
  for (const seed of ['1', null, {}, true, Symbol('s')]) {
    throwsCoded(() => new Rendezvous(['a'], { seed }), TypeError, TYPE, /seed must be a number or bigint/)
  }
})

test('keys: wrong types and malformed strings, in every lookup', () => {
  const r = make()
  const snap = r.snapshot()
  const calls = {
    'r.owner': (k) => r.owner(k),
    'r.topK': (k) => r.topK(k, 2),
    'r.rank': (k) => r.rank(k),
    'snap.owner': (k) => snap.owner(k),
    'snap.ownerIndex': (k) => snap.ownerIndex(k),
    'snap.topK': (k) => snap.topK(k, 2),
    'snap.rank': (k) => snap.rank(k)
  }
  for (const [name, call] of Object.entries(calls)) {
    for (const bad of [undefined, null, 5, 5n, true, {}, [], ['a'], new Int8Array(1), new Uint16Array(1), new ArrayBuffer(1), () => 'a']) {
      throwsCoded(() => call(bad), TypeError, TYPE, /key must be a string, Buffer or Uint8Array; got /)
    }
    for (const [bad, unit] of [['\uD800', 'D800'], ['a\uDC00', 'DC00'], ['\uDC00\uD800', 'DC00'], ['x'.repeat(300) + '\uDBFF', 'DBFF']]) {
      throwsCoded(() => call(bad), TypeError, 'ERR_LONGSTRAW_INVALID_STRING', new RegExp(`lone surrogate U\\+${unit}`))
    }
    // Well-formed strings with a real U+FFFD or an astral character are fine.
    assert.doesNotThrow(() => call('\uFFFD'), name)
    assert.doesNotThrow(() => call('\uD83D\uDE00'), name)
  }
  // A real U+FFFD is not confused with a replaced surrogate: same as its UTF-8 bytes.
  for (const s of ['\uFFFD', 'a\uFFFDb', '\uD83D\uDE00', 'x'.repeat(400) + '\uFFFD']) {
    assert.deepEqual(r.rank(s), r.rank(Buffer.from(s, 'utf8')))
  }
})

test('topK: k', () => {
  const r = make()
  for (const k of [-1, 1.5, NaN, Infinity, -Infinity]) {
    throwsCoded(() => r.topK('x', k), RangeError, 'ERR_LONGSTRAW_INVALID_COUNT', /k must be a non-negative integer/)
  }
  for (const k of [undefined, '2', 2n, null]) {
    throwsCoded(() => r.topK('x', k), TypeError, TYPE, /k must be a non-negative integer; got/)
  }
  assert.deepEqual(r.topK('x', 0), [])
  assert.equal(r.topK('x', 2 ** 40).length, 3)
})

test('owners and ownersAsync: keys arrays', async () => {
  const r = make()
  for (const target of [r, r.snapshot()]) {
    throwsCoded(() => target.owners('abc'), TypeError, TYPE, /keys must be an array; got string "abc"/)
    throwsCoded(() => target.owners(['a', 7]), TypeError, TYPE, /keys\[1\] must be a string, Buffer or Uint8Array; got number 7/)
    throwsCoded(() => target.owners(['a', '\uD800']), TypeError, 'ERR_LONGSTRAW_INVALID_STRING', /keys\[1\]/)
    await rejectsCoded(target.ownersAsync('abc'), TypeError, TYPE, /keys must be an array/)
    await rejectsCoded(target.ownersAsync(['a', 7]), TypeError, TYPE, /keys\[1\]/)
    await rejectsCoded(target.ownersAsync(['\uDFFF']), TypeError, 'ERR_LONGSTRAW_INVALID_STRING', /U\+DFFF/)
  }
})

test('ownerIndices: bytes, offsets and out', async () => {
  const r = make()
  const snap = r.snapshot()
  const bytes = Buffer.from('abcdef')
  const offsets = new Uint32Array([0, 2, 4, 6])
  for (const bad of ['abc', [1, 2], new Uint16Array(3), new ArrayBuffer(4), null]) {
    throwsCoded(() => snap.ownerIndices(bad, offsets), TypeError, TYPE, /bytes must be a Buffer or Uint8Array/)
    throwsCoded(() => r.ownerIndices(bad, offsets), TypeError, TYPE, /bytes must be a Buffer or Uint8Array/)
    await rejectsCoded(snap.ownerIndicesAsync(bad, offsets), TypeError, TYPE, /bytes must be/)
  }
  for (const bad of [[0, 2], new Int32Array(2), new Float64Array(2), new BigInt64Array(2), undefined]) {
    throwsCoded(() => snap.ownerIndices(bytes, bad), TypeError, TYPE, /offsets must be a Uint32Array or BigUint64Array/)
    await rejectsCoded(r.ownerIndicesAsync(bytes, bad), TypeError, TYPE, /offsets must be/)
  }
  for (const bad of [new Uint32Array([0, 7]), new Uint32Array([3, 2]), new BigUint64Array([0n, 2n ** 63n])]) {
    throwsCoded(() => snap.ownerIndices(bytes, bad), RangeError, 'ERR_LONGSTRAW_BAD_OFFSETS', /position 1/)
    await rejectsCoded(snap.ownerIndicesAsync(bytes, bad), RangeError, 'ERR_LONGSTRAW_BAD_OFFSETS')
  }
  throwsCoded(() => snap.ownerIndices(bytes, offsets, new Uint32Array(2)), RangeError, 'ERR_LONGSTRAW_LENGTH_MISMATCH', /out has 2 elements but the batch has 3 keys/)
  throwsCoded(() => snap.ownerIndices(bytes, offsets, new Int32Array(3)), TypeError, TYPE, /out must be a Uint32Array/)
  throwsCoded(() => snap.ownerIndices(bytes, offsets, [0, 0, 0]), TypeError, TYPE, /out must be a Uint32Array/)
  const shared = new ArrayBuffer(64)
  throwsCoded(() => snap.ownerIndices(new Uint8Array(shared, 0, 6), offsets, new Uint32Array(shared, 4, 3)), RangeError, 'ERR_LONGSTRAW_ALIASED_OUTPUT')
  // Empty batches are fine, even on an empty set.
  assert.equal(snap.ownerIndices(bytes, new Uint32Array([])).length, 0)
  assert.equal(new Rendezvous([]).snapshot().ownerIndices(bytes, new Uint32Array([3])).length, 0)
})

test('membership changes: bad input leaves the set unchanged', () => {
  const r = make()
  const before = r.snapshot()
  throwsCoded(() => r.add('a'), Error, 'ERR_LONGSTRAW_DUPLICATE_NODE', /duplicate node "a"/)
  throwsCoded(() => r.add('d', NaN), RangeError, 'ERR_LONGSTRAW_INVALID_WEIGHT', /NaN/)
  throwsCoded(() => r.add('d', -0), RangeError, 'ERR_LONGSTRAW_INVALID_WEIGHT', /-0/)
  throwsCoded(() => r.add('d', '2'), TypeError, TYPE, /weight must be a number; got string "2"/)
  throwsCoded(() => r.add('d', null), TypeError, TYPE, /weight must be a number; got null/)
  throwsCoded(() => r.add(3), TypeError, TYPE, /node must be a string, Buffer or Uint8Array; got number 3/)
  throwsCoded(() => r.add('\uD800'), TypeError, 'ERR_LONGSTRAW_INVALID_STRING', /node "\\u\{d800\}"/)
  throwsCoded(() => r.add(''), RangeError, 'ERR_LONGSTRAW_INVALID_NODE_ID')
  throwsCoded(() => r.remove('zz'), Error, 'ERR_LONGSTRAW_UNKNOWN_NODE', /unknown node "zz"/)
  throwsCoded(() => r.remove(Buffer.from([0xff, 0x00])), Error, 'ERR_LONGSTRAW_UNKNOWN_NODE', /unknown node 0xff00/)
  throwsCoded(() => r.remove(), TypeError, TYPE, /got undefined/)
  throwsCoded(() => r.setWeight('zz', 1), Error, 'ERR_LONGSTRAW_UNKNOWN_NODE', /"zz"/)
  throwsCoded(() => r.setWeight('a', Infinity), RangeError, 'ERR_LONGSTRAW_INVALID_WEIGHT', /inf/)
  throwsCoded(() => r.setWeight('a'), TypeError, TYPE, /weight must be a number; got undefined/)
  throwsCoded(() => r.has(1), TypeError, TYPE)
  const after = r.snapshot()
  assert.equal(after.generation, before.generation, 'a failed change published a snapshot')
  assert.deepEqual(r.nodes, ['a', 'b', 'c'])
  assert.deepEqual(r.weights, [1, 1, 1])
})

test('empty and fully drained sets', async () => {
  const empty = new Rendezvous([])
  assert.equal(empty.size, 0)
  throwsCoded(() => empty.owner('k'), Error, 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE', /no eligible node/)
  throwsCoded(() => empty.owners(['k']), Error, 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
  assert.deepEqual(empty.topK('k', 3), [])
  assert.deepEqual(empty.rank('k'), [])
  await rejectsCoded(empty.ownersAsync(['k']), Error, 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
  await rejectsCoded(empty.ownerIndicesAsync(Buffer.from('k'), new Uint32Array([0, 1])), Error, 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
  const drained = new Rendezvous(['a', 'b'], { weights: [0, 0] })
  throwsCoded(() => drained.owner('k'), Error, 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
  const r = make()
  for (const id of ['a', 'b', 'c']) r.setWeight(id, 0)
  throwsCoded(() => r.owner('k'), Error, 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
  r.setWeight('b', 1)
  assert.equal(r.owner('k'), 'b')
})

test('Snapshot cannot be constructed directly', () => {
  throwsCoded(() => new Snapshot(), TypeError, TYPE, /set\.snapshot\(\)/)
})

test('methods called on a foreign receiver are TypeErrors, not crashes', () => {
  const r = new Rendezvous(['a'])
  const snap = r.snapshot()
  const methods = [
    [Rendezvous.prototype, ['owner', 'topK', 'rank', 'has', 'owners', 'add', 'remove']],
    [Snapshot.prototype, ['owner', 'ownerIndex', 'topK', 'rank', 'has', 'owners', 'ownerIndices']]
  ]
  for (const [proto, names] of methods) {
    for (const name of names) {
      for (const other of [{}, snap === proto ? r : (proto === Rendezvous.prototype ? snap : r), Object.create(proto)]) {
        let caught
        try { proto[name].call(other, 'k', 1) } catch (e) { caught = e }
        assert.ok(caught instanceof Error, `${name} on a foreign receiver did not throw`)
      }
    }
  }
  // The fast per-key methods say what went wrong, with a code.
  throwsCoded(() => Rendezvous.prototype.owner.call(snap, 'k'), TypeError, TYPE, /this must be a Rendezvous/)
  throwsCoded(() => Snapshot.prototype.ownerIndex.call({}, 'k'), TypeError, TYPE, /this must be a Snapshot/)
  throwsCoded(() => Snapshot.prototype.topK.call(r, 'k', 1), TypeError, TYPE, /this must be a Snapshot/)
})
