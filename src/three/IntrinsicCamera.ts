/**
 * A three.js camera whose projection is the real camera's: the frustum comes from the intrinsics (fx, fy, cx, cy)
 * and the image size, not from a field of view, so a pose from `pose()` lands on the picture where the marker is
 * (an off-centre principal point and non-square pixels included). The camera sits at the origin looking down -z
 * (three.js's axes); `poseMatrix` turns OpenCV's camera axes (x right, y down, z forward) into these.
 *
 * @example
 * const camera = new IntrinsicCamera({ fx: 800, fy: 800, cx: 320, cy: 240 }, 640, 480);
 * renderer.render(scene, camera);
 *
 * Lens distortion is not applied to the scene: the picture behind it keeps its distortion, so objects sit right
 * where the distortion is small (the marker's corners are undistorted before the pose). Throws
 * `InvalidOptionError` for bad intrinsics, sizes or clip planes.
 */
import { PerspectiveCamera } from 'three';
import { cameraModel, type CameraModel, type CameraSpec } from '../pose/CameraModel.js';
import { InvalidOptionError } from '../core/errors.js';

export class IntrinsicCamera extends PerspectiveCamera {
  readonly isIntrinsicCamera = true;
  /** Undefined only while three's constructor runs (it projects once before this class's fields exist). */
  intrinsics!: CameraModel;
  imageWidth!: number;
  imageHeight!: number;

  constructor(camera: CameraSpec | CameraModel, width: number, height: number, near = 0.01, far = 100) {
    super(50, width / height, near, far);
    this.setIntrinsics(camera, width, height);
  }

  /** Takes new intrinsics or image size (a camera that changed resolution) and projects with them. */
  setIntrinsics(camera: CameraSpec | CameraModel, width: number, height: number): void {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new InvalidOptionError(`IntrinsicCamera: width and height must be positive integers, got ${width}×${height}`);
    }
    this.intrinsics = cameraModel(camera);
    this.imageWidth = width;
    this.imageHeight = height;
    this.updateProjectionMatrix();
  }

  override updateProjectionMatrix(): void {
    const k = this.intrinsics;
    if (!k) return super.updateProjectionMatrix();
    const { near, far } = this;
    if (!(near > 0 && far > near)) throw new InvalidOptionError(`IntrinsicCamera: needs 0 < near < far, got ${near}, ${far}`);
    // Pixel centres are at integers (OpenCV's convention): the image spans -0.5 .. width - 0.5.
    const left = (-(k.cx + 0.5) * near) / k.fx;
    const right = ((this.imageWidth - 0.5 - k.cx) * near) / k.fx;
    const top = ((k.cy + 0.5) * near) / k.fy;
    const bottom = (-(this.imageHeight - 0.5 - k.cy) * near) / k.fy;
    // What other three.js code reads (helpers, raycasting helpers); the projection below is what renders.
    this.aspect = this.imageWidth / this.imageHeight;
    this.fov = (2 * Math.atan(this.imageHeight / 2 / k.fy) * 180) / Math.PI;
    this.projectionMatrix.makePerspective(left, right, top, bottom, near, far, this.coordinateSystem, this.reversedDepth);
    this.projectionMatrixInverse.copy(this.projectionMatrix).invert();
  }
}
