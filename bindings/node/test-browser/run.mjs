// The browser entry in a real headless Chromium (Debian's `chromium`, driven by playwright-core, which
// downloads no browser). A static HTTP server on 127.0.0.1 serves the repository's files twice:
//   /isolated/...  with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp,
//                  so the page is cross-origin isolated and has SharedArrayBuffer;
//   /plain/...     without them.
// Each page maps the bare specifiers `longstraw`, `longstraw/edge` and `longstraw/threads` (an import map) to
// the files package.json's "browser" export conditions name (and `longstraw-wasm32-wasi/` and
// `longstraw-wasm32-wasip1/`, which those files load, to browser/dist/ and browser/dist-edge/), and imports one
// module; the module's exported `result`, or what it threw, is the page's outcome. The server, the page and
// the launcher are harness.mjs's (shared with make dist-check's check of the published packages).
//
//   node test-browser/run.mjs               make test-node-browser: page.mjs (the vectors) on an isolated
//                                           page, where `longstraw` must pick the threaded build; then
//                                           page-edge.mjs on a page that is not isolated, where the same
//                                           `longstraw` must pick the build without threads (make
//                                           build-node-wasm-edge): the vectors, its async calls rejected, and
//                                           `longstraw` bundled by esbuild in a module Web Worker
//                                           (worker-edge.mjs); then `longstraw/threads` on that page, which
//                                           must fail with ERR_LONGSTRAW_NOT_ISOLATED rather than hang, and
//                                           `longstraw/edge` on the isolated page, which must load the build
//                                           without threads anyway
//   node test-browser/run.mjs --module F    the ES module F on an isolated page and on a page that is not
//                                           (the docs runner's ```js browser blocks); exit 0 when it ran on
//                                           both, 1 when it threw
//
// No Chromium (LONGSTRAW_CHROMIUM, or chromium / chromium-browser on PATH): with CI=true a failure, else a
// loud skip (exit 0; with --module, exit 77 so the docs runner lists the block as SKIPPED).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { SKIP, chromiumOrExit, launch, runPage as run, startServer } from './harness.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PKG = path.dirname(HERE)
const ROOT = path.resolve(PKG, '..', '..')
const PAGE_TIMEOUT_MS = 90_000
const NOT_ISOLATED_TIMEOUT_MS = 20_000

const args = process.argv.slice(2)
const moduleArg = args[0] === '--module' ? path.resolve(args[1] || '') : null
if (args.length > 0 && (moduleArg === null || args.length !== 2)) {
  console.error('usage: node test-browser/run.mjs [--module FILE.mjs]')
  process.exit(2)
}

const chromiumPath = chromiumOrExit('node-browser', moduleArg ? SKIP : 0)

// The browser entry as package.json names it, so that the test also checks the field. It re-exports
// longstraw-wasm32-wasi/longstraw.browser.js, which the import map points at browser/dist/ (what
// make build-node-browser builds: the files that package ships beside its .wasm).
const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'))
const browserEntry = pkg.exports['.'].browser
if (typeof browserEntry !== 'string' || pkg.browser !== browserEntry) {
  console.error(`node-browser: package.json's "browser" (${pkg.browser}) and exports["."].browser (${browserEntry}) must name one file`)
  process.exit(1)
}
const entryFile = path.join(PKG, browserEntry)
const edgeFile = path.join(PKG, pkg.exports['./edge'].browser)
const threadsFile = path.join(PKG, pkg.exports['./threads'].browser)
const DIST = path.join(PKG, 'browser', 'dist')
const DIST_EDGE = path.join(PKG, 'browser', 'dist-edge')
const edgeEntry = path.join(DIST_EDGE, 'longstraw.edge.js')
for (const [f, make] of [[entryFile, 'build-node-browser'], [path.join(DIST, 'longstraw.browser.js'), 'build-node-browser'],
  [edgeEntry, 'build-node-wasm-edge']]) {
  if (!fs.existsSync(f)) {
    console.error(`node-browser: ${path.relative(ROOT, f)} is missing: run make ${make}`)
    process.exit(1)
  }
}
const urlOf = (mode, file) => `/${mode}/${path.relative(ROOT, file).split(path.sep).join('/')}`

