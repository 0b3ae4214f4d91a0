'use strict'
// tests/validation/rules.json: every input rule, with the error class, its
// stable code and a message fragment. The table is shared by every language's
// tests; this file maps its operations onto the Node API.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous } = require('..')

const TABLE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'tests', 'validation', 'rules.json'), 'utf8'))
const LANG = 'node'

const bytesOf = (v) => (typeof v === 'object' ? Buffer.alloc(v.len, 'x') : Buffer.from(v))
const expr = (c) => (0, eval)(typeof c.expr === 'object' ? c.expr[LANG] : c.expr) // eslint-disable-line no-eval

function hexFloat (s) {
  const m = /^(-?)0x([01])\.?([0-9a-f]*)p([+-]?\d+)$/i.exec(s)
  const mantissa = parseInt(m[2] + m[3], 16) / 16 ** m[3].length
  return (m[1] ? -1 : 1) * mantissa * 2 ** Number(m[4])
}

function weightOf (v) {
  if (typeof v !== 'string') return v
  return { nan: NaN, inf: Infinity, '-inf': -Infinity, '-0.0': -0 }[v] ?? hexFloat(v)
}

// A view whose ArrayBuffer was then transferred away (it reads as length 0).
function detachedView (Ctor, len) {
  const buf = new ArrayBuffer(len)
  const view = new Ctor(buf)
  structuredClone(buf, { transfer: [buf] })
  assert.equal(view.length, 0)
  return view
}

function run (op, c) {
  switch (op) {
    case 'ids': return new Rendezvous(c.ids.map(bytesOf))
    case 'remove': return new Rendezvous(['a']).remove(bytesOf(c.id))
    case 'weight': return new Rendezvous(['a'], { weights: ['expr' in c ? expr(c) : weightOf(c.weight)] })
    case 'seed': return new Rendezvous(['a'], { seed: expr(c) })
    case 'k': {
      const r = new Rendezvous(['a', 'b'])
      const got = r.topK('key', c.k)
      assert.deepEqual(r.topKDistinct('key', c.k).slice(0, got.length), got)
      return got
    }
    case 'partition_bits': return Rendezvous.table(['a'], { bits: c.bits })
    case 'replicas': return Rendezvous.table(['a'], { replicas: c.replicas })
    case 'shape': return Rendezvous.skeleton(['a'], { fanoutBits: c.shape[0], levels: c.shape[1] })
    case 'domain': return new Rendezvous(['a'], { domains: [bytesOf(c.label)] })
    case 'placement': return new Rendezvous(['a'], { placement: c.placement })
    case 'offsets': return new Rendezvous(['a']).ownerIndices(Buffer.from(c.bytes), Uint32Array.from(c.offsets))
    case 'key': return new Rendezvous(['a']).owner(expr(c))
    case 'detached': {
      const r = new Rendezvous(['a'])
      if (c.what === 'key') return r.owner(detachedView(Uint8Array, 8))
      if (c.what === 'batch bytes') return r.ownerIndices(detachedView(Uint8Array, 8), new Uint32Array([0, 0]))
      return r.ownerIndices(Buffer.from('abcd'), detachedView(Uint32Array, 8))
    }
  }
  throw new Error(`unknown op ${op}`)
}

const fragment = (c) => {
  const m = c.message ?? ''
  return typeof m === 'object' ? (m[LANG] ?? m.default ?? '') : m
}

let count = 0
for (const rule of TABLE.rules) {
  rule.cases.forEach((c, i) => {
    if (!(c.langs ?? rule.langs).includes(LANG)) return
    count++
    test(`validation: ${rule.rule} #${i}`, () => {
      if (c.ok) {
        const got = run(rule.op, c)
        if ('result' in c) assert.deepEqual(got, c.result)
        return
      }
      const [cls, code] = TABLE.classes[c.error][LANG]
      let caught
      try { run(rule.op, c) } catch (e) { caught = e }
      assert.ok(caught, `${rule.rule} #${i}: nothing was thrown`)
      assert.equal(caught.constructor.name, cls, `${rule.rule} #${i}: ${caught.constructor.name}: ${caught.message}`)
      assert.equal(caught.code, code, caught.message)
      assert.ok(caught.message.includes(fragment(c)), `${rule.rule} #${i}: message ${JSON.stringify(caught.message)} lacks ${JSON.stringify(fragment(c))}`)
    })
  })
}

test('validation: the table has cases for node', () => {
  assert.ok(count >= 50, `only ${count} cases`)
})
