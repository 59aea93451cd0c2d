#include <benchmark/benchmark.h>
#include <signal.h>

// A child that ended early (a supervisor, a server) is seen as a write that
// failed, and said as the benchmark's error, rather than ending the whole
// run with SIGPIPE, which says nothing and leaves its output cut short.
int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
