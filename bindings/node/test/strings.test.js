'use strict'
// Long and non-ASCII strings read in full, not cut short. A string and the
// Buffer of its UTF-8 bytes are the same key; the Buffer path borrows the bytes
// as they are, so it is the independent reference for the string path.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous } = require('..')

// Strings whose UTF-8 form crosses 127/128/255/256/1024/65535 bytes with a
// 2-, 3- or 4-byte character straddling the boundary.
function straddling () {
  const out = []
  for (const boundary of [127, 128, 255, 256, 1024, 65535]) {
    for (const ch of ['é', '€', '😀']) {
      const width = Buffer.byteLength(ch)
      for (let shift = 0; shift < width + 1; shift++) {
        const prefix = 'a'.repeat(Math.max(0, boundary - shift))
        out.push(prefix + ch.repeat(3) + 'z')
      }
    }
  }
  return out
}

test('a long non-ASCII string places like its Buffer', () => {
  const r = new Rendezvous(['a', 'b', 'c', 'd', 'e'])
  const s = 'é'.repeat(128)
  assert.equal(r.owner(s), r.owner(Buffer.from(s)))
})

test('string keys straddling every length boundary place like their Buffers', () => {
  const r = new Rendezvous(Array.from({ length: 64 }, (_, i) => `node-${i}`))
  const t = Rendezvous.table(Array.from({ length: 16 }, (_, i) => `node-${i}`), { bits: 8, replicas: 2 })
  const keys = straddling()
  for (const s of keys) {
    const b = Buffer.from(s)
    assert.equal(r.owner(s), r.owner(b), `owner of a ${b.length}-byte string`)
    assert.deepEqual(r.topK(s, 5), r.topK(b, 5), `topK of a ${b.length}-byte string`)
    assert.equal(r.snapshot().ownerIndex(s), r.snapshot().ownerIndex(b))
    assert.equal(t.owner(s), t.owner(b))
  }
  assert.deepEqual(r.owners(keys), r.owners(keys.map((s) => Buffer.from(s))))
  // Many keys that differ only past byte 254: the old path merged all of them.
  const owners = new Set(Array.from({ length: 200 }, (_, i) => r.owner('é'.repeat(128) + i)))
  assert.ok(owners.size > 30, `200 distinct long keys landed on only ${owners.size} of 64 nodes`)
})

test('long ids that share a 254-byte prefix are distinct nodes, read in full', () => {
  const ids = ['x', 'y', 'z'].map((c) => 'é'.repeat(128) + c)
  const r = new Rendezvous(ids)
  assert.deepEqual([...r.nodes].sort(), [...ids].sort())
  assert.equal(r.has(ids[1]), true)
  assert.equal(r.has('é'.repeat(127)), false)
  r.remove(ids[2])
  assert.equal(r.nodes.length, 2)
  assert.throws(() => new Rendezvous([ids[0], ids[0]]), { code: 'ERR_LONGSTRAW_DUPLICATE_NODE' })
})

test('node ids over 65,535 UTF-8 bytes are a RangeError however they are spelled', () => {
  const limit = 'é'.repeat(32767) + 'a' // 65,535 bytes: the largest allowed id
  assert.equal(Buffer.byteLength(limit), 65535)
  assert.equal(new Rendezvous([limit]).owner('k'), limit)
  for (const id of [limit + 'a', 'é'.repeat(32768), '€'.repeat(21846), 'x'.repeat(65536)]) {
    assert.throws(() => new Rendezvous([id]), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_NODE_ID' })
    const r = new Rendezvous(['a'])
    assert.throws(() => r.add(id), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_NODE_ID' })
  }
})

test('a lone surrogate is a TypeError at any position, in keys, ids and domains', () => {
  const r = new Rendezvous(['a', 'b'])
  for (const at of [0, 1, 127, 128, 200, 253, 254, 255, 256, 1000, 70000]) {
    for (const lone of ['\uD800', '\uDFFF']) {
      const s = 'é'.repeat(at >> 1) + (at & 1 ? 'a' : '') + lone + 'tail'
      const inv = { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' }
      assert.throws(() => r.owner(s), inv, `lone surrogate after ${at} units`)
      assert.throws(() => r.owners(['ok', s]), inv)
      assert.throws(() => r.topKDistinct(s, 2), inv)
      assert.throws(() => new Rendezvous([s]), inv)
      assert.throws(() => new Rendezvous(['a'], { domains: [s] }), inv)
    }
  }
  // A real U+FFFD is an ordinary character.
  assert.equal(r.owner('\uFFFD'.repeat(100)), r.owner(Buffer.from('\uFFFD'.repeat(100))))
})

test('long domain labels that share a 254-byte prefix stay distinct domains', () => {
  const labels = ['p', 'q', 'r', 's'].map((c) => 'é'.repeat(128) + c)
  const r = new Rendezvous(['n0', 'n1', 'n2', 'n3'], { domains: labels })
  assert.deepEqual(r.domains, labels)
  for (let i = 0; i < 50; i++) assert.equal(r.topKDistinct(`key-${i}`, 4).length, 4)
})
