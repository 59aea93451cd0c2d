// bravebot-mcp import on the files other clients keep: a Claude-style
// .mcp.json and a Codex config.toml, piped and at a terminal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "integration/profile_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ImportTest : public ProfileTest {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = temporary_.Join(name);
    std::ofstream(path) << text;
    return path;
  }
  std::string McpJson() {
    return Write(".mcp.json", R"({"mcpServers": {
      "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
                 "env": {"MEMORY_KEY": "s3cret", "MEMORY_TOKEN": "${MEMORY_TOKEN}"}},
      "docs": {"type": "http", "url": "https://docs.example.com/mcp"},
      "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/",
                 "headers": {"Authorization": "Bearer ghp_s3cret"}}}})");
  }
};

TEST_F(ImportTest, APipedImportDeclaresWhatItCanApprovesNothingAndNamesTheRest) {
  CommandOutput imported = Mcp({"import", McpJson()});
  EXPECT_EQ(imported.status, 1) << imported.err;  // one entry could not be declared
  EXPECT_THAT(imported.out, HasSubstr("declared docs in "));
  EXPECT_THAT(imported.out, HasSubstr("declared memory in "));
  EXPECT_THAT(imported.out, HasSubstr("variables: MEMORY_KEY (stored), MEMORY_TOKEN, PATH"));
  EXPECT_THAT(imported.out,
              HasSubstr("github was not imported: its headers (Authorization) are not imported"));
  EXPECT_THAT(imported.out, Not(HasSubstr("s3cret")));

  CommandOutput memory = Mcp({"get", "memory"});
  EXPECT_THAT(memory.out, HasSubstr("npx -y @modelcontextprotocol/server-memory"));
  EXPECT_THAT(memory.out, HasSubstr("unapproved"));
  EXPECT_THAT(Mcp({"get", "docs"}).out, HasSubstr("https://docs.example.com/mcp"));
  EXPECT_NE(Mcp({"get", "github"}).status, 0);
  // Nothing asked for either: no settings file was written.
  EXPECT_FALSE(std::filesystem::exists(temporary_.Join(".bravebot/settings.local.json")));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/settings.json"));

  // Again: what is declared is left as it is.
  CommandOutput again = Mcp({"import", McpJson()});
  EXPECT_THAT(again.out, HasSubstr("memory was not imported: it is declared already"));
}

TEST_F(ImportTest, ACodexConfigTomlIsImportedAndADryRunDeclaresNothing) {
  const std::string config = Write("config.toml", R"(model = "o3"
[mcp_servers.memory]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-memory"]
env_vars = ["LOCAL_TOKEN"]
disabled_tools = ["delete_entities"]
)");
  CommandOutput dry = Mcp({"import", "--dry-run", config});
  EXPECT_EQ(dry.status, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("would declare memory"));
  EXPECT_THAT(dry.out, HasSubstr("disabled_tools are not carried over"));
  EXPECT_NE(Mcp({"get", "memory"}).status, 0);

  CommandOutput imported = Mcp({"import", config});
  EXPECT_EQ(imported.status, 0) << imported.err;
  EXPECT_THAT(Mcp({"get", "memory"}).out, HasSubstr("LOCAL_TOKEN"));
}

TEST_F(ImportTest, AtATerminalEachIsAskedAndOnlyAYesDeclares) {
  CommandOutput asked = RunAtTerminalStepByStep(
      {OurProgram("bravebot-mcp"), "import", McpJson()}, Environment(), temporary_.path(),
      {{"Declare docs? [y/N]", "n\n"}, {"Declare memory? [y/N]", "y\n"}});
  EXPECT_THAT(asked.out, HasSubstr("docs was not declared"));
  EXPECT_THAT(asked.out, HasSubstr("declared memory in "));
  EXPECT_NE(Mcp({"get", "docs"}).status, 0);
  EXPECT_THAT(Mcp({"get", "memory"}).out, HasSubstr("unapproved"));
}

TEST_F(ImportTest, AFileThatCannotBeReadIsSaidAndNothingIsDeclared) {
  CommandOutput missing = Mcp({"import", temporary_.Join("none.json")});
  EXPECT_EQ(missing.status, 1);
  EXPECT_THAT(missing.err, HasSubstr("none.json does not exist"));
  CommandOutput broken = Mcp({"import", Write("broken.json", "{\"mcpServers\": {\"k\": s3cret")});
  EXPECT_EQ(broken.status, 1);
  EXPECT_THAT(broken.err, HasSubstr("broken.json is not JSON"));
  EXPECT_THAT(broken.err, Not(HasSubstr("s3cret")));
  CommandOutput usage = Mcp({"import"});
  EXPECT_EQ(usage.status, 2);
}

}  // namespace
}  // namespace bravebot::testing
