'use strict'
// Behaviour of the API: membership, snapshots, ids, minimal movement, weights,
// the ESM entry and backend selection.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const longstraw = require('..')
const { Rendezvous, Snapshot, backend, PLACEMENT } = longstraw

const keys = (n, prefix = 'key:') => Array.from({ length: n }, (_, i) => prefix + i)

test('membership: add, remove, setWeight, has, size, nodes, weights', () => {
  const r = new Rendezvous(['a', 'b'])
  assert.equal(r.size, 2)
  r.add('c')
  r.add('d', 2.5)
  assert.deepEqual(r.nodes, ['a', 'b', 'c', 'd'])
  assert.deepEqual(r.weights, [1, 1, 1, 2.5])
  assert.ok(r.has('c') && r.has(Buffer.from('d')) && !r.has('e'))
  r.remove('b')
  assert.deepEqual(r.nodes, ['a', 'c', 'd'])
  r.setWeight('a', 0)
  assert.deepEqual(r.weights, [0, 1, 2.5])
  assert.equal(r.size, 3)
  assert.equal(r.snapshot().eligible, 2)
  assert.equal(r.placement, PLACEMENT)
  assert.equal(r.seed, 0n)
  assert.equal(typeof r.backend, 'string')
})

test('ids: strings stay strings, non-UTF-8 ids come back as Buffers', () => {
  const bin = Buffer.from([0xff, 0xfe, 0x00])
  const r = new Rendezvous(['text', Buffer.from('buf'), new Uint8Array([0x61, 0x62]), bin])
  const nodes = r.nodes
  assert.deepEqual(nodes.slice(0, 3), ['text', 'buf', 'ab'])
  assert.ok(Buffer.isBuffer(nodes[3]) && nodes[3].equals(bin))
  const owners = new Set(r.owners(keys(2000)).map((id) => Buffer.from(id).toString('hex')))
  assert.equal(owners.size, 4, 'every node owns some of 2000 keys')
  // A key as string, Buffer and Uint8Array is the same key.
  for (const k of keys(50)) {
    const b = Buffer.from(k)
    assert.deepEqual(r.rank(k), r.rank(b))
    assert.deepEqual(r.rank(k), r.rank(new Uint8Array(b)))
  }
})

test('snapshots are immutable and tie indices to their nodes', () => {
  const r = new Rendezvous(['a', 'b', 'c'])
  const s1 = r.snapshot()
  const bytes = Buffer.from(keys(100).join(''))
  const offsets = new Uint32Array(101)
  keys(100).forEach((k, i) => { offsets[i + 1] = offsets[i] + k.length })
  const idx1 = s1.ownerIndices(bytes, offsets)
  r.remove('a')
  r.add('z')
  assert.deepEqual(s1.nodes, ['a', 'b', 'c'])
  assert.deepEqual(r.nodes, ['b', 'c', 'z'])
  assert.ok(r.snapshot().generation > s1.generation)
  // The old snapshot still answers for the old membership.
  assert.deepEqual([...s1.ownerIndices(bytes, offsets)], [...idx1])
  for (let i = 0; i < 100; i++) {
    const key = bytes.subarray(offsets[i], offsets[i + 1])
    assert.equal(s1.nodes[idx1[i]], s1.owner(key))
  }
  // Rendezvous#ownerIndices returns the snapshot its indices belong to.
  const { indices, snapshot } = r.ownerIndices(bytes, offsets)
  assert.ok(snapshot instanceof Snapshot)
  r.add('late')
  for (let i = 0; i < 100; i++) {
    const key = bytes.subarray(offsets[i], offsets[i + 1])
    assert.equal(snapshot.nodes[indices[i]], snapshot.owner(key))
  }
})

test('topK and rank agree with owner', () => {
  const r = new Rendezvous(keys(20, 'node-'), { seed: 99n })
  for (const k of keys(500)) {
    const ranked = r.rank(k)
    assert.equal(ranked.length, 20)
    assert.equal(new Set(ranked).size, 20)
    assert.equal(ranked[0], r.owner(k))
    assert.deepEqual(r.topK(k, 3), ranked.slice(0, 3))
  }
  r.setWeight('node-3', 0)
  for (const k of keys(200)) assert.ok(!r.rank(k).includes('node-3'))
})

