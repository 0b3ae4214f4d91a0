'use strict'
// tests/vectors/bounded-v1.json (SPEC.md section 16) through the Node API:
// scripted single-threaded acquire / release / add / remove / setWeight
// sequences, with the node each acquire must return and the in-flight total
// after every step. The expected values come from tests/spec (the independent
// implementation of the spec).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { BoundedLoad } = require('..')

const VECTORS_DIR = process.env.LONGSTRAW_VECTORS_DIR || path.join(__dirname, '..', '..', '..', 'tests', 'vectors')

const fromBits = (hex) => Buffer.from(hex, 'hex').readDoubleBE(0)
const hex = (h) => Buffer.from(h, 'hex')
// A node id comes back as a string when it is valid UTF-8, else as a Buffer.
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')

function build (c) {
  const ids = c.nodes.map((n) => hex(n.id_hex))
  const options = { balanceFactor: fromBits(c.balance_factor_bits), weights: c.nodes.map((n) => fromBits(n.weight_bits)) }
  if (c.secret_hex !== null) options.secret = hex(c.secret_hex)
  else options.seed = BigInt(c.seed)
  return new BoundedLoad(ids, options)
}

test('bounded-v1 vectors: every acquire takes the node the spec gives', () => {
  const v = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, 'bounded-v1.json'), 'utf8'))
  assert.equal(v.placement, 'bounded-v1')
  let checked = 0
  for (const c of v.cases) {
    const b = build(c)
    const leases = new Map()
    c.ops.forEach((op, i) => {
      const where = `${c.name}, op ${i}`
      switch (op.op) {
        case 'acquire':
          if (op.node_hex === null) {
            assert.throws(() => b.acquire(hex(op.key_hex)), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' }, where)
          } else {
            const lease = b.acquire(hex(op.key_hex))
            assert.equal(idHex(lease.node), op.node_hex, where)
            leases.set(i, lease)
          }
          break
        case 'release':
          leases.get(op.acquire).release()
          leases.delete(op.acquire)
          break
        case 'add':
          b.add(hex(op.id_hex), fromBits(op.weight_bits))
          break
        case 'remove':
          b.remove(hex(op.id_hex))
          break
        case 'set_weight':
          b.setWeight(hex(op.id_hex), fromBits(op.weight_bits))
          break
        default:
          assert.fail(`${where}: unknown op ${op.op}`)
      }
      assert.equal(b.inFlight, op.in_flight, `${where}: inFlight`)
      checked++
    })
    for (const lease of leases.values()) lease.release()
  }
  assert.ok(checked > 1000, `only ${checked} ops checked`)
})
