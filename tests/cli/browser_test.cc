#include "cli/browser.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::TemporaryDirectory;

// $BROWSER for the length of a test.
class BrowserVariable {
 public:
  explicit BrowserVariable(const std::string& value) {
    if (const char* old = std::getenv("BROWSER")) old_ = old;
    ::setenv("BROWSER", value.c_str(), 1);
  }
  ~BrowserVariable() {
    if (old_.empty()) {
      ::unsetenv("BROWSER");
    } else {
      ::setenv("BROWSER", old_.c_str(), 1);
    }
  }

 private:
  std::string old_;
};

std::string WaitForFile(const std::string& path) {
  for (int i = 0; i < 500; ++i) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    if (!text.str().empty() && text.str().back() == '\n') return text.str();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "";
}

TEST(BrowserTest, TheUrlIsGivenToBrowserAsOneWordNeverAsShellWords) {
  TemporaryDirectory directory;
  std::string script = directory.Join("browser");
  std::ofstream(script)
      << "#!/bin/sh\nprintf '%s|%s\\n' \"$#\" \"$1\" > \"$(dirname \"$0\")/seen\"\n";
  ::chmod(script.c_str(), 0755);
  BrowserVariable browser(script);
  // Each of these would run a command, or split the url, were it read as shell words.
  std::string url =
      "http://127.0.0.1:1/a?x=$(touch " + directory.Join("ran") + ")&y=`id`;z='q' \"w\" $HOME";
  ASSERT_TRUE(OpenInBrowser(url));
  EXPECT_EQ(WaitForFile(directory.Join("seen")), "1|" + url + "\n");
  EXPECT_NE(::access(directory.Join("ran").c_str(), F_OK), 0);
}

TEST(BrowserTest, ABrowserThatKeepsRunningIsNotWaitedForNorOurChild) {
  TemporaryDirectory directory;
  std::string pid_file = directory.Join("pid");
  // Says its pid, then runs until the test ends it.
  BrowserVariable browser("sh -c 'echo $$ > " + pid_file + "; exec sleep 600' browser");
  ASSERT_TRUE(OpenInBrowser("http://127.0.0.1:1/"));
  std::string pid = WaitForFile(pid_file);
  ASSERT_FALSE(pid.empty());
  pid.pop_back();
  std::ifstream status("/proc/" + pid + "/stat");
  std::string ignored, parent;
  status >> ignored >> ignored >> ignored >> parent;
  ASSERT_FALSE(parent.empty()) << "the browser ended before it was looked at";
  // Returned while it runs, and it is not left ours to reap.
  EXPECT_NE(parent, std::to_string(::getpid()));
  ::kill(std::stoi(pid), SIGKILL);
}

}  // namespace
}  // namespace bravebot
