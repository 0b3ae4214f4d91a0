'use strict'
// When no addon can be loaded, the error says what is wrong on this machine (the platform package
// is not installed, there is no prebuilt binary for this platform, or a binary failed to load), how
// to fix it, and which platforms have prebuilt binaries. The package is copied without its addon
// into a fresh folder, and loaded there in a child process.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const PKG = path.join(__dirname, '..')
const pkg = require('../package.json')
const SUPPORTED = ['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'linux-arm64-musl']

function bareCopy () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-loader-'))
  for (const f of ['package.json', ...pkg.files]) fs.copyFileSync(path.join(PKG, f), path.join(dir, f))
  return dir
}

/** The error `require(dir)` throws in a child, after `prelude` ran there. */
function loadError (dir, prelude = '') {
  const script = `${prelude}
try { require(${JSON.stringify(dir)}); console.log(JSON.stringify({ loaded: true })) }
catch (e) { console.log(JSON.stringify({ message: e.message, code: e.code, cause: e.cause && e.cause.message })) }`
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: dir, env: { ...process.env, NODE_PATH: '', LONGSTRAW_NODE_WASM: '', NAPI_RS_FORCE_WASI: '' } })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout.trim().split('\n').pop())
}

test('the supported platforms are the per-platform packages in npm/', () => {
  assert.deepEqual(fs.readdirSync(path.join(PKG, 'npm')).sort(), [...SUPPORTED, 'wasm32-wasi', 'wasm32-wasip1'].sort())
})

test('the platform package is not installed: say so, and how to install it', { skip: process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch) }, () => {
  const dir = bareCopy()
  try {
    const e = loadError(dir)
    assert.equal(e.loaded, undefined, 'the copy without an addon loaded')
    assert.equal(e.code, 'ERR_LONGSTRAW_NO_ADDON')
    assert.doesNotMatch(e.message, /npm has a bug/)
    assert.match(e.message, /is not installed/)
    assert.match(e.message, new RegExp(`npm install longstraw-linux-${process.arch}-(gnu|musl)@${pkg.version.replace(/\./g, '\\.')}`))
    assert.match(e.message, /--omit=optional/)
    assert.ok(e.message.includes(`Prebuilt binaries: ${SUPPORTED.join(', ')}.`), e.message)
    assert.match(e.cause, /^Cannot find native binding/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('no prebuilt binary for this platform: say so and list the supported ones', () => {
  const dir = bareCopy()
  try {
    const e = loadError(dir, "Object.defineProperty(process, 'arch', { value: 's390x' })")
    assert.equal(e.code, 'ERR_LONGSTRAW_NO_ADDON')
    assert.doesNotMatch(e.message, /npm has a bug/)
    assert.match(e.message, new RegExp(`no prebuilt binary for ${process.platform} s390x`))
    assert.match(e.message, /Build the addon from source/)
    assert.ok(e.message.includes(`Prebuilt binaries: ${SUPPORTED.join(', ')}.`), e.message)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a binary that is there but does not load: say why', { skip: process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch) }, () => {
  const dir = bareCopy()
  try {
    for (const libc of ['gnu', 'musl']) fs.writeFileSync(path.join(dir, `longstraw.linux-${process.arch}-${libc}.node`), 'not an ELF file')
    const e = loadError(dir)
    assert.equal(e.code, 'ERR_LONGSTRAW_NO_ADDON')
    assert.match(e.message, /was found but could not be loaded: .*(ELF|invalid|too short)/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('any other load error passes through unchanged', () => {
  const dir = bareCopy()
  try {
    fs.writeFileSync(path.join(dir, 'index.js'), "throw new Error('something else')\n")
    const e = loadError(dir)
    assert.equal(e.message, 'something else')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
