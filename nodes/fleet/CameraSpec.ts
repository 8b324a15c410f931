/**
 * A fleet's camera: where its frames come from (fromCameraUrl) and how its blobs are tracked (blobTracking). Plain
 * JSON, stored in Redis when the camera is added and read by whichever worker runs it.
 */
import { EMPTY } from 'rxjs';
import { InvalidOptionError } from '../../src/core/errors.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';
import { cameraUrlSettings, type FromCameraUrlOptions } from '../sources/fromCameraUrl.js';
import { blobTracking, type BlobOptions, type BlobTrackerChoice } from '../track/blobTracking.js';
import { checkFleetName } from './fleetKeys.js';

/** fromCameraUrl's options that are plain data (the pixel format follows `tracking.color`). */
export type FleetCameraOptions = Pick<FromCameraUrlOptions, 'fps' | 'size' | 'stallMs' | 'retryMs' | 'retryMaxMs' | 'rtspTransport' | 'loop'>;

/** blobTracking's options that are plain data; `maxUnseen` defaults to 2 s, as `flowmark track`'s. */
export type FleetTrackingOptions = Omit<BlobOptions, 'prime' | 'histogram'> & Partial<Omit<BlobTrackerChoice, 'trailLength'>>;

export interface CameraSpec {
  /** Letters, digits, `.`, `_` and `-`, at most 64: results carry it. */
  id: string;
  /** As fromCameraUrl takes it: `rtsp://`, `rtsps://`, `http(s)://`, a file path or `file://`. */
  url: string;
  camera?: FleetCameraOptions;
  tracking?: FleetTrackingOptions;
}

const specKeys = optionKeys<CameraSpec>({ id: true, url: true, camera: true, tracking: true });
const cameraKeys = optionKeys<FleetCameraOptions>({ fps: true, size: true, stallMs: true, retryMs: true, retryMaxMs: true, rtspTransport: true, loop: true });

/** The spec checked as fromCameraUrl and blobTracking check their options: InvalidOptionError for anything wrong. */
export function checkCameraSpec(spec: CameraSpec): CameraSpec {
  const who = 'camera';
  if (spec === null || typeof spec !== 'object') throw new InvalidOptionError(`${who}: a camera is an object { id, url, camera?, tracking? }, got ${String(spec)}`);
  checkOptions(who, spec, specKeys);
  checkFleetName(who, 'id', spec.id);
  if (typeof spec.url !== 'string') throw new InvalidOptionError(`${who} ${spec.id}: url must be a string, got ${typeof spec.url}`);
  checkOptions(`${who} ${spec.id}`, spec.camera ?? {}, cameraKeys);
  cameraUrlSettings(`${who} ${spec.id}`, spec.url, spec.camera ?? {});
  // Composing the chain checks its options (each operator checks its own); nothing subscribes.
  blobTracking(trackingOptions(spec))(EMPTY);
  return spec;
}

/** blobTracking's options for the spec: maxUnseen 2 s and no lines unless given. */
export function trackingOptions(spec: CameraSpec) {
  return { maxUnseen: 2, lines: [], ...spec.tracking };
}

/** The camera's fromCameraUrl options: RGBA where the tracking models color. */
export function cameraOptions(spec: CameraSpec): FromCameraUrlOptions {
  return { ...spec.camera, format: spec.tracking?.color ? 'rgba' : 'gray' };
}
