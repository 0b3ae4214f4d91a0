'use strict'
// The package's CommonJS entry point. It loads the addon through index.js (the loader napi-rs
// generates, which `make test-node` checks is unedited) and, when no addon could be loaded, replaces
// that loader's generic error with one that says what is wrong on this machine and how to fix it.
//
// Which build loads (LONGSTRAW_NODE_WASM unset, 0 or false):
// - the native addon of this platform (the package longstraw-<os>-<arch>[-<libc>]) when one matches;
// - otherwise the threaded WebAssembly build (the package longstraw-wasm32-wasi), which runs on any OS and CPU;
// - otherwise (not installed, or it cannot start: no SharedArrayBuffer or no worker threads) the WebAssembly
//   build without threads (the package longstraw-wasm32-wasip1), whose ...Async calls reject with
//   ERR_LONGSTRAW_NO_THREADS (no-threads.js).
// LONGSTRAW_NODE_WASM forces WebAssembly, and a forced load that cannot find it fails instead of quietly
// running native: 1 or true, either WebAssembly build (threaded first); threads, only the threaded one (as
// napi-rs's own NAPI_RS_FORCE_WASI=error; NAPI_RS_FORCE_WASI=true prefers it but falls back to native);
// edge, only the one without threads.
// `target` says which one loaded: 'native', 'wasm32-wasi' or 'wasm32-wasip1'.

function libcOf () {
  if (process.platform !== 'linux') return null
  try {
    const report = process.report && typeof process.report.getReport === 'function' ? process.report.getReport() : null
    if (report && report.header && report.header.glibcVersionRuntime) return 'gnu'
    if (report && Array.isArray(report.sharedObjects) &&
        report.sharedObjects.some((f) => f.includes('libc.musl-') || f.includes('ld-musl-'))) return 'musl'
  } catch {}
  try {
    if (require('node:fs').readFileSync('/usr/bin/ldd', 'utf8').includes('musl')) return 'musl'
  } catch {}
  return 'gnu'
}

const ARCH = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'arm', riscv64gc: 'riscv64', s390x: 's390x', powerpc64le: 'ppc64' }
const OS = { linux: 'linux', darwin: 'darwin', windows: 'win32', freebsd: 'freebsd' }

/** The `os-arch[-abi]` names of the prebuilt native binaries (package.json `napi.targets`). */
function supportedPlatforms (pkg) {
  const targets = ((pkg.napi && pkg.napi.targets) || []).filter((triple) => !triple.startsWith('wasm32-'))
  return targets.map((triple) => {
    const [arch, , os, abi] = triple.split('-')
    return [OS[os] || os, ARCH[arch] || arch, abi].filter(Boolean).join('-')
  })
}

/** The chain of messages index.js attaches as `cause`. */
function causesOf (err) {
  const out = []
  for (let e = err && err.cause; e && out.length < 64; e = e.cause) out.push(String(e.message))
  return out
}

/** The error to throw instead of index.js's "Cannot find native binding" one. */
function noAddonError (original) {
  const pkg = require('./package.json')
  const libc = libcOf()
  const here = [process.platform, process.arch, libc].filter(Boolean).join('-')
  const libcName = libc === 'gnu' ? 'glibc' : libc
  const supported = supportedPlatforms(pkg)
  const wanted = `${pkg.name}-${here}`
  const describe = `${process.platform} ${process.arch}${libc ? ` (${libcName})` : ''}`
  // A message that is not "Cannot find module" means a binary was there but failed to load.
  const failed = causesOf(original).filter((m) => !/^Cannot find module\b|^Unsupported /.test(m))
  const lines = []
  if (failed.length > 0) {
    lines.push(`longstraw: the native addon for ${describe} was found but could not be loaded: ${failed[0]}`)
    lines.push(`  Reinstall ${wanted} on this machine (a binary copied from another machine may need a newer ${libcName || 'system library'}).`)
  } else if (supported.includes(here)) {
    lines.push(`longstraw: the native addon for ${describe} is not installed.`)
    lines.push(`  It ships as the optional dependency ${wanted}, which was not installed: optional dependencies were`)
    lines.push('  omitted (--omit=optional, --no-optional), or node_modules or the lock file was made on another platform.')
    lines.push(`  Fix: npm install ${wanted}@${pkg.version}, or reinstall without omitting optional dependencies.`)
  } else {
    lines.push(`longstraw: there is no prebuilt binary for ${describe} (${here}).`)
    lines.push('  Build the addon from source (a Rust toolchain, then `make build-node` in the longstraw repository),')
    lines.push('  or run on a supported platform.')
  }
  lines.push(`  Prebuilt binaries: ${supported.join(', ')}.`)
  lines.push(`  On any other platform a WebAssembly build runs: npm install ${pkg.name}-wasm32-wasi@${pkg.version}`)
  lines.push(`  (threaded), or ${pkg.name}-wasm32-wasip1@${pkg.version} where there are no threads or SharedArrayBuffer`)
  lines.push('  (it needs Node 18 or later and is slower per call; see the README).')
  lines.push('  What each attempt reported is in error.cause.')
  const error = new Error(lines.join('\n'))
  error.code = 'ERR_LONGSTRAW_NO_ADDON'
  error.cause = original
  return error
}

