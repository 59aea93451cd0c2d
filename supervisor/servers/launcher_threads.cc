#include "supervisor/servers/launcher_threads.h"

#include <algorithm>
#include <thread>

namespace bravebot {

boost::asio::thread_pool& LauncherThreads() {
  // Never destroyed: a pool's destructor joins its threads, and a thread
  // ended before the process would end the servers it started.
  static auto* threads =
      new boost::asio::thread_pool(std::clamp(std::thread::hardware_concurrency(), 2u, 8u));
  return *threads;
}

}  // namespace bravebot
