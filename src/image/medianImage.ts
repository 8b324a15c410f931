/**
 * The per-pixel median of images of one scene: with frames spread over a stretch of video from a fixed camera, the
 * scene without what moves (whatever covers a pixel in fewer than half of them), the classic way to start a
 * background model (`background({ prime })`). Each byte is the median of that byte over the images (the upper of
 * the two middle values for an even count); RGBA's alpha likewise.
 *
 * `{ matchLight: true }`: each image is first brought to the first one's light, divided by its gain against it (the
 * median ratio of brightness over one pixel in 16, as `background({ compensateLighting })` finds a frame's gain).
 * Where the light changed during the stretch (a cloud, lamps switched on, a camera's exposure), the images' medians
 * would otherwise come from one light here and another there, as objects passing tip them: an image of no one
 * light, which no single gain matches.
 *
 * @example
 * background({ prime: medianImage(frames, { matchLight: true }) })
 *
 * Throws `InvalidOptionError` for no images, images of different sizes or formats, or data that does not fit a size.
 */
import { InvalidOptionError } from '../core/errors.js';
import { imageProblem } from '../core/imageProblem.js';
import { ratioHistogramMedian, type PrimeImage } from './backgroundSettings.js';

/** Most images medianImage takes: each byte's values are sorted in a scratch array of this length. */
export const maxMedianImages = 255;

export function medianImage(images: readonly PrimeImage[], options: { matchLight?: boolean } = {}): PrimeImage {
  if (!Array.isArray(images) || images.length === 0) throw new InvalidOptionError('medianImage: needs one image or more');
  if (images.length > maxMedianImages) throw new InvalidOptionError(`medianImage: at most ${maxMedianImages} images, got ${images.length}`);
  images.forEach((img, i) => {
    const problem = imageProblem(img);
    if (problem) throw new InvalidOptionError(`medianImage: image ${i}: ${problem}`);
  });
  const { width, height, format } = images[0];
  const bytes = width * height * (format === 'rgba' ? 4 : 1);
  images.forEach((img, i) => {
    if (img.width !== width || img.height !== height || img.format !== format) {
      throw new InvalidOptionError(`medianImage: image ${i} is ${img.width}×${img.height} ${img.format}, image 0 ${width}×${height} ${format}`);
    }
  });
  const n = images.length;
  const data = new Uint8Array(bytes);
  const planes = options.matchLight ? images.map((img, i) => (i === 0 ? img.data : scaled(img, 1 / lightGain(img, images[0])))) : images.map((img) => img.data);
  const values = new Uint8Array(n);
  const middle = n >> 1;
  for (let i = 0; i < bytes; i++) {
    // Insertion sort: a few dozen values, most of them close to one another (the background).
    for (let k = 0; k < n; k++) {
      const v = planes[k][i];
      let j = k;
      while (j > 0 && values[j - 1] > v) {
        values[j] = values[j - 1];
        j--;
      }
      values[j] = v;
    }
    data[i] = values[middle];
  }
  return { width, height, format, data };
}

/** Channels a pixel's brightness sums: RGB of RGBA (not alpha), or gray. */
const colorChannels = (img: PrimeImage) => (img.format === 'rgba' ? 3 : 1);

/**
 * The gain of `img`'s light against `reference`'s: the median ratio of their brightness over every fourth column of
 * every fourth row, where the reference is 16 or more a channel and neither is saturated; from a histogram of 512
 * bins of 1/128, interpolated within the median's bin (as shaders/common/mog2.wgsl's lightGain); 1 with fewer than
 * 32 such pixels.
 */
export function lightGain(img: PrimeImage, reference: PrimeImage): number {
  const c = colorChannels(img);
  const step = img.format === 'rgba' ? 4 : 1;
  const histogram = new Uint32Array(512);
  for (let y = 0; y < img.height; y += 4) {
    for (let x = 0; x < img.width; x += 4) {
      const at = (y * img.width + x) * step;
      let [b, r, saturated] = [0, 0, false];
      for (let k = 0; k < c; k++) {
        b += img.data[at + k];
        r += reference.data[at + k];
        saturated ||= img.data[at + k] >= 255 || reference.data[at + k] >= 255;
      }
      if (saturated || r < 16 * c) continue;
      histogram[Math.min(511, Math.floor((b / r) * 128))]++;
    }
  }
  return ratioHistogramMedian(histogram);
}

/** `img`'s channels times `factor`, rounded and held to 0..255 (alpha kept): a table of the 256 values, then a lookup a byte. */
function scaled(img: PrimeImage, factor: number): Uint8Array {
  const table = Uint8Array.from({ length: 256 }, (_, v) => Math.min(255, Math.round(v * factor)));
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = table[img.data[i]];
  if (img.format === 'rgba') for (let i = 3; i < out.length; i += 4) out[i] = img.data[i];
  return out;
}
