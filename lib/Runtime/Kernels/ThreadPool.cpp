//===- ThreadPool.cpp - The kernels' process-wide worker pool -------------===//

#include "ThreadPool.h"

#include <atomic>
#include <chrono>
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
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// How long a helper spins for the next call before it sleeps, and the
/// caller for its helpers' last tasks before it blocks: waking a sleeping
/// thread costs 20 us or more on a virtual machine (a futex wake-up whose
/// target vCPU halted), which calls issued back to back would pay each time.
constexpr int kSpinUs = 100;

/// Spins until pred() or `us` microseconds have passed; returns pred().
/// Yields between rounds, so that other threads ready on this core (another
/// library's workers) run first.
template <class Pred> bool spinFor(int us, Pred pred) {
  auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (pred())
        return true;
      cpuRelax();
    }
    if (std::chrono::steady_clock::now() >= end)
      return pred();
    std::this_thread::yield();
  }
}

/// One parallelFor call. Workers copy it under the pool's mutex; tasks are
/// claimed through Pool::next, which carries the job's generation so that a
/// worker holding an older job never claims a task of a newer one.
struct Job {
  void (*fn)(void *, unsigned) = nullptr;
  void *ctx = nullptr;
  unsigned numTasks = 0;
  unsigned wanted = 0; ///< Helpers that take part (worker index < wanted).
  uint32_t gen = 0;
};

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
    Job mine;
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (workers.size() < helpers) {
        unsigned index = unsigned(workers.size());
        // The worker starts from the generation before this job's, so it
        // takes part in the job even if it first locks after the bump.
        uint32_t start = job.gen;
        workers.emplace_back([this, index, start] { workerLoop(index, start); });
      }
      mine = {fn, ctx, numTasks, helpers, job.gen + 1};
      job = mine;
      unfinished.store(numTasks, std::memory_order_relaxed);
      next.store(uint64_t(mine.gen) << 32, std::memory_order_relaxed);
    }
    wake.notify_all();
    work(mine);
    // Only tasks that helpers claimed can be left: the call does not wait
    // for helpers that wake after the last task was taken.
    auto finished = [&] {
      return unfinished.load(std::memory_order_acquire) == 0;
    };
    if (!spinFor(kSpinUs, finished)) {
      std::unique_lock<std::mutex> lock(mutex);
      done.wait(lock, finished);
    }
    return true;
  }

private:
  /// Runs tasks of `j` until none is left to claim.
  void work(const Job &j) {
    for (;;) {
      uint64_t cur = next.load(std::memory_order_relaxed);
      do {
        if (uint32_t(cur >> 32) != j.gen || uint32_t(cur) >= j.numTasks)
          return;
      } while (!next.compare_exchange_weak(cur, cur + 1,
                                           std::memory_order_relaxed));
      j.fn(j.ctx, uint32_t(cur));
      if (unfinished.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mutex);
        done.notify_all();
      }
    }
  }

  void workerLoop(unsigned index, uint32_t seen) {
    for (;;) {
      // A hint only: the job itself is read under the mutex.
      spinFor(kSpinUs, [&] {
        return uint32_t(next.load(std::memory_order_relaxed) >> 32) != seen;
      });
      Job j;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stop || job.gen != seen; });
        if (stop)
          return;
        j = job;
      }
      seen = j.gen;
      if (index < j.wanted)
        work(j);
    }
  }

  std::mutex useMutex; // Held by the caller whose job the workers run.
  std::mutex mutex;    // Guards job, stop and workers.
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  Job job;
  bool stop = false;
  /// (job generation << 32) | next unclaimed task; spinning workers watch
  /// its generation for the next job.
  std::atomic<uint64_t> next{0};
  /// Tasks of the current job not finished yet.
  std::atomic<unsigned> unfinished{0};
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
