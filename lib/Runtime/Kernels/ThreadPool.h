//===- ThreadPool.h - The kernels' process-wide worker pool ---------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_THREADPOOL_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_THREADPOOL_H

namespace coopvec {
namespace kernels {

/// COOPVEC_NUM_THREADS if set and positive, else the hardware concurrency
/// (at least 1). Read once.
unsigned defaultThreadCount();

/// Runs fn(ctx, t) for every t in [0, numTasks) on up to numThreads threads,
/// the caller included, and returns when all are done. Tasks are handed out
/// dynamically: a helper that wakes late takes what is left, and the call
/// does not wait for helpers that took none. Helpers spin for a while after
/// a call before they sleep. If another call holds the pool the tasks run on
/// the caller.
void parallelFor(unsigned numTasks, unsigned numThreads,
                 void (*fn)(void *ctx, unsigned task), void *ctx);

/// Typed convenience wrapper.
template <class Fn>
void parallelFor(unsigned numTasks, unsigned numThreads, Fn &fn) {
  parallelFor(
      numTasks, numThreads,
      [](void *ctx, unsigned task) { (*static_cast<Fn *>(ctx))(task); }, &fn);
}

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_THREADPOOL_H
