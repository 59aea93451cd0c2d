// What a front end gives the bravebot-supervisor it starts (cli/
// supervisor_child.h): its two pipes and our standard error, and nothing
// else the front end holds, such as a client's connection. Through the real
// `bravebot-mcp gateway`, which starts its supervisor before it reads.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/unique_fd.h"
#include "integration/process_scan.h"
#include "integration/running_command.h"
#include "integration/supervisor_fixture.h"

namespace bravebot::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::Contains;
using ::testing::Not;

// Where each open descriptor of `pid` leads ("pipe:[123]", a path), by
// number; nothing where they cannot be read.
std::optional<std::map<std::string, std::string>> OpenDescriptors(const std::string& pid) {
  std::map<std::string, std::string> open;
  std::error_code error;
  std::filesystem::directory_iterator entries("/proc/" + pid + "/fd", error);
  if (error) return std::nullopt;
  for (const auto& entry : entries) {
    open[entry.path().filename()] = std::filesystem::read_symlink(entry.path(), error).string();
  }
  return open;
}

std::set<std::string> Targets(const std::map<std::string, std::string>& open) {
  std::set<std::string> targets;
  for (const auto& [number, target] : open) targets.insert(target);
  return targets;
}

class SupervisorChildTest : public SupervisorTest {};

TEST_F(SupervisorChildTest, GatewaysSupervisorHoldsNoDescriptorOfTheGateway) {
  // Open without O_CLOEXEC, as a client's connection handed to the gateway
  // would be: the gateway is started holding it.
  const std::string marker = temporary_.Join("held-by-the-front-end");
  std::ofstream(marker) << "x";
  UniqueFd held(::open(marker.c_str(), O_RDONLY));
  ASSERT_TRUE(held.valid());
  RunningCommand gateway({OurProgram("bravebot-mcp"), "gateway"}, Environment(), Checkout(),
                         temporary_.Join("gateway.err"));
  held.reset();
  const std::string gateway_pid = std::to_string(gateway.pid());
  std::vector<std::string> supervisors;
  for (auto deadline = In(10s); supervisors.empty() && std::chrono::steady_clock::now() < deadline;
       std::this_thread::sleep_for(10ms)) {
    supervisors = ChildrenNamed(gateway_pid, "bravebot-supervisor");
  }
  ASSERT_EQ(supervisors.size(), 1U);

  const auto front_end_read = OpenDescriptors(gateway_pid);
  const auto supervisor_read = OpenDescriptors(supervisors[0]);
  if ((!front_end_read || !supervisor_read) && ::geteuid() != 0) {
    gateway.CloseInput();
    gateway.Wait(In(10s));
    GTEST_SKIP() << "the descriptors of bravebot-mcp and bravebot-supervisor can be read only "
                    "by root: both make themselves non-dumpable, which hides /proc/PID/fd from "
                    "the user's other processes (CI runs this as root first)";
  }
  ASSERT_TRUE(front_end_read && supervisor_read);
  const auto& front_end = *front_end_read;
  const auto& supervisor = *supervisor_read;
  ASSERT_THAT(Targets(front_end), Contains(marker));  // what could leak is there
  EXPECT_THAT(Targets(supervisor), Not(Contains(marker)));
  // Its input and output are pipes of its own; its standard error is ours.
  EXPECT_NE(supervisor.at("0"), front_end.at("0"));
  EXPECT_NE(supervisor.at("1"), front_end.at("1"));
  EXPECT_EQ(supervisor.at("2"), front_end.at("2"));

  gateway.CloseInput();
  EXPECT_EQ(gateway.Wait(In(10s)), 0);
  EXPECT_TRUE(ChildrenNamed(gateway_pid, "bravebot-supervisor").empty());
}

}  // namespace
}  // namespace bravebot::testing
