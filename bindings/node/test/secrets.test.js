'use strict'
// No part of a secret ever shows: not in an error (message, stack, inspect, JSON, String), not in
// the inspect output of a keyed set or snapshot, not in a saved file. Secrets given in every wrong
// shape a user might pass by mistake (a hex string above all), to every constructor and factory.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const util = require('node:util')
const { Rendezvous, BoundedLoad } = require('..')

// Fixed secrets (not random), so that a chance 4-character match with the message text cannot make
// the test flaky; checked below to share no 4-character window with the messages' own words.
const HEX = 'c22e4b7d9a0f13e85b6c27d4f09a8e71'
const BYTES = Buffer.from(HEX, 'hex')
const HEX_WRONG = 'c22e4b7d9a0f13e85b6c27d4f09a8e7' // 31 digits

/**
 * The substrings that would show part of `secret`: every 4-character window of its hex (both
 * cases), of its bytes as latin1 and of its base64, and every 3 consecutive byte values in decimal
 * (as an inspected array or JSON shows them).
 */
function needlesOf (secret) {
  let forms
  let bytes = null
  if (typeof secret === 'string') forms = [secret, secret.toLowerCase(), secret.toUpperCase()]
  else if (typeof secret === 'number' || typeof secret === 'bigint') forms = [String(secret), secret.toString(16), secret.toString(16).toUpperCase()]
  else if (ArrayBuffer.isView(secret)) bytes = Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength)
  else if (secret instanceof ArrayBuffer || Array.isArray(secret)) bytes = Buffer.from(secret)
  else if (secret instanceof String) return needlesOf(String(secret))
  else return [] // an object holding the secret: the caller checks the secret it holds
  const needles = []
  if (bytes) {
    forms = [bytes.toString('hex'), bytes.toString('hex').toUpperCase(), bytes.toString('latin1'), bytes.toString('base64')]
    for (let i = 0; i + 3 <= bytes.length; i++) {
      const run = [...bytes.subarray(i, i + 3)]
      needles.push(run.join(', '), run.join(','))
    }
  }
  for (const form of forms) {
    for (let i = 0; i + 4 <= form.length; i++) needles.push(form.slice(i, i + 4))
  }
  return needles
}

/** Fails when `text` contains any part of any of `secrets` (see `needlesOf`). */
function assertNoWindow (text, secrets, where) {
  // A WebAssembly stack frame names a code position in hexadecimal (`wasm-function[558]:0xa8e78`), which
  // can hold any 4 hex digits of a secret by chance: those positions are not shown content.
  text = text.replace(/wasm:\/\/wasm\/[0-9a-f]+:wasm-function\[\d+\]:0x[0-9a-f]+/g, 'wasm://wasm/<code position>')
  for (const secret of secrets) {
    for (const needle of needlesOf(secret)) {
      assert.ok(!text.includes(needle), `${where}: shows ${JSON.stringify(needle)} of the secret in ${JSON.stringify(text)}`)
    }
  }
}

/** Everything an error can show: message, stack, String, inspect, JSON, and its own properties. */
function shownOf (err) {
  return [
    String(err),
    err.stack || '',
    err.message,
    util.inspect(err, { showHidden: true, depth: 5 }),
    JSON.stringify(err) || '',
    JSON.stringify(Object.getOwnPropertyNames(err).map((k) => [k, String(err[k])]))
  ].join('\n')
}

const CONSTRUCTORS = [
  ['Rendezvous', (o) => new Rendezvous(['a', 'b'], o)],
  ['Rendezvous.table', (o) => Rendezvous.table(['a', 'b'], o)],
  ['Rendezvous.skeleton', (o) => Rendezvous.skeleton(['a', 'b'], o)],
  ['BoundedLoad', (o) => new BoundedLoad(['a', 'b'], o)]
]

