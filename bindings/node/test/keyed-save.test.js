'use strict'
// Saving a keyed set: a set loaded from a keyed file saves the secret source it was loaded with;
// `save(path, { secretFile })` or `save(path, { secretEnv })` names one (and overrides a loaded
// one). Giving both, or a source for an unkeyed set, is an error, as is a keyed set built in code
// saved with neither. The saved file names where the secret is; it never holds the secret.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Rendezvous } = require('..')

const HEX = '5e1f0a93c4d27b68e90f13a2c5b74d86'
const SECRET = Buffer.from(HEX, 'hex')
const ENV = 'LONGSTRAW_TEST_KEYED_SAVE_SECRET'
const NODES = ['cache-a', 'cache-b', 'cache-c', 'cache-d', 'cache-e']
const KEYS = Array.from({ length: 2000 }, (_, i) => `user:${i}`)

const MODES = [
  ['flat', (n, o) => new Rendezvous(n, o), '', {}],
  ['table', (n, o) => Rendezvous.table(n, o), '\n[table]\nbits = 8\nreplicas = 2\n', { bits: 8, replicas: 2 }],
  ['skeleton', (n, o) => Rendezvous.skeleton(n, o), '\n[skeleton]\nfanout_bits = 1\nlevels = 2\n', { fanoutBits: 1, levels: 2 }]
]

function tmpdir () {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-keyed-save-'))
}

function keyedFile (dir, mode, shape, source) {
  const nodes = NODES.map((id) => `\n[[nodes]]\nid = "${id}"\n`).join('')
  const file = path.join(dir, `${mode}.toml`)
  fs.writeFileSync(file, `format = 1\nplacement = 1\nmode = "${mode}"\n${shape}\n[secret]\n${source}\n${nodes}`)
  return file
}

/** The saved file holds no 8-character window of the secret's hex, in either case. */
function assertNoSecret (file) {
  const text = fs.readFileSync(file, 'latin1')
  for (const form of [HEX, HEX.toUpperCase()]) {
    for (let i = 0; i + 8 <= form.length; i++) assert.ok(!text.includes(form.slice(i, i + 8)), `${file} holds the secret`)
  }
  assert.ok(!text.includes(SECRET.toString('latin1').slice(0, 4)))
}

const ownersOf = (set) => KEYS.map((k) => set.owner(k))

