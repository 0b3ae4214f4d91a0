// The module the browser test's isolated page imports (run.mjs serves it, with an import map that points
// `longstraw` at the browser entry): the vector checks of vectors-check.mjs, against the vector files the
// server serves. Its `result` is what run.mjs compares with the counts in the files.
import * as longstraw from 'longstraw'
import { checkAll } from './vectors-check.mjs'

const vectors = async (name) => {
  const response = await fetch(new URL(`../../../tests/vectors/${name}`, import.meta.url))
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`)
  return response.json()
}

export const result = await checkAll(longstraw, await vectors('placement-v1.json'), await vectors('keyed-v1.json'))
