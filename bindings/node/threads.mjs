// `longstraw/threads` in a browser: the threaded WebAssembly build, whatever the page is. On a page that is
// not cross-origin isolated it throws ERR_LONGSTRAW_NOT_ISOLATED (the package's browser entry would pick the
// build without threads there instead).
export * from 'longstraw-wasm32-wasi/longstraw.browser.js'
export { default } from 'longstraw-wasm32-wasi/longstraw.browser.js'
