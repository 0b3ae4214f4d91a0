'use strict'
// Where the raw Node-API layer meets hostile calls: methods and getters called on a foreign `this`,
// typed arrays over detached ArrayBuffers, huge and malformed k, and ids and keys of the wrong type.
// Each is a TypeError or RangeError (never a crash, a bad cast or a silent answer).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Rendezvous, Snapshot, BoundedLoad } = require('..')
const WASM = require('..').target === 'wasm32-wasi'

const NODES = ['a', 'b', 'c']
const sets = () => ({
  Rendezvous: new Rendezvous(NODES),
  'Rendezvous (table)': Rendezvous.table(NODES, { bits: 4, replicas: 3 }),
  'Rendezvous (skeleton)': Rendezvous.skeleton(NODES),
  Snapshot: new Rendezvous(NODES).snapshot(),
  'Snapshot (table)': Rendezvous.table(NODES, { bits: 4 }).snapshot(),
  BoundedLoad: new BoundedLoad(NODES)
})
const CLASSES = { Rendezvous, Snapshot, BoundedLoad }

/** Every method and getter on a class's prototype. */
function membersOf (Cls) {
  const out = []
  for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(Cls.prototype))) {
    if (name === 'constructor') continue
    if (typeof d.value === 'function') out.push([name, 'method', d.value])
    if (typeof d.get === 'function') out.push([name, 'getter', d.get])
  }
  return out
}

test('every method and getter called on a foreign this is a TypeError', () => {
  const instances = sets()
  let checked = 0
  for (const [className, Cls] of Object.entries(CLASSES)) {
    const members = membersOf(Cls)
    assert.ok(members.length >= 3, `${className} has ${members.length} members`)
    const foreign = [{}, Object.create(Cls.prototype), ...Object.values(instances).filter((v) => !(v instanceof Cls))]
    for (const [name, kind, fn] of members) {
      for (const receiver of foreign) {
        const where = `${className}.prototype.${name} (${kind}) on ${receiver.constructor && receiver.constructor.name}`
        if (WASM) {
          // emnapi has no V8 signature check ("Illegal invocation"): a napi-rs generated method
          // refuses a foreign this with its own class check (Error, code InvalidArg), never casts it.
          assert.throws(() => fn.call(receiver, 'k', 1), (e) => e instanceof TypeError || (e instanceof Error && e.code === 'InvalidArg'), where)
        } else {
          assert.throws(() => fn.call(receiver, 'k', 1), TypeError, where)
        }
        checked++
      }
    }
  }
  assert.ok(checked > 100)
})

test('the per-key lookups name the class a foreign this should have been', () => {
  const { 'Rendezvous (table)': t } = sets()
  assert.throws(() => Rendezvous.prototype.owner.call({}, 'k'), {
    name: 'TypeError',
    code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE',
    message: 'this must be a Rendezvous (the method was called on another object)'
  })
  assert.throws(() => Rendezvous.prototype.topK.call(t.snapshot(), 'k', 1), { message: /this must be a Rendezvous/ })
  assert.throws(() => Snapshot.prototype.owner.call(t, 'k'), { message: /this must be a Snapshot/ })
  assert.throws(() => Rendezvous.prototype.rank.call(undefined, 'k'), TypeError)
  assert.throws(() => Snapshot.prototype.has.call(null, 'a'), TypeError)
  assert.throws(() => Rendezvous.prototype.has.call(5, 'a'), TypeError)
  assert.throws(() => Object.getOwnPropertyDescriptor(Rendezvous.prototype, 'mode').get.call(t.snapshot()), {
    name: 'TypeError',
    code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE',
    message: /this must be a Rendezvous/
  })
  assert.throws(() => new Snapshot(), { name: 'TypeError', message: /cannot be constructed directly/ })
})

