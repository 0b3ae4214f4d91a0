'use strict'
// A class constructor called without `new` throws the TypeError an ES class throws, instead of
// wrapping whatever `this` is (the module's exports object, for `longstraw.Rendezvous(nodes)`).
// The expected message comes from V8 itself: an empty ES class of the same name, called the same way.
const test = require('node:test')
const assert = require('node:assert/strict')
const longstraw = require('..')
const { BoundedLoad, Rendezvous, Snapshot } = longstraw

/** The TypeError V8 throws for an ES class named `name` invoked without `new`. */
function v8Error (name) {
  // V8 names the class in its message by the name in its source, so the class is compiled with it.
  assert.match(name, /^[A-Za-z]+$/)
  const cls = new Function(`return class ${name} {}`)() // eslint-disable-line no-new-func
  try {
    cls()
  } catch (e) {
    return e
  }
  throw new Error('an ES class called without new did not throw')
}

/** Asserts that `call()` throws V8's TypeError for class `name`. */
function throwsLikeAClass (call, name) {
  const expected = v8Error(name)
  assert.equal(expected.message, `Class constructor ${name} cannot be invoked without 'new'`)
  assert.throws(call, (e) => {
    assert.ok(e instanceof TypeError, `${e && e.name}: ${e && e.message}`)
    assert.equal(e.message, expected.message)
    return true
  })
}

const exportKeys = Object.keys(longstraw).sort()

// Each class, with a call that places a key (the node the set answers with).
const CONSTRUCTIBLE = [
  ['Rendezvous', Rendezvous, (set, key) => set.owner(key)],
  ['BoundedLoad', BoundedLoad, (set, key) => set.acquire(key).node]
]

for (const [name, C, place] of CONSTRUCTIBLE) {
  test(`${name} without new throws V8's TypeError, whatever this is`, () => {
    const set = new C(['a', 'b'])
    throwsLikeAClass(() => longstraw[name](['a']), name) // this: the exports object
    throwsLikeAClass(() => C(['a']), name) // this: undefined
    throwsLikeAClass(() => C.call({}, ['a']), name)
    throwsLikeAClass(() => C.call(Object.create(null), ['a']), name)
    throwsLikeAClass(() => C.apply(set, [['x']]), name) // an instance: not wrapped twice
    throwsLikeAClass(() => Reflect.apply(C, C.prototype, [['a']]), name)
    throwsLikeAClass(() => C.call(globalThis, ['a']), name)
    // Nothing was wrapped: the exports object is unchanged, and the instance keeps its nodes.
    assert.deepEqual(Object.keys(longstraw).sort(), exportKeys)
    assert.ok(!(longstraw instanceof C))
    assert.ok(['a', 'b'].includes(place(set, 'k')))
  })

  test(`${name} with new still works: instanceof, Reflect.construct, subclasses`, () => {
    const set = new C(['a', 'b'])
    assert.ok(set instanceof C)
    const viaReflect = Reflect.construct(C, [['a', 'b']])
    assert.ok(viaReflect instanceof C)
    class Sub extends C {
      tag () { return 'sub' }
    }
    const sub = new Sub(['a', 'b'])
    assert.ok(sub instanceof Sub)
    assert.ok(sub instanceof C)
    assert.equal(sub.tag(), 'sub')
    // A subclass called without new is V8's own check (an ES class), before ours runs.
    throwsLikeAClass(() => Sub(['a']), 'Sub')
  })
}

test('the exports object never becomes a set', () => {
  assert.throws(() => longstraw.Rendezvous(['a']))
  // A method called on the exports object finds a foreign receiver, not a set. (Methods napi-rs
  // generates throw a TypeError natively and a plain Error under WebAssembly.)
  assert.throws(() => Rendezvous.prototype.owner.call(longstraw, 'k'), TypeError)
  assert.throws(() => Rendezvous.prototype.snapshot.call(longstraw))
  assert.throws(() => longstraw.BoundedLoad(['a']))
  assert.throws(() => BoundedLoad.prototype.acquire.call(longstraw, 'k'))
})

test('instances and statics answer as before', async () => {
  const nodes = ['a', 'b', 'c', 'd']
  const flat = new Rendezvous(nodes)
  // The owner is the first of topK (an independent call), and every static builds a Rendezvous.
  for (const key of ['k1', 'k2', 'k3']) assert.equal(flat.owner(key), flat.topK(key, nodes.length)[0])
  const table = Rendezvous.table(nodes)
  assert.ok(table instanceof Rendezvous)
  assert.ok((await Rendezvous.tableAsync(nodes)) instanceof Rendezvous)
  assert.ok(Rendezvous.skeleton(nodes) instanceof Rendezvous)
  const bounded = new BoundedLoad(nodes)
  const lease = bounded.acquire('k1')
  assert.ok(nodes.includes(lease.node))
  lease.release()
})

test('Snapshot: without new it is the class TypeError; with new, its own', () => {
  throwsLikeAClass(() => longstraw.Snapshot(), 'Snapshot')
  throwsLikeAClass(() => Snapshot(), 'Snapshot')
  assert.throws(() => new Snapshot(), (e) => e instanceof TypeError && /set\.snapshot\(\)/.test(e.message))
  assert.ok(new Rendezvous(['a']).snapshot() instanceof Snapshot)
})
