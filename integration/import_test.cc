// bravebot-mcp import on the files other clients keep: a Claude-style
// .mcp.json, ~/.claude.json, VS Code's mcp.json and a Codex config.toml,
// named or found, piped and at a terminal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
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
    std::string path = temporary_.Join(name);
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
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

TEST_F(ImportTest, VsCodesServersAreReadWithTheirWorkspaceAndTheirInputsAreRefusedInWords) {
  const std::string workspace = temporary_.Join("app");
  const std::string vscode = Write("app/.vscode/mcp.json", R"({
    "inputs": [{"type": "promptString", "id": "perplexity-key",
                "description": "Perplexity API Key", "password": true}],
    "servers": {
      "memory": {"type": "stdio", "command": "npx",
                 "args": ["-y", "server-memory", "${workspaceFolder}/memory.json"],
                 "env": {"MEMORY_TOKEN": "${env:MEMORY_TOKEN}", "LEVEL": "debug"}},
      "context7": {"type": "http", "url": "https://mcp.context7.com/mcp"},
      "perplexity": {"type": "stdio", "command": "npx", "args": ["-y", "server-perplexity-ask"],
                     "env": {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}},
      "dotenv": {"type": "stdio", "command": "npx", "args": ["dotenv-server"],
                 "envFile": "${workspaceFolder}/.env"}}})");
  CommandOutput imported = Mcp({"import", vscode});
  EXPECT_EQ(imported.status, 1) << imported.err;
  EXPECT_THAT(imported.out, HasSubstr("declared memory in "));
  EXPECT_THAT(imported.out, HasSubstr("declared context7 in "));
  EXPECT_THAT(imported.out,
              HasSubstr("perplexity was not imported: its variable PERPLEXITY_API_KEY is "
                        "${input:perplexity-key} (Perplexity API Key), a value VS Code asks for"));
  EXPECT_THAT(imported.out, HasSubstr("dotenv was not imported: its envFile "));
  CommandOutput memory = Mcp({"get", "memory"});
  EXPECT_THAT(memory.out, HasSubstr("npx -y server-memory " + workspace + "/memory.json"));
  EXPECT_THAT(memory.out, HasSubstr("LEVEL (stored), MEMORY_TOKEN"));
  EXPECT_THAT(Mcp({"get", "context7"}).out, HasSubstr("https://mcp.context7.com/mcp"));

  // Outside a .vscode directory the folder VS Code has open is not known.
  const std::string elsewhere = Write("elsewhere/mcp.json", R"({"servers": {
      "notes": {"type": "stdio", "command": "npx", "args": ["${workspaceFolder}/notes"]}}})");
  CommandOutput refused = Mcp({"import", elsewhere});
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.out, HasSubstr("notes was not imported: it refers to ${workspaceFolder}"));

  // Cursor's file in the home is no project's, however HOME is spelled (a
  // review found a trailing slash made the home its folder).
  const std::string cursor = Write(".cursor/mcp.json", R"({"mcpServers": {
      "cnotes": {"command": "npx", "args": ["${workspaceFolder}/notes"]}}})");
  std::vector<std::string> environment = Environment();
  for (std::string& variable : environment) {
    if (variable.starts_with("HOME=")) variable += "/";
  }
  CommandOutput global =
      RunCommand({OurProgram("bravebot-mcp"), "import", cursor}, environment, temporary_.path());
  EXPECT_EQ(global.status, 1) << global.out << global.err;
  EXPECT_THAT(global.out, HasSubstr("cnotes was not imported: it refers to ${workspaceFolder}"));
}

