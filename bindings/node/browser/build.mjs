// Bundles the browser entry (index.js) and the thread pool's worker (wasi-worker-browser.mjs, which napi-rs
// generates beside the loader) with esbuild, so that neither imports a bare specifier (@napi-rs/wasm-runtime,
// @emnapi/*) that a browser cannot resolve without a bundler or an import map; then copies the .wasm beside
// them. The loader finds the worker and the .wasm relative to its own URL (new URL(..., import.meta.url)),
// so the three files stay together.
//
//   node browser/build.mjs [outdir]   (default: browser/dist; make build-node-browser runs it)
//   LONGSTRAW_BROWSER_NO_MINIFY=1      readable bundles, for reading a browser's stack trace
import { build } from 'esbuild'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const pkg = path.dirname(here)
const out = path.resolve(process.argv[2] || path.join(here, 'dist'))
const WASM = 'longstraw.wasm32-wasi.wasm'
for (const f of ['longstraw.wasi-browser.js', 'wasi-worker-browser.mjs', WASM]) {
  if (!fs.existsSync(path.join(pkg, f))) {
    console.error(`browser/build.mjs: ${f} is missing beside the loader: run make build-node-wasm first`)
    process.exit(1)
  }
}
fs.rmSync(out, { recursive: true, force: true })
const common = { inject: [path.join(here, 'buffer-shim.js')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning', legalComments: 'none', minify: !process.env.LONGSTRAW_BROWSER_NO_MINIFY }
await build({ ...common, entryPoints: [path.join(here, 'index.js')], outfile: path.join(out, 'longstraw.js') })
await build({ ...common, entryPoints: [path.join(pkg, 'wasi-worker-browser.mjs')], outfile: path.join(out, 'wasi-worker-browser.mjs') })
fs.copyFileSync(path.join(pkg, WASM), path.join(out, WASM))
for (const f of fs.readdirSync(out)) {
  const text = f.endsWith('.wasm') ? '' : fs.readFileSync(path.join(out, f), 'utf8')
  // A bare import left in a bundle would fail only in the browser: fail here instead.
  const bare = text.match(/^\s*import\s[^'"]*['"](?![./])[^'"]+['"]/m) || text.match(/\bimport\(\s*['"](?![./])[^'"]+['"]\s*\)/)
  if (bare) { console.error(`browser/build.mjs: ${f} still imports a bare specifier: ${bare[0].trim()}`); process.exit(1) }
  console.log(`node-browser: ${path.relative(process.cwd(), path.join(out, f))} ${fs.statSync(path.join(out, f)).size} bytes`)
}
