// The browser entry in a real headless Chromium (Debian's `chromium`, driven by playwright-core, which
// downloads no browser). A static HTTP server on 127.0.0.1 serves the repository's files twice:
//   /isolated/...  with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp,
//                  so the page is cross-origin isolated and has SharedArrayBuffer;
//   /plain/...     without them.
// Each page maps the bare specifier `longstraw` (an import map) to the file package.json's "browser" export
// names, and imports one module; the module's exported `result`, or what it threw, is the page's outcome.
//
//   node test-browser/run.mjs               make test-node-browser: page.mjs (the vectors) on an isolated
//                                           page, then the same entry on a page that is not isolated, which
//                                           must fail with ERR_LONGSTRAW_NOT_ISOLATED rather than hang
//   node test-browser/run.mjs --module F    the ES module F on an isolated page (the docs runner's
//                                           ```js browser blocks); exit 0 when it ran, 1 when it threw
//
// No Chromium (LONGSTRAW_CHROMIUM, or chromium / chromium-browser on PATH): with CI=true a failure, else a
// loud skip (exit 0; with --module, exit 77 so the docs runner lists the block as SKIPPED).
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PKG = path.dirname(HERE)
const ROOT = path.resolve(PKG, '..', '..')
const PAGE_TIMEOUT_MS = 90_000
const NOT_ISOLATED_TIMEOUT_MS = 20_000
const SKIP = 77

const args = process.argv.slice(2)
const moduleArg = args[0] === '--module' ? path.resolve(args[1] || '') : null
if (args.length > 0 && (moduleArg === null || args.length !== 2)) {
  console.error('usage: node test-browser/run.mjs [--module FILE.mjs]')
  process.exit(2)
}

function findChromium () {
  const named = process.env.LONGSTRAW_CHROMIUM
  if (named) return fs.existsSync(named) ? named : null
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const p = path.join(dir, name)
      try { fs.accessSync(p, fs.constants.X_OK); return p } catch {}
    }
  }
  return null
}

const chromiumPath = findChromium()
if (!chromiumPath) {
  const why = process.env.LONGSTRAW_CHROMIUM
    ? `LONGSTRAW_CHROMIUM=${process.env.LONGSTRAW_CHROMIUM} does not exist`
    : 'no chromium or chromium-browser on PATH'
  if (process.env.CI === 'true') {
    console.error(`node-browser: FAILED: ${why}; CI must run the browser test: run make prereqs (Debian's chromium)`)
    process.exit(1)
  }
  console.error(`\n!!! node-browser: SKIPPED: ${why}; run make prereqs (Debian's chromium) to run it !!!\n`)
  process.exit(moduleArg ? SKIP : 0)
}

// The browser entry as package.json names it, so that the test also checks the field.
const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'))
const browserEntry = pkg.exports['.'].browser
if (typeof browserEntry !== 'string' || pkg.browser !== browserEntry) {
  console.error(`node-browser: package.json's "browser" (${pkg.browser}) and exports["."].browser (${browserEntry}) must name one file`)
  process.exit(1)
}
const entryFile = path.join(PKG, browserEntry)
if (!fs.existsSync(entryFile)) {
  console.error(`node-browser: ${path.relative(ROOT, entryFile)} is missing: run make build-node-browser`)
  process.exit(1)
}
const urlOf = (mode, file) => `/${mode}/${path.relative(ROOT, file).split(path.sep).join('/')}`

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm', '.html': 'text/html' }
// Only these folders are served (and the --module file).
const SERVED = [path.join(PKG, 'browser', 'dist'), HERE, path.join(ROOT, 'tests', 'vectors')]

function pageHtml (mode, moduleUrl) {
  const importMap = JSON.stringify({ imports: { longstraw: urlOf(mode, entryFile) } })
  return `<!doctype html><meta charset="utf-8"><title>longstraw in the browser</title>
<script type="importmap">${importMap}</script>
<script type="module">
try {
  const m = await import(${JSON.stringify(moduleUrl)})
  window.__longstraw = { ok: true, result: m.result === undefined ? null : m.result, isolated: globalThis.crossOriginIsolated }
} catch (e) {
  window.__longstraw = { ok: false, code: e && e.code, error: String((e && e.stack) || e), isolated: globalThis.crossOriginIsolated }
}
</script>
`
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1')
  const m = /^\/(isolated|plain)(\/.*)$/.exec(url.pathname)
  const send = (status, type, body) => {
    const headers = { 'Content-Type': type, 'Cache-Control': 'no-store' }
    if (m && m[1] === 'isolated') {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin'
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp'
    }
    res.writeHead(status, headers)
    res.end(body)
  }
  if (url.pathname === '/favicon.ico') return send(204, 'image/x-icon', '')
  if (!m) return send(404, 'text/plain', 'not found')
  if (m[2] === '/page.html') return send(200, 'text/html', pageHtml(m[1], url.searchParams.get('module')))
  let file = path.resolve(ROOT, '.' + decodeURIComponent(m[2]))
  if (moduleArg && m[2] === '/__module.mjs') file = moduleArg
  else if (!SERVED.some((dir) => file.startsWith(dir + path.sep))) return send(404, 'text/plain', 'not served')
  fs.readFile(file, (err, body) => {
    if (err) return send(404, 'text/plain', 'not found')
    send(200, TYPES[path.extname(file)] || 'application/octet-stream', body)
  })
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`

const { chromium } = await import('playwright-core')
const browser = await chromium.launch({ executablePath: chromiumPath, headless: true })

/** Loads page.html importing moduleUrl; resolves to the page's outcome, or fails after timeoutMs. */
async function runPage (mode, moduleUrl, timeoutMs) {
  const page = await browser.newPage()
  const log = []
  page.on('console', (msg) => log.push(`console.${msg.type()}: ${msg.text()}`))
  page.on('pageerror', (err) => log.push(`page error: ${err.message}`))
  try {
    await page.goto(`${origin}/${mode}/page.html?module=${encodeURIComponent(moduleUrl)}`)
    const handle = await page.waitForFunction(() => window.__longstraw, null, { timeout: timeoutMs, polling: 100 })
    return { ...(await handle.jsonValue()), log }
  } catch (e) {
    return { ok: false, code: 'TIMEOUT', error: `no outcome after ${timeoutMs} ms (${e.message.split('\n')[0]})`, log }
  } finally {
    await page.close()
  }
}

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
    const outcome = await runPage('isolated', '/isolated/__module.mjs', PAGE_TIMEOUT_MS)
    if (!outcome.ok) problem(`${path.relative(process.cwd(), moduleArg)} threw on an isolated page`, outcome)
    else for (const line of outcome.log) console.log(`  ${line}`)
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
    const plain = await runPage('plain', urlOf('plain', path.join(HERE, 'page.mjs')), NOT_ISOLATED_TIMEOUT_MS)
    if (plain.ok || plain.code !== 'ERR_LONGSTRAW_NOT_ISOLATED' || plain.isolated !== false) {
      problem('a page that is not cross-origin isolated must fail with ERR_LONGSTRAW_NOT_ISOLATED', plain)
    } else {
      console.log(`node-browser: page without COOP/COEP: ${plain.code}: ${plain.error.split('\n')[0]}`)
    }
  }
} finally {
  await browser.close()
  server.close()
}
console.log(`node-browser: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
process.exit(failed ? 1 : 0)