TEST_F(ImportTest, ClaudeJsonsUserAndProjectServersAreAllReadAndEachSaysWhereItCameFrom) {
  const std::string claude = Write(".claude.json", R"({"numStartups": 3,
    "mcpServers": {"memory": {"command": "npx", "args": ["-y", "server-memory"]}},
    "projects": {
      "/home/u/app": {"allowedTools": [], "mcpServers": {
        "memory": {"command": "npx", "args": ["-y", "server-memory"]},
        "db": {"command": "npx", "args": ["-y", "db-server", "app.db"]}}},
      "/home/u/web": {"mcpServers": {
        "db": {"command": "npx", "args": ["-y", "db-server", "web.db"]}}}}})");
  CommandOutput imported = Mcp({"import", claude});
  EXPECT_EQ(imported.status, 1) << imported.err;  // web's db was not imported
  EXPECT_THAT(imported.out, HasSubstr("declared memory in "));
  EXPECT_THAT(imported.out, HasSubstr("from the project /home/u/app in " + claude));
  EXPECT_THAT(imported.out, HasSubstr("declared db in "));
  EXPECT_THAT(imported.out, HasSubstr("memory (from the project /home/u/app) is the same server "
                                      "as memory above: one declaration serves both"));
  EXPECT_THAT(imported.out,
              HasSubstr("db (from the project /home/u/web) was not imported: db from the project "
                        "/home/u/app comes first and takes the alias db: bravebot-mcp add "
                        "ANOTHER-ALIAS declares this one"));
  EXPECT_THAT(Mcp({"get", "db"}).out, HasSubstr("db-server app.db"));
}

TEST_F(ImportTest, ANameThatIsNoAliasIsImportedUnderOneMadeFromItWhereThatIsUnambiguous) {
  const std::string file = Write("names/.mcp.json", R"({"mcpServers": {
      "git server": {"command": "npx", "args": ["-y", "git-mcp"]},
      "my.server": {"command": "npx", "args": ["-y", "my-mcp"]},
      "a b": {"command": "npx", "args": ["a-b-one"]},
      "a-b": {"command": "npx", "args": ["a-b-two"]},
      "...": {"command": "npx"}}})");
  CommandOutput imported = Mcp({"import", file});
  EXPECT_EQ(imported.status, 1) << imported.err;
  EXPECT_THAT(imported.out, HasSubstr("\"git server\" is not an alias (letters, digits, - and _): "
                                      "its alias here is git-server"));
  EXPECT_THAT(imported.out, HasSubstr("declared git-server in "));
  EXPECT_THAT(imported.out, HasSubstr("declared my-server in "));
  EXPECT_THAT(imported.out, HasSubstr("declared a-b in "));
  EXPECT_THAT(imported.out,
              HasSubstr("a b was not imported: \"a b\" is not an alias (letters, digits, - and _), "
                        "and a-b, the alias made from it, is another server's here: bravebot-mcp "
                        "add ALIAS declares it"));
  EXPECT_THAT(imported.out, HasSubstr("... was not imported: \"...\" is not an alias"));
  EXPECT_THAT(Mcp({"get", "git-server"}).out, HasSubstr("npx -y git-mcp"));
  EXPECT_THAT(Mcp({"get", "a-b"}).out, HasSubstr("a-b-two"));

  // What is declared under the alias made is left as it is.
  const std::string other = Write("other/.mcp.json", R"({"mcpServers": {
      "git server": {"command": "npx", "args": ["-y", "another-git-mcp"]}}})");
  CommandOutput again = Mcp({"import", other});
  EXPECT_THAT(again.out, HasSubstr("git server was not imported: git-server is declared already"));
  EXPECT_THAT(Mcp({"get", "git-server"}).out, HasSubstr("npx -y git-mcp"));

  // At a terminal the alias made is asked about.
  const std::string asked_file = Write("asked/.mcp.json", R"({"mcpServers": {
      "new.server": {"command": "npx", "args": ["-y", "new-mcp"]}}})");
  CommandOutput asked =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "import", asked_file}, Environment(),
                              temporary_.path(), {{"Declare new-server? [y/N]", "y\n"}});
  EXPECT_THAT(asked.out, HasSubstr("\"new.server\" is not an alias (letters, digits, - and _): "
                                   "its alias here is new-server"));
  EXPECT_THAT(asked.out, HasSubstr("declared new-server in "));
  EXPECT_THAT(Mcp({"get", "new-server"}).out, HasSubstr("npx -y new-mcp"));
}

