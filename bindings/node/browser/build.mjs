// Bundles the browser entry (index.js, with the napi-generated longstraw.wasi-browser.js) and the thread pool's
// worker (wasi-worker-browser.mjs, which napi-rs generates beside the loader) with esbuild, so that neither
// imports a bare specifier (@napi-rs/wasm-runtime, @emnapi/*) that a browser cannot resolve without a bundler
// or an import map. The outputs are the files the longstraw-wasm32-wasi package ships beside its .wasm:
//   longstraw.browser.js          the entry (the main package's browser.js re-exports it)
//   longstraw.browser-worker.mjs  the worker (the loader's worker URL is renamed to it: napi's own, unbundled
//                                 wasi-worker-browser.mjs ships in the same package for bundlers that use it)
// The entry finds the worker and longstraw.wasm32-wasi.wasm relative to its own URL (new URL(...,
// import.meta.url)), so the three files stay together.
//
//   node browser/build.mjs [--from DIR] [OUTDIR]
//       DIR: where napi wrote the WebAssembly build (default: the package folder, where make build-node-wasm
//       copies it); OUTDIR default browser/dist. The .wasm is copied into OUTDIR unless it is already there
//       (make dist bundles into napi's output folder, beside the dist .wasm).
//   node browser/build.mjs --edge --from DIR [OUTDIR]
//       the entry without threads instead (edge.js, with the wasm32-wasip1 build's napi-generated
//       longstraw.wasip1-browser.js from DIR): longstraw.edge.js beside longstraw.wasm32-wasip1.wasm, and no
//       worker; OUTDIR default browser/dist-edge (make build-node-wasm-edge)
//   LONGSTRAW_BROWSER_NO_MINIFY=1      readable bundles, for reading a browser's stack trace
import { build } from 'esbuild'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const pkg = path.dirname(here)
const args = process.argv.slice(2)
const edge = args[0] === '--edge'
if (edge) args.shift()
let from = edge ? null : pkg
if (args[0] === '--from') { from = path.resolve(args[1] || ''); args.splice(0, 2) }
if (args.length > 1 || from === null) {
  console.error('usage: node browser/build.mjs [--from DIR] [OUTDIR]\n       node browser/build.mjs --edge --from DIR [OUTDIR]')
  process.exit(2)
}
const out = path.resolve(args[0] || path.join(here, edge ? 'dist-edge' : 'dist'))
const WASM = edge ? 'longstraw.wasm32-wasip1.wasm' : 'longstraw.wasm32-wasi.wasm'
const LOADER = edge ? 'longstraw.wasip1-browser.js' : 'longstraw.wasi-browser.js'
const NAPI_WORKER = edge ? null : 'wasi-worker-browser.mjs'
const ENTRY = edge ? 'longstraw.edge.js' : 'longstraw.browser.js'
const WORKER = edge ? null : 'longstraw.browser-worker.mjs'
for (const f of [LOADER, NAPI_WORKER, WASM].filter(Boolean)) {
  if (!fs.existsSync(path.join(from, f))) {
    console.error(`browser/build.mjs: ${f} is missing in ${from}: run make ${edge ? 'build-node-wasm-edge' : 'build-node-wasm'} first`)
    process.exit(1)
  }
}
const outputs = [ENTRY, WORKER].filter(Boolean)
// Its own folder (no OUTDIR given) is emptied first; a folder given as OUTDIR (napi's output folder, where make
// dist puts both builds' files) only loses what an earlier run wrote.
if (!args[0]) fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })
for (const f of outputs) fs.rmSync(path.join(out, f), { force: true })

// index.js imports '../longstraw.wasi-browser.js': that file is read from DIR, with its worker URL renamed
// (exactly once: a loader that names its worker differently must fail here, not in a page). edge.js imports
// '../longstraw.wasip1-browser.js', read from DIR as it is (that build starts no worker).
const loaderFrom = {
  name: 'longstraw-loader',
  setup (b) {
    b.onResolve({ filter: /^\.\.\/longstraw\.wasip?1?-browser\.js$/ }, (a) => {
      if (a.path !== `../${LOADER}`) throw new Error(`${a.importer} imports ${a.path}; this build bundles ../${LOADER}`)
      return { path: path.join(from, LOADER) }
    })
    b.onLoad({ filter: /longstraw\.wasip?1?-browser\.js$/ }, () => {
      const text = fs.readFileSync(path.join(from, LOADER), 'utf8')
      if (edge) {
        if (/new Worker\b|wasi-worker/.test(text)) throw new Error(`${LOADER} starts a worker; the build without threads must not`)
        return { contents: text, loader: 'js', resolveDir: pkg }
      }
      const parts = text.split(`new URL('./${NAPI_WORKER}', import.meta.url)`)
      if (parts.length !== 2) throw new Error(`${LOADER} names its worker ${parts.length - 1} times as new URL('./${NAPI_WORKER}', import.meta.url), expected once`)
      return { contents: parts.join(`new URL('./${WORKER}', import.meta.url)`), loader: 'js', resolveDir: pkg }
    })
  }
}
const common = {
  inject: [path.join(here, 'buffer-shim.js')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
  logLevel: 'warning', legalComments: 'none', minify: !process.env.LONGSTRAW_BROWSER_NO_MINIFY,
  nodePaths: [path.join(pkg, 'node_modules')]
}
await build({ ...common, entryPoints: [path.join(here, edge ? 'edge.js' : 'index.js')], outfile: path.join(out, ENTRY), plugins: [loaderFrom] })
if (!edge) await build({ ...common, entryPoints: [path.join(from, NAPI_WORKER)], outfile: path.join(out, WORKER) })
if (path.resolve(from) !== out) { fs.copyFileSync(path.join(from, WASM), path.join(out, WASM)); outputs.push(WASM) }
for (const f of outputs) {
  const text = f.endsWith('.wasm') ? '' : fs.readFileSync(path.join(out, f), 'utf8')
  // A bare import left in a bundle would fail only in the browser: fail here instead.
  const bare = text.match(/^\s*import\s[^'"]*['"](?![./])[^'"]+['"]/m) || text.match(/\bimport\(\s*['"](?![./])[^'"]+['"]\s*\)/)
  if (bare) { console.error(`browser/build.mjs: ${f} still imports a bare specifier: ${bare[0].trim()}`); process.exit(1) }
  // Every file the bundles find by URL must be one of the three.
  for (const [, name] of text.matchAll(/new URL\(\s*["']\.\/([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g)) {
    if (![ENTRY, WORKER, WASM].filter(Boolean).includes(name)) { console.error(`browser/build.mjs: ${f} loads ./${name} by URL, which is not shipped beside it`); process.exit(1) }
  }
  console.log(`node-browser: ${path.relative(process.cwd(), path.join(out, f))} ${fs.statSync(path.join(out, f)).size} bytes`)
}
