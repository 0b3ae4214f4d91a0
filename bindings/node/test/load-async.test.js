'use strict'
// `loadAsync(path)` reads and builds on the libuv thread pool: while it waits on a FIFO (a secret
// written once by another process, or the membership file itself), timers keep firing; writing
// once completes it. Bad files reject with the error `load` throws.
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

const HEX = '0b7e31d9a4c25f68e1032d7c9a4b56f1'
const NODES = ['a', 'b', 'c', 'd']
const KEYS = Array.from({ length: 500 }, (_, i) => `k${i}`)
const ownersOf = (set) => KEYS.map((k) => set.owner(k))
const nodesToml = NODES.map((id) => `\n[[nodes]]\nid = "${id}"\n`).join('')
const hasMkfifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0

function tmpdir () {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-load-async-'))
}

test('loadAsync gives what load gives, for every mode', async () => {
  const dir = tmpdir()
  try {
    const modes = [
      ['flat', ''],
      ['table', '\n[table]\nbits = 6\nreplicas = 2\n'],
      ['skeleton', '\n[skeleton]\nfanout_bits = 1\nlevels = 2\n']
    ]
    for (const [mode, shape] of modes) {
      const file = path.join(dir, `${mode}.toml`)
      fs.writeFileSync(file, `format = 1\nseed = 7\nmode = "${mode}"\n${shape}${nodesToml}`)
      const promise = Rendezvous.loadAsync(file)
      assert.ok(promise instanceof Promise)
      const set = await promise
      assert.ok(set instanceof Rendezvous)
      assert.equal(set.mode, mode)
      assert.equal(set.seed, 7n)
      assert.deepEqual(ownersOf(set), ownersOf(Rendezvous.load(file)), mode)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('loadAsync rejects a bad file with the error load throws', async () => {
  const dir = tmpdir()
  try {
    const missing = path.join(dir, 'missing.toml')
    await assert.rejects(Rendezvous.loadAsync(missing), { name: 'Error', code: 'ERR_LONGSTRAW_BAD_FILE', message: /missing\.toml/ })
    const table = path.join(dir, 'table.toml')
    fs.writeFileSync(table, `format = 1\nmode = "table"\n${nodesToml}`)
    // A table file loads as a table-mode set (no class to match any more).
    assert.equal((await Rendezvous.loadAsync(table)).mode, 'table')
    const bad = path.join(dir, 'bad.toml')
    fs.writeFileSync(bad, 'format = 1\nmode = "flat"\n\n[[nodes]]\nid = "a"\nweight = -1\n')
    await assert.rejects(Rendezvous.loadAsync(bad), { code: 'ERR_LONGSTRAW_BAD_FILE', message: /bad\.toml:6: nodes\[0\]\.weight: / })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * Runs `load()` while another process waits `delayMs`, then writes `text` once into the FIFO at
 * `fifo`. Returns what `load` resolved to and how often a 10 ms interval fired in the meantime.
 */
async function whileWriterWaits (fifo, text, delayMs, load) {
  // The writer is a separate process, so that the write happens even if `load` blocked this thread.
  const writer = spawn('sh', ['-c', `sleep ${delayMs / 1000}; printf '%s' "$1" > "$2"`, 'writer', text, fifo], { stdio: 'ignore' })
  let ticks = 0
  const timer = setInterval(() => { ticks++ }, 10)
  const started = Date.now()
  try {
    const set = await load()
    return { set, ticks, elapsed: Date.now() - started }
  } finally {
    clearInterval(timer)
    if (writer.exitCode === null) writer.kill()
  }
}

test('loadAsync waiting on a FIFO secret does not block the event loop; one write completes it', { skip: !hasMkfifo || NO_FIFO }, async () => {
  const dir = tmpdir()
  try {
    const fifo = path.join(dir, 'secret.fifo')
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0)
    const file = path.join(dir, 'keyed.toml')
    fs.writeFileSync(file, `format = 1\nmode = "flat"\n\n[secret]\nfile = "secret.fifo"\n${nodesToml}`)
    const { set, ticks, elapsed } = await whileWriterWaits(fifo, HEX + '\n', 1000, () => Rendezvous.loadAsync(file))
    assert.ok(elapsed >= 900, `resolved after ${elapsed} ms, before the secret was written`)
    // A blocked loop fires no timer while it waits; a free one about 100 times in 1 s.
    assert.ok(ticks >= 10, `the interval fired ${ticks} times in ${elapsed} ms`)
    assert.equal(set.isKeyed, true)
    assert.deepEqual(ownersOf(set), ownersOf(new Rendezvous(NODES, { secret: Buffer.from(HEX, 'hex') })))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('loadAsync of a membership file that is a FIFO does not block the event loop', { skip: !hasMkfifo || NO_FIFO }, async () => {
  const dir = tmpdir()
  try {
    const fifo = path.join(dir, 'members.fifo')
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0)
    const text = `format = 1\nseed = 3\nmode = "table"\n\n[table]\nbits = 6\n${nodesToml}`
    const { set, ticks, elapsed } = await whileWriterWaits(fifo, text, 1000, () => Rendezvous.loadAsync(fifo))
    assert.ok(ticks >= 10, `the interval fired ${ticks} times in ${elapsed} ms`)
    assert.equal(set.seed, 3n)
    assert.deepEqual(ownersOf(set), ownersOf(Rendezvous.table(NODES, { seed: 3, bits: 6 })))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
