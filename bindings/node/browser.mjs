// The package's browser entry ("browser" and the "browser" export condition). It picks the WebAssembly build
// the page can run: on a cross-origin isolated page (COOP/COEP headers, so SharedArrayBuffer exists) the
// threaded build, whose ...Async calls run on Web Workers; on any other page, and in a worker without
// SharedArrayBuffer, the build without threads, whose ...Async calls reject with ERR_LONGSTRAW_NO_THREADS.
// `target` says which loaded ('wasm32-wasi' or 'wasm32-wasip1'). `longstraw/threads` and `longstraw/edge`
// load one of them whatever the page is. The bundles live in the packages longstraw-wasm32-wasi and
// longstraw-wasm32-wasip1 beside their .wasm files (so the main package, which every Node user downloads,
// carries neither): see browser/index.js, browser/edge.js and the README's "In the browser".
const lib = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function'
  ? await import('longstraw-wasm32-wasi/longstraw.browser.js')
  : await import('longstraw-wasm32-wasip1/longstraw.edge.js')

export const { Rendezvous, Snapshot, backend, PLACEMENT, target } = lib
export const { BoundedLoad, Lease } = lib
export default lib.default
