'use strict'
// table-balanced-caps-v1.json (SPEC.md section 17.2: caps computed exactly,
// where f64 arithmetic would differ) through the Node API: every key lists
// its partition's row. The expected values come from tests/spec.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous } = require('..')

const VECTORS_DIR = process.env.LONGSTRAW_VECTORS_DIR || path.join(__dirname, '..', '..', '..', 'tests', 'vectors')
const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

test('table-balanced-caps-v1 vectors: rows that depend on exact caps', () => {
  const v = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, 'table-balanced-caps-v1.json'), 'utf8'))
  assert.equal(v.placement, 'table-balanced-v1')
  let checked = 0
  for (const c of v.cases) {
    const ids = c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))
    const t = Rendezvous.table(ids, {
      seed: BigInt(c.seed),
      weights: c.nodes.map((n) => weightOf(n.weight_bits)),
      bits: c.bits,
      replicas: c.replicas,
      balance: c.balance_millionths / 1e6
    })
    for (const k of c.keys) {
      const key = Buffer.from(k.key_hex, 'hex')
      assert.deepEqual(t.topK(key, c.replicas + 2).map(idHex), k.list.map((i) => ids[i].toString('hex')), c.name)
      checked++
    }
  }
  assert.ok(checked > 0)
})
