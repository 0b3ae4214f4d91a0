'use strict'
// Which build loaded: `target` is 'native', 'wasm32-wasi' or 'wasm32-wasip1'. make test-node and make test-node-wasm set
// LONGSTRAW_EXPECT_TARGET, so a forced WebAssembly run that quietly loaded the native addon (or the
// reverse) fails here instead of passing as the other build.
const test = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const longstraw = require('..')

const PKG = path.join(__dirname, '..')

test('the build that loaded is the one this run expects', () => {
  assert.ok(['native', 'wasm32-wasi', 'wasm32-wasip1'].includes(longstraw.target), String(longstraw.target))
  const expected = process.env.LONGSTRAW_EXPECT_TARGET
  if (expected) assert.equal(longstraw.target, expected)
  // The kernel follows the build: simd128 (or scalar) only in WebAssembly, never natively.
  if (longstraw.target !== 'native') assert.match(longstraw.backend(), /^(simd128|scalar)$/)
  else assert.doesNotMatch(longstraw.backend(), /^simd128$/)
})

test('the ESM entry reports the same target', async () => {
  const esm = await import('../index.mjs')
  assert.equal(esm.target, longstraw.target)
  assert.equal(esm.default.target, longstraw.target)
})

/** `target` (or the error code) of a fresh process with the given environment. */
function loadIn (env) {
  const r = spawnSync(process.execPath, ['--no-warnings', '-e', `
    try { console.log(require('.').target) } catch (e) { console.log('error ' + e.code + ' ' + e.message.split('\\n')[0]) }`],
  { cwd: PKG, encoding: 'utf8', env: { ...process.env, LONGSTRAW_NODE_WASM: '', NAPI_RS_FORCE_WASI: '', ...env } })
  assert.equal(r.status, 0, r.stderr)
  return r.stdout.trim()
}

test('LONGSTRAW_NODE_WASM: 0 or unset prefers native, a bad value is a coded error', () => {
  const native = loadIn({})
  assert.equal(loadIn({ LONGSTRAW_NODE_WASM: '0' }), native)
  assert.equal(loadIn({ LONGSTRAW_NODE_WASM: 'false' }), native)
  assert.match(loadIn({ LONGSTRAW_NODE_WASM: 'yes' }), /^error ERR_LONGSTRAW_BAD_ENV longstraw: LONGSTRAW_NODE_WASM must be 1 or 0/)
})

test('LONGSTRAW_NODE_WASM=1 and NAPI_RS_FORCE_WASI load the WebAssembly build, or fail saying so', () => {
  const forced = loadIn({ LONGSTRAW_NODE_WASM: '1' })
  const byNapi = loadIn({ NAPI_RS_FORCE_WASI: 'error' })
  if (forced === 'wasm32-wasi') {
    assert.equal(byNapi, 'wasm32-wasi')
    assert.equal(loadIn({ NAPI_RS_FORCE_WASI: 'true' }), 'wasm32-wasi')
  } else {
    // Not built here (make build-node-wasm builds it): the forced load fails, never runs native.
    assert.match(forced, /^error ERR_LONGSTRAW_NO_ADDON longstraw: LONGSTRAW_NODE_WASM=1 asks for a WebAssembly build, and neither is installed and starts/)
    assert.match(byNapi, /^error undefined WASI binding not found/)
  }
})
