'use strict'
// Placements for a small demo corpus, and what moves when a node joins,
// leaves, or is drained. `make demo-node` runs it.
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous, backend } = require('..')

// The cross-language check of `make demo`: the owners of user:0..user:19 over
// cache-0..cache-9 go to build/demo/placements-node.txt, compared with Rust's.
function writePlacements () {
  const ring = new Rendezvous(Array.from({ length: 10 }, (_, i) => `cache-${i}`))
  const lines = Array.from({ length: 20 }, (_, i) => `user:${i}\t${ring.owner(`user:${i}`)}\n`)
  const dir = path.join(__dirname, '..', '..', '..', 'build', 'demo')
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'placements-node.txt'), lines.join(''))
}
writePlacements()

const nodes = ['cache-a', 'cache-b', 'cache-c', 'cache-d']
const corpus = Array.from({ length: 10000 }, (_, i) => `user:${i}`)
const shown = ['user:1', 'user:42', 'user:1337', 'session:abc', 'órbita/ñ', '🙂']

const r = new Rendezvous(nodes, { seed: 0 })
console.log(`longstraw (node) placement v${r.placement}, backend ${backend()}, nodes: ${r.nodes.join(', ')}`)
for (const k of shown) console.log(`  ${JSON.stringify(k).padEnd(14)} -> ${r.owner(k).padEnd(8)} top3 ${r.topK(k, 3).join(' > ')}`)

const count = (owners) => new Map([...owners.reduce((m, o) => m.set(o, (m.get(o) || 0) + 1), new Map())].sort())
const describe = (before, after) => {
  const moves = new Map()
  before.forEach((b, i) => {
    if (b !== after[i]) moves.set(`${b} -> ${after[i]}`, (moves.get(`${b} -> ${after[i]}`) || 0) + 1)
  })
  const total = [...moves.values()].reduce((a, b) => a + b, 0)
  const detail = [...moves].sort().map(([m, n]) => `${m}: ${n}`).join(', ')
  return `${total} of ${corpus.length} keys moved (${(100 * total / corpus.length).toFixed(1)}%)${total ? ': ' + detail : ''}`
}

const base = r.owners(corpus)
console.log(`\n${corpus.length} keys: ${[...count(base)].map(([n, c]) => `${n} ${c}`).join(', ')}`)

r.add('cache-e')
const added = r.owners(corpus)
console.log(`add cache-e:        ${describe(base, added)}`)

r.remove('cache-b')
const removed = r.owners(corpus)
console.log(`remove cache-b:     ${describe(added, removed)}`)

r.setWeight('cache-c', 0)
const drained = r.owners(corpus)
console.log(`drain cache-c (w=0): ${describe(removed, drained)}`)

r.setWeight('cache-a', 2)
const weighted = r.owners(corpus)
console.log(`cache-a weight 2:   ${describe(drained, weighted)}`)
console.log(`final shares: ${[...count(weighted)].map(([n, c]) => `${n} ${(100 * c / corpus.length).toFixed(1)}%`).join(', ')}`)