TEST_F(ImportTest, WithoutAFileTheUsualOnesAreListedAndPipedNothingIsImported) {
  Write(".claude.json", R"({"mcpServers": {"memory": {"command": "npx"}},
      "projects": {"/home/u/app": {"mcpServers": {"db": {"command": "npx"}}}}})");
  Write(".codex/config.toml", "[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\n");
  Write(".vscode/mcp.json", "{\"servers\": ");
  // A row: number, client, path, what it declares.
  auto row = [this](const std::string& number, const std::string& client, const std::string& file,
                    const std::string& declares) {
    return "  " + number + "  " + client + std::string(14 - client.size(), ' ') + "  " +
           temporary_.Join(file) + "  " + declares;
  };
  CommandOutput listed = Mcp({"import"});
  EXPECT_EQ(listed.status, 2);
  EXPECT_THAT(listed.out, HasSubstr(row("1", "Claude Code", ".claude.json", "2 MCP servers\n")));
  EXPECT_THAT(listed.out,
              HasSubstr(row("2", "VS Code", ".vscode/mcp.json", "cannot be read: it is not JSON")));
  EXPECT_THAT(listed.out, HasSubstr(row("3", "Codex", ".codex/config.toml", "1 MCP server\n")));
  EXPECT_THAT(listed.err, HasSubstr("name the one to import: bravebot-mcp import FILE"));
  EXPECT_NE(Mcp({"get", "memory"}).status, 0);
}

TEST_F(ImportTest, WithoutAFileAtATerminalTheOneChosenIsImported) {
  Write(".claude.json", R"({"mcpServers": {"memory": {"command": "npx"}}})");
  Write(".codex/config.toml", "[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\n");
  CommandOutput asked = RunAtTerminalStepByStep(
      {OurProgram("bravebot-mcp"), "import"}, Environment(), temporary_.path(),
      {{"Import which? [1-2, Enter for none]", "2\n"}, {"Declare docs? [y/N]", "y\n"}});
  EXPECT_THAT(asked.out, HasSubstr("declared docs in "));
  EXPECT_THAT(Mcp({"get", "docs"}).out, HasSubstr("https://docs.example.com/mcp"));
  EXPECT_NE(Mcp({"get", "memory"}).status, 0);

  // Enter chooses none.
  CommandOutput none =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "import"}, Environment(),
                              temporary_.path(), {{"Import which? [1-2, Enter for none]", "\n"}});
  EXPECT_EQ(none.status, 0) << none.out;
  EXPECT_THAT(none.out, HasSubstr("nothing was imported"));
  EXPECT_NE(Mcp({"get", "memory"}).status, 0);
}

TEST_F(ImportTest, AFileThatCannotBeReadIsSaidAndNothingIsDeclared) {
  CommandOutput missing = Mcp({"import", temporary_.Join("none.json")});
  EXPECT_EQ(missing.status, 1);
  EXPECT_THAT(missing.err, HasSubstr("none.json does not exist"));
  CommandOutput broken = Mcp({"import", Write("broken.json", "{\"mcpServers\": {\"k\": s3cret")});
  EXPECT_EQ(broken.status, 1);
  EXPECT_THAT(broken.err, HasSubstr("broken.json is not JSON"));
  EXPECT_THAT(broken.err, Not(HasSubstr("s3cret")));
  // Without a file, and none of the usual ones there: a file must be named.
  CommandOutput usage = Mcp({"import"});
  EXPECT_EQ(usage.status, 2);
  EXPECT_THAT(usage.err, HasSubstr("found none of the usual settings files"));
}

}  // namespace
}  // namespace bravebot::testing
