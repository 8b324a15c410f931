/** A point in pixels, and the mean of some points (a quad's centre). */
export type Point = [number, number];

/** The mean of some points (a quad's centre). */
export function centreOf(points: readonly (readonly [number, number])[]): Point {
  return [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
}
