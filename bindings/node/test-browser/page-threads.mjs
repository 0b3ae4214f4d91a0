// Imports `longstraw/threads` (the threaded build, whatever the page is): run.mjs loads it on a page that is
// not cross-origin isolated, where it must throw ERR_LONGSTRAW_NOT_ISOLATED.
import { target } from 'longstraw/threads'

export const result = { target }
