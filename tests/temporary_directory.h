// A fresh directory for one test, removed with everything in it afterwards.
#ifndef BRAVEBOT_TESTS_TEMPORARY_DIRECTORY_H_
#define BRAVEBOT_TESTS_TEMPORARY_DIRECTORY_H_

#include <cstdlib>
#include <filesystem>
#include <string>

namespace bravebot::testing {

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "bravebot-test-XXXXXX");
    path_ = ::mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::string& path() const { return path_; }
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_TEMPORARY_DIRECTORY_H_