/** A typed array whose ArrayBuffer was transferred away. */
function detached (Type, length) {
  const buffer = new ArrayBuffer(length * Type.BYTES_PER_ELEMENT)
  const view = new Type(buffer)
  structuredClone(buffer, { transfer: [buffer] })
  assert.equal(buffer.detached ?? buffer.byteLength === 0, true)
  return view
}

test('a view of a detached ArrayBuffer is a TypeError wherever bytes are read or written', async () => {
  const detachedError = (what) => ({ name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: new RegExp(`^${what.replace(/[[\]]/g, '\\$&')} is a view of a detached ArrayBuffer`) })
  for (const [name, s] of Object.entries(sets())) {
    const key = detached(Uint8Array, 4)
    if (name === 'BoundedLoad') {
      assert.throws(() => s.acquire(key), detachedError('key'), name)
      continue
    }
    for (const call of [() => s.owner(key), () => s.topK(key, 2), () => s.topKDistinct(key, 2), () => s.rank(key), () => s.has(key)]) {
      assert.throws(call, detachedError(/has/.test(call.toString()) ? 'node' : 'key'), name)
    }
    assert.throws(() => s.owners(['ok', key]), detachedError('keys[1]'), name)
    assert.throws(() => s.ownerIndices(key, new Uint32Array([0, 0])), detachedError('bytes'), name)
    assert.throws(() => s.ownerIndices(Buffer.from('ab'), detached(Uint32Array, 2)), detachedError('offsets'), name)
    assert.throws(() => s.ownerIndices(Buffer.from('ab'), detached(BigUint64Array, 2)), detachedError('offsets'), name)
    await assert.rejects(s.ownersAsync([key]), detachedError('keys[0]'), name)
    await assert.rejects(s.ownerIndicesAsync(key, new Uint32Array([0, 0])), detachedError('bytes'), name)
    if (s instanceof Snapshot) {
      assert.throws(() => s.ownerIndices(Buffer.from('ab'), new Uint32Array([0, 2]), detached(Uint32Array, 1)), detachedError('out'))
    } else {
      assert.throws(() => s.add(detached(Uint8Array, 2)), detachedError('node'), name)
      assert.throws(() => s.remove(detached(Uint8Array, 2)), detachedError('node'), name)
    }
  }
  assert.throws(() => new Rendezvous([detached(Uint8Array, 2)]), detachedError('nodes[0]'))
  assert.throws(() => Rendezvous.table(['a'], { domains: [detached(Uint8Array, 2)] }), detachedError('options.domains[0]'))
  assert.throws(() => new Rendezvous(['a'], { secret: detached(Uint8Array, 16) }), detachedError('options.secret'))
})

