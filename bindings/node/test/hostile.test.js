'use strict'
// Hostile and odd inputs: proxies, throwing getters, detached buffers, and a
// sweep of every method over many odd values. The process must never crash;
// every failure must be a coded error or the caller's own exception.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous, Snapshot } = require('..')

function detached () {
  const u = new Uint8Array(8)
  structuredClone(u.buffer, { transfer: [u.buffer] })
  return u
}

const ODD = [
  undefined, null, true, 0, -0, NaN, Infinity, 2 ** 64, -1, 1.5, 0n, -1n, 2n ** 70n, '', 'k', '\uD800', '\uFFFF',
  'x'.repeat(10000), Symbol('s'), {}, [], ['a'], [1, 2], () => {}, new Map(), new Date(0), Buffer.alloc(0),
  new Uint8Array(3), new Uint16Array(2), new Uint32Array(2), new BigUint64Array(2), new Float64Array(1),
  new ArrayBuffer(4), new DataView(new ArrayBuffer(4)), detached(), new Proxy([], {}), new Proxy({}, {}),
  Object.create(null), new (class Foo {})()
]

test('every method over odd values: coded errors or results, never a crash', async () => {
  const r = new Rendezvous(['a', 'b', 'c'])
  const calls = [
    (x, y) => new Rendezvous(x, y), (x) => new Rendezvous(['a'], { seed: x }), (x) => new Rendezvous(['a'], { weights: [x] }),
    (x) => new Rendezvous(['a'], { placement: x }), (x) => new Rendezvous([x]), (x) => new Rendezvous(['a'], x),
    (x) => r.owner(x), (x, y) => r.topK(x, y), (x) => r.topK('k', x), (x) => r.rank(x), (x) => r.owners(x), (x) => r.owners([x]),
    (x) => r.has(x), (x, y) => r.ownerIndices(x, y), (x) => r.ownerIndices(Buffer.from('ab'), x),
    (x) => r.snapshot().ownerIndices(Buffer.from('ab'), new Uint32Array([0, 1, 2]), x),
    (x) => r.snapshot().ownerIndex(x), (x) => r.snapshot().topK('k', x)
  ]
  const mutating = [(x) => r.add(x), (x) => r.add('zz', x), (x) => r.remove(x), (x) => r.setWeight('a', x)]
  let errors = 0
  for (const call of [...calls, ...mutating]) {
    for (const x of ODD) {
      for (const y of [undefined, 1, x]) {
        try {
          call(x, y)
        } catch (e) {
          errors++
          assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`)
          assert.match(String(e.code), /^ERR_LONGSTRAW_/, `uncoded error: ${e.message}`)
          assert.ok(e.message.length > 0)
        }
        // Keep the set usable: undo anything a call added or drained.
        if (r.has('zz')) r.remove('zz')
        for (const id of ['a', 'b', 'c']) if (!r.has(id)) r.add(id)
        r.setWeight('a', 1)
      }
    }
  }
  assert.ok(errors > 500, `only ${errors} errors from odd input`)
  for (const x of ODD) {
    await r.ownersAsync(x).catch((e) => assert.match(e.code, /^ERR_LONGSTRAW_/))
    await r.ownerIndicesAsync(x, x).catch((e) => assert.match(e.code, /^ERR_LONGSTRAW_/))
  }
  assert.deepEqual(r.nodes.sort(), ['a', 'b', 'c'])
})

test('a detached buffer is a TypeError, not an empty key or a crash', () => {
  const r = new Rendezvous(['a', 'b', 'c'])
  const refused = { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /detached ArrayBuffer/ }
  assert.throws(() => r.owner(detached()), refused)
  const off = new Uint32Array([0, 0])
  assert.throws(() => r.snapshot().ownerIndices(detached(), off), refused)
})

test('getters: their exceptions propagate unchanged; proxies are not arrays', () => {
  const boom = new Error('trap')
  const throwingArray = ['a', 'b']
  Object.defineProperty(throwingArray, 1, { get () { throw boom } })
  assert.throws(() => new Rendezvous(throwingArray), (e) => e === boom)
  const r = new Rendezvous(['a', 'b'])
  assert.throws(() => r.owners(throwingArray), (e) => e === boom)
  assert.throws(() => new Rendezvous(['a'], { get weights () { throw boom } }), (e) => e === boom)
  // Node-API does not see a Proxy of an array as an array: a coded TypeError.
  if (require('..').target === 'wasm32-wasi') {
    // emnapi's napi_is_array is Array.isArray, which is true for a Proxy of an array: the WebAssembly
    // build reads it through the proxy, as the same keys in an array.
    assert.deepEqual(r.owners(new Proxy(['k1'], {})), r.owners(['k1']))
  } else {
    assert.throws(() => r.owners(new Proxy(['k1'], {})), { code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /keys must be an array/ })
  }
  assert.equal(r.size, 2)
})

test('a Snapshot obtained through the prototype chain is not trusted', () => {
  const fake = Object.create(Snapshot.prototype)
  assert.throws(() => fake.owner('k'), { code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE' })
  assert.throws(() => fake.ownerIndices(Buffer.from('k'), new Uint32Array([0, 1])), { code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE' })
  assert.throws(() => fake.nodes)
})
