// What the headless Chromium checks share: finding Chromium (fail under CI=true, skip loudly otherwise), a
// static HTTP server on 127.0.0.1 that serves each path twice, under /isolated/ with COOP/COEP (so the page is
// cross-origin isolated and has SharedArrayBuffer) and under /plain/ without them, and a page that imports one
// ES module and reports its exported `result` or what it threw. Used by run.mjs (make test-node-browser, the
// docs runner) and by tools/dist/node-browser-check.mjs (make dist-check, the published packages).
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { createRequire } from 'node:module'

export const SKIP = 77

export function findChromium () {
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

/**
 * Chromium's path; without one, exits: 1 under CI=true (CI must run the browser checks), else a loud skip
 * with `skipStatus` (0, or SKIP for a caller that lists skips).
 */
export function chromiumOrExit (label, skipStatus = 0) {
  const found = findChromium()
  if (found) return found
  const why = process.env.LONGSTRAW_CHROMIUM
    ? `LONGSTRAW_CHROMIUM=${process.env.LONGSTRAW_CHROMIUM} does not exist`
    : 'no chromium or chromium-browser on PATH'
  if (process.env.CI === 'true') {
    console.error(`${label}: FAILED: ${why}; CI must run the browser test: run make prereqs (Debian's chromium)`)
    process.exit(1)
  }
  console.error(`\n!!! ${label}: SKIPPED: ${why}; run make prereqs (Debian's chromium) to run it !!!\n`)
  process.exit(skipStatus)
}

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm', '.html': 'text/html' }

function pageHtml (importMap, moduleUrl) {
  const map = importMap ? `<script type="importmap">${JSON.stringify({ imports: importMap })}</script>\n` : ''
  return `<!doctype html><meta charset="utf-8"><title>longstraw in the browser</title>
${map}<script type="module">
try {
  const m = await import(${JSON.stringify(moduleUrl)})
  window.__longstraw = { ok: true, result: m.result === undefined ? null : m.result, isolated: globalThis.crossOriginIsolated }
} catch (e) {
  window.__longstraw = { ok: false, code: e && e.code, error: String((e && e.stack) || e), isolated: globalThis.crossOriginIsolated }
}
</script>
`
}

/**
 * Serves /isolated/<p> and /plain/<p>: `/page.html?module=URL` is a page importing URL (with
 * importMap(mode), an object or null, as its import map); any other <p> is the file fileFor(p) returns
 * (null: 404). Resolves to { origin, close() }.
 */
export async function startServer ({ fileFor, importMap = () => null }) {
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
    if (m[2] === '/page.html') return send(200, 'text/html', pageHtml(importMap(m[1]), url.searchParams.get('module')))
    const file = fileFor(decodeURIComponent(m[2]))
    if (!file) return send(404, 'text/plain', 'not served')
    fs.readFile(file, (err, body) => {
      if (err) return send(404, 'text/plain', 'not found')
      send(200, TYPES[path.extname(file)] || 'application/octet-stream', body)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }
}

/** Headless Chromium through this package's playwright-core (which downloads no browser). */
export async function launch (chromiumPath) {
  const { chromium } = createRequire(import.meta.url)('playwright-core')
  return chromium.launch({ executablePath: chromiumPath, headless: true })
}

/** Loads page.html importing moduleUrl; resolves to the page's outcome, or fails after timeoutMs. */
export async function runPage (browser, origin, mode, moduleUrl, timeoutMs) {
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
