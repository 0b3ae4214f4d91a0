// make dist-check, the Node package in a browser: what a web developer does with the published packages.
// APP is a fresh project where check.sh installed longstraw-V.tgz, longstraw-wasm32-wasi-V.tgz and
// longstraw-wasm32-wasip1-V.tgz. A page module that does `import * as longstraw from 'longstraw'` is bundled
// by esbuild for the browser (so the package's "browser" export condition picks the entry, and its imports of
// longstraw-wasm32-wasi/longstraw.browser.js and longstraw-wasm32-wasip1/longstraw.edge.js must resolve in
// node_modules); the worker and both .wasm files are copied beside the bundle, as the Node README says to do
// with esbuild; the folder is served from 127.0.0.1 with COOP/COEP and without, and loaded in headless
// Chromium (bindings/node/test-browser/harness.mjs, the same server and launcher as make test-node-browser).
// The page checks every placement-v1 and keyed-v1 case and membership text (vectors-check.mjs, copied into
// APP). On the isolated page target must be 'wasm32-wasi' and an async table build works; on the page without
// COOP/COEP target must be 'wasm32-wasip1' and the async table build rejects with ERR_LONGSTRAW_NO_THREADS.
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
const edgePkg = path.join(app, 'node_modules', 'longstraw-wasm32-wasip1')
const site = path.join(app, 'site')
fs.rmSync(site, { recursive: true, force: true })
fs.mkdirSync(site)
fs.copyFileSync(path.join(root, 'bindings', 'node', 'test-browser', 'vectors-check.mjs'), path.join(app, 'vectors-check.mjs'))
fs.writeFileSync(path.join(app, 'page.mjs'), `import * as longstraw from 'longstraw'
import { checkAll, checkKeyed, checkMembershipText, checkPlacement } from './vectors-check.mjs'
const vectors = async (name) => {
  const response = await fetch(new URL('./' + name, import.meta.url))
  if (!response.ok) throw new Error(name + ': HTTP ' + response.status)
  return response.json()
}
const placement = await vectors('placement-v1.json')
const keyed = await vectors('keyed-v1.json')
export const result = longstraw.target === 'wasm32-wasi'
  ? await checkAll(longstraw, placement, keyed)
  : {
      target: longstraw.target,
      backend: longstraw.backend(),
      placement: await checkPlacement(longstraw, placement, { async: false }),
      keyed: checkKeyed(longstraw, keyed),
      membershipText: checkMembershipText(longstraw, placement),
      asyncCode: await longstraw.Rendezvous.tableAsync(['a', 'b'], { bits: 8 }).then(() => 'resolved', (e) => e.code)
    }
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
const edgeEntry = inputs.find((f) => f.endsWith('node_modules/longstraw-wasm32-wasip1/longstraw.edge.js'))
if (!entry || !edgeEntry || !inputs.some((f) => f.endsWith('node_modules/longstraw/browser.mjs'))) {
  fail(`esbuild did not bundle longstraw/browser.mjs, longstraw-wasm32-wasi/longstraw.browser.js and longstraw-wasm32-wasip1/longstraw.edge.js from ${app}/node_modules: ${inputs.join(', ')}`)
}
// The files the entries find by URL, beside the bundle (esbuild leaves new URL(..., import.meta.url) alone).
for (const f of ['longstraw.browser-worker.mjs', 'longstraw.wasm32-wasi.wasm']) fs.copyFileSync(path.join(wasmPkg, f), path.join(site, f))
fs.copyFileSync(path.join(edgePkg, 'longstraw.wasm32-wasip1.wasm'), path.join(site, 'longstraw.wasm32-wasip1.wasm'))
for (const f of ['placement-v1.json', 'keyed-v1.json']) fs.copyFileSync(path.join(vectorsDir, f), path.join(site, f))
console.log(`${LABEL}: esbuild bundled ${entry} and ${edgeEntry} (via node_modules/longstraw/browser.mjs) into site/page.js (${fs.statSync(path.join(site, 'page.js')).size} bytes)`)

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
  const plain = await harness.runPage(browser, server.origin, 'plain', '/plain/page.js', 120_000)
  if (!plain.ok) fail(`the bundled page without COOP/COEP threw: ${plain.error}`, plain.log)
  const p = plain.result
  const badPlain = []
  if (plain.isolated !== false) badPlain.push(`crossOriginIsolated is ${plain.isolated}, expected false`)
  if (p.target !== 'wasm32-wasip1') badPlain.push(`target is ${p.target}, not wasm32-wasip1`)
  if (p.backend !== 'simd128') badPlain.push(`backend is ${p.backend}, not simd128`)
  if (p.asyncCode !== 'ERR_LONGSTRAW_NO_THREADS') badPlain.push(`tableAsync: ${p.asyncCode}, expected ERR_LONGSTRAW_NO_THREADS`)
  for (const k of ['placement', 'keyed']) {
    if (JSON.stringify(p[k]) !== JSON.stringify(want[k])) badPlain.push(`${k}: checked ${JSON.stringify(p[k])}, the file has ${JSON.stringify(want[k])}`)
  }
  if (badPlain.length) fail(`the page without COOP/COEP: ${badPlain.join('; ')}`, plain.log)
  console.log(`${LABEL}: a page without COOP/COEP: target ${p.target}, backend ${p.backend}; placement-v1 ${p.placement.cases} cases / ` +
    `${p.placement.keys} keys, keyed-v1 ${p.keyed.cases} cases / ${p.keyed.keys} keys, membership text ${p.membershipText.cases} cases, tableAsync ${p.asyncCode}`)
} finally {
  await browser.close()
  server.close()
}