test('adding a node moves keys only to it; removing one moves only its keys', () => {
  const N = 20000
  const ks = keys(N)
  const r = new Rendezvous(keys(10, 'node-'))
  const before = r.owners(ks)
  r.add('new')
  const afterAdd = r.owners(ks)
  let moved = 0
  for (let i = 0; i < N; i++) {
    if (afterAdd[i] !== before[i]) {
      assert.equal(afterAdd[i], 'new', `key ${ks[i]} moved between old nodes`)
      moved++
    }
  }
  // Expected N/11; six standard deviations of the binomial either side.
  const p = 1 / 11
  const sd = Math.sqrt(N * p * (1 - p))
  assert.ok(Math.abs(moved - N * p) < 6 * sd, `moved ${moved}, expected ${N * p} +- ${6 * sd}`)
  r.remove('node-4')
  const afterRemove = r.owners(ks)
  for (let i = 0; i < N; i++) {
    if (afterRemove[i] !== afterAdd[i]) assert.equal(afterAdd[i], 'node-4', `key ${ks[i]} moved off a surviving node`)
  }
})

test('weights: a node of weight 2 among two of weight 1 owns about half', () => {
  const N = 20000
  const r = new Rendezvous(['a', 'b', 'c'], { weights: [1, 1, 2] })
  const counts = { a: 0, b: 0, c: 0 }
  for (const o of r.owners(keys(N))) counts[o]++
  const sd = Math.sqrt(N * 0.5 * 0.5)
  assert.ok(Math.abs(counts.c - N / 2) < 6 * sd, JSON.stringify(counts))
})

test('seed changes placement; the same seed as number and bigint is the same', () => {
  const ks = keys(1000)
  const a = new Rendezvous(keys(8, 'n'), { seed: 7 }).owners(ks)
  const b = new Rendezvous(keys(8, 'n'), { seed: 7n }).owners(ks)
  const c = new Rendezvous(keys(8, 'n'), { seed: 8 }).owners(ks)
  assert.deepEqual(a, b)
  assert.ok(a.filter((x, i) => x !== c[i]).length > 500)
})

test('ESM entry exports the same classes as the CommonJS entry', async () => {
  const esm = await import(path.join(__dirname, '..', 'index.mjs'))
  assert.equal(esm.Rendezvous, Rendezvous)
  assert.equal(esm.default, longstraw)
  assert.equal(new esm.Rendezvous(['x']).owner('k'), 'x')
  const out = spawnSync(process.execPath, ['--input-type=module', '-e',
    "import { Rendezvous } from 'longstraw'; console.log(new Rendezvous(['p', 'q']).owner('k'))"],
  { cwd: path.join(__dirname, '..'), encoding: 'utf8' })
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout.trim(), new Rendezvous(['p', 'q']).owner('k'))
})

test('backend(): LONGSTRAW_BACKEND is honoured, and a bad value is a coded error', () => {
  assert.match(backend(), /^(scalar|sse2|avx2|avx512|neon|simd128)$/)
  const run = (value, code) => spawnSync(process.execPath, ['-e', code],
    { cwd: path.join(__dirname, '..'), env: { ...process.env, LONGSTRAW_BACKEND: value }, encoding: 'utf8' })
  const scalar = run('scalar', "const l = require('.'); console.log(l.backend(), new l.Rendezvous(['a']).backend)")
  assert.equal(scalar.stdout.trim(), 'scalar scalar', scalar.stderr)
  const bad = run('bogus', `const l = require('.')
    for (const f of [() => l.backend(), () => new l.Rendezvous(['a'])]) {
      try { f(); console.log('no error') } catch (e) { console.log(e.code + ' ' + e.message) }
    }`)
  assert.equal(bad.status, 0, bad.stderr)
  const lines = bad.stdout.trim().split('\n')
  assert.equal(lines.length, 2)
  for (const line of lines) assert.match(line, /^ERR_LONGSTRAW_BACKEND LONGSTRAW_BACKEND="bogus": unknown backend/)
})
