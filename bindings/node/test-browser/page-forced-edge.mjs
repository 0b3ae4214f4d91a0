// Imports `longstraw/edge` (the build without threads, whatever the page is): run.mjs loads it on a cross-origin
// isolated page, where `longstraw` would pick the threaded build.
import { Rendezvous, target } from 'longstraw/edge'

const asyncCode = await Rendezvous.tableAsync(['a', 'b'], { bits: 8 }).then(() => 'resolved', (e) => e.code)
export const result = { target, asyncCode }
