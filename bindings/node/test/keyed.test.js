'use strict'
// keyed-v1 (docs/SPEC.md §15) through the Node API: tests/vectors/keyed-v1.json in every mode, the
// secret's hygiene, and the attack of docs/THREAT-MODEL.md spread evenly under a random secret.
const test = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const util = require('node:util')
const { Rendezvous } = require('..')

const VECTORS = path.join(__dirname, '..', '..', '..', 'tests', 'vectors', 'keyed-v1.json')
const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

function build (c) {
  const ids = c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))
  const options = {
    weights: c.nodes.map((n) => weightOf(n.weight_bits)),
    domains: c.nodes.map((n) => (n.domain_hex === null ? null : Buffer.from(n.domain_hex, 'hex'))),
    secret: Buffer.from(c.secret_hex, 'hex')
  }
  if (c.mode === 'flat') return [new Rendezvous(ids, options), ids]
  if (c.mode === 'table') return [Rendezvous.table(ids, { ...options, bits: c.bits, replicas: c.depth }), ids]
  return [Rendezvous.skeleton(ids, { ...options, fanoutBits: c.fanout_bits, levels: c.levels }), ids]
}

test('keyed-v1 vectors: every mode, owner, topK, topKDistinct', () => {
  const v = JSON.parse(fs.readFileSync(VECTORS, 'utf8'))
  assert.equal(v.placement, 'keyed-v1')
  let checked = 0
  for (const c of v.cases) {
    const [placer, ids] = build(c)
    assert.equal(placer.isKeyed, true)
    assert.equal(placer.seed, null)
    // Node has no partition(key); a table key's ranking is its partition's, checked by topK.
    if (c.mode === 'table') assert.equal(placer.partitionBits, c.bits)
    const hexIds = (list) => list.map(idHex)
    for (const k of c.keys) {
      const key = Buffer.from(k.key_hex, 'hex')
      const where = `${c.name} key ${k.key_hex.slice(0, 32)}`
      if (k.owner === null) {
        assert.throws(() => placer.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' }, where)
      } else {
        assert.equal(idHex(placer.owner(key)), ids[k.owner].toString('hex'), where)
      }
      assert.deepEqual(hexIds(placer.topK(key, c.depth)), k.ranked.map((i) => ids[i].toString('hex')), where)
      assert.deepEqual(hexIds(placer.topKDistinct(key, c.k)), k.distinct.map((i) => ids[i].toString('hex')), where)
      checked++
    }
  }
  assert.equal(checked, v.cases.reduce((s, c) => s + c.keys.length, 0))
})

test('secret: exactly 16 bytes, exclusive with seed, never a string', () => {
  const secret = crypto.randomBytes(16)
  for (const Cls of [(n, o) => new Rendezvous(n, o), (n, o) => Rendezvous.table(n, o), (n, o) => Rendezvous.skeleton(n, o)]) {
    assert.throws(() => Cls(['a'], { secret, seed: 0 }), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_OPTION' })
    assert.throws(() => Cls(['a'], { secret, seed: 5n }), { name: 'TypeError' })
    for (const len of [0, 15, 17, 32]) {
      assert.throws(() => Cls(['a'], { secret: Buffer.alloc(len) }), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_SECRET' })
    }
    assert.throws(() => Cls(['a'], { secret: 'sixteen-char-str' }), { name: 'TypeError' })
    assert.equal(Cls(['a', 'b'], { secret: new Uint8Array(secret) }).isKeyed, true)
    assert.equal(Cls(['a', 'b'], { seed: 3 }).isKeyed, false)
  }
})

test('the secret never shows in inspect output, JSON or errors', () => {
  const secret = Buffer.alloc(16, 0xa7)
  const r = new Rendezvous(['a', 'b'], { secret })
  const shown = [util.inspect(r, { showHidden: true, depth: 5 }), util.inspect(r.snapshot()), JSON.stringify(r) || '']
  try { r.add('a') } catch (e) { shown.push(String(e), e.stack) }
  try { new Rendezvous(['a'], { secret: Buffer.alloc(15, 0xa7) }) } catch (e) { shown.push(String(e)) }
  for (const s of shown) {
    assert.ok(!s.includes('a7a7') && !s.includes('167, 167'), s)
  }
})

// The XXH3 family of tests/attack/families.rs: 1024-byte keys with one XXH3 hash under seed 0.
function xxh3Family (count) {
  const head = Buffer.from('b8fe6c3923a44bbe7c01812cf721ad1c', 'hex')
  const lo0 = head.readUInt32LE(0)
  const lo1 = head.readUInt32LE(8)
  const keys = []
  for (let h0 = 0; h0 < count; h0++) {
    const key = Buffer.alloc(1024)
    key.writeUInt32LE(lo0, 0)
    key.writeUInt32LE(h0, 4)
    key.writeUInt32LE(lo1, 64)
    key.writeUInt32LE((0x12345678 - h0) >>> 0, 68)
    keys.push(key)
  }
  return keys
}

const NODES = Array.from({ length: 10 }, (_, i) => `cache-${i}`)
// 9 degrees of freedom: mean 9, sd sqrt(18); a uniform spread exceeds 9 + 6 sd with p < 1e-6.
const BOUND = 9 + 6 * Math.sqrt(18)
function chiSquare (placer, keys) {
  const counts = new Map(NODES.map((n) => [n, 0]))
  for (const k of keys) counts.set(placer.owner(k), counts.get(placer.owner(k)) + 1)
  const expected = keys.length / NODES.length
  return [...counts.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0)
}

test('attack keys pile up under seed 0 and spread under a secret', () => {
  const v1 = new Rendezvous(NODES)
  const bruteForce = []
  for (let i = 0; bruteForce.length < 5000; i++) {
    if (v1.owner(`attack-${i}`) === 'cache-3') bruteForce.push(`attack-${i}`)
  }
  const family = xxh3Family(5000)
  assert.equal(new Set(family.map((k) => v1.owner(k))).size, 1, 'the XXH3 family lands on one node under v1')
  for (const keys of [bruteForce, family]) {
    const stat = chiSquare(new Rendezvous(NODES, { secret: crypto.randomBytes(16) }), keys)
    assert.ok(stat < BOUND, `chi-square ${stat} >= ${BOUND}`)
  }
})

test('two secrets agree on about 1/n of keys', () => {
  const a = new Rendezvous(NODES, { secret: crypto.randomBytes(16) })
  const b = new Rendezvous(NODES, { secret: crypto.randomBytes(16) })
  const n = 50000
  let same = 0
  for (let i = 0; i < n; i++) if (a.owner(`object-${i}`) === b.owner(`object-${i}`)) same++
  // sd of the rate = sqrt(0.1 * 0.9 / n) = 0.00134 at n = 50,000; allow 6 sd.
  assert.ok(Math.abs(same / n - 0.1) < 6 * Math.sqrt(0.09 / n), `agreement ${same / n}`)
})