// Import maps do not reach workers: the worker module is bundled by esbuild, with `longstraw` resolved as a
// bundler resolves it in an installed project (the "browser" entry, then the two WebAssembly packages'
// bundles), into build/node-browser-test/, beside copies of both .wasm files, which the bundle finds by URL.
const WORKER_DIR = path.join(ROOT, 'build', 'node-browser-test')
fs.rmSync(WORKER_DIR, { recursive: true, force: true })
fs.mkdirSync(WORKER_DIR, { recursive: true })
const { build } = createRequire(import.meta.url)('esbuild')
await build({
  entryPoints: [path.join(HERE, 'worker-edge.mjs')], outfile: path.join(WORKER_DIR, 'worker-edge.js'),
  bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning',
  plugins: [{
    name: 'longstraw-packages',
    setup (b) {
      b.onResolve({ filter: /^longstraw$/ }, () => ({ path: entryFile }))
      b.onResolve({ filter: /^longstraw-wasm32-wasip?1?\// }, (a) => {
        const [name, file] = a.path.split('/')
        return { path: path.join(name === 'longstraw-wasm32-wasi' ? DIST : DIST_EDGE, file) }
      })
    }
  }]
})
for (const f of [path.join(DIST, 'longstraw.wasm32-wasi.wasm'), path.join(DIST_EDGE, 'longstraw.wasm32-wasip1.wasm')]) {
  fs.copyFileSync(f, path.join(WORKER_DIR, path.basename(f)))
}

// Only these folders are served (and the entries, and the --module file).
const SERVED = [DIST, DIST_EDGE, HERE, WORKER_DIR, path.join(ROOT, 'tests', 'vectors')]
const ENTRIES = [entryFile, edgeFile, threadsFile]
const server = await startServer({
  importMap: (mode) => ({
    longstraw: urlOf(mode, entryFile),
    'longstraw/edge': urlOf(mode, edgeFile),
    'longstraw/threads': urlOf(mode, threadsFile),
    'longstraw-wasm32-wasi/': urlOf(mode, DIST) + '/',
    'longstraw-wasm32-wasip1/': urlOf(mode, DIST_EDGE) + '/'
  }),
  fileFor: (p) => {
    if (moduleArg && p === '/__module.mjs') return moduleArg
    const file = path.resolve(ROOT, '.' + p)
    return ENTRIES.includes(file) || SERVED.some((dir) => file.startsWith(dir + path.sep)) ? file : null
  }
})
const browser = await launch(chromiumPath)
const runPage = (mode, moduleUrl, timeoutMs) => run(browser, server.origin, mode, moduleUrl, timeoutMs)

