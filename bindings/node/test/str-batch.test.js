'use strict'
// owners(keys) reads each chunk of 2048 keys at once (strings
// joined in JavaScript, read as UTF-16, encoded to UTF-8 natively), places
// it with the packed batch, and builds the answer in one JavaScript loop.
// Expected owners come from the frozen vectors, and string conversion is
// checked against Node's own UTF-8 encoder (Buffer.from), never against the
// code under test.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous } = require('..')

const CHUNK = 2048 // str_batch::CHUNK_KEYS; batches below cross it several times
const VECTORS = path.join(__dirname, '..', '..', '..', 'tests', 'vectors', 'placement-v1.json')
const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
// Ids come back as strings only when their bytes are UTF-8, so this is exact.
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

// A key as a string when its bytes are UTF-8 (placement is by bytes).
function asStringWhenUtf8 (bytes) {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  return Buffer.from(text, 'utf8').equals(bytes) ? text : bytes
}

test('string, Buffer and Uint8Array keys across chunks place as the vectors say', () => {
  const v = JSON.parse(fs.readFileSync(VECTORS, 'utf8'))
  let checked = 0
  let crossed = 0
  for (const c of v.cases) {
    if (c.keys.length === 0 || c.keys.some((k) => k.owner === null)) continue
    // The first cases repeat their keys past 2.5 chunks; the rest run once.
    const size = crossed < 12 ? CHUNK * 2.5 : 1
    crossed++
    const ids = c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))
    const r = new Rendezvous(ids, { weights: c.nodes.map((n) => weightOf(n.weight_bits)), seed: BigInt(c.seed) })
    const keys = []
    const want = []
    for (let rep = 0; keys.length < size; rep++) {
      for (const k of c.keys) {
        const bytes = Buffer.from(k.key_hex, 'hex')
        const kind = (rep + keys.length) % 3
        keys.push(kind === 0 ? asStringWhenUtf8(bytes) : kind === 1 ? bytes : new Uint8Array(bytes))
        want.push(c.nodes[k.owner].id_hex)
      }
    }
    const got = r.owners(keys).map(idHex)
    assert.deepEqual(got, want, c.name)
    checked += keys.length
  }
  assert.ok(checked > 3 * CHUNK)
})

test('long non-ASCII strings place like their UTF-8 Buffers (Node encodes those)', () => {
  const nodes = Array.from({ length: 9 }, (_, i) => `node-${i}`)
  const r = new Rendezvous(nodes, { weights: [1, 2, 0.5, 1, 3, 1, 1, 0.25, 1], seed: 2026 })
  const alphabet = ['a', 'é', '€', '😀', 'ß', '中', '\u00ff', 'z', '\ufffd']
  const keys = Array.from({ length: CHUNK + 500 }, (_, i) =>
    Array.from({ length: 1 + ((i * 37) % 600) }, (_, j) => alphabet[(i * 7 + j * 3) % alphabet.length]).join(''))
  assert.ok(Math.max(...keys.map((k) => Buffer.byteLength(k))) > 1000)
  const buffers = keys.map((k) => Buffer.from(k, 'utf8'))
  assert.deepEqual(r.owners(keys), buffers.map((b) => r.owner(b)))
  assert.deepEqual(r.owners(keys), r.owners(buffers))
})

test('a lone surrogate after a full chunk is a TypeError naming its index', () => {
  const r = new Rendezvous(['a', 'b', 'c'])
  const keys = Array(CHUNK + 10).fill('k').concat(['bad \ud800 key'])
  assert.throws(() => r.owners(keys), {
    name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING', message: new RegExp(`keys\\[${CHUNK + 10}\\].*U\\+D800 at index 4`)
  })
  // A real U+FFFD is a character like any other.
  assert.deepEqual(r.owners(['x\ufffdy']), [r.owner(Buffer.from('x\ufffdy'))])
})

test('holes, wrong types and throwing getters fail at their index', () => {
  const r = new Rendezvous(['a', 'b', 'c'])
  const holey = Array(CHUNK + 5).fill('k')
  delete holey[CHUNK + 2]
  assert.throws(() => r.owners(holey), { name: 'TypeError', message: new RegExp(`keys\\[${CHUNK + 2}\\]`) })
  assert.throws(() => r.owners(['a', 'b', 42]), { name: 'TypeError', message: /keys\[2\]/ })
  const getter = ['a', 'b', 'c']
  Object.defineProperty(getter, 1, { get () { throw new Error('from a getter') } })
  assert.throws(() => r.owners(getter), { message: 'from a getter' })
})

test('each element is read once, and patched builtins do not change answers', { skip: require('..').target === 'wasm32-wasi' && 'the WebAssembly build: its runtime (emnapi) is JavaScript that calls the builtins this test patches (Array.isArray)' }, () => {
  const r = new Rendezvous(Array.from({ length: 10 }, (_, i) => `n${i}`))
  const keys = Array.from({ length: 3000 }, (_, i) => `user:${i}`)
  const want = keys.map((k) => r.owner(k))
  let reads = 0
  const counted = keys.slice()
  Object.defineProperty(counted, 7, { get () { reads++; return 'user:7' } })
  assert.deepEqual(r.owners(counted), want)
  assert.equal(reads, 1)
  const saved = { Array: globalThis.Array, Uint32Array: globalThis.Uint32Array }
  try {
    globalThis.Array = function () { throw new Error('patched Array') }
    globalThis.Uint32Array = function () { throw new Error('patched Uint32Array') }
    assert.deepEqual(r.owners(keys), want)
    assert.deepEqual(r.snapshot().owners(keys), want)
  } finally {
    Object.assign(globalThis, saved)
  }
})

test('fewer keys than nodes still answer with the right ids', () => {
  const nodes = Array.from({ length: 50 }, (_, i) => `n${i}`)
  const r = new Rendezvous(nodes)
  const keys = ['a', 'b', Buffer.from('c')]
  assert.deepEqual(r.owners(keys), keys.map((k) => r.owner(k)))
  assert.deepEqual(r.owners([]), [])
})
