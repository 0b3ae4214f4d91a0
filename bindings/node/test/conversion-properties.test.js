'use strict'
// The addon's string, Buffer and offset conversions under random
// input (fast-check). They read JavaScript values through Node-API, so no
// cargo-fuzz target can reach them without a Node runtime; these properties
// feed them random Unicode, binary and long keys and random offsets, and judge
// them by the packed byte form of SPEC §8 (keys concatenated, n + 1
// non-decreasing offsets, the last within the buffer), built here from the
// keys' UTF-8 bytes.
const test = require('node:test')
const assert = require('node:assert/strict')
const fc = require('fast-check')
const { Rendezvous } = require('..')

const NODES = ['alpha', 'beta', 'gamma', 'δέλτα', 'e😀', 'f']
const WEIGHTS = [1, 2, 0.5, 1, 3, 0]
const RUNS = { numRuns: 200, seed: 20 }

function set () {
  return new Rendezvous(NODES, { weights: WEIGHTS, seed: 0x5eedf022n })
}

// Any code point (astral ones included), raw bytes, and long keys on both
// sides of the lengths where the string reader changes buffers.
const key = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.string({ unit: 'binary', minLength: 100, maxLength: 700 }),
  fc.uint8Array({ minLength: 1000, maxLength: 5000 }).map((a) => Buffer.from(a))
)

function utf8 (k) {
  return typeof k === 'string' ? Buffer.from(k, 'utf8') : k
}

test('random keys place alike as strings, Buffers and one packed batch (SPEC §8)', () => {
  const r = set()
  const snap = r.snapshot()
  fc.assert(
    fc.property(fc.array(key, { maxLength: 30 }), fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }),
      (keys, before, after) => {
        const body = keys.map(utf8)
        const bytes = Buffer.concat([before, ...body, after])
        const offsets = [before.length]
        for (const b of body) offsets.push(offsets[offsets.length - 1] + b.length)
        const packed = [...snap.ownerIndices(bytes, Uint32Array.from(offsets))]
        assert.deepEqual([...snap.ownerIndices(bytes, BigUint64Array.from(offsets.map(BigInt)))], packed)
        assert.deepEqual(keys.map((k) => snap.ownerIndex(utf8(k))), packed)
        assert.deepEqual(keys.map((k) => snap.ownerIndex(k)), packed, 'a string places like its UTF-8 bytes')
        assert.deepEqual(r.owners(keys), packed.map((i) => snap.nodes[i]))
      }),
    RUNS
  )
})

test('a lone surrogate anywhere in a key is a TypeError, never a replacement character', () => {
  const r = set()
  const inv = { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' }
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.nat(), fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
      (text, at, lone) => {
        const units = text.length
        let cut = at % (units + 1)
        // Cut between code points only, so that the lone unit stays alone.
        if (cut > 0 && cut < units && /[\uDC00-\uDFFF]/.test(text[cut])) cut -= 1
        const bad = text.slice(0, cut) + lone + text.slice(cut)
        assert.throws(() => r.owner(bad), inv)
        assert.throws(() => r.owners(['ok', bad]), inv)
      }),
    RUNS
  )
})

// SPEC §8: non-decreasing, the last within the buffer (no offsets: no keys).
function specValid (offsets, size) {
  for (let i = 1; i < offsets.length; i++) if (offsets[i] < offsets[i - 1]) return false
  return offsets.length === 0 || offsets[offsets.length - 1] <= BigInt(size)
}

test('random offsets are placed by the SPEC §8 rule or refused, and out is left alone on failure', () => {
  const snap = set().snapshot()
  const offset = fc.oneof(fc.bigInt(0n, 40n), fc.constantFrom(2n ** 32n - 1n, 2n ** 32n, 2n ** 63n - 1n, 2n ** 64n - 1n))
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 32 }), fc.array(offset, { maxLength: 12 }), fc.boolean(),
      (raw, offs, wide) => {
        const bytes = Buffer.from(raw)
        if (!wide && offs.some((o) => o > 0xffffffffn)) return
        const offsets = wide ? BigUint64Array.from(offs) : Uint32Array.from(offs.map(Number))
        const n = Math.max(offs.length - 1, 0)
        const out = new Uint32Array(n).fill(0xdeadbeef)
        if (specValid(offs, bytes.length)) {
          const want = []
          for (let i = 0; i < n; i++) want.push(snap.ownerIndex(bytes.subarray(Number(offs[i]), Number(offs[i + 1]))))
          assert.deepEqual([...snap.ownerIndices(bytes, offsets, out)], want)
        } else {
          assert.throws(() => snap.ownerIndices(bytes, offsets, out), (e) => e instanceof RangeError || e instanceof TypeError)
          assert.ok(out.every((v) => v === 0xdeadbeef), 'a refused batch wrote into out')
        }
      }),
    RUNS
  )
})
