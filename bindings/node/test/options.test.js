'use strict'
// The options every constructor shares (SetOptions): each constructor takes each of them, and refuses
// an unknown or mistyped one with the same error. The names the addon knows at run time are the fields
// of the SetOptions interface napi generates into index.d.ts, so the types cannot drift from the parser.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous, BoundedLoad } = require('..')

const NODES = ['a', 'b', 'c', 'd']
const SECRET = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex')
const KEYS = Array.from({ length: 64 }, (_, i) => `key-${i}`)

// Every constructor that takes (nodes, options), as a function that returns a promise of the built value,
// so that tableAsync's rejections and the others' throws are checked the same way.
const CONSTRUCTORS = {
  'new Rendezvous': async (n, o) => new Rendezvous(n, o),
  'Rendezvous.table': async (n, o) => Rendezvous.table(n, o),
  'Rendezvous.tableAsync': (n, o) => Rendezvous.tableAsync(n, o),
  'Rendezvous.skeleton': async (n, o) => Rendezvous.skeleton(n, o),
  'new BoundedLoad': async (n, o) => new BoundedLoad(n, o),
}
const SETS = Object.keys(CONSTRUCTORS).filter((name) => name !== 'new BoundedLoad')

function generatedSetOptions () {
  const dts = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8')
  const body = /export interface SetOptions \{([^}]*)\}/.exec(dts)
  assert.ok(body, 'index.d.ts exports a SetOptions interface')
  return [...body[1].matchAll(/^\s*(\w+)\?:/gm)].map((m) => m[1])
}

test('the SetOptions interface lists exactly the shared options the addon reads, in its order', () => {
  const fields = generatedSetOptions()
  assert.deepEqual(fields, ['weights', 'seed', 'placement', 'domains', 'secret'])
  assert.throws(() => new Rendezvous(NODES, { nope: 1 }), {
    message: `unknown option "nope" (known: ${fields.join(', ')})`,
  })
})

test('every Rendezvous constructor takes every shared option', async () => {
  for (const name of SETS) {
    const build = CONSTRUCTORS[name]
    const plain = await build(NODES)
    assert.deepEqual([plain.seed, plain.weights, plain.domains, plain.placement], [0n, [1, 1, 1, 1], [null, null, null, null], 1], name)

    const seeded = await build(NODES, { seed: 7 })
    assert.equal(seeded.seed, 7n, name)
    assert.equal((await build(NODES, { seed: 2n ** 64n - 1n })).seed, 2n ** 64n - 1n, name)
    assert.notDeepEqual(KEYS.map((k) => seeded.owner(k)), KEYS.map((k) => plain.owner(k)), `${name}: the seed changes placement`)

    const weighted = await build(NODES, { weights: [0, 0, 2, 0] })
    assert.deepEqual(weighted.weights, [0, 0, 2, 0], name)
    assert.deepEqual(new Set(KEYS.map((k) => weighted.owner(k))), new Set(['c']), `${name}: only the weighted node owns keys`)

    const placed = await build(NODES, { placement: 1 })
    assert.equal(placed.placement, 1, name)

    const domains = ['r1', Buffer.from([0xff]), null, new Uint8Array([114, 50])]
    const inDomains = await build(NODES, { domains })
    assert.deepEqual(inDomains.domains, ['r1', Buffer.from([0xff]), null, 'r2'], name)

    const keyed = await build(NODES, { secret: SECRET })
    assert.deepEqual([keyed.isKeyed, keyed.seed], [true, null], name)
    const keyedAgain = await build(NODES, { secret: new Uint8Array(SECRET) })
    assert.deepEqual(KEYS.map((k) => keyed.owner(k)), KEYS.map((k) => keyedAgain.owner(k)), name)
    assert.notDeepEqual(KEYS.map((k) => keyed.owner(k)), KEYS.map((k) => plain.owner(k)), `${name}: the secret changes placement`)

    const all = await build(NODES, { weights: [1, 2, 3, 4], placement: 1, domains: ['x', 'x', 'y', 'y'], secret: SECRET })
    assert.deepEqual([all.weights, all.domains, all.isKeyed], [[1, 2, 3, 4], ['x', 'x', 'y', 'y'], true], name)
  }
})

test('BoundedLoad takes every shared option except domains', () => {
  // With room everywhere, acquire returns the key's owner: that of the flat set with the same options.
  for (const options of [{}, { seed: 7 }, { seed: 7n }, { placement: 1 }, { secret: SECRET }, { weights: [0, 0, 2, 0] }]) {
    const bounded = new BoundedLoad(NODES, { ...options, balanceFactor: 4 })
    const flat = new Rendezvous(NODES, options)
    for (const key of KEYS.slice(0, 8)) {
      const lease = bounded.acquire(key)
      assert.deepEqual([lease.node, lease.isOwner], [flat.owner(key), true], Object.keys(options).join())
      lease.release()
    }
  }
  assert.throws(() => new BoundedLoad(NODES, { domains: ['x', 'x', 'y', 'y'] }), {
    name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_OPTION', message: 'options.domains is not an option of BoundedLoad',
  })
})

