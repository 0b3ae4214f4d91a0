'use strict'
// Async batches run off the main thread: the event loop keeps turning while a
// large batch is computed, inputs are copied, and results match sync ones.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous } = require('..')

function packed (n, width = 12) {
  const bytes = Buffer.alloc(n * width)
  const offsets = new Uint32Array(n + 1)
  for (let i = 0; i < n; i++) {
    bytes.write(`k${i}`.padEnd(width, '.'), i * width)
    offsets[i + 1] = (i + 1) * width
  }
  return { bytes, offsets }
}

test('a large async batch does not block the event loop', async () => {
  const r = new Rendezvous(Array.from({ length: 100 }, (_, i) => `node-${i}`))
  const { bytes, offsets } = packed(1_000_000)
  const expected = r.snapshot().ownerIndices(bytes, offsets)

  // The event loop keeps turning while the batch runs on the thread pool: a callback
  // scheduled after the call runs before the batch resolves, and a timer fires meanwhile.
  // (No wall-clock ratios: the machine's load would make them flaky.)
  let ticks = 0
  const timer = setInterval(() => { ticks++ }, 1)
  let immediateRan = false
  let resolvedFirst = false
  const promise = r.ownerIndicesAsync(bytes, offsets).then((out) => {
    resolvedFirst = !immediateRan
    return out
  })
  setImmediate(() => { immediateRan = true })
  const { indices } = await promise
  clearInterval(timer)
  assert.deepEqual(indices, expected)
  assert.ok(!resolvedFirst, 'the batch resolved before the event loop could run a callback')
  assert.ok(ticks > 0, 'no timer fired while a 1,000,000-key batch ran')
})

test('async batches copy their inputs', async () => {
  const r = new Rendezvous(['a', 'b', 'c', 'd'])
  const snap = r.snapshot()
  const { bytes, offsets } = packed(10000)
  const expected = snap.ownerIndices(bytes, offsets)
  const keys = Array.from({ length: 10000 }, (_, i) => bytes.subarray(offsets[i], offsets[i + 1]))
  const expectedIds = r.owners(keys)
  const p = snap.ownerIndicesAsync(bytes, offsets)
  const q = r.ownersAsync(keys)
  bytes.fill(0)
  offsets.fill(0)
  assert.deepEqual(await p, expected)
  assert.deepEqual(await q, expectedIds)
})

test('many concurrent async batches, with changes in between, each use their own snapshot', async () => {
  const r = new Rendezvous(['a', 'b', 'c'])
  const { bytes, offsets } = packed(20000)
  const pending = []
  for (let i = 0; i < 16; i++) {
    const snap = r.snapshot()
    pending.push([snap, snap.ownerIndices(bytes, offsets), r.ownerIndicesAsync(bytes, offsets)])
    r.add(`extra-${i}`)
  }
  for (const [snap, expected, promise] of pending) {
    const { indices, snapshot } = await promise
    assert.deepEqual(snapshot.nodes, snap.nodes)
    assert.deepEqual(indices, expected)
  }
})
