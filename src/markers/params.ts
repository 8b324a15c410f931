/**
 * The marker reading's constants and rules that the GPU kernels (nodes/markers/, shaders/markers/) and the CPU
 * reference (src/reference/detectMarkersCpu.ts, markerDecodeCpu.ts, refineCornersCpu.ts) share.
 */

/** A candidate's boundary may be at most this many times its box's half-perimeter (a border with its black cells, not noise). */
export const maxBoundaryPerBox = 10;

/**
 * How far (px) a quad's corner pixels are moved out from its centre, to the border's outer edge (pixel centres lie
 * half a pixel inside it; a little more on a diagonal).
 */
export const pushOut = 0.7;

/**
 * Small markers need a small window (a large window's mean is pulled down by the border itself), large ones a large
 * window. Two cover the evaluation's 12–200 px markers; four found about one marker more in a thousand, at twice the
 * work.
 */
export const defaultWindows = [31, 9];
/**
 * A lone white cell among black ones (or the reverse), averaged over its middle 60% as read here, stays 0.1 of the
 * black–white difference on its side of the middle under a blur of σ ≈ 0.37 of a cell; blurred more, it is a coin
 * toss, and a marker with such cells lost can read as another.
 */
export const defaultDoubt = 0.1;

/** How the reader samples each cell by default: q×q points, this share of the cell left out at its edges. */
export const cellSamples = 3;
export const cellMargin = 0.2;
/** Least difference between the border's black and the quiet zone's white, in gray levels, by default. */
export const defaultMinContrast = 20;

/**
 * Corners seen (any starting corner, clockwise) in the order the marker was printed, given the quarter turns
 * clockwise the grid showed it turned by: its printed top-left is seen at corner `rotation`.
 */
export function printedOrder<P>(seen: readonly P[], rotation: number): [P, P, P, P] {
  return [0, 1, 2, 3].map((k) => seen[(k + rotation) % 4]) as [P, P, P, P];
}

/** Blurs tried, σ in cells. */
export const deblurSigmas = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
/** Blurs a grid as read is tried under, σ in cells (from sharp: a clear read of a sharp image fits at the first). */
export const fitSigmas = [0.15, 0.25, 0.35, 0.45, 0.55, 0.7, 0.85, 1.0];
/**
 * Jacobi steps and their damping (undamped Jacobi diverges when the blur spreads a cell past itself). Started from
 * the means as read, 12 steps found as many markers of the evaluation set as 4 rounds of 24 from white (levels fitted
 * again each round) did, with no wrong ids; the GPU pays for every step in latency.
 */
export const deblurSteps = 12;
export const deblurStep = 0.5;
/** Least distance of a deblurred inner cell from the middle (0 black, 1 white) for the read to count. */
export const deblurMargin = 0.2;
/**
 * A grid read that explains the cells' means worse than this (RMS, in black–white spans, under the blur that suits
 * it best) is read again with the blur undone. Right reads of the evaluation scenes stay under 0.04 with noise σ 5;
 * this only decides where the second read is tried: `blurRatio` decides whether it is taken.
 */
export const blurGate = 0.03;
/** ... and only where it fits best under a blur this wide (σ in cells): a sharper image cannot have lost a lone cell. */
export const blurSigmaGate = 0.45;
/** The deblurred read replaces a clear one only when it explains the means this much better (residual ratio). */
export const blurRatio = 0.5;
/** Profiles reaching less than this (small markers) keep the gradient rounds: too short for a step's two levels. */
export const minStepReach = 2;
/** Sample spacing of the step fit's profiles, px. */
export const stepSpacing = 0.5;
/** Gauss–Newton iterations of the step fit. */
export const stepIterations = 2;
/** The normal equations' diagonal is scaled by this (a touch of Levenberg–Marquardt) so a flat side cannot blow up. */
export const stepDamping = 1.0001;
