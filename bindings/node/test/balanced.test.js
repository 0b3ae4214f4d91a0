'use strict'
// Balanced tables (SPEC.md section 17) through the Node API: every case of
// table-balanced-v1.json, the option's errors, and changes against a fresh build.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous } = require('..')

const VECTORS_DIR = process.env.LONGSTRAW_VECTORS_DIR || path.join(__dirname, '..', '..', '..', 'tests', 'vectors')
const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

function build (c) {
  const ids = c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))
  const t = Rendezvous.table(ids, {
    seed: BigInt(c.seed),
    weights: c.nodes.map((n) => weightOf(n.weight_bits)),
    bits: c.bits,
    replicas: c.replicas,
    balance: c.balance_millionths / 1e6
  })
  return { ids, t }
}

test('table-balanced-v1 vectors: each key lists its partition row, and nothing past it', () => {
  const file = path.join(VECTORS_DIR, 'table-balanced-v1.json')
  const v = JSON.parse(fs.readFileSync(file, 'utf8'))
  assert.equal(v.placement, 'table-balanced-v1')
  let checked = 0
  for (const c of v.cases) {
    const { ids, t } = build(c)
    assert.equal(t.balance, c.balance_millionths / 1e6)
    for (const k of c.keys) {
      const key = Buffer.from(k.key_hex, 'hex')
      const want = k.list.map((i) => ids[i].toString('hex'))
      assert.deepEqual(t.topK(key, c.replicas + 2).map(idHex), want, c.name)
      if (want.length === 0) {
        assert.throws(() => t.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' })
      } else {
        assert.equal(idHex(t.owner(key)), want[0], c.name)
      }
      checked++
    }
  }
  assert.equal(checked, 10 * v.cases.length)
})

test('balance out of range is a RangeError, a non-number a TypeError', () => {
  for (const bad of [0.5, 0.9999994, 4.5, NaN, Infinity, -1]) {
    assert.throws(() => Rendezvous.table(['a', 'b'], { balance: bad }), (e) => e instanceof RangeError && /balance/.test(e.message), String(bad))
  }
  for (const bad of ['1.05', true, 1n, null, [1.05]]) {
    assert.throws(() => Rendezvous.table(['a', 'b'], { balance: bad }), (e) => e instanceof TypeError && /balance/.test(e.message), String(bad))
  }
  assert.throws(() => Rendezvous.table(['a', 'b'], { balance: 1.05, distinctDomains: true }), RangeError)
  assert.equal(Rendezvous.table(['a']).balance, null)
})

test('changes to a balanced table equal a fresh build; a drained node owns nothing', () => {
  const nodes = Array.from({ length: 30 }, (_, i) => 'n' + i)
  const t = Rendezvous.table(nodes, { bits: 10, replicas: 2, balance: 1.01 })
  t.add('extra', 2)
  t.remove('n3')
  t.setWeight('n4', 0)
  const fresh = Rendezvous.table(t.nodes, { weights: t.weights, bits: 10, replicas: 2, balance: 1.01 })
  for (let i = 0; i < 2000; i++) {
    const key = 'k' + i
    assert.deepEqual(t.topK(key, 2), fresh.topK(key, 2))
    assert.ok(!t.topK(key, 2).includes('n4'))
  }
})
