'use strict'
// Table, Skeleton and failure domains: every case of tests/vectors/
// {table,skeleton,domains}-v1.json read at test time, the parameters in use,
// bad parameters, and the behaviour the modes promise.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous, Snapshot } = require('..')

const VECTORS_DIR = process.env.LONGSTRAW_VECTORS_DIR || path.join(__dirname, '..', '..', '..', 'tests', 'vectors')

function load (name, kind) {
  const file = path.join(VECTORS_DIR, name)
  if (!fs.existsSync(file)) throw new Error(`golden vectors not found at ${file} (set LONGSTRAW_VECTORS_DIR)`)
  const v = JSON.parse(fs.readFileSync(file, 'utf8'))
  assert.equal(v.placement, kind)
  assert.ok(v.cases.length >= 9)
  return v.cases
}

const weightOf = (bits) => Buffer.from(bits, 'hex').readDoubleBE(0)
const idHex = (id) => (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')
const keys = (n, prefix = 'key-') => Array.from({ length: n }, (_, i) => prefix + i)

function options (c) {
  return {
    seed: BigInt(c.seed),
    weights: c.nodes.map((n) => weightOf(n.weight_bits)),
    domains: c.nodes.map((n) => (n.domain_hex == null ? null : Buffer.from(n.domain_hex, 'hex')))
  }
}
const ids = (c) => c.nodes.map((n) => Buffer.from(n.id_hex, 'hex'))

function packed (ks) {
  const parts = ks.map((k) => Buffer.from(k.key_hex, 'hex'))
  const offsets = new Uint32Array(parts.length + 1)
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length })
  return { bytes: Buffer.concat(parts), offsets }
}

