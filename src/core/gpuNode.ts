/**
 * The skeleton of every GPU operator: per-subscription state created once (when the stream's tag tells the
 * context, at subscription, so pipelines compile before the first frame; else on the first frame), frames
 * processed strictly in order, context errors forwarded to the stream, and one idempotent teardown that gives
 * every resource back.
 *
 * `create` receives a `NodeScope` and returns the function that processes one frame. What it takes through the
 * scope (kernels, per-frame buffer sets, anything registered with `onDispose`) is given back on unsubscribe,
 * on error, and when `create` itself fails halfway.
 *
 * A frame is processed synchronously whenever the node is idle, so a node's output reaches the sink, and is
 * submitted, before the next frame is recorded. A node may return a promise (a convergence check); frames that
 * arrive meanwhile wait in a queue bounded by the source's in-flight limit.
 *
 * @example
 * export function myOperator(options: MyOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
 *   const settings = validate(options); // bad options throw InvalidOptionError here, synchronously
 *   return gpuNode('myOperator', async (node) => {
 *     const k = await node.kernels({ main: { shader: myWgsl, entryPoint: 'main', bindings: ['uniform', 'read-only-storage', 'storage'] } });
 *     const sets = node.perFrame((size, alloc) => ({ out: alloc.buffer('out', size.width * size.height * 4, GPUBufferUsage.STORAGE) }));
 *     return (f) => {
 *       const set = sets.take(f);
 *       const rec = PassRecorder.of(f, 'myOperator');
 *       rec.items('main', k.main, set.bind('main', k.main, [params, f.mask!, set.out]), f.width * f.height);
 *       rec.end();
 *       return withFrame(f, { labels: set.out });
 *     };
 *   });
 * }
 */
import { Observable, type OperatorFunction } from 'rxjs';
import { expectGpuFrame, type GpuFrame } from './GpuFrame.js';
import type { GpuContext } from './GpuContext.js';
import type { Kernel, KernelSpec } from './PipelineCache.js';
import { PerFrame, type FrameSize, type SetAllocator } from './PerFrame.js';
import { shapeOf, streamInfo, tagStream, type FrameShape } from './streamInfo.js';

/** What an operator's `create` works with; everything taken through it is given back when the node ends. */
export interface NodeScope {
  readonly ctx: GpuContext;
  /** What the incoming frames carry (from the stream's tag, or from the first frame). */
  readonly input: FrameShape;
  /** True once the subscription ended; check after every await. */
  readonly closed: boolean;
  /** Compiles (once per device) and holds these kernels until the node ends. */
  kernels<K extends string>(specs: Readonly<Record<K, KernelSpec>>): Promise<Record<K, Kernel>>;
  /** Buffer sets owned frame by frame (PerFrame.ts), labelled `<operator>:<name>`. */
  perFrame<S extends object>(build: (size: FrameSize, alloc: SetAllocator) => S): PerFrame<S>;
  /** Runs `release` when the node ends. */
  onDispose(release: () => void): void;
}

/** Records one frame's passes and returns the frame to emit (a promise when the node must wait on the GPU). */
export type ProcessFrame = (frame: GpuFrame) => GpuFrame | Promise<GpuFrame>;

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown })?.then === 'function';
}

class Scope implements NodeScope {
  closed = false;
  readonly #disposers: (() => void)[] = [];

  constructor(
    readonly ctx: GpuContext,
    readonly input: FrameShape,
    private readonly name: string,
  ) {}

  async kernels<K extends string>(specs: Readonly<Record<K, KernelSpec>>): Promise<Record<K, Kernel>> {
    const k = await this.ctx.pipelines.acquireAll(specs);
    this.onDispose(() => this.ctx.pipelines.releaseAll(k));
    return k;
  }

  perFrame<S extends object>(build: (size: FrameSize, alloc: SetAllocator) => S): PerFrame<S> {
    const sets = new PerFrame(this.ctx, this.name, build);
    this.onDispose(() => sets.dispose());
    return sets;
  }

  onDispose(release: () => void): void {
    if (this.closed) release();
    else this.#disposers.push(release);
  }

  dispose(): void {
    this.closed = true;
    for (const release of this.#disposers.splice(0).reverse()) release();
  }
}

/**
 * Builds an operator named `name` (its GPU objects are labelled `<name>:…`). `output` says what the operator adds
 * to the frames' shape (e.g. labels), so operators after it can compile at subscription too.
 */
export function gpuNode(
  name: string,
  create: (node: NodeScope) => Promise<ProcessFrame>,
  output: (input: FrameShape) => FrameShape = (input) => input,
): OperatorFunction<GpuFrame, GpuFrame> {
  return (source) => {
    const info = streamInfo(source);
    return tagStream(
      new Observable<GpuFrame>((subscriber) => {
        let scope: Scope | null = null;
        let process: ProcessFrame | null = null;
        let busy = false;
        let upstreamDone = false;
        let ended = false;
        const queue: GpuFrame[] = [];
        let stopListening: (() => void) | null = null;

        const fail = (e: unknown) => {
          if (ended) return;
          for (const f of queue.splice(0)) f.lease.release();
          subscriber.error(e);
        };

        const start = (ctx: GpuContext, input: FrameShape) => {
          const s = (scope = new Scope(ctx, input, name));
          stopListening = ctx.onError(fail);
          create(s).then((p) => {
            if (s.closed) return;
            process = p;
            pump();
          }, fail);
        };

        const pump = () => {
          while (!ended && process && !busy && queue.length) {
            const frame = queue.shift()!;
            let out: GpuFrame | Promise<GpuFrame>;
            try {
              out = process(frame);
            } catch (e) {
              frame.lease.release();
              return fail(e);
            }
            if (isPromise(out)) {
              busy = true;
              out.then(
                (v) => {
                  busy = false;
                  // Ended while waiting: nothing downstream will release this frame.
                  if (ended) return frame.lease.release();
                  subscriber.next(v);
                  pump();
                },
                (e) => {
                  busy = false;
                  frame.lease.release();
                  fail(e);
                },
              );
              return;
            }
            subscriber.next(out);
          }
          if (!ended && upstreamDone && !busy && queue.length === 0) {
            // Give everything back before completing, so that `complete` downstream sees none of it held.
            stopListening?.();
            scope?.dispose();
            subscriber.complete();
          }
        };

        if (info) start(info.ctx, info.shape);

        const upstream = source.subscribe({
          next(frame) {
            try {
              expectGpuFrame(frame, name);
            } catch (e) {
              return fail(e);
            }
            queue.push(frame);
            if (!scope) start(frame.ctx, shapeOf(frame));
            pump();
          },
          error: fail,
          complete() {
            upstreamDone = true;
            pump();
          },
        });

        return () => {
          if (ended) return;
          ended = true;
          upstream.unsubscribe();
          stopListening?.();
          for (const f of queue.splice(0)) f.lease.release();
          scope?.dispose();
        };
      }),
      info && { ctx: info.ctx, shape: output(info.shape) },
    );
  };
}
