// A text compared with a golden file of tests/profiles/golden, byte for
// byte. With BRAVEBOT_UPDATE_GOLDEN=1 the golden file is written first, for
// a change meant to alter it: the diff then shows what it altered.
#ifndef BRAVEBOT_TESTS_PROFILES_TESTING_GOLDEN_FILE_H_
#define BRAVEBOT_TESTS_PROFILES_TESTING_GOLDEN_FILE_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace bravebot::testing {

inline std::string GoldenPath(const std::string& name) {
  return std::string(BRAVEBOT_SOURCE_DIRECTORY) + "/tests/profiles/golden/" + name;
}

inline void ExpectGolden(const std::string& name, const std::string& rendered) {
  if (const char* update = std::getenv("BRAVEBOT_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(GoldenPath(name), std::ios::binary) << rendered;
  }
  std::ifstream in(GoldenPath(name), std::ios::binary);
  ASSERT_TRUE(in) << GoldenPath(name);
  const std::string golden{std::istreambuf_iterator<char>(in), {}};
  EXPECT_EQ(rendered, golden) << name;
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_PROFILES_TESTING_GOLDEN_FILE_H_