/** LONGSTRAW_NODE_WASM: 'auto' (unset, '', 0, false), 'wasm' (1, true), 'threads' or 'edge'. */
function wasmMode () {
  const v = process.env.LONGSTRAW_NODE_WASM
  if (v === undefined || v === '' || v === '0' || v === 'false') return 'auto'
  if (v === '1' || v === 'true') return 'wasm'
  if (v === 'threads' || v === 'edge') return v
  const error = new Error(`longstraw: LONGSTRAW_NODE_WASM must be 1 or 0 (true or false), threads or edge; got ${JSON.stringify(v)}`)
  error.code = 'ERR_LONGSTRAW_BAD_ENV'
  throw error
}

/** The load through index.js, with napi-rs's NAPI_RS_FORCE_WASI=error when WebAssembly is forced. */
function loadIndex (mode) {
  if (mode === 'auto') return require('./index.js')
  const saved = process.env.NAPI_RS_FORCE_WASI
  process.env.NAPI_RS_FORCE_WASI = 'error'
  try {
    return require('./index.js')
  } finally {
    if (saved === undefined) delete process.env.NAPI_RS_FORCE_WASI
    else process.env.NAPI_RS_FORCE_WASI = saved
  }
}

/** The build without threads (edge.js). */
const loadEdge = () => require('./edge.js')

const notFound = (err) => err && typeof err.message === 'string' &&
  (err.message.startsWith('Cannot find native binding') || err.message.startsWith('WASI binding not found'))

/** The error a forced WebAssembly load throws when the build it asks for is missing or cannot start. */
function noWasmError (mode, cause) {
  const pkg = require('./package.json')
  const which = mode === 'edge'
    ? `the WebAssembly build without threads, which is not installed or cannot start.\n  Fix: npm install ${pkg.name}-wasm32-wasip1@${pkg.version}`
    : mode === 'threads'
      ? `the threaded WebAssembly build, which is not installed or cannot start (it needs SharedArrayBuffer and worker threads).\n  Fix: npm install ${pkg.name}-wasm32-wasi@${pkg.version}`
      : `a WebAssembly build, and neither is installed and starts.\n  Fix: npm install ${pkg.name}-wasm32-wasi@${pkg.version} (threaded) or ${pkg.name}-wasm32-wasip1@${pkg.version} (no threads)`
  const error = new Error(
    `longstraw: LONGSTRAW_NODE_WASM=${process.env.LONGSTRAW_NODE_WASM} asks for ${which}, or unset LONGSTRAW_NODE_WASM to use the native addon.\n` +
    '  What each attempt reported is in error.cause.')
  error.code = 'ERR_LONGSTRAW_NO_ADDON'
  error.cause = cause
  return error
}

/** The error chain `first`, then `second` as the cause at its end (for error.cause). */
function chain (first, second) {
  let e = first
  for (let i = 0; e && e.cause && i < 64; i++) e = e.cause
  if (e && typeof e === 'object' && !e.cause) {
    try { e.cause = second } catch {}
  }
  return first
}

function load () {
  const mode = wasmMode()
  if (mode === 'edge') {
    try { return loadEdge() } catch (err) { throw noWasmError(mode, err) }
  }
  try {
    return loadIndex(mode)
  } catch (err) {
    if (!notFound(err)) throw err
    if (mode === 'threads') throw noWasmError(mode, err)
    try {
      return loadEdge()
    } catch (edgeErr) {
      chain(err, edgeErr)
      // NAPI_RS_FORCE_WASI=error set by the caller: napi-rs's own error says what they asked for.
      if (mode === 'auto' && err.message.startsWith('WASI binding not found')) throw err
      throw mode === 'auto' ? noAddonError(err) : noWasmError(mode, err)
    }
  }
}

const binding = load()
if (!Object.prototype.hasOwnProperty.call(binding, 'target')) {
  // 'native' or 'wasm32-wasi': the build index.js loaded (napi-rs records it as __napiBindingTarget).
  Object.defineProperty(binding, 'target', {
    value: binding.__napiBindingTarget === 'wasm32-wasi' ? 'wasm32-wasi' : 'native',
    enumerable: true
  })
}
module.exports = binding
