'use strict'
// The WebAssembly build without threads (wasm32-wasip1) in Node: the loader falls back to it when the
// threaded build cannot start (here: SharedArrayBuffer removed before the load), LONGSTRAW_NODE_WASM=edge and
// `longstraw/edge` force it, and every ...Async call rejects with ERR_LONGSTRAW_NO_THREADS. Each load runs in a
// child process. Needs make build-node-wasm-edge (and make build-node-wasm for the threaded build): without
// them the tests skip, loudly, and LONGSTRAW_REQUIRE_EDGE=1 (make test-node-wasm) turns the skip into a failure.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const PKG = path.join(__dirname, '..')
const built = fs.existsSync(path.join(PKG, 'longstraw.wasip1.cjs')) && fs.existsSync(path.join(PKG, 'longstraw.wasm32-wasip1.wasm'))
const threaded = fs.existsSync(path.join(PKG, 'longstraw.wasi.cjs'))
const required = process.env.LONGSTRAW_REQUIRE_EDGE === '1'
if (required) {
  test('the WebAssembly builds are here (LONGSTRAW_REQUIRE_EDGE=1)', () => {
    assert.ok(built, 'longstraw.wasip1.cjs / longstraw.wasm32-wasip1.wasm missing: run make build-node-wasm-edge')
    assert.ok(threaded, 'longstraw.wasi.cjs missing: run make build-node-wasm')
  })
} else if (!built || !threaded) {
  console.error('\n!!! edge.test.js: SKIPPED: the WebAssembly builds are not next to the loader (make build-node-wasm build-node-wasm-edge) !!!\n')
}
const skip = !built || !threaded

/** What `script` printed last (JSON), run in a child after `prelude`, in env (LONGSTRAW_NODE_WASM etc.). */
function run (env, script, prelude = '') {
  const r = spawnSync(process.execPath, ['--no-warnings', '-e', `${prelude}
(async () => { try { console.log(JSON.stringify(await (async () => { ${script} })())) }
catch (e) { console.log(JSON.stringify({ error: e.code, message: e.message.split('\\n')[0] })) } })()`],
  { cwd: PKG, encoding: 'utf8', env: { ...process.env, LONGSTRAW_NODE_WASM: '', NAPI_RS_FORCE_WASI: '', ...env } })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout.trim().split('\n').pop())
}
const NO_SAB = 'delete globalThis.SharedArrayBuffer;'
const TARGET = "const l = require('.'); return { target: l.target, backend: l.backend() }"

test('without SharedArrayBuffer, LONGSTRAW_NODE_WASM=1 falls back to the build without threads', { skip }, () => {
  assert.deepEqual(run({ LONGSTRAW_NODE_WASM: '1' }, TARGET), { target: 'wasm32-wasi', backend: 'simd128' })
  assert.deepEqual(run({ LONGSTRAW_NODE_WASM: '1' }, TARGET, NO_SAB), { target: 'wasm32-wasip1', backend: 'simd128' })
})

test('LONGSTRAW_NODE_WASM=threads fails where the threaded build cannot start, never runs another', { skip }, () => {
  assert.deepEqual(run({ LONGSTRAW_NODE_WASM: 'threads' }, TARGET), { target: 'wasm32-wasi', backend: 'simd128' })
  const r = run({ LONGSTRAW_NODE_WASM: 'threads' }, TARGET, NO_SAB)
  assert.equal(r.error, 'ERR_LONGSTRAW_NO_ADDON')
  assert.match(r.message, /^longstraw: LONGSTRAW_NODE_WASM=threads asks for the threaded WebAssembly build/)
})

test('LONGSTRAW_NODE_WASM=edge and longstraw/edge load the build without threads, with SharedArrayBuffer too', { skip }, () => {
  assert.deepEqual(run({ LONGSTRAW_NODE_WASM: 'edge' }, TARGET), { target: 'wasm32-wasip1', backend: 'simd128' })
  const sub = "const l = require('longstraw/edge'); const m = await import('longstraw/edge'); " +
    'return { target: l.target, esm: m.target, same: m.Rendezvous === l.Rendezvous, main: require(\'.\').target }'
  const r = run({}, sub)
  assert.equal(r.target, 'wasm32-wasip1')
  assert.equal(r.esm, 'wasm32-wasip1')
  assert.equal(r.same, true)
  assert.equal(r.main, run({}, "return { target: require('.').target }").target, 'longstraw/edge changed what `longstraw` loads')
})

test('the build without threads places as the vectors say, and rejects every async call naming its twin', { skip }, () => {
  // Owners from placement-v1.json (the frozen vectors), not from another build.
  const v = JSON.parse(fs.readFileSync(path.join(PKG, '..', '..', 'tests', 'vectors', 'placement-v1.json'), 'utf8'))
  const cases = v.cases.slice(0, 20)
  const script = `const l = require('.'); const cases = ${JSON.stringify(cases)}
    const owners = cases.map((c) => {
      const r = new l.Rendezvous(c.nodes.map((n) => Buffer.from(n.id_hex, 'hex')),
        { weights: c.nodes.map((n) => Buffer.from(n.weight_bits, 'hex').readDoubleBE(0)), seed: BigInt(c.seed) })
      return c.keys.map((k) => {
        let o
        try { o = r.owner(Buffer.from(k.key_hex, 'hex')) } catch (e) { return e.code }
        return (typeof o === 'string' ? Buffer.from(o) : o).toString('hex')
      })
    })
    const r = new l.Rendezvous(['a', 'b', 'c']); const s = r.snapshot()
    const bytes = Buffer.from('k1k2'); const offsets = new Uint32Array([0, 2, 4])
    const calls = { 'Rendezvous.tableAsync': () => l.Rendezvous.tableAsync(['a', 'b'], { bits: 8 }),
      'Rendezvous.loadAsync': () => l.Rendezvous.loadAsync('members.toml'),
      'Rendezvous.prototype.ownersAsync': () => r.ownersAsync(['k1']),
      'Rendezvous.prototype.ownerIndicesAsync': () => r.ownerIndicesAsync(bytes, offsets),
      'Snapshot.prototype.ownersAsync': () => s.ownersAsync(['k1']),
      'Snapshot.prototype.ownerIndicesAsync': () => s.ownerIndicesAsync(bytes, offsets) }
    const rejected = {}
    for (const [name, call] of Object.entries(calls)) rejected[name] = await call().then(() => 'resolved', (e) => e.code + ' ' + e.message)
    const instances = [r instanceof l.Rendezvous, l.Rendezvous.table(['a'], { bits: 4 }) instanceof l.Rendezvous, s instanceof l.Snapshot]
    return { target: l.target, owners, rejected, instances }`
  const r = run({ LONGSTRAW_NODE_WASM: 'edge' }, script)
  assert.equal(r.target, 'wasm32-wasip1')
  assert.deepEqual(r.owners, cases.map((c) => c.keys.map((k) => k.owner === null ? 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' : c.nodes[k.owner].id_hex)))
  assert.deepEqual(r.instances, [true, true, true])
  const twins = { 'Rendezvous.tableAsync': 'Rendezvous.table', 'Rendezvous.loadAsync': 'Rendezvous.load' }
  for (const [name, outcome] of Object.entries(r.rejected)) {
    assert.match(outcome, /^ERR_LONGSTRAW_NO_THREADS longstraw: /, name)
    assert.ok(outcome.includes(`${name} needs threads`), outcome)
    assert.ok(outcome.includes(`Call ${twins[name] || name.slice(0, -'Async'.length)} instead`), outcome)
  }
  assert.equal(Object.keys(r.rejected).length, 6)
})
