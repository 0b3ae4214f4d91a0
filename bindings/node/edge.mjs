// `longstraw/edge` in a browser or an edge worker: the WebAssembly build without threads, whatever the page
// is. Its ...Async calls reject with ERR_LONGSTRAW_NO_THREADS.
export * from 'longstraw-wasm32-wasip1/longstraw.edge.js'
export { default } from 'longstraw-wasm32-wasip1/longstraw.edge.js'
