// The marker candidate list (markers/candidates.wgsl writes it, markers/fit.wgsl reads it): a header of HEAD
// words (candidates asked for, point cursor, overflow bits, one unused), then CAND words per candidate.
const HEAD: u32 = 4u;
const CAND: u32 = 8u;
const K_WINDOW = 0u;
const K_OFFSET = 1u;
const K_COUNT = 2u;
const K_FILL = 3u;
const K_LABEL = 4u;  // the component's root pixel in the stacked masks: windows in order, then raster order
const K_BOX0 = 5u;   // x0 | y0 << 16, in the frame's coordinates
const K_BOX1 = 6u;   // x1 | y1 << 16
const OVER_CANDIDATES = 1u;
const OVER_POINTS = 2u;
