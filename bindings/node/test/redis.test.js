'use strict'
// Real Redis: several redis-server instances on loopback, longstraw picking the
// instance per key through ioredis. Stopping one moves only its keys.
const test = require('node:test')
const assert = require('node:assert/strict')
const { run } = require('../examples/redis')
const { runningCount } = require('../examples/lib/redis-servers')

const keysOf = (keys, owners, name) => new Set(keys.filter((_, i) => owners[i] === name))

test('redis: only the stopped instance\'s keys move', async (t) => {
  const lines = []
  const r = await run({ log: (l) => lines.push(l) })
  if (r.skipped) {
    console.error(`\n*** SKIPPED redis integration test: ${r.skipped} ***\n`)
    t.skip(r.skipped)
    return
  }
  assert.equal(runningCount(), 0, 'redis-server instances left running')
  // Each instance held exactly the keys longstraw gave it.
  for (const name of r.servers) {
    assert.deepEqual(r.held.get(name), keysOf(r.keys, r.before, name), name)
    assert.ok(r.held.get(name).size > 0, `${name} got no keys`)
  }
  const victimKeys = r.held.get(r.victim)
  // Everything the stopped instance held moved; nothing else did.
  assert.equal(r.moved.length, victimKeys.size)
  assert.equal(r.movedOffVictim.length, victimKeys.size)
  assert.equal(r.stillThere, r.keys.length - victimKeys.size)
  // After refilling, each survivor holds its old keys plus its share of the moved ones.
  for (const [name, held] of r.finalHeld) {
    assert.deepEqual(held, keysOf(r.keys, r.after, name), name)
    for (const k of r.held.get(name)) assert.ok(held.has(k), `${k} left ${name}`)
  }
  assert.ok(lines.some((l) => l.includes('keys moved')))
})

test('redis: servers are stopped when the run fails half way', async (t) => {
  let calls = 0
  const failing = () => { if (++calls === 2) throw new Error('injected failure') }
  let result
  try {
    result = await run({ log: failing, instances: 2 })
  } catch (e) {
    assert.equal(e.message, 'injected failure')
  }
  if (result && result.skipped) {
    t.skip(result.skipped)
    return
  }
  assert.equal(calls, 2, 'the injected failure did not happen')
  assert.equal(runningCount(), 0, 'redis-server instances left running after a failure')
})