test('k: huge values return every node, malformed ones are RangeErrors or TypeErrors', () => {
  for (const [name, s] of Object.entries(sets())) {
    if (name === 'BoundedLoad') continue
    const all = s.rank('k')
    assert.equal(all.length, 3, name)
    for (const k of [3, 4, 2 ** 32 - 1, 2 ** 32, 2 ** 40, Number.MAX_SAFE_INTEGER, 2 ** 64, 1e300, Number.MAX_VALUE]) {
      assert.deepEqual(s.topK('k', k), all, `${name} topK ${k}`)
      assert.equal(s.topKDistinct('k', k).length, 3, `${name} topKDistinct ${k}`)
    }
    assert.deepEqual(s.topK('k', 0), [], name)
    for (const k of [-1, -0.5, 1.5, NaN, Infinity, -Infinity, 2 ** 53 + 0.5 - 0.5 + 0.25]) {
      if (Number.isInteger(k) && k >= 0) continue
      assert.throws(() => s.topK('k', k), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_COUNT' }, `${name} topK ${k}`)
      assert.throws(() => s.topKDistinct('k', k), { name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_COUNT' }, `${name} topKDistinct ${k}`)
    }
    for (const k of ['2', 2n, null, undefined, {}, [2], true]) {
      assert.throws(() => s.topK('k', k), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^k must be a non-negative integer; got / }, `${name} topK ${String(k)}`)
    }
  }
})

test('ids and keys of the wrong type are TypeErrors naming the argument', () => {
  const wrong = [5, 5n, null, undefined, true, Symbol('s'), {}, [1], () => 1, new Uint16Array(2), new Float64Array(1), new DataView(new ArrayBuffer(2)), new ArrayBuffer(2)]
  for (const v of wrong) {
    const where = typeof v === 'symbol' ? 'symbol' : String(v)
    assert.throws(() => new Rendezvous(['a', v]), { name: 'TypeError', message: /^nodes\[1\] must be a string, Buffer or Uint8Array; got / }, where)
    const s = new Rendezvous(NODES)
    assert.throws(() => s.add(v), { name: 'TypeError', message: /^node must be a string, Buffer or Uint8Array; got / }, where)
    assert.throws(() => s.remove(v), { name: 'TypeError', message: /^node must be/ }, where)
    assert.throws(() => s.setWeight(v, 1), { name: 'TypeError', message: /^node must be/ }, where)
    assert.throws(() => s.owner(v), { name: 'TypeError', message: /^key must be a string, Buffer or Uint8Array; got / }, where)
    assert.throws(() => s.owners(['k', v]), { name: 'TypeError', message: /^keys\[1\] must be/ }, where)
    assert.throws(() => new BoundedLoad(NODES).acquire(v), TypeError, where)
    assert.deepEqual(s.nodes, NODES, `${where}: a failed change changed the set`)
  }
  for (const nodes of ['abc', 5, null, { length: 1, 0: 'a' }, new Set(['a'])]) {
    assert.throws(() => new Rendezvous(nodes), { name: 'TypeError', message: /^nodes must be an array; got / }, String(nodes))
  }
  // A sparse array: a hole reads as undefined.
  assert.throws(() => new Rendezvous(['a', , 'c']), { name: 'TypeError', message: /^nodes\[1\] must be .*; got undefined$/ }) // eslint-disable-line no-sparse-arrays
  // A lone surrogate in a node id or a key.
  assert.throws(() => new Rendezvous(['a\ud800']), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' })
  assert.throws(() => new Rendezvous(NODES).owner('\udc00k'), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' })
})

test('a membership file path that is not a string, or holds NUL, is a TypeError; nothing is read or written', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-paths-'))
  try {
    const cut = path.join(dir, 'cut')
    fs.writeFileSync(path.join(dir, 'cut.toml'), 'format = 1\nmode = "flat"\n\n[[nodes]]\nid = "a"\n')
    const nul = cut + '\0.toml'
    for (const Cls of [Rendezvous]) {
      for (const bad of [5, null, undefined, Buffer.from('x.toml'), {}]) {
        assert.throws(() => Cls.load(bad), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^path must be a string; got / })
        await assert.rejects(Cls.loadAsync(bad), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE', message: /^path must be a string; got / })
      }
      const nulError = { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING', message: /^path contains a NUL character/ }
      assert.throws(() => Cls.load(nul), nulError)
      await assert.rejects(Cls.loadAsync(nul), nulError)
      assert.throws(() => Cls.load('x\ud800.toml'), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' })
    }
    const set = new Rendezvous(['a'], { secret: Buffer.alloc(16, 7) })
    assert.throws(() => set.save(5, { secretEnv: 'S' }), { name: 'TypeError', message: /^path must be a string/ })
    assert.throws(() => set.save(cut + '\0x', { secretEnv: 'S' }), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' })
    assert.throws(() => set.save(path.join(dir, 'out.toml'), { secretFile: 'key\0.hex' }), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING', message: /^options\.secretFile contains a NUL/ })
    assert.throws(() => set.save(path.join(dir, 'out.toml'), { secretEnv: 'S\0' }), { name: 'TypeError', code: 'ERR_LONGSTRAW_INVALID_STRING' })
    assert.deepEqual(fs.readdirSync(dir), ['cut.toml'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
