// The argv or envp array posix_spawn takes, over words that outlive it.
#ifndef BRAVEBOT_BENCH_SPAWN_WORDS_H_
#define BRAVEBOT_BENCH_SPAWN_WORDS_H_

#include <string>
#include <vector>

namespace bravebot {

inline std::vector<char*> SpawnWords(const std::vector<std::string>& words) {
  std::vector<char*> pointers;
  for (const std::string& word : words) pointers.push_back(const_cast<char*>(word.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace bravebot

#endif  // BRAVEBOT_BENCH_SPAWN_WORDS_H_
