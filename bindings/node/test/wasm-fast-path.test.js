'use strict'
// owner()'s fast path in the WebAssembly build (src/node_api/branded/fast.rs): a string key is encoded
// straight into wasm memory and looked up by a plain export, without emnapi. Its answers must be the
// Node-API path's: checked against topK(key, 1) and a snapshot's ownerIndex (Node-API calls both), on
// the placement vectors' keys as strings, after every kind of change to the set, on keys at the edges
// of its two encoders (short ASCII keys copied by a loop, others by encodeInto), on the keys it must
// hand over (lone surrogates, U+FFFD, keys too long for its scratch area, non-strings), and
// against a process where LONGSTRAW_NODE_WASM_FAST=0 leaves only emnapi's path. Natively the same
// checks run on the native addon (which has no fast path).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const longstraw = require('..')
const { Rendezvous } = longstraw

const PKG = path.join(__dirname, '..')
const WASM = longstraw.target === 'wasm32-wasi'
const VECTORS = process.env.LONGSTRAW_VECTORS ||
  path.join(__dirname, '..', '..', '..', 'tests', 'vectors', 'placement-v1.json')
const fatal = new TextDecoder('utf-8', { fatal: true })
/** The key as a string when its bytes are UTF-8, else null. */
const asString = (hex) => { try { return fatal.decode(Buffer.from(hex, 'hex')) } catch { return null } }
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')
const fastInstalled = (cls) => String(cls.prototype.owner).includes('fastIndex')

/** What the Node-API path says owns `key`: topK's first node, or the error owner() must throw. */
function expected (set, key) {
  try {
    const top = set.topK(key, 1)
    return top.length === 0 ? { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' } : { id: idHex(top[0]) }
  } catch (e) {
    return { name: e.name, message: e.message }
  }
}
function got (set, key) {
  try {
    return { id: idHex(set.owner(key)) }
  } catch (e) {
    return e.code === 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' ? { code: e.code } : { name: e.name, message: e.message }
  }
}
function agree (set, keys, where) {
  for (const key of keys) assert.deepEqual(got(set, key), expected(set, key), `${where}: key ${JSON.stringify(key)}`)
}

const KEYS = Array.from({ length: 400 }, (_, i) => `user:${i}`)

test('the fast path is installed in the WebAssembly build (both classes), never natively', () => {
  const on = WASM && process.env.LONGSTRAW_NODE_WASM_FAST !== '0'
  assert.equal(fastInstalled(Rendezvous), on)
  assert.equal(fastInstalled(longstraw.Snapshot), on)
  // The installer deletes itself once the loader has called it.
  assert.equal(Object.getOwnPropertyNames(longstraw).includes('__longstrawWasmFastPath'), false)
})

test('placement-v1 vectors, keys as strings: owner() gives the vector owner on sets and snapshots', () => {
  const v = JSON.parse(fs.readFileSync(VECTORS, 'utf8'))
  let checked = 0
  for (const c of v.cases) {
    const ids = c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))
    const weights = c.nodes.map((n) => Buffer.from(n.weight_bits, 'hex').readDoubleBE(0))
    const r = new Rendezvous(ids, { weights, seed: BigInt(c.seed) })
    const snap = r.snapshot()
    for (const k of c.keys) {
      const key = asString(k.key_hex)
      if (key === null) continue
      const where = `${c.name} key ${k.key_hex}`
      for (const set of [r, snap]) {
        if (k.owner === null) {
          assert.throws(() => set.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' }, where)
        } else {
          // Twice: the first call may fill the id cache through Node-API, the second is the fast one.
          assert.equal(idHex(set.owner(key)), c.nodes[k.owner].id_hex, where)
          assert.equal(idHex(set.owner(key)), c.nodes[k.owner].id_hex, where)
        }
      }
      if (k.owner !== null) assert.equal(snap.ownerIndex(key), k.owner, where)
      checked++
    }
  }
  assert.ok(checked > 1000, `only ${checked} string keys checked`)
})

