/**
 * The plumbing shared by GPU operators: per-subscription state created on the first frame (when the context is
 * known), frames processed strictly in order, context errors forwarded to the stream, and one idempotent teardown
 * that gives every resource back.
 *
 * A frame is processed synchronously whenever the node is idle, so a node's output reaches the sink, and is
 * submitted, before the next frame is recorded. A node may return a promise (a convergence check); frames that
 * arrive meanwhile wait in a queue bounded by the source's in-flight limit.
 */
import { Observable, type OperatorFunction } from 'rxjs';
import type { GpuFrame } from './GpuFrame.js';
import type { GpuContext } from './GpuContext.js';
import { contextOf, tagContext } from './contextOf.js';

export interface NodeInstance<Out = GpuFrame> {
  /** Records the node's passes for one frame and returns what to emit. */
  process(frame: GpuFrame): Out | Promise<Out>;
  /** Gives back buffers and pipeline references. Called once. */
  dispose(): void;
}

export interface NodeScope {
  /** True once the subscription ended; check after every await. */
  readonly closed: boolean;
}

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown })?.then === 'function';
}

/**
 * Builds an operator from a factory called once per subscription: at subscription when the source carries its
 * context (every flowmark source does), so pipelines compile before the first frame; else on the first frame.
 */
export function gpuNode<Out = GpuFrame>(
  create: (ctx: GpuContext, scope: NodeScope) => Promise<NodeInstance<Out>>,
): OperatorFunction<GpuFrame, Out> {
  return (source) =>
    tagContext(new Observable<Out>((subscriber) => {
      const scope = { closed: false };
      let node: NodeInstance<Out> | null = null;
      let creating = false;
      let busy = false;
      let upstreamDone = false;
      const queue: GpuFrame[] = [];
      let stopListening: (() => void) | null = null;

      const fail = (e: unknown) => {
        if (scope.closed) return;
        for (const f of queue.splice(0)) f.lease.release();
        subscriber.error(e);
      };

      const start = (ctx: GpuContext) => {
        creating = true;
        stopListening = ctx.onError(fail);
        create(ctx, scope).then(
          (n) => {
            if (scope.closed) return n.dispose();
            node = n;
            pump();
          },
          fail,
        );
      };

      const pump = () => {
        while (!scope.closed && node && !busy && queue.length) {
          const frame = queue.shift()!;
          let out: Out | Promise<Out>;
          try {
            out = node.process(frame);
          } catch (e) {
            frame.lease.release();
            return fail(e);
          }
          if (isPromise(out)) {
            busy = true;
            out.then(
              (v) => {
                busy = false;
                if (scope.closed) return;
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
        if (!scope.closed && upstreamDone && !busy && queue.length === 0) subscriber.complete();
      };

      const known = contextOf(source);
      if (known) start(known);

      const upstream = source.subscribe({
        next(frame) {
          queue.push(frame);
          if (!node && !creating) start(frame.ctx);
          pump();
        },
        error: fail,
        complete() {
          upstreamDone = true;
          if (node || !creating) pump();
        },
      });

      return () => {
        if (scope.closed) return;
        scope.closed = true;
        upstream.unsubscribe();
        stopListening?.();
        for (const f of queue.splice(0)) f.lease.release();
        node?.dispose();
      };
    }), contextOf(source));
}
