'use strict'
// One class, `Rendezvous`, for a set of any mode, and one `Snapshot`: each factory gives its mode,
// mode-specific properties are null on the other modes, `partition()` is the Rust layer's wrong-mode
// error outside a table, `addInDomain` takes (node, weight, domain), and `loads` builds from the
// content of a membership file what `load` builds from the file.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Rendezvous, Snapshot } = require('..')

const NODES = Array.from({ length: 20 }, (_, i) => `node-${i}`)
const KEYS = Array.from({ length: 400 }, (_, i) => `key-${i}`)
const TABLE_ONLY = ['partitionBits', 'partitions', 'replicas', 'distinctDomains', 'balance']
const SKELETON_ONLY = ['fanoutBits', 'levels']

test('each factory gives a Rendezvous of its mode, and its snapshots say the same', () => {
  const made = [
    ['flat', new Rendezvous(NODES)],
    ['table', Rendezvous.table(NODES, { bits: 8, replicas: 2 })],
    ['skeleton', Rendezvous.skeleton(NODES, { fanoutBits: 2, levels: 1 })]
  ]
  for (const [mode, set] of made) {
    assert.ok(set instanceof Rendezvous, mode)
    assert.equal(set.mode, mode)
    const snap = set.snapshot()
    assert.ok(snap instanceof Snapshot)
    assert.equal(snap.mode, mode)
    assert.deepEqual(KEYS.map((k) => snap.owner(k)), KEYS.map((k) => set.owner(k)), mode)
  }
  // A skeleton of no levels is flat rendezvous hashing: the same answers as the flat set.
  const flat = new Rendezvous(NODES)
  const zero = Rendezvous.skeleton(NODES, { fanoutBits: 0, levels: 0 })
  assert.deepEqual(KEYS.map((k) => zero.owner(k)), KEYS.map((k) => flat.owner(k)))
})

test('mode-specific properties: their values on their mode, null on the others, on sets and snapshots', () => {
  const t = Rendezvous.table(NODES, { bits: 7, replicas: 3, distinctDomains: true, domains: NODES.map((_, i) => `r${i % 4}`) })
  const b = Rendezvous.table(NODES, { bits: 6, balance: 1.25 })
  const k = Rendezvous.skeleton(NODES, { fanoutBits: 2, levels: 2 })
  const f = new Rendezvous(NODES)
  for (const s of [t, t.snapshot()]) {
    assert.deepEqual(TABLE_ONLY.map((p) => s[p]), [7, 2 ** 7, 3, true, null])
    assert.deepEqual(SKELETON_ONLY.map((p) => s[p]), [null, null])
  }
  assert.equal(b.balance, 1.25)
  assert.equal(b.snapshot().balance, 1.25)
  for (const s of [k, k.snapshot()]) {
    assert.deepEqual(SKELETON_ONLY.map((p) => s[p]), [2, 2])
    assert.deepEqual(TABLE_ONLY.map((p) => s[p]), [null, null, null, null, null])
  }
  for (const s of [f, f.snapshot()]) {
    assert.deepEqual([...TABLE_ONLY, ...SKELETON_ONLY].map((p) => s[p]), Array(7).fill(null))
  }
})

test('partition(key): keys of one partition share one ranking; another mode is a wrong-mode TypeError', () => {
  const t = Rendezvous.table(NODES, { bits: 4, replicas: 2 })
  const snap = t.snapshot()
  const byPartition = new Map()
  for (const key of KEYS) {
    const p = t.partition(key)
    assert.ok(Number.isInteger(p) && p >= 0 && p < t.partitions, `${key}: ${p}`)
    assert.equal(snap.partition(Buffer.from(key)), p)
    const ranking = t.rank(key).join()
    if (byPartition.has(p)) assert.equal(ranking, byPartition.get(p), `partition ${p}`)
    byPartition.set(p, ranking)
  }
  // 400 keys over 16 partitions: every partition is hit (each is missed with probability (15/16)^400).
  assert.equal(byPartition.size, 16)
  assert.ok(new Set(byPartition.values()).size > 1)
  for (const s of [new Rendezvous(NODES), Rendezvous.skeleton(NODES)]) {
    for (const target of [s, s.snapshot()]) {
      assert.throws(() => target.partition('k'), {
        name: 'TypeError',
        code: 'ERR_LONGSTRAW_WRONG_MODE',
        message: `partition() needs a table-mode set; this set is ${s.mode}`
      })
    }
  }
  assert.throws(() => t.partition(5), { name: 'TypeError', message: /^key must be a string, Buffer or Uint8Array; got number 5$/ })
})

