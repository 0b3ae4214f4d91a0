// make dist-check, the Node package in a browser: what a web developer does with the published packages.
// APP is a fresh project where check.sh installed longstraw-V.tgz and longstraw-wasm32-wasi-V.tgz. A page
// module that does `import { Rendezvous, target, backend } from 'longstraw'` is bundled by esbuild for the
// browser (so the package's "browser" export condition picks the entry, and its re-export of
// longstraw-wasm32-wasi/longstraw.browser.js must resolve in node_modules); the worker and the .wasm are
// copied beside the bundle, as the Node README says to do with esbuild; the folder is served with COOP/COEP
// from 127.0.0.1 and loaded in headless Chromium (bindings/node/test-browser/harness.mjs, the same server
// and launcher as make test-node-browser). The page checks every placement-v1 and keyed-v1 case, membership
// text and an async table build (vectors-check.mjs, copied into APP); target must be 'wasm32-wasi'.
// A page without COOP/COEP must fail with ERR_LONGSTRAW_NOT_ISOLATED.
//
//   node tools/dist/node-browser-check.mjs ROOT APP VECTORS_DIR
// Exit 0: passed; 77: skipped (no Chromium, CI unset: said loudly); 1: failed (also no Chromium under CI=true).
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const [root, app, vectorsDir] = process.argv.slice(2).map((a) => path.resolve(a))
if (!vectorsDir) { console.error('usage: node node-browser-check.mjs ROOT APP VECTORS_DIR'); process.exit(2) }
const LABEL = 'dist-check: node-browser'
const harness = await import(pathToFileURL(path.join(root, 'bindings', 'node', 'test-browser', 'harness.mjs')))
const chromiumPath = harness.chromiumOrExit(LABEL, harness.SKIP)
// The tools (esbuild, playwright-core) are the repository's; the package under test is APP's.
const { build } = createRequire(path.join(root, 'bindings', 'node', 'package.json'))('esbuild')
const fail = (msg, log = []) => {
  console.error(`${LABEL}: FAILED: ${msg}`)
  for (const line of log) console.error(`  ${line}`)
  process.exit(1)
}

const wasmPkg = path.join(app, 'node_modules', 'longstraw-wasm32-wasi')
const site = path.join(app, 'site')
fs.rmSync(site, { recursive: true, force: true })
fs.mkdirSync(site)
fs.copyFileSync(path.join(root, 'bindings', 'node', 'test-browser', 'vectors-check.mjs'), path.join(app, 'vectors-check.mjs'))
fs.writeFileSync(path.join(app, 'page.mjs'), `import { Rendezvous, target, backend } from 'longstraw'
import { checkAll } from './vectors-check.mjs'
const vectors = async (name) => {
  const response = await fetch(new URL('./' + name, import.meta.url))
  if (!response.ok) throw new Error(name + ': HTTP ' + response.status)
  return response.json()
}
export const result = await checkAll({ Rendezvous, target, backend }, await vectors('placement-v1.json'), await vectors('keyed-v1.json'))
`)
let built
try {
  built = await build({
    entryPoints: [path.join(app, 'page.mjs')], outfile: path.join(site, 'page.js'), absWorkingDir: app,
    bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'silent', metafile: true
  })
} catch (e) {
  const errors = (e.errors || []).map((er) => `${er.location ? `${er.location.file}:${er.location.line}: ` : ''}${er.text}` +
    er.notes.map((n) => `\n    ${n.location ? `${n.location.file}:${n.location.line}: ` : ''}${n.text}`).join(''))
  fail(`esbuild could not bundle \`import ... from 'longstraw'\` for the browser from the installed packages:\n  ${errors.join('\n  ') || e.message}`)
}
const inputs = Object.keys(built.metafile.inputs)
const entry = inputs.find((f) => f.endsWith('node_modules/longstraw-wasm32-wasi/longstraw.browser.js'))
if (!entry || !inputs.some((f) => f.endsWith('node_modules/longstraw/browser.mjs'))) {
  fail(`esbuild did not bundle longstraw/browser.mjs and longstraw-wasm32-wasi/longstraw.browser.js from ${app}/node_modules: ${inputs.join(', ')}`)
}
// The files the entry finds by URL, beside the bundle (esbuild leaves new URL(..., import.meta.url) alone).
for (const f of ['longstraw.browser-worker.mjs', 'longstraw.wasm32-wasi.wasm']) fs.copyFileSync(path.join(wasmPkg, f), path.join(site, f))
for (const f of ['placement-v1.json', 'keyed-v1.json']) fs.copyFileSync(path.join(vectorsDir, f), path.join(site, f))
console.log(`${LABEL}: esbuild bundled ${entry} (via node_modules/longstraw/browser.mjs) into site/page.js (${fs.statSync(path.join(site, 'page.js')).size} bytes)`)

const count = (name) => {
  const v = JSON.parse(fs.readFileSync(path.join(vectorsDir, name), 'utf8'))
  return { cases: v.cases.length, keys: v.cases.reduce((s, c) => s + c.keys.length, 0) }
}
const want = { placement: count('placement-v1.json'), keyed: count('keyed-v1.json') }
const server = await harness.startServer({
  fileFor: (p) => {
    const file = path.resolve(site, '.' + p)
    return file.startsWith(site + path.sep) ? file : null
  }
})
const browser = await harness.launch(chromiumPath)
try {
  const outcome = await harness.runPage(browser, server.origin, 'isolated', '/isolated/page.js', 120_000)
  if (!outcome.ok) fail(`the bundled page on a cross-origin isolated page threw: ${outcome.error}`, outcome.log)
  const r = outcome.result
  const bad = []
  if (outcome.isolated !== true) bad.push(`crossOriginIsolated is ${outcome.isolated}`)
  if (r.target !== 'wasm32-wasi') bad.push(`target is ${r.target}, not wasm32-wasi`)
  if (r.backend !== 'simd128') bad.push(`backend is ${r.backend}, not simd128`)
  for (const k of ['placement', 'keyed']) {
    if (JSON.stringify(r[k]) !== JSON.stringify(want[k])) bad.push(`${k}: checked ${JSON.stringify(r[k])}, the file has ${JSON.stringify(want[k])}`)
  }
  if (bad.length) fail(bad.join('; '), outcome.log)
  console.log(`${LABEL}: ${await browser.version()}: target ${r.target}, backend ${r.backend}; placement-v1 ${r.placement.cases} cases / ` +
    `${r.placement.keys} keys, keyed-v1 ${r.keyed.cases} cases / ${r.keyed.keys} keys, membership text ${r.membershipText.cases} cases, tableAsync ${r.asyncTable.keys} keys`)
  const plain = await harness.runPage(browser, server.origin, 'plain', '/plain/page.js', 20_000)
  if (plain.ok || plain.code !== 'ERR_LONGSTRAW_NOT_ISOLATED') fail(`a page without COOP/COEP: ${plain.ok ? 'ran' : plain.code + ': ' + plain.error}`, plain.log)
  console.log(`${LABEL}: a page without COOP/COEP: ${plain.code}`)
} finally {
  await browser.close()
  server.close()
}
