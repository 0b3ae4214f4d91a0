// The package's browser entry ("browser" and the "browser" export condition). The bundles live in the
// longstraw-wasm32-wasi package beside its .wasm (so the main package, which every Node user downloads, carries
// no second copy of it): see browser/index.js and the README's "In the browser".
export * from 'longstraw-wasm32-wasi/longstraw.browser.js'
export { default } from 'longstraw-wasm32-wasi/longstraw.browser.js'