// [what, the value passed as options.secret, the error class, the secrets it must not show]
const WRONG = [
  ['a hex string of the right length', HEX, TypeError],
  ['an upper-case hex string', HEX.toUpperCase(), TypeError],
  ['a hex string of the wrong length', HEX_WRONG, TypeError],
  ['a 16-character string (the bytes as latin1)', BYTES.toString('latin1'), TypeError],
  ['a base64 string', BYTES.toString('base64'), TypeError],
  ['a String object', Object(HEX), TypeError],
  ['the hex text as a Buffer (32 bytes)', Buffer.from(HEX, 'utf8'), RangeError],
  ['a 15-byte Buffer', BYTES.subarray(0, 15), RangeError],
  ['a 17-byte Buffer', Buffer.concat([BYTES, Buffer.from([0x9b])]), RangeError],
  ['a 15-byte Uint8Array', new Uint8Array(BYTES.subarray(1)), RangeError],
  ['a Uint16Array of the bytes', new Uint16Array(BYTES.buffer.slice(BYTES.byteOffset, BYTES.byteOffset + 16)), TypeError],
  ['a DataView of the bytes', new DataView(new Uint8Array(BYTES).buffer), TypeError],
  ['an ArrayBuffer of the bytes', new Uint8Array(BYTES).buffer, TypeError],
  ['an array of the bytes', [...BYTES], TypeError],
  ['a number', 0xc22e4b7d9a0f1, TypeError],
  ['a bigint', BigInt('0x' + HEX), TypeError],
  ['an object holding the hex', { hex: HEX }, TypeError]
]

test('the fixed secrets share no 4-character window with the words of the messages', () => {
  const words = 'options.secret must be a Buffer or Uint8Array of 16 random bytes; got a string (for a secret ' +
    'written as 32 hexadecimal digits, pass Buffer.from(text, \'hex\')) secret must be exactly 16 bytes, got 15 17 32'
  assertNoWindow(words, [HEX, BYTES], 'self-check')
})

test('a secret of the wrong type or length: the error names the expected type, never the value', async () => {
  for (const [name, build] of CONSTRUCTORS) {
    for (const [what, secret, Type] of WRONG) {
      const where = `${name} with ${what}`
      let caught = null
      try { build({ secret }) } catch (e) { caught = e }
      assert.ok(caught instanceof Type, `${where}: ${caught}`)
      assert.match(caught.message, /options\.secret/, where)
      assertNoWindow(shownOf(caught), [HEX, BYTES, secret], where)
    }
  }
  for (const [what, secret, Type] of WRONG) {
    const where = `Rendezvous.tableAsync with ${what}`
    await assert.rejects(Rendezvous.tableAsync(['a', 'b'], { secret }), (e) => {
      assert.ok(e instanceof Type, `${where}: ${e}`)
      assertNoWindow(shownOf(e), [HEX, BYTES, secret], where)
      return true
    })
  }
})

test('a string secret says what to pass instead', () => {
  assert.throws(() => new Rendezvous(['a'], { secret: HEX }), {
    name: 'TypeError',
    code: 'ERR_LONGSTRAW_INVALID_ARG_TYPE',
    message: "options.secret must be a Buffer or Uint8Array of 16 random bytes; got a string (for a secret written as 32 hexadecimal digits, pass Buffer.from(text, 'hex'))"
  })
  assert.throws(() => new Rendezvous(['a'], { secret: 12345 }), {
    message: 'options.secret must be a Buffer or Uint8Array of 16 random bytes; got a number'
  })
})

test('a right secret with a seed, or with a bad node: the error does not show it', () => {
  for (const [name, build] of CONSTRUCTORS) {
    for (const extra of [{ seed: 0 }, { seed: 7n }, { weights: [1] }, { weights: [1, -1] }]) {
      for (const secret of [BYTES, new Uint8Array(BYTES)]) {
        let caught = null
        try { build({ secret, ...extra }) } catch (e) { caught = e }
        assert.ok(caught instanceof Error, `${name} ${util.inspect(extra)}`)
        assertNoWindow(shownOf(caught), [HEX, BYTES], `${name} ${util.inspect(extra)}`)
      }
    }
  }
})