test('a set loaded from a keyed file saves again with no argument, and reloads to the same owners', async () => {
  const dir = tmpdir()
  try {
    fs.writeFileSync(path.join(dir, 'secret.hex'), HEX + '\n')
    for (const [mode, Cls, shape, options] of MODES) {
      const reference = ownersOf(Cls(NODES, { ...options, secret: SECRET }))
      for (const load of [(f) => Rendezvous.load(f), (f) => Rendezvous.loadAsync(f)]) {
        const loaded = await load(keyedFile(dir, mode, shape, 'file = "secret.hex"'))
        assert.equal(loaded.isKeyed, true)
        assert.deepEqual(ownersOf(loaded), reference, mode)
        const out = path.join(dir, 'sub', `${mode}-saved.toml`)
        fs.mkdirSync(path.dirname(out), { recursive: true })
        loaded.save(out)
        // The loaded source was made absolute, so the saved file (in another folder) still finds it.
        assert.match(fs.readFileSync(out, 'utf8'), new RegExp(`\\[secret\\]\\nfile = ".*${path.sep}secret\\.hex"`))
        assertNoSecret(out)
        assert.deepEqual(ownersOf(Rendezvous.load(out)), reference, `${mode}: reloaded`)
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a set loaded with an environment variable source saves it again', () => {
  const dir = tmpdir()
  process.env[ENV] = HEX
  try {
    for (const [mode, Cls, shape, options] of MODES) {
      const reference = ownersOf(Cls(NODES, { ...options, secret: SECRET }))
      const loaded = Rendezvous.load(keyedFile(dir, mode, shape, `env = "${ENV}"`))
      const out = path.join(dir, `${mode}-saved.toml`)
      loaded.save(out)
      assert.match(fs.readFileSync(out, 'utf8'), new RegExp(`\\[secret\\]\\nenv = "${ENV}"`))
      assertNoSecret(out)
      assert.deepEqual(ownersOf(Rendezvous.load(out)), reference, mode)
    }
  } finally {
    delete process.env[ENV]
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a keyed set built in code saves with secretFile or secretEnv, and reloads to the same owners', () => {
  const dir = tmpdir()
  try {
    fs.writeFileSync(path.join(dir, 'key.hex'), HEX)
    for (const [mode, Cls, , options] of MODES) {
      const set = Cls(NODES, { ...options, secret: SECRET })
      set.add('cache-f')
      const reference = ownersOf(set)
      const byFile = path.join(dir, `${mode}-file.toml`)
      set.save(byFile, { secretFile: 'key.hex' }) // relative: read from the saved file's folder
      assert.match(fs.readFileSync(byFile, 'utf8'), /\[secret\]\nfile = "key\.hex"/)
      assertNoSecret(byFile)
      assert.deepEqual(ownersOf(Rendezvous.load(byFile)), reference, `${mode}: secretFile`)

      const byEnv = path.join(dir, `${mode}-env.toml`)
      set.save(byEnv, { secretEnv: ENV })
      assertNoSecret(byEnv)
      process.env[ENV] = HEX
      try {
        assert.deepEqual(ownersOf(Rendezvous.load(byEnv)), reference, `${mode}: secretEnv`)
      } finally {
        delete process.env[ENV]
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a source given to save overrides the loaded one', () => {
  const dir = tmpdir()
  try {
    fs.writeFileSync(path.join(dir, 'secret.hex'), HEX)
    const loaded = Rendezvous.load(keyedFile(dir, 'flat', '', 'file = "secret.hex"'))
    const out = path.join(dir, 'out.toml')
    loaded.save(out, { secretEnv: ENV })
    assert.match(fs.readFileSync(out, 'utf8'), new RegExp(`\\[secret\\]\\nenv = "${ENV}"`))
    assert.doesNotMatch(fs.readFileSync(out, 'utf8'), /secret\.hex/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('refused saves: no source, both sources, an empty one, a source for an unkeyed set; nothing is written', () => {
  const dir = tmpdir()
  try {
    const out = path.join(dir, 'out.toml')
    for (const [mode, Cls, , options] of MODES) {
      const keyed = Cls(NODES, { ...options, secret: SECRET })
      const plain = Cls(NODES, options)
      const cases = [
        [keyed, undefined, /out\.toml: secret: a keyed set needs a secret source to be saved: name a secret file or an environment variable \(the secret itself is never written\)$/],
        [keyed, {}, /needs a secret source/],
        [keyed, { secretFile: 'key.hex', secretEnv: ENV }, /out\.toml: secret: name one secret source, a file or an environment variable, not both$/],
        [keyed, { secretFile: '' }, /the secret source is empty: name a file or an environment variable$/],
        [keyed, { secretEnv: '' }, /the secret source is empty/],
        [plain, { secretFile: 'key.hex' }, /out\.toml: secret: the set is not keyed, so it has no secret source/],
        [plain, { secretEnv: ENV }, /the set is not keyed/]
      ]
      for (const [set, opts, message] of cases) {
        assert.throws(() => set.save(out, opts), { name: 'Error', code: 'ERR_LONGSTRAW_BAD_FILE', message }, `${mode} ${JSON.stringify(opts)}`)
        assert.equal(fs.existsSync(out), false, `${mode}: a refused save wrote the file`)
      }
      plain.save(out, {})
      assert.doesNotMatch(fs.readFileSync(out, 'utf8'), /\[secret\]/)
      fs.rmSync(out)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('save options of the wrong type are TypeErrors', () => {
  const set = new Rendezvous(NODES, { secret: SECRET })
  const out = path.join(os.tmpdir(), 'longstraw-never-written.toml')
  const cases = [
    [5, /options must be an object; got number 5/],
    ['key.hex', /options must be an object; got string/],
    [[], /options must be an object; got an array/],
    [{ secretfile: 'key.hex' }, /unknown option "secretfile" \(known: secretFile, secretEnv\)/],
    [{ secretFile: 5 }, /options\.secretFile must be a string; got number 5/],
    [{ secretEnv: Buffer.from('X') }, /options\.secretEnv must be a string; got a Uint8Array/],
    [{ secretFile: 'a\ud800' }, /lone surrogate/]
  ]
  for (const [opts, message] of cases) {
    assert.throws(() => set.save(out, opts), { name: 'TypeError', message }, String(opts))
  }
  assert.equal(fs.existsSync(out), false)
})