// owner, topK to depth, rank prefix, owners, ownerIndices on the set and its snapshot.
async function checkPlacement (label, set, c) {
  const want = (i) => c.nodes[i].id_hex
  const snap = set.snapshot()
  for (const k of c.keys) {
    const key = Buffer.from(k.key_hex, 'hex')
    if (k.owner === null) {
      assert.throws(() => set.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' }, label)
    } else {
      assert.equal(idHex(set.owner(key)), want(k.owner), `${label} key ${k.key_hex}`)
      assert.equal(snap.ownerIndex(key), k.owner, label)
    }
    assert.deepEqual(set.topK(key, c.depth).map(idHex), k.ranked.map(want), `${label} key ${k.key_hex}`)
    assert.deepEqual(snap.topK(key, c.depth).map(idHex), k.ranked.map(want), label)
    assert.deepEqual(set.rank(key).slice(0, k.ranked.length).map(idHex), k.ranked.map(want), label)
  }
  const { bytes, offsets } = packed(c.keys)
  if (c.keys.some((k) => k.owner === null)) {
    assert.throws(() => snap.ownerIndices(bytes, offsets), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' })
  } else {
    const owners = c.keys.map((k) => k.owner)
    assert.deepEqual([...snap.ownerIndices(bytes, offsets)], owners, label)
    assert.deepEqual([...(await set.ownerIndicesAsync(bytes, offsets)).indices], owners, label)
    const byId = set.owners(c.keys.map((k) => Buffer.from(k.key_hex, 'hex')))
    assert.deepEqual(byId.map(idHex), owners.map(want), label)
  }
  return c.keys.length
}

test('table-v1 vectors: stored depth and 1 replica per partition', async () => {
  let checked = 0
  for (const c of load('table-v1.json', 'table-v1')) {
    for (const replicas of [c.depth, 1]) {
      const t = Rendezvous.table(ids(c), { ...options(c), bits: c.bits, replicas })
      assert.equal(t.partitionBits, c.bits)
      assert.equal(t.replicas, replicas)
      assert.equal(t.snapshot().mode, 'table')
      checked += await checkPlacement(`${c.name} replicas ${replicas}`, t, c)
    }
  }
  assert.ok(checked >= 200)
})

test('skeleton-v1 vectors: built at once and grown node by node in reverse', async () => {
  let checked = 0
  for (const c of load('skeleton-v1.json', 'skeleton-v1')) {
    const shape = { fanoutBits: c.fanout_bits, levels: c.levels }
    const k = Rendezvous.skeleton(ids(c), { ...options(c), ...shape })
    assert.equal(k.levels, c.levels)
    assert.equal(k.fanoutBits, c.levels === 0 ? 0 : c.fanout_bits)
    assert.equal(k.snapshot().mode, 'skeleton')
    checked += await checkPlacement(c.name, k, c)
    // The tree depends on the membership only, not on insertion order.
    const grown = Rendezvous.skeleton([], { seed: BigInt(c.seed), ...shape })
    const w = options(c).weights
    for (let i = c.nodes.length - 1; i >= 0; i--) grown.add(ids(c)[i], w[i])
    for (const key of c.keys) {
      const b = Buffer.from(key.key_hex, 'hex')
      assert.deepEqual(grown.topK(b, c.depth).map(idHex), key.ranked.map((i) => c.nodes[i].id_hex), c.name)
    }
  }
  assert.ok(checked >= 150)
})

test('domains-v1 vectors: topKDistinct in every mode', () => {
  let checked = 0
  for (const c of load('domains-v1.json', 'domains-v1')) {
    const o = options(c)
    let sets
    if (c.mode === 'flat') sets = [new Rendezvous(ids(c), o)]
    else if (c.mode === 'table') {
      sets = [false, true].map((distinctDomains) => Rendezvous.table(ids(c), { ...o, bits: c.bits, replicas: c.k, distinctDomains }))
    } else if (c.mode === 'skeleton') sets = [Rendezvous.skeleton(ids(c), { ...o, fanoutBits: c.fanout_bits, levels: c.levels })]
    else throw new Error(`unknown mode ${c.mode}`)
    for (const s of sets) {
      assert.deepEqual(s.domains.map((d) => (d === null ? null : idHex(d))), c.nodes.map((n) => n.domain_hex))
      for (const k of c.keys) {
        const key = Buffer.from(k.key_hex, 'hex')
        const want = k.distinct.map((i) => c.nodes[i].id_hex)
        assert.deepEqual(s.topKDistinct(key, c.k).map(idHex), want, `${c.name} key ${k.key_hex}`)
        assert.deepEqual(s.snapshot().topKDistinct(key, c.k).map(idHex), want, c.name)
        checked++
      }
    }
  }
  assert.ok(checked >= 150)
})

test('parameters in use: defaults from the node count, explicit values kept', () => {
  const twenty = keys(20, 'n')
  const t = Rendezvous.table(twenty)
  assert.deepEqual([t.partitionBits, t.replicas, t.distinctDomains], [11, 1, false])
  const t0 = Rendezvous.table(twenty, { bits: 0, replicas: 32, distinctDomains: true })
  assert.deepEqual([t0.partitionBits, t0.replicas, t0.distinctDomains], [0, 32, true])
  assert.deepEqual([Rendezvous.skeleton(twenty).fanoutBits, Rendezvous.skeleton(twenty).levels], [0, 0])
  const big = Rendezvous.skeleton(keys(300, 'n'))
  assert.deepEqual([big.fanoutBits, big.levels], [6, 1])
  const flat = Rendezvous.skeleton(twenty, { fanoutBits: 3, levels: 0 })
  assert.deepEqual([flat.fanoutBits, flat.levels], [0, 0])
  // Levels 0 is flat placement v1.
  const r = new Rendezvous(twenty)
  for (const k of keys(200)) assert.equal(flat.owner(k), r.owner(k))
})

test('bad parameters are coded RangeErrors or TypeErrors naming the value', () => {
  const n = ['a', 'b', 'c']
  const range = (fn, message) => assert.throws(fn, (e) => e instanceof RangeError && e.code === 'ERR_LONGSTRAW_INVALID_PARAMETER' && message.test(e.message))
  range(() => Rendezvous.table(n, { bits: 25 }), /partition bits 25 out of range \(0 to 24/)
  range(() => Rendezvous.table(n, { bits: 256 }), /options\.bits must be an integer from 0 to 255; got 256/)
  range(() => Rendezvous.table(n, { bits: 1.5 }), /options\.bits .*got 1\.5/)
  range(() => Rendezvous.table(n, { bits: -1 }), /got -1/)
  range(() => Rendezvous.table(n, { replicas: 0 }), /replicas 0 out of range \(1 to 32/)
  range(() => Rendezvous.table(n, { replicas: 33 }), /replicas 33/)
  range(() => Rendezvous.table(n, { replicas: NaN }), /options\.replicas .*got NaN/)
  range(() => Rendezvous.skeleton(n, { fanoutBits: 7, levels: 1 }), /fanout_bits=7 levels=1 out of range/)
  range(() => Rendezvous.skeleton(n, { fanoutBits: 0, levels: 2 }), /fanout_bits=0 levels=2/)
  range(() => Rendezvous.skeleton(n, { fanoutBits: 2, levels: 6 }), /levels=6/)
  range(() => Rendezvous.skeleton(n, { levels: 1 }), /give both or neither/)
  range(() => Rendezvous.skeleton(n, { fanoutBits: 2 }), /give both or neither/)
  const type = (fn, message) => assert.throws(fn, (e) => e instanceof TypeError && /^ERR_LONGSTRAW_INVALID_(ARG_TYPE|OPTION)$/.test(e.code) && message.test(e.message))
  type(() => Rendezvous.table(n, { bits: '8' }), /options\.bits must be a non-negative integer; got string "8"/)
  type(() => Rendezvous.table(n, { replicas: 2n }), /options\.replicas/)
  type(() => Rendezvous.table(n, { distinctDomains: 1 }), /options\.distinctDomains must be a boolean; got number 1/)
  type(() => Rendezvous.table(n, { fanoutBits: 2, levels: 1 }), /unknown option "fanoutBits" \(known: .*bits, replicas, distinctDomains\)/)
  type(() => Rendezvous.skeleton(n, { bits: 8 }), /unknown option "bits"/)
  type(() => new Rendezvous(n, { replicas: 2 }), /unknown option "replicas"/)
  type(() => Rendezvous.table(n, { domains: 'rack' }), /options\.domains must be an array/)
  type(() => Rendezvous.table(n, { domains: [1, null, null] }), /options\.domains\[0\] must be a string, Buffer or Uint8Array; got number 1/)
  assert.throws(() => Rendezvous.table(n, { domains: ['x'] }), { name: 'RangeError', code: 'ERR_LONGSTRAW_LENGTH_MISMATCH', message: /options\.domains has 1 entries but nodes has 3/ })
  assert.throws(() => Rendezvous.skeleton(n, { domains: ['', null, null] }), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_DOMAIN', message: /options\.domains\[0\]: domain label is 0 bytes long/ })
  assert.throws(() => Rendezvous.table(['a', 'a']), { code: 'ERR_LONGSTRAW_DUPLICATE_NODE', message: /"a"/ })
  assert.throws(() => Rendezvous.skeleton(['a'], { placement: 2 }), { code: 'ERR_LONGSTRAW_UNKNOWN_PLACEMENT' })
  assert.throws(() => Rendezvous.table(['a'], { weights: [NaN] }), { code: 'ERR_LONGSTRAW_INVALID_WEIGHT', message: /options\.weights\[0\]/ })
})

test('membership changes on a table and a skeleton: errors change nothing', () => {
  for (const s of [Rendezvous.table(['a', 'b', 'c'], { bits: 6 }), Rendezvous.skeleton(['a', 'b', 'c'], { fanoutBits: 1, levels: 2 })]) {
    assert.throws(() => s.add('a'), { code: 'ERR_LONGSTRAW_DUPLICATE_NODE' })
    assert.throws(() => s.add('d', -1), { code: 'ERR_LONGSTRAW_INVALID_WEIGHT' })
    assert.throws(() => s.remove('zz'), { code: 'ERR_LONGSTRAW_UNKNOWN_NODE' })
    assert.throws(() => s.setWeight('zz', 1), { code: 'ERR_LONGSTRAW_UNKNOWN_NODE' })
    assert.throws(() => s.setDomain('zz', 'r'), { code: 'ERR_LONGSTRAW_UNKNOWN_NODE' })
    assert.throws(() => s.setDomain('a', ''), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_DOMAIN', message: /^domain: domain label is 0 bytes/ })
    assert.throws(() => s.addInDomain('d', 1, null), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /domain must be a string/ })
    assert.throws(() => s.addInDomain('d', 'x', 'r'), { code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE' })
    assert.throws(() => s.topKDistinct('k', -1), { code: 'ERR_LONGSTRAW_INVALID_COUNT' })
    assert.deepEqual(s.nodes, ['a', 'b', 'c'])
    const before = s.snapshot()
    s.addInDomain('d', 2, 'rack-1')
    s.setDomain('a', Buffer.from('rack-1'))
    s.setWeight('b', 0)
    s.remove('c')
    assert.deepEqual(s.nodes, ['a', 'b', 'd'])
    assert.deepEqual(s.weights, [1, 0, 2])
    assert.deepEqual(s.domains, ['rack-1', null, 'rack-1'])
    assert.equal(s.size, 3)
    assert.ok(s.has('d') && !s.has('c'))
    // Only a and d are eligible and they share a rack: one distinct replica.
    for (const k of keys(50)) assert.deepEqual(s.topKDistinct(k, 3), [s.owner(k)])
    s.setDomain('a', null)
    for (const k of keys(50)) assert.equal(s.topKDistinct(k, 3).length, 2)
    assert.deepEqual(before.nodes, ['a', 'b', 'c'], 'the old snapshot is unchanged')
    assert.ok(s.snapshot().generation > before.generation)
    assert.ok(before instanceof Snapshot)
  }
})

test('topKDistinct: one node per zone, replica 0 the owner, firstn order, fewer zones than k', () => {
  const nodes = keys(12, 'n')
  const domains = nodes.map((_, i) => `zone-${i % 3}`)
  const zone = (id) => domains[nodes.indexOf(id)]
  const sets = [
    new Rendezvous(nodes, { domains }),
    Rendezvous.table(nodes, { domains, replicas: 3 }),
    Rendezvous.table(nodes, { domains, replicas: 3, distinctDomains: true }),
    Rendezvous.skeleton(nodes, { domains, fanoutBits: 1, levels: 2 })
  ]
  for (const s of sets) {
    for (const k of keys(300)) {
      const got = s.topKDistinct(k, 5)
      assert.equal(got.length, 3, 'three zones give three replicas')
      assert.equal(got[0], s.owner(k))
      assert.equal(new Set(got.map(zone)).size, 3)
      // firstn: every node ranked before a pick is in a zone an earlier pick took.
      const rank = s.rank(k)
      got.forEach((pick, j) => {
        for (const id of rank.slice(0, rank.indexOf(pick))) assert.ok(got.slice(0, j).map(zone).includes(zone(id)))
      })
    }
  }
})

test('a table removal moves exactly the removed node\'s keys', () => {
  const t = Rendezvous.table(keys(16, 'n'), { bits: 12, replicas: 2 })
  const ks = keys(4000)
  const before = t.owners(ks)
  t.remove('n7')
  const after = t.owners(ks)
  let moved = 0
  ks.forEach((_, i) => {
    if (before[i] === 'n7') { moved++; assert.notEqual(after[i], 'n7') } else assert.equal(after[i], before[i])
  })
  // n7 owned about 1/16 of 4000 keys: 250, sigma about 15; allow 5 sigma.
  assert.ok(moved > 175 && moved < 325, `${moved} moved`)
  t.add('n7')
  assert.deepEqual(t.owners(ks), before, 're-adding restores every owner')
})

test('per-key methods of a table or skeleton set reject foreign receivers', () => {
  const t = Rendezvous.table(['a', 'b'])
  const k = Rendezvous.skeleton(['a', 'b'])
  for (const [obj, other] of [[t, k.snapshot()], [k, {}], [t.snapshot(), new Rendezvous(['a'])]]) {
    for (const m of ['owner', 'topK', 'topKDistinct', 'rank', 'has']) {
      assert.throws(() => obj[m].call(other, 'k', 1), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /this must be a/ })
    }
  }
})

test('the ESM entry exports the one set class and the snapshot class', async () => {
  const esm = await import('../index.mjs')
  assert.equal(esm.Rendezvous, Rendezvous)
  assert.equal(esm.Snapshot, require('..').Snapshot)
  assert.equal(esm.Table, undefined)
  assert.equal(esm.Skeleton, undefined)
})

test('odd values through the new constructors and methods: coded errors or results, never a crash', () => {
  const ODD = [undefined, null, true, 0, -0, NaN, Infinity, 2 ** 64, -1, 1.5, 0n, 2n ** 70n, '', 'k', '\uD800',
    Symbol('s'), {}, [], ['a'], [null, null], () => {}, Buffer.alloc(0), new Uint8Array(3), new Uint32Array(2),
    new Proxy([], {}), Object.create(null)]
  const t = Rendezvous.table(['a', 'b'], { bits: 4 })
  const k = Rendezvous.skeleton(['a', 'b'])
  const calls = [
    (x) => Rendezvous.table(['a', 'b'], { bits: x }), (x) => Rendezvous.table(['a', 'b'], { replicas: x }),
    (x) => Rendezvous.table(['a', 'b'], { distinctDomains: x }), (x) => Rendezvous.table(['a', 'b'], { domains: x }),
    (x) => Rendezvous.table(['a', 'b'], { domains: [x, x] }), (x) => Rendezvous.skeleton(['a', 'b'], { fanoutBits: x, levels: x }),
    (x) => Rendezvous.skeleton(['a', 'b'], { fanoutBits: 2, levels: x }), (x) => new Rendezvous(['a', 'b'], { domains: [x, null] }),
    (x) => Rendezvous.table([x]), (x) => Rendezvous.skeleton(x), (x) => Rendezvous.table(['a'], x),
    (x) => t.topKDistinct(x, 2), (x) => t.topKDistinct('k', x), (x) => k.topKDistinct('k', x),
    (x) => t.snapshot().topKDistinct(x, x), (x) => k.owner(x), (x) => t.owners([x]), (x) => k.ownerIndices(x, x)
  ]
  let errors = 0
  for (const call of calls) {
    for (const x of ODD) {
      try {
        call(x)
      } catch (e) {
        errors++
        assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`)
        assert.match(String(e.code), /^ERR_LONGSTRAW_/, `uncoded error: ${e.message}`)
      }
    }
  }
  for (const s of [t, k]) {
    for (const x of ODD) {
      for (const call of [() => s.addInDomain('zz', 1, x), () => s.setDomain('a', x), () => s.add('zz', x), () => s.setWeight('a', x)]) {
        try { call() } catch (e) { errors++; assert.match(String(e.code), /^ERR_LONGSTRAW_/, e.message) }
        if (s.has('zz')) s.remove('zz')
        s.setWeight('a', 1)
      }
    }
    assert.deepEqual(s.nodes, ['a', 'b'])
  }
  assert.ok(errors > 250, `only ${errors} errors from odd input`)
})