test('after every kind of change, owner() answers from the current snapshot, never a stale one', () => {
  const r = new Rendezvous(['a', 'b', 'c', 'd'])
  agree(r, KEYS, 'start')
  const before = r.snapshot()
  const owned = KEYS.map((k) => before.owner(k))
  const steps = [
    ['add e', () => r.add('e')],
    ['remove b', () => r.remove('b')],
    ['drain a (weight 0)', () => r.setWeight('a', 0)],
    ['weight a 3', () => r.setWeight('a', 3)],
    ['add f in a domain', () => r.addInDomain('f', 2, 'rack-1')],
    ['remove every node but c', () => { for (const n of r.nodes) if (n !== 'c') r.remove(n) }],
    ['add 200 nodes', () => { for (let i = 0; i < 200; i++) r.add(`n-${i}`) }],
    ['remove c', () => r.remove('c')]
  ]
  for (const [name, change] of steps) {
    change()
    agree(r, KEYS, name)
    // A node that left never comes back from owner().
    const nodes = new Set(r.nodes)
    for (const k of KEYS) assert.ok(nodes.has(r.owner(k)), `${name}: ${k} -> ${r.owner(k)} is not a node`)
  }
  // The snapshot taken at the start still answers as it did.
  assert.deepEqual(KEYS.map((k) => before.owner(k)), owned)
  agree(before, KEYS, 'old snapshot')
  // No eligible node: the Node-API path's coded error, not an index.
  const drained = new Rendezvous(['x'], { weights: [0] })
  assert.throws(() => drained.owner('k'), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' })
  drained.setWeight('x', 1)
  assert.equal(drained.owner('k'), 'x')
})

test('keys the fast path hands to Node-API: lone surrogates, U+FFFD, long keys, bytes, other types', () => {
  const r = new Rendezvous(Array.from({ length: 50 }, (_, i) => `node-${i}`))
  const snap = r.snapshot()
  const keys = [
    '', 'a', 'é', '€', '𝄞', 'user:1 é € 𝄞', 'abc\x7f', 'abcdé', '\u0080', 'x'.repeat(64), 'x'.repeat(65),
    'y'.repeat(63) + 'é',
    '\ufffd', 'a\ufffdb', 'x'.repeat(1023) + '\ufffd',
    'é'.repeat(1024), '€'.repeat(1024), '€'.repeat(1025), '𝄞'.repeat(512), '𝄞'.repeat(513), 'k'.repeat(5000)
  ]
  for (const set of [r, snap]) {
    agree(set, keys, 'well-formed')
    for (const key of keys) {
      assert.equal(set.owner(key), set.owner(Buffer.from(key, 'utf8')), JSON.stringify(key).slice(0, 40))
    }
    for (const bad of ['\ud800', 'a\udc00', 'x'.repeat(1023) + '\ud83d', '\ud834\ud834\udd1e\udd1e'.slice(1)]) {
      assert.throws(() => set.owner(bad), TypeError)
      assert.deepEqual(got(set, bad), expected(set, bad))
    }
    for (const other of [undefined, null, 42, {}, ['k'], new Uint16Array(2)]) {
      assert.throws(() => set.owner(other), TypeError)
      assert.deepEqual(got(set, other), expected(set, other))
    }
  }
})

test('a foreign receiver is a TypeError, and each object keeps its own answers', () => {
  const a = new Rendezvous(['a1', 'a2', 'a3'])
  const b = new Rendezvous(['b1', 'b2'])
  assert.throws(() => Rendezvous.prototype.owner.call({}, 'k'), TypeError)
  assert.throws(() => Rendezvous.prototype.owner.call(a.snapshot(), 'k'), TypeError)
  assert.throws(() => longstraw.Snapshot.prototype.owner.call(a, 'k'), TypeError)
  for (const k of KEYS) {
    assert.match(a.owner(k), /^a[123]$/)
    assert.match(b.owner(k), /^b[12]$/)
  }
})

test('the same answers with the fast path turned off (LONGSTRAW_NODE_WASM_FAST=0: emnapi only)', { skip: !WASM && 'not the WebAssembly build' }, () => {
  const script = `
    const l = require('.')
    const fast = String(l.Rendezvous.prototype.owner).includes('fastIndex')
    const keys = Array.from({ length: 3000 }, (_, i) => 'user:' + i + (i % 7 === 0 ? ' é€𝄞' : ''))
    const r = new l.Rendezvous(Array.from({ length: 100 }, (_, i) => 'cache-' + i))
    const out = [keys.map((k) => r.owner(k))]
    r.remove('cache-3'); r.add('cache-x', 2)
    out.push(keys.map((k) => r.owner(k)))
    console.log(JSON.stringify({ target: l.target, fast, out }))`
  const run = (fastEnv) => {
    const p = spawnSync(process.execPath, ['--no-warnings', '-e', script], {
      cwd: PKG, encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, LONGSTRAW_NODE_WASM: '1', LONGSTRAW_NODE_WASM_FAST: fastEnv }
    })
    assert.equal(p.status, 0, p.stderr)
    return JSON.parse(p.stdout)
  }
  const off = run('0')
  const on = run('1')
  assert.equal(off.target, 'wasm32-wasi')
  assert.equal(on.target, 'wasm32-wasi')
  assert.equal(off.fast, false)
  assert.equal(on.fast, true)
  assert.deepEqual(on.out, off.out)
})
