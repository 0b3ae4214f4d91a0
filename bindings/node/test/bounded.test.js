'use strict'
// BoundedLoad (SPEC.md section 16): acquire is the owner while it has room,
// caps hold, drained and removed nodes behave, bad input throws.
const test = require('node:test')
const assert = require('node:assert/strict')
const { BoundedLoad, Rendezvous } = require('..')

const nodes = (n) => Array.from({ length: n }, (_, i) => `node-${i}`)
const loadsOf = (b) => Object.fromEntries(b.loads())

test('acquire returns the owner while it has room, and release ends the request', () => {
  const ids = nodes(50)
  const b = new BoundedLoad(ids)
  const r = new Rendezvous(ids)
  assert.equal(b.balanceFactor, 1.25)
  for (let i = 0; i < 500; i++) {
    const key = `user:${i}`
    const lease = b.acquire(key)
    assert.equal(lease.node, r.owner(key))
    assert.ok(lease.isOwner && lease.active)
    assert.equal(b.inFlight, 1)
    lease.release()
    assert.ok(!lease.active)
    lease.release() // again does nothing
  }
  assert.equal(b.inFlight, 0)
})

test('one caller never exceeds the cap ceil(1.25 * (total + 1) / n)', () => {
  const n = 10
  const b = new BoundedLoad(nodes(n), { balanceFactor: 1.25 })
  const held = []
  for (let i = 0; i < 400; i++) {
    const total = b.inFlight
    const lease = b.acquire('hot')
    assert.ok(loadsOf(b)[lease.node] <= Math.ceil((1.25 * (total + 1)) / n))
    held.push(lease)
  }
  // A single hot key fills the first n / c = 8 nodes of its ranking to their caps.
  assert.ok(Object.values(loadsOf(b)).filter((l) => l > 0).length >= n / 1.25, 'a hot key spreads')
  for (const l of held) l.release()
  assert.equal(b.inFlight, 0)
})

test('a drained node takes nothing new; removal with leases out keeps totals right', () => {
  const ids = nodes(6)
  const b = new BoundedLoad(ids)
  const held = Array.from({ length: 60 }, (_, i) => b.acquire(`k${i}`))
  const victim = new Rendezvous(ids).owner('hot')
  const before = loadsOf(b)[victim]
  b.setWeight(victim, 0)
  for (let i = 0; i < 200; i++) {
    const lease = b.acquire(i % 2 ? 'hot' : `x${i}`)
    assert.notEqual(lease.node, victim)
    lease.release()
  }
  assert.equal(loadsOf(b)[victim], before)
  const onRemoved = held.filter((l) => l.node === 'node-3').length
  b.remove('node-3')
  assert.equal(b.inFlight, 60)
  assert.equal(Object.values(loadsOf(b)).reduce((a, x) => a + x, 0), 60 - onRemoved)
  assert.ok(!('node-3' in loadsOf(b)))
  for (const l of held) l.release()
  assert.equal(b.inFlight, 0)
  assert.ok(Object.values(loadsOf(b)).every((l) => l === 0))
})

test('bad input throws a clear error', () => {
  for (const c of [1, 0.5, NaN, Infinity]) {
    assert.throws(() => new BoundedLoad(['a'], { balanceFactor: c }), { code: 'ERR_LONGSTRAW_INVALID_PARAMETER' })
  }
  assert.throws(() => new BoundedLoad(['a'], { balanceFactor: '2' }), TypeError)
  assert.throws(() => new BoundedLoad(['a'], { domains: ['r'] }), TypeError)
  assert.throws(() => new BoundedLoad([]).acquire('k'), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' })
  assert.throws(() => new BoundedLoad(['a']).acquire(42), TypeError)
  assert.throws(() => new BoundedLoad(['a']).remove('zz'), { code: 'ERR_LONGSTRAW_UNKNOWN_NODE' })
})
