'use strict'
// Every case of tests/vectors/placement-v1.json, read at test time: owner and
// ranked order through owner/topK/rank, plus the batch forms.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous } = require('..')

const VECTORS =
  process.env.LONGSTRAW_VECTORS ||
  path.join(__dirname, '..', '..', '..', 'tests', 'vectors', 'placement-v1.json')

function load () {
  if (!fs.existsSync(VECTORS)) {
    throw new Error(`golden vectors not found at ${VECTORS} (set LONGSTRAW_VECTORS to another copy)`)
  }
  return JSON.parse(fs.readFileSync(VECTORS, 'utf8'))
}

const hex = (b) => Buffer.from(b).toString('hex')
const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
// Ids come back as strings only when their bytes are UTF-8, so this is exact.
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

function build (c) {
  const ids = c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))
  const weights = c.nodes.map((n) => weightOf(n.weight_bits))
  return new Rendezvous(ids, { weights, seed: BigInt(c.seed) })
}

function packed (keys) {
  const parts = keys.map((k) => Buffer.from(k.key_hex, 'hex'))
  const offsets = new Uint32Array(parts.length + 1)
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length })
  return { bytes: Buffer.concat(parts), offsets }
}

test('placement-v1 vectors: file shape', () => {
  const v = load()
  assert.equal(v.placement, 1)
  assert.ok(v.cases.length > 0, 'no cases')
})

test('placement-v1 vectors: owner, topK and rank of every key of every case', () => {
  const v = load()
  let checked = 0
  for (const c of v.cases) {
    const r = build(c)
    const snap = r.snapshot()
    assert.equal(snap.size, c.nodes.length, c.name)
    assert.equal(snap.seed, BigInt(c.seed), c.name)
    const want = (i) => c.nodes[i].id_hex
    for (const k of c.keys) {
      const key = Buffer.from(k.key_hex, 'hex')
      const where = `${c.name} key ${k.key_hex}`
      if (k.owner === null) {
        assert.throws(() => r.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' }, where)
        assert.deepEqual(r.topK(key, c.depth), [], where)
        assert.deepEqual(r.rank(key), [], where)
      } else {
        assert.equal(idHex(r.owner(key)), want(k.owner), where)
        assert.equal(snap.ownerIndex(key), k.owner, where)
        assert.deepEqual(r.topK(key, c.depth).map(idHex), k.ranked.map(want), where)
        const full = r.rank(key).map(idHex)
        assert.deepEqual(full.slice(0, k.ranked.length), k.ranked.map(want), where)
        assert.equal(full.length, snap.eligible, where)
      }
      // A key given as a string (when its bytes are UTF-8) places the same.
      const text = key.toString('utf8')
      if (k.owner !== null && Buffer.from(text, 'utf8').equals(key)) {
        assert.equal(idHex(r.owner(text)), want(k.owner), `${where} as string`)
      }
      checked++
    }
  }
  assert.ok(checked > 1000, `only ${checked} keys checked`)
})

test('placement-v1 vectors: batch forms agree (ownerIndices, owners, async)', async () => {
  const v = load()
  for (const c of v.cases) {
    if (c.keys.some((k) => k.owner === null)) {
      const r = build(c)
      const { bytes, offsets } = packed(c.keys)
      assert.throws(() => r.snapshot().ownerIndices(bytes, offsets), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' }, c.name)
      continue
    }
    const r = build(c)
    const snap = r.snapshot()
    const { bytes, offsets } = packed(c.keys)
    const expected = c.keys.map((k) => k.owner)
    assert.deepEqual([...snap.ownerIndices(bytes, offsets)], expected, c.name)
    const wide = BigUint64Array.from(offsets, (x) => BigInt(x))
    assert.deepEqual([...snap.ownerIndices(bytes, wide)], expected, `${c.name} (u64 offsets)`)
    const out = new Uint32Array(c.keys.length)
    assert.equal(snap.ownerIndices(bytes, offsets, out), out)
    assert.deepEqual([...out], expected, `${c.name} (out)`)
    const keys = c.keys.map((k) => Buffer.from(k.key_hex, 'hex'))
    assert.deepEqual(r.owners(keys).map(idHex), expected.map((i) => c.nodes[i].id_hex), c.name)
    assert.deepEqual([...(await snap.ownerIndicesAsync(bytes, offsets))], expected, `${c.name} async`)
    assert.deepEqual((await r.ownersAsync(keys)).map(idHex), expected.map((i) => c.nodes[i].id_hex), `${c.name} ownersAsync`)
  }
})