test('addInDomain(node, weight, domain) in every mode; the old order is a TypeError that changes nothing', () => {
  for (const s of [new Rendezvous(['a', 'b']), Rendezvous.table(['a', 'b'], { bits: 4 }), Rendezvous.skeleton(['a', 'b'])]) {
    s.addInDomain('c', 2.5, 'rack-1')
    s.addInDomain(Buffer.from('d'), 0, Buffer.from('rack-2'))
    assert.deepEqual(s.nodes, ['a', 'b', 'c', 'd'])
    assert.deepEqual(s.weights, [1, 1, 2.5, 0])
    assert.deepEqual(s.domains, [null, null, 'rack-1', 'rack-2'])
    assert.throws(() => s.addInDomain('e', 'rack-1', 1), { name: 'TypeError', message: 'weight must be a number; got string "rack-1"' })
    assert.throws(() => s.addInDomain('e', 1), { name: 'TypeError', message: 'domain must be a string, Buffer or Uint8Array; got undefined' })
    assert.throws(() => s.addInDomain('e', 1, null), { name: 'TypeError' })
    assert.equal(s.size, 4, s.mode)
  }
})

test('loads(data): file content as a string or bytes builds what load(path) builds', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-loads-'))
  try {
    const nodes = NODES.map((id, i) => `\n[[nodes]]\nid = "${id}"\nweight = ${1 + (i % 3)}\n`).join('')
    const files = {
      flat: `format = 1\nseed = 11\nmode = "flat"\n${nodes}`,
      table: `format = 1\nseed = 11\nmode = "table"\n\n[table]\nbits = 6\nreplicas = 2\n${nodes}`,
      skeleton: `format = 1\nseed = 11\nmode = "skeleton"\n\n[skeleton]\nfanout_bits = 1\nlevels = 2\n${nodes}`
    }
    const weights = NODES.map((_, i) => 1 + (i % 3))
    const built = {
      flat: new Rendezvous(NODES, { seed: 11, weights }),
      table: Rendezvous.table(NODES, { seed: 11, weights, bits: 6, replicas: 2 }),
      skeleton: Rendezvous.skeleton(NODES, { seed: 11, weights, fanoutBits: 1, levels: 2 })
    }
    for (const [mode, text] of Object.entries(files)) {
      const file = path.join(dir, `${mode}.toml`)
      fs.writeFileSync(file, text)
      const want = KEYS.map((k) => built[mode].topK(k, 2).join())
      for (const set of [Rendezvous.loads(text), Rendezvous.loads(Buffer.from(text)), Rendezvous.loads(new Uint8Array(Buffer.from(text))), Rendezvous.load(file)]) {
        assert.equal(set.mode, mode)
        assert.equal(set.seed, 11n)
        assert.deepEqual(KEYS.map((k) => set.topK(k, 2).join()), want, mode)
      }
    }
    assert.throws(() => Rendezvous.loads('format = 1\nmode = "flat"\n\n[[nodes]]\nid = 5\n'), {
      name: 'Error',
      code: 'ERR_LONGSTRAW_BAD_FILE',
      message: '<data>:5: nodes[0].id: must be a string, not an integer'
    })
    assert.throws(() => Rendezvous.loads(Buffer.from([0x66, 0xff, 0xfe])), { code: 'ERR_LONGSTRAW_BAD_FILE' })
    for (const bad of [5, null, undefined, {}, ['format = 1']]) {
      assert.throws(() => Rendezvous.loads(bad), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^data must be a string, Buffer or Uint8Array; got / })
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('loads: a relative secret.file is read from the current directory, and the set is keyed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-loads-secret-'))
  const cwd = process.cwd()
  try {
    const hex = '8f2a61c04d9b3e7a15c6d0f28b4e9a73'
    fs.writeFileSync(path.join(dir, 'secret.hex'), hex + '\n')
    const text = `format = 1\nmode = "table"\n\n[secret]\nfile = "secret.hex"\n\n[table]\nbits = 5\n${NODES.map((id) => `\n[[nodes]]\nid = "${id}"\n`).join('')}`
    process.chdir(dir)
    const set = Rendezvous.loads(text)
    process.chdir(cwd)
    assert.equal(set.isKeyed, true)
    assert.equal(set.seed, null)
    const want = Rendezvous.table(NODES, { secret: Buffer.from(hex, 'hex'), bits: 5 })
    assert.deepEqual(KEYS.map((k) => set.owner(k)), KEYS.map((k) => want.owner(k)))
    assert.throws(() => Rendezvous.loads(text), { code: 'ERR_LONGSTRAW_BAD_FILE', message: /secret/ }) // not in this directory
  } finally {
    process.chdir(cwd)
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