// Each mistake, with the error every constructor gives for it.
const MISTAKES = [
  [{ seed: 'x' }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^seed must be a number or bigint; got a string$/],
  [{ seed: -1 }, RangeError, 'ERR_LONGSTRAW_INVALID_SEED', /^seed -1 is outside 0\.\.=2\^53-1/],
  [{ seed: 1.5 }, RangeError, 'ERR_LONGSTRAW_INVALID_SEED', /^seed 1\.5 is not an integer$/],
  [{ seed: 2n ** 64n }, RangeError, 'ERR_LONGSTRAW_INVALID_SEED', /^seed 18446744073709551616n is outside/],
  [{ weights: 'x' }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^options\.weights must be an array; got string "x"$/],
  [{ weights: [1, 1, 1] }, RangeError, 'ERR_LONGSTRAW_LENGTH_MISMATCH', /^options\.weights has 3 entries but nodes has 4$/],
  [{ weights: [1, 1, 1, '1'] }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^options\.weights\[3\] must be a number; got string "1"$/],
  [{ weights: [1, 1, 1, -1] }, RangeError, undefined, /^options\.weights\[3\]/],
  [{ placement: '1' }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^placement must be a number; got string "1"$/],
  [{ placement: 2 }, RangeError, 'ERR_LONGSTRAW_UNKNOWN_PLACEMENT', /^unknown placement version 2 \(this build knows: 1\)$/],
  [{ secret: 'not-a-secret-hex' }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^options\.secret must be a Buffer or Uint8Array of 16 random bytes; got a string/],
  [{ secret: Buffer.alloc(15, 9) }, RangeError, 'ERR_LONGSTRAW_INVALID_SECRET', /^options\.secret: secret is 15 bytes long/],
  [{ seed: 0, secret: SECRET }, TypeError, 'ERR_LONGSTRAW_INVALID_OPTION', /^give either a seed \(placement v1\) or a secret \(keyed-v1\), not both/],
  [{ sed: 1 }, TypeError, 'ERR_LONGSTRAW_INVALID_OPTION', /^unknown option "sed" \(known: weights, seed, placement, domains, secret[,)]/],
]
const SET_MISTAKES = [
  [{ domains: 5 }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^options\.domains must be an array; got number 5$/],
  [{ domains: ['x'] }, RangeError, 'ERR_LONGSTRAW_LENGTH_MISMATCH', /^options\.domains has 1 entries but nodes has 4$/],
  [{ domains: ['x', 'y', 'z', 5] }, TypeError, 'ERR_LONGSTRAW_INVALID_ARG_TYPE', /^options\.domains\[3\] must be/],
  [{ domains: ['x', 'y', 'z', ''] }, RangeError, undefined, /^options\.domains\[3\]/],
]

test('every constructor refuses an unknown or mistyped shared option with the same error', async () => {
  for (const [name, build] of Object.entries(CONSTRUCTORS)) {
    const mistakes = name === 'new BoundedLoad' ? MISTAKES : [...MISTAKES, ...SET_MISTAKES]
    for (const [options, type, code, message] of mistakes) {
      const what = `${name}(${Object.keys(options).join(', ')})`
      await assert.rejects(build(NODES, options), (e) => {
        assert.ok(e instanceof type, `${what}: ${e.name} ${e.message}`)
        if (code) assert.equal(e.code, code, what)
        assert.match(e.message, message, what)
        assert.ok(!e.message.includes('not-a-secret-hex'), `${what}: the value given as a secret is not shown`)
        return true
      })
    }
    for (const options of [null, 5, 'seed', [], [1]]) {
      await assert.rejects(build(NODES, options), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^options must be an object; got / }, name)
    }
  }
})

test('a mode option is unknown to the other modes', async () => {
  const wrong = [
    ['new Rendezvous', { bits: 4 }], ['new Rendezvous', { levels: 1 }], ['Rendezvous.table', { fanoutBits: 1 }],
    ['Rendezvous.tableAsync', { levels: 1 }], ['Rendezvous.skeleton', { replicas: 2 }], ['new BoundedLoad', { bits: 4 }],
  ]
  for (const [name, options] of wrong) {
    await assert.rejects(CONSTRUCTORS[name](NODES, options), {
      name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_OPTION', message: new RegExp(`^unknown option "${Object.keys(options)[0]}"`),
    }, name)
  }
})
