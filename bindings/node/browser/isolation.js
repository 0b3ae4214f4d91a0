// Runs before the threaded WebAssembly build loads (browser/index.js imports it first; the package's browser
// entry loads that build only on a cross-origin isolated page, `longstraw/threads` on any). The build runs its thread
// pool in Web Workers over a shared WebAssembly.Memory, which browsers give only to cross-origin isolated
// pages; without this check a page that is not isolated fails deep inside the runtime with a message that
// names neither the cause nor the fix.
if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) {
  const error = new Error(
    'longstraw: the WebAssembly build needs SharedArrayBuffer, and this page is not cross-origin isolated ' +
    '(crossOriginIsolated is false).\n' +
    '  Serve the page (and its scripts) with the headers Cross-Origin-Opener-Policy: same-origin and\n' +
    '  Cross-Origin-Embedder-Policy: require-corp (or credentialless), over HTTPS or from localhost.\n' +
    '  The build runs its thread pool in Web Workers that share WebAssembly memory, which browsers allow\n' +
    '  only on such pages. Where the headers cannot be set, import `longstraw` (it picks the build without\n' +
    '  threads on such a page) or `longstraw/edge` instead of `longstraw/threads`: the same API, but its\n' +
    '  ...Async calls reject with ERR_LONGSTRAW_NO_THREADS.')
  error.code = 'ERR_LONGSTRAW_NOT_ISOLATED'
  throw error
}
