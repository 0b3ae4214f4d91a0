'use strict'
// tests/vectors/placement-v1-edges.json (SPEC.md §14) through the Node API:
// exact ties, order-sensitive group sums, seeds 2^63 and 2^64-1, ids of 1 and
// 65,535 bytes, keys of every XXH3 length class up to 1 MiB; flat and skeleton.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous } = require('..')

const EDGES = JSON.parse(fs.readFileSync(
  path.join(__dirname, '..', '..', '..', 'tests', 'vectors', 'placement-v1-edges.json'), 'utf8'))

const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

// '<what>_hex', or '<what>_gen' {len, start}: byte i is (start + i) mod 251.
function entryBytes (entry, what) {
  if (entry[`${what}_hex`] !== undefined) return Buffer.from(entry[`${what}_hex`], 'hex')
  const { len, start } = entry[`${what}_gen`]
  const out = Buffer.alloc(len)
  for (let i = 0; i < len; i++) out[i] = (start + i) % 251
  return out
}

function build (c) {
  const ids = c.nodes.map((n) => entryBytes(n, 'id'))
  const options = { weights: c.nodes.map((n) => weightOf(n.weight_bits)), seed: BigInt(c.seed) }
  if (c.mode === 'skeleton') return Rendezvous.skeleton(ids, { ...options, fanoutBits: c.fanout_bits, levels: c.levels })
  return new Rendezvous(ids, options)
}

test('placement-v1-edges: file shape', () => {
  assert.equal(EDGES.placement, 'placement-v1-edges')
  assert.deepEqual([...new Set(EDGES.cases.map((c) => c.rule))].sort(), ['group-sum', 'id-length', 'key-length', 'seed', 'tie'])
})

test('placement-v1-edges: owner, rank and batch of every key of every case', () => {
  let checked = 0
  for (const c of EDGES.cases) {
    const s = build(c)
    const ids = c.nodes.map((n) => entryBytes(n, 'id').toString('hex'))
    const keys = c.keys.map((k) => entryBytes(k, 'key'))
    c.keys.forEach((k, i) => {
      const where = `${c.name}: key of ${keys[i].length} bytes`
      assert.equal(idHex(s.owner(keys[i])), ids[k.owner], where)
      assert.deepEqual(s.rank(keys[i]).map(idHex), k.ranked.map((j) => ids[j]), where)
      checked++
    })
    const offsets = new Uint32Array(keys.length + 1)
    keys.forEach((k, i) => { offsets[i + 1] = offsets[i] + k.length })
    const { indices } = s.ownerIndices(Buffer.concat(keys), offsets)
    assert.deepEqual([...indices], c.keys.map((k) => k.owner), c.name)
  }
  assert.equal(checked, EDGES.cases.reduce((n, c) => n + c.keys.length, 0))
})
