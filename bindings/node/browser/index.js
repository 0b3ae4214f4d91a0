// The threaded browser build (the package's browser entry, browser.mjs, loads it on a cross-origin isolated
// page; `longstraw/threads` on any): the WebAssembly build (wasm32-wasip1-threads, simd128), with the same
// exports as the Node entry. make build-node-browser bundles
// it with esbuild into dist/longstraw.js, with the napi-rs runtime inlined, so that a page can import it
// without a bundler or an import map; dist/wasi-worker-browser.mjs (the thread pool's worker, bundled the same
// way) and dist/longstraw.wasm32-wasi.wasm sit beside it and are found relative to it.
//
// The page must be cross-origin isolated (COOP/COEP headers): isolation.js says so, with the fix, when it
// is not. Membership files come from a string or bytes (Rendezvous.loads), since a page has no file system.
import './isolation.js'
import binding from '../longstraw.wasi-browser.js'

if (!Object.prototype.hasOwnProperty.call(binding, 'target')) {
  // What the Node entry calls `target`: here always the WebAssembly build.
  Object.defineProperty(binding, 'target', { value: 'wasm32-wasi', enumerable: true })
}

export const { Rendezvous, Snapshot, backend, PLACEMENT, target } = binding
export const { BoundedLoad, Lease } = binding
export default binding
