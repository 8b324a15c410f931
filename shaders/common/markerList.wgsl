// The marker candidate list (markers/candidates.wgsl writes it, markers/fit.wgsl reads it): a header of HEAD
// words (candidates asked for, point cursor, overflow bits, candidates of the windows before the current one),
// then CAND words per candidate.
const HEAD: u32 = 4u;
const CAND: u32 = 8u;
const K_WINDOW = 0u;
const K_OFFSET = 1u;
const K_COUNT = 2u;
const K_FILL = 3u;
const K_LABEL = 4u;  // the component's root pixel: raster order of its first pixel
const K_BOX0 = 5u;   // x0 | y0 << 16
const K_BOX1 = 6u;   // x1 | y1 << 16
const OVER_CANDIDATES = 1u;
const OVER_POINTS = 2u;
