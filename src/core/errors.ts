/**
 * Named errors that reach `subscriber.error` (or are thrown synchronously for bad options). Each says what went
 * wrong and, where there is one, what to do about it.
 */
export class FlowmarkError extends Error {
  override name = 'FlowmarkError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No WebGPU adapter could be found (no GPU and no software Vulkan driver, or WebGPU disabled). */
export class GpuUnavailableError extends FlowmarkError {
  override name = 'GpuUnavailableError';
}

/** The GPU device was lost (driver reset, `destroy()`, out of memory). Create a new context to continue. */
export class GpuDeviceLostError extends FlowmarkError {
  override name = 'GpuDeviceLostError';
  constructor(
    message: string,
    readonly reason: string = 'unknown',
  ) {
    super(message);
  }
}

/** A WebGPU validation or out-of-memory error that no error scope caught. */
export class GpuValidationError extends FlowmarkError {
  override name = 'GpuValidationError';
}

/** A WGSL module failed to compile or a pipeline failed to build; the message names the shader and entry point. */
export class ShaderCompileError extends FlowmarkError {
  override name = 'ShaderCompileError';
}

/** A frame or image that cannot be processed: wrong size, wrong data length, beyond device limits. */
export class InvalidFrameError extends FlowmarkError {
  override name = 'InvalidFrameError';
}

/** An image file that cannot be read or decoded (missing, empty, not a PNG). */
export class DecodeError extends FlowmarkError {
  override name = 'DecodeError';
  constructor(
    message: string,
    readonly source: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An operator option that is out of range or of the wrong type; thrown synchronously by the factory. */
export class InvalidOptionError extends FlowmarkError {
  override name = 'InvalidOptionError';
}

/** The stream was used after its context was destroyed. */
export class DisposedError extends FlowmarkError {
  override name = 'DisposedError';
}
