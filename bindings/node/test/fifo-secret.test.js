'use strict'
// A keyed membership file whose secret is a FIFO (a source another process writes once, which can be
// read only once) loads with the synchronous `load`, in every mode: the secret is read exactly once,
// and the set places keys as a set built with the same secret bytes does.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { Rendezvous, target } = require('..')
// WASI (the WebAssembly build) reports a FIFO as a file of unknown type, so the membership reader
// refuses it there with ERR_LONGSTRAW_BAD_FILE ("not a regular file or a pipe"): see wasm-target.test.js.
const NO_FIFO = target === 'wasm32-wasi' && 'the WebAssembly build: WASI reports no file type for a FIFO'

const HEX = '5d1c0a7e93b24f68a1e0c7d9b3a45f21'
const NODES = ['a', 'b', 'c', 'd', 'e']
const KEYS = Array.from({ length: 300 }, (_, i) => `key-${i}`)
const nodesToml = NODES.map((id) => `\n[[nodes]]\nid = "${id}"\n`).join('')
const hasMkfifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0

/** Starts a process that writes `text` into `fifo` once (it blocks until a reader opens the FIFO). */
function writeOnce (fifo, text) {
  const writer = spawn('sh', ['-c', 'printf "%s" "$1" > "$2"', 'writer', text, fifo], { stdio: 'ignore' })
  return new Promise((resolve) => writer.on('exit', (code) => resolve(code)))
}

test('a keyed file whose secret is in a FIFO loads with load(), in every mode, and with loads()', { skip: !hasMkfifo || NO_FIFO }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-fifo-'))
  try {
    const secret = Buffer.from(HEX, 'hex')
    const modes = [
      ['flat', '', () => new Rendezvous(NODES, { secret }), (f) => Rendezvous.load(f)],
      ['table', '\n[table]\nbits = 6\n', () => Rendezvous.table(NODES, { secret, bits: 6 }), (f) => Rendezvous.load(f)],
      ['skeleton', '\n[skeleton]\nfanout_bits = 1\nlevels = 2\n', () => Rendezvous.skeleton(NODES, { secret, fanoutBits: 1, levels: 2 }), (f) => Rendezvous.load(f)]
    ]
    for (const [mode, shape, expected, load] of modes) {
      const fifo = path.join(dir, `${mode}.secret`)
      assert.equal(spawnSync('mkfifo', [fifo]).status, 0)
      const file = path.join(dir, `${mode}.toml`)
      fs.writeFileSync(file, `format = 1\nmode = "${mode}"\n\n[secret]\nfile = "${mode}.secret"\n${shape}${nodesToml}`)
      const written = writeOnce(fifo, HEX + '\n')
      const set = load(file) // blocks until the writer has opened the FIFO and written the secret
      assert.equal(await written, 0, mode)
      assert.equal(set.isKeyed, true, mode)
      assert.equal(set.seed, null, mode)
      const want = expected()
      assert.deepEqual(KEYS.map((k) => set.owner(k)), KEYS.map((k) => want.owner(k)), mode)
      assert.deepEqual(set.rank('x'), want.rank('x'), mode)
    }
    // The same through loads(data): a secret.file path in the content (absolute here) names the FIFO.
    const fifo = path.join(dir, 'loads.secret')
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0)
    const written = writeOnce(fifo, HEX + '\n')
    const set = Rendezvous.loads(`format = 1\nmode = "flat"\n\n[secret]\nfile = ${JSON.stringify(fifo)}\n${nodesToml}`)
    assert.equal(await written, 0)
    const want = new Rendezvous(NODES, { secret })
    assert.deepEqual(KEYS.map((k) => set.owner(k)), KEYS.map((k) => want.owner(k)))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
