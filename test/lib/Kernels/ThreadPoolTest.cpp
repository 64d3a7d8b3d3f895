//===- ThreadPoolTest.cpp - The kernels' worker pool ----------------------===//
//
// parallelFor must run every task of a call exactly once and return only
// after all of them finished, whether its helpers are spinning, asleep or
// still busy with an earlier call when it starts, and must run the tasks of
// a caller that finds the pool in use on that caller.
//
//===----------------------------------------------------------------------===//

#include "ThreadPool.h"
#include "TestUtil.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace cvtest;
using coopvec::kernels::parallelFor;

namespace {

struct Job {
  std::vector<std::atomic<int>> runs;
  std::atomic<unsigned> finished{0};
  unsigned delayMask;
  explicit Job(unsigned n, unsigned delayMask)
      : runs(n), delayMask(delayMask) {}
};

void task(void *ctx, unsigned t) {
  Job &job = *static_cast<Job *>(ctx);
  job.runs[t].fetch_add(1, std::memory_order_relaxed);
  // Some tasks take a while, so that the caller must wait for tasks a
  // helper claimed.
  if ((t & job.delayMask) == 0)
    std::this_thread::sleep_for(std::chrono::microseconds(20 + t % 50));
  job.finished.fetch_add(1, std::memory_order_release);
}

/// One call; checks that every task ran once and finished before return.
void runJob(Checker &ck, std::mt19937 &rng, const char *who) {
  unsigned numTasks = 1 + rng() % 64, threads = 1 + rng() % 4;
  Job job(numTasks, rng() % 2 ? 7u : 1u);
  parallelFor(numTasks, threads, task, &job);
  unsigned finished = job.finished.load(std::memory_order_acquire);
  bool once = true;
  for (auto &r : job.runs)
    once &= r.load(std::memory_order_relaxed) == 1;
  ck.check(finished == numTasks && once,
           "%s: %u tasks, %u threads: %u finished at return, each once: %d",
           who, numTasks, threads, finished, int(once));
}

} // namespace

int main() {
  Checker ck;
  std::mt19937 rng(17);
  // Back to back (helpers spinning), after short and long pauses (helpers
  // about to sleep, asleep).
  for (int pauseUs : {0, 30, 120, 500})
    for (int i = 0; i < 150; ++i) {
      if (pauseUs)
        std::this_thread::sleep_for(std::chrono::microseconds(pauseUs));
      runJob(ck, rng, "caller");
    }
  // Several application threads share the pool: one owns it at a time, the
  // others run their tasks themselves.
  std::vector<std::thread> callers;
  std::vector<Checker> perCaller(3);
  for (int c = 0; c < 3; ++c)
    callers.emplace_back([&, c] {
      std::mt19937 local(100 + c);
      for (int i = 0; i < 200; ++i)
        runJob(perCaller[c], local, "concurrent caller");
    });
  for (auto &t : callers)
    t.join();
  for (const Checker &c : perCaller) {
    ck.checks += c.checks;
    ck.failures += c.failures;
  }
  return ck.finish("pool");
}