test('a secret given as the seed by mistake is not shown either', () => {
  const wrong = [HEX, BYTES.toString('latin1'), BigInt('0x' + HEX), -BigInt('0x' + HEX), BYTES]
  for (const [name, build] of CONSTRUCTORS) {
    for (const seed of wrong) {
      let caught = null
      try { build({ seed }) } catch (e) { caught = e }
      assert.ok(caught instanceof TypeError || caught instanceof RangeError, `${name}: ${caught}`)
      assert.match(caught.message, /^seed /)
      assertNoWindow(shownOf(caught), [HEX, BYTES, seed], `${name} seed ${typeof seed}`)
    }
  }
  assert.throws(() => new Rendezvous(['a'], { seed: BigInt('0x' + HEX) }), {
    name: 'RangeError', code: 'ERR_LONGSTRAW_INVALID_SEED', message: 'seed (a bigint of more than 20 digits) is outside 0n..=2n**64n-1n'
  })
  assert.throws(() => new Rendezvous(['a'], { seed: HEX }), { name: 'TypeError', message: 'seed must be a number or bigint; got a string' })
})

test('keyed sets and snapshots: inspect, console.log, String and JSON show no part of the secret', () => {
  const logged = []
  const original = console.log
  console.log = (...args) => logged.push(util.format(...args))
  try {
    for (const [name, build] of CONSTRUCTORS) {
      const s = build({ secret: BYTES })
      const shown = [util.inspect(s, { showHidden: true, depth: 10, getters: true }), String(s), JSON.stringify(s) || '']
      console.log(s)
      console.log('%o', s)
      if (typeof s.snapshot === 'function') {
        const snap = s.snapshot()
        shown.push(util.inspect(snap, { showHidden: true, depth: 10, getters: true }), String(snap), JSON.stringify(snap) || '')
        console.log(snap)
      }
      assertNoWindow(shown.join('\n'), [HEX, BYTES], name)
    }
  } finally {
    console.log = original
  }
  assert.ok(logged.length >= 8)
  assertNoWindow(logged.join('\n'), [HEX, BYTES], 'console.log')
})

test('a keyed membership file: a bad secret source is never quoted, and a loaded set does not show it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-secrets-'))
  const write = (name, text) => { const p = path.join(dir, name); fs.writeFileSync(p, text); return p }
  const file = (source) => write('keyed.toml', `format = 1\nplacement = 1\nmode = "flat"\n\n[secret]\n${source}\n\n[[nodes]]\nid = "a"\n\n[[nodes]]\nid = "b"\n`)
  const bad = [HEX_WRONG, HEX + '0', HEX.slice(0, 30) + 'zz', BYTES.toString('latin1'), `${HEX}\n${HEX}`]
  for (const content of bad) {
    write('secret.hex', content)
    const f = file('file = "secret.hex"')
    let caught = null
    try { Rendezvous.load(f) } catch (e) { caught = e }
    assert.ok(caught, `loaded a file whose secret is ${JSON.stringify(content)}`)
    assert.equal(caught.code, 'ERR_LONGSTRAW_BAD_FILE')
    assertNoWindow(shownOf(caught), [HEX, BYTES, content], 'secret file')
  }
  process.env.LONGSTRAW_TEST_SECRET_BAD = HEX_WRONG
  try {
    let caught = null
    try { Rendezvous.load(file('env = "LONGSTRAW_TEST_SECRET_BAD"')) } catch (e) { caught = e }
    assert.ok(caught)
    assertNoWindow(shownOf(caught), [HEX, BYTES], 'secret env')
  } finally {
    delete process.env.LONGSTRAW_TEST_SECRET_BAD
  }
  write('secret.hex', HEX + '\n')
  const loaded = Rendezvous.load(file('file = "secret.hex"'))
  assert.equal(loaded.isKeyed, true)
  assertNoWindow([util.inspect(loaded, { showHidden: true, depth: 10, getters: true }), util.inspect(loaded.snapshot(), { getters: true }), String(loaded)].join('\n'), [HEX, BYTES], 'loaded set')
  fs.rmSync(dir, { recursive: true, force: true })
})
