'use strict'
// Rendezvous.tableAsync builds a table-mode set on the thread pool: the event loop keeps turning
// during a large build, the set equals the one Rendezvous.table builds, and bad arguments reject the
// promise with Rendezvous.table's error.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Rendezvous } = require('..')

const ids = (n) => Array.from({ length: n }, (_, i) => `node-${i}`)

test('a large Rendezvous.tableAsync does not block the event loop', async () => {
  // 2^16 partitions ranked over 3000 nodes: long enough for several timer turns.
  const nodes = ids(3000)
  const options = { bits: 16, replicas: 2 }
  let ticks = 0
  const timer = setInterval(() => { ticks++ }, 1)
  let immediateRan = false
  let resolvedFirst = false
  const promise = Rendezvous.tableAsync(nodes, options).then((t) => {
    resolvedFirst = !immediateRan
    return t
  })
  setImmediate(() => { immediateRan = true })
  const built = await promise
  clearInterval(timer)
  // Counted, not timed: the machine's load would make wall-clock ratios flaky.
  assert.ok(!resolvedFirst, 'the build resolved before the event loop could run a callback')
  assert.ok(ticks > 0, 'no timer fired while a 3000-node table was built')

  assert.ok(built instanceof Rendezvous)
  assert.equal(built.mode, 'table')
  const sync = Rendezvous.table(nodes, options)
  assert.equal(built.partitionBits, 16)
  assert.equal(built.replicas, 2)
  for (let i = 0; i < 2000; i++) {
    const key = `user:${i}`
    assert.equal(built.owner(key), sync.owner(key), key)
    assert.deepEqual(built.topK(key, 2), sync.topK(key, 2), key)
  }
})

test('Rendezvous.tableAsync passes every option through', async () => {
  const nodes = ids(40)
  const options = {
    weights: nodes.map((_, i) => 1 + (i % 3)),
    seed: 7n,
    domains: nodes.map((_, i) => `rack-${i % 5}`),
    bits: 10,
    replicas: 3,
    distinctDomains: true
  }
  const built = await Rendezvous.tableAsync(nodes, options)
  const sync = Rendezvous.table(nodes, options)
  assert.equal(built.distinctDomains, true)
  for (let i = 0; i < 500; i++) {
    const key = `k${i}`
    assert.deepEqual(built.topK(key, 3), sync.topK(key, 3), key)
  }
})

test('Rendezvous.tableAsync rejects bad arguments with the error Rendezvous.table throws', async () => {
  const cases = [
    [['a', 'b'], { weights: [1, -1] }],
    [['a', 'a'], undefined],
    ['not an array', undefined],
    [['a'], { bits: 99 }],
    [['a'], { bogus: true }]
  ]
  for (const [nodes, options] of cases) {
    let thrown
    try { Rendezvous.table(nodes, options) } catch (e) { thrown = e } // eslint-disable-line no-new
    assert.ok(thrown, `the constructor accepted ${JSON.stringify([nodes, options])}`)
    await assert.rejects(Rendezvous.tableAsync(nodes, options), (e) => {
      assert.equal(e.constructor, thrown.constructor)
      assert.equal(e.code, thrown.code)
      assert.equal(e.message, thrown.message)
      return true
    })
  }
})
