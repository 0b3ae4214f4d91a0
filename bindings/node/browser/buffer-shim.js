// esbuild injects this into the browser bundles (browser/build.mjs): every free `Buffer` in them (the
// emnapi runtime's, which napi_create_buffer needs for ids that are not UTF-8) is the `buffer` package's,
// without defining globalThis.Buffer on the page.
export { Buffer } from 'buffer'
