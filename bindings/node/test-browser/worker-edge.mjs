// A module Web Worker on the page without cross-origin isolation (page-edge.mjs starts it): the closest a
// browser comes to an edge worker (no window, no DOM, no SharedArrayBuffer). It imports `longstraw`, which
// must pick the build without threads here; import maps do not reach workers, so run.mjs bundles this module
// with esbuild (as a web project would) into build/node-browser-test/, beside both .wasm files. It runs the
// keyed-v1 vectors and one async call, and posts { target, keyed, asyncCode } or { error }.
import * as longstraw from 'longstraw'
import { checkKeyed } from './vectors-check.mjs'

try {
  const response = await fetch(new URL(`/${self.location.pathname.split('/')[1]}/tests/vectors/keyed-v1.json`, self.location.href))
  if (!response.ok) throw new Error(`keyed-v1.json: HTTP ${response.status}`)
  const keyed = checkKeyed(longstraw, await response.json())
  const asyncCode = await longstraw.Rendezvous.tableAsync(['a', 'b'], { bits: 8 }).then(() => 'resolved', (e) => e.code)
  postMessage({ target: longstraw.target, keyed, asyncCode, window: typeof window, sharedArrayBuffer: typeof SharedArrayBuffer })
} catch (e) {
  postMessage({ error: String((e && e.stack) || e) })
}