let failed = false
const problem = (what, outcome) => {
  failed = true
  console.error(`node-browser: FAILED: ${what}\n  ${outcome.error || JSON.stringify(outcome.result)}`)
  for (const line of outcome.log || []) console.error(`  ${line}`)
}
const started = Date.now()
try {
  console.log(`node-browser: ${await browser.version()} (${chromiumPath}), entry ${browserEntry}`)
  if (moduleArg) {
    for (const mode of ['isolated', 'plain']) {
      const outcome = await runPage(mode, `/${mode}/__module.mjs`, PAGE_TIMEOUT_MS)
      if (!outcome.ok) problem(`${path.relative(process.cwd(), moduleArg)} threw on ${mode === 'isolated' ? 'an isolated page' : 'a page that is not isolated'}`, outcome)
      else for (const line of outcome.log) console.log(`  ${mode}: ${line}`)
    }
  } else {
    // Expected counts: straight from the vector files.
    const count = (name) => {
      const v = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'vectors', name), 'utf8'))
      return { cases: v.cases.length, keys: v.cases.reduce((s, c) => s + c.keys.length, 0) }
    }
    const want = { placement: count('placement-v1.json'), keyed: count('keyed-v1.json') }
    const outcome = await runPage('isolated', urlOf('isolated', path.join(HERE, 'page.mjs')), PAGE_TIMEOUT_MS)
    if (!outcome.ok) {
      problem('the vectors on a cross-origin isolated page', outcome)
    } else {
      const r = outcome.result
      console.log(`node-browser: isolated page: target ${r.target}, backend ${r.backend}; ` +
        `placement-v1 ${r.placement.cases} cases / ${r.placement.keys} keys, keyed-v1 ${r.keyed.cases} cases / ${r.keyed.keys} keys, ` +
        `membership from a string and bytes ${r.membershipText.cases} cases / ${r.membershipText.keys} keys, ` +
        `tableAsync ${r.asyncTable.keys} keys; ${r.page.noFiles} file and secret reads fail with ERR_LONGSTRAW_BAD_FILE; BoundedLoad`)
      const bad = []
      if (outcome.isolated !== true) bad.push(`crossOriginIsolated is ${outcome.isolated}`)
      if (r.target !== 'wasm32-wasi') bad.push(`target is ${r.target}, not wasm32-wasi`)
      if (r.backend !== 'simd128') bad.push(`backend is ${r.backend}, not simd128 (the wasm build's kernel)`)
      for (const k of ['placement', 'keyed']) {
        if (JSON.stringify(r[k]) !== JSON.stringify(want[k])) bad.push(`${k}: checked ${JSON.stringify(r[k])}, the file has ${JSON.stringify(want[k])}`)
      }
      if (bad.length) problem('the isolated page', { error: bad.join('; '), log: outcome.log })
    }
    const edge = await runPage('plain', urlOf('plain', path.join(HERE, 'page-edge.mjs')), PAGE_TIMEOUT_MS)
    if (!edge.ok) {
      problem('`longstraw` on a page that is not cross-origin isolated (the build without threads)', edge)
    } else {
      const r = edge.result
      console.log(`node-browser: page without COOP/COEP, \`longstraw\` picked: target ${r.target}, backend ${r.backend}; ` +
        `placement-v1 ${r.placement.cases} cases / ${r.placement.keys} keys, keyed-v1 ${r.keyed.cases} cases / ${r.keyed.keys} keys, ` +
        `membership from a string and bytes ${r.membershipText.cases} cases / ${r.membershipText.keys} keys; ` +
        `${r.noThreads.rejected} async calls rejected: ${r.noThreads.message.split(':').slice(0, 2).join(':')}; ` +
        `in a module Web Worker: target ${r.worker.target}, keyed-v1 ${r.worker.keyed.cases} cases / ${r.worker.keyed.keys} keys, tableAsync rejected`)
      const bad = []
      if (edge.isolated !== false) bad.push(`crossOriginIsolated is ${edge.isolated}, expected false`)
      if (r.sharedArrayBuffer !== false) bad.push('the page has SharedArrayBuffer, so it does not test the build without it')
      if (r.target !== 'wasm32-wasip1') bad.push(`target is ${r.target}, not wasm32-wasip1`)
      if (r.worker.target !== 'wasm32-wasip1') bad.push(`the worker's target is ${r.worker.target}, not wasm32-wasip1`)
      if (JSON.stringify(r.worker.keyed) !== JSON.stringify(want.keyed)) bad.push(`keyed in the worker: checked ${JSON.stringify(r.worker.keyed)}, the file has ${JSON.stringify(want.keyed)}`)
      if (r.backend !== 'simd128') bad.push(`backend is ${r.backend}, not simd128 (the wasm build's kernel)`)
      for (const k of ['placement', 'keyed']) {
        if (JSON.stringify(r[k]) !== JSON.stringify(want[k])) bad.push(`${k}: checked ${JSON.stringify(r[k])}, the file has ${JSON.stringify(want[k])}`)
      }
      if (bad.length) problem('the entry without threads', { error: bad.join('; '), log: edge.log })
    }
    // Forced: `longstraw/threads` on the page that is not isolated fails saying why, rather than hang.
    const threads = await runPage('plain', urlOf('plain', path.join(HERE, 'page-threads.mjs')), NOT_ISOLATED_TIMEOUT_MS)
    if (threads.ok || threads.code !== 'ERR_LONGSTRAW_NOT_ISOLATED' || threads.isolated !== false) {
      problem('`longstraw/threads` on a page that is not cross-origin isolated must fail with ERR_LONGSTRAW_NOT_ISOLATED', threads)
    } else {
      console.log(`node-browser: page without COOP/COEP, \`longstraw/threads\`: ${threads.code}: ${threads.error.split('\n')[0]}`)
    }
    // Forced: `longstraw/edge` on the isolated page loads the build without threads anyway.
    const forced = await runPage('isolated', urlOf('isolated', path.join(HERE, 'page-forced-edge.mjs')), PAGE_TIMEOUT_MS)
    if (!forced.ok || forced.isolated !== true || forced.result.target !== 'wasm32-wasip1' || forced.result.asyncCode !== 'ERR_LONGSTRAW_NO_THREADS') {
      problem('`longstraw/edge` on a cross-origin isolated page must load the build without threads', forced)
    } else {
      console.log(`node-browser: isolated page, \`longstraw/edge\`: target ${forced.result.target}, tableAsync ${forced.result.asyncCode}`)
    }
  }
} finally {
  await browser.close()
  server.close()
}
console.log(`node-browser: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
process.exit(failed ? 1 : 0)
