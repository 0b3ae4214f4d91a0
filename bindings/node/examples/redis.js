'use strict'
// longstraw choosing the Redis instance for each key (ioredis): four local
// redis-server instances, 5000 keys written to their owners, then one
// instance stopped. Only the keys it held move; every other key stays put.
//
//   node bindings/node/examples/redis.js
const { Redis } = require('ioredis')
const { Rendezvous } = require('..')
const { ensureRedisServer, startServers } = require('./lib/redis-servers')

const KEY_COUNT = 5000

function client (server) {
  return new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: () => null })
}

/** Writes each key to the instance longstraw picks, one pipeline per instance. */
async function writeAll (ring, clients, keys) {
  const owners = ring.owners(keys)
  const byNode = new Map()
  keys.forEach((k, i) => {
    if (!byNode.has(owners[i])) byNode.set(owners[i], clients.get(owners[i]).pipeline())
    byNode.get(owners[i]).set(k, `value-of-${k}`)
  })
  await Promise.all([...byNode.values()].map((p) => p.exec()))
  return owners
}

async function keysOn (c) {
  return new Set(await c.keys('*'))
}

async function run ({ log = console.log, instances = 4 } = {}) {
  const avail = ensureRedisServer()
  if (!avail.bin) return { skipped: avail.reason }
  const servers = await startServers(avail.bin, instances)
  const clients = new Map()
  try {
    for (const s of servers) clients.set(s.name, client(s))
    const ring = new Rendezvous(servers.map((s) => s.name))
    const keys = Array.from({ length: KEY_COUNT }, (_, i) => `user:${i}`)
    const before = await writeAll(ring, clients, keys)
    const held = new Map()
    for (const s of servers) held.set(s.name, await keysOn(clients.get(s.name)))
    log(`wrote ${KEY_COUNT} keys to ${servers.length} redis-server instances:`)
    for (const s of servers) log(`  ${s.name} (127.0.0.1:${s.port}): ${held.get(s.name).size} keys`)

    const victim = servers[1]
    await clients.get(victim.name).quit()
    clients.delete(victim.name)
    await victim.stop()
    ring.remove(victim.name)
    log(`stopped ${victim.name}; longstraw now places keys on ${ring.nodes.join(', ')}`)

    const after = ring.owners(keys)
    const moved = keys.filter((_, i) => after[i] !== before[i])
    const movedOffVictim = keys.filter((_, i) => after[i] !== before[i] && before[i] === victim.name)
    // Every key not on the stopped instance is still read from where it was written.
    let stillThere = 0
    const survivors = servers.filter((s) => s !== victim)
    for (const s of survivors) {
      const mine = keys.filter((_, i) => after[i] === s.name && before[i] === s.name)
      const values = mine.length ? await clients.get(s.name).mget(mine) : []
      stillThere += values.filter((v, i) => v === `value-of-${mine[i]}`).length
    }
    // Refill the moved keys on their new owners (what a cache would do on a miss).
    await writeAll(ring, clients, moved)
    log(`${moved.length} keys moved (${(100 * moved.length / KEY_COUNT).toFixed(1)}%); ${movedOffVictim.length} of them were on ${victim.name}, which held ${held.get(victim.name).size}`)
    log(`${stillThere} keys stayed on their instance and were read back unchanged`)
    return {
      servers: servers.map((s) => s.name),
      victim: victim.name,
      held,
      keys,
      before,
      after,
      moved,
      movedOffVictim,
      stillThere,
      finalHeld: new Map(await Promise.all(survivors.map(async (s) => [s.name, await keysOn(clients.get(s.name))])))
    }
  } finally {
    await Promise.all([...clients.values()].map((c) => c.quit().catch(() => c.disconnect())))
    await Promise.all(servers.map((s) => s.stop()))
  }
}

module.exports = { run }

if (require.main === module) {
  run().then((r) => {
    if (r.skipped) console.error(`redis example SKIPPED: ${r.skipped}`)
  }, (e) => { console.error(e); process.exitCode = 1 })
}
