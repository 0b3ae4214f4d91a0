// The entry for pages that are not cross-origin isolated and for edge workers: the WebAssembly build
// without threads (wasm32-wasip1, simd128), with the same exports as the browser entry. It needs no
// SharedArrayBuffer: its memory is an ordinary WebAssembly.Memory and it starts no Web Workers. make
// build-node-wasm-edge bundles it with esbuild into dist-edge/longstraw.edge.js, with the napi-rs runtime
// inlined, beside dist-edge/longstraw.wasm32-wasip1.wasm, which it finds relative to its own URL. The package
// longstraw-wasm32-wasip1 ships the two; the main package's browser.mjs picks them on a page that is not
// cross-origin isolated, and its `longstraw/edge` export names them.
//
// Every call whose name ends in Async rejects with ERR_LONGSTRAW_NO_THREADS (../no-threads.js).
import binding from '../longstraw.wasip1-browser.js'
import { edgeExports } from '../no-threads.js'

const lib = edgeExports(binding)

export const { Rendezvous, Snapshot, backend, PLACEMENT, target } = lib
export const { BoundedLoad, Lease } = lib
export default lib
