//===- ThreadPool.cpp - The kernels' process-wide worker pool -------------===//

#include "ThreadPool.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace coopvec {
namespace kernels {

unsigned defaultThreadCount() {
  static const unsigned count = [] {
    if (const char *env = std::getenv("COOPVEC_NUM_THREADS")) {
      long v = std::strtol(env, nullptr, 10);
      if (v > 0 && v <= 1024)
        return unsigned(v);
    }
    unsigned hw = std::thread::hardware_concurrency();
    return hw ? hw : 1u;
  }();
  return count;
}

namespace {
class Pool {
public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    wake.notify_all();
    for (std::thread &t : workers)
      t.join();
  }

  /// Returns false when another caller owns the pool.
  bool run(unsigned numTasks, unsigned numThreads, void (*fn)(void *, unsigned),
           void *ctx) {
    std::unique_lock<std::mutex> use(useMutex, std::try_to_lock);
    if (!use.owns_lock())
      return false;
    unsigned helpers = numThreads - 1;
    if (helpers > numTasks - 1)
      helpers = numTasks - 1;
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (workers.size() < helpers) {
        unsigned index = unsigned(workers.size());
        // The worker starts from the generation before this job's, so it
        // takes part in the job even if it first locks after the bump.
        uint64_t start = generation;
        workers.emplace_back([this, index, start] { workerLoop(index, start); });
      }
      jobFn = fn;
      jobCtx = ctx;
      jobTasks = numTasks;
      next.store(0, std::memory_order_relaxed);
      wanted = helpers;
      active = helpers;
      ++generation;
    }
    wake.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return active == 0; });
    return true;
  }

private:
  void drain() {
    for (;;) {
      unsigned t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= jobTasks)
        return;
      jobFn(jobCtx, t);
    }
  }

  void workerLoop(unsigned index, uint64_t seen) {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return stop || generation != seen; });
      if (stop)
        return;
      seen = generation;
      if (index >= wanted)
        continue;
      lock.unlock();
      drain();
      lock.lock();
      if (--active == 0)
        done.notify_all();
    }
  }

  std::mutex useMutex; // Held by the caller whose job the workers run.
  std::mutex mutex;    // Guards everything below except `next`.
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  uint64_t generation = 0;
  bool stop = false;
  void (*jobFn)(void *, unsigned) = nullptr;
  void *jobCtx = nullptr;
  unsigned jobTasks = 0, wanted = 0, active = 0;
  std::atomic<unsigned> next{0};
};
} // namespace

void parallelFor(unsigned numTasks, unsigned numThreads,
                 void (*fn)(void *ctx, unsigned task), void *ctx) {
  if (numTasks == 0)
    return;
  if (numThreads > 1 && numTasks > 1) {
    static Pool pool;
    if (pool.run(numTasks, numThreads, fn, ctx))
      return;
  }
  for (unsigned t = 0; t < numTasks; ++t)
    fn(ctx, t);
}

} // namespace kernels
} // namespace coopvec
