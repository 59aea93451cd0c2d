#include "cli/import_sources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/import_aliases.h"
#include "cli/import_search.h"
#include "cli/import_variables.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::vector<ImportEntry> Read(const std::string& text, const std::string& path,
                              const std::string& home = "") {
  Result<std::vector<ImportEntry>> entries = ReadServersToImport(text, path, home);
  EXPECT_TRUE(entries) << entries.error().message();
  return entries ? *entries : std::vector<ImportEntry>{};
}

TEST(ImportSourcesTest, AClaudeMcpJsonBecomesAddsWords) {
  std::vector<ImportEntry> entries = Read(R"({"mcpServers": {
    "weather": {"command": "npx", "args": ["-y", "weather-mcp"],
                "env": {"API_KEY": "s3cret", "TOKEN": "${TOKEN}"}, "cwd": "/srv/weather"},
    "docs": {"type": "http", "url": "https://docs.example.com/mcp"},
    "plain": {"url": "https://plain.example.com/mcp"}}})",
                                          "/p/.mcp.json");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "docs");
  EXPECT_THAT(entries[0].add_words, ElementsAre("--http", "https://docs.example.com/mcp"));
  EXPECT_EQ(entries[1].name, "plain");  // a url and no command: a service
  EXPECT_THAT(entries[1].add_words, ElementsAre("--http", "https://plain.example.com/mcp"));
  EXPECT_EQ(entries[2].name, "weather");
  EXPECT_THAT(entries[2].add_words, ElementsAre("-e", "API_KEY=s3cret", "-e", "TOKEN", "--dir",
                                                "/srv/weather", "--", "npx", "-y", "weather-mcp"));
  for (const ImportEntry& entry : entries) EXPECT_THAT(entry.refusal, IsEmpty());
}

TEST(ImportSourcesTest, ACodexConfigTomlBecomesAddsWords) {
  std::vector<ImportEntry> entries = Read(R"(model = "o3"

[mcp_servers.memory]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-memory"]
env = { "MEMORY_FILE_PATH" = "/tmp/memory.json" }
env_vars = ["LOCAL_TOKEN"]
disabled_tools = ["delete_entities"]
startup_timeout_sec = 20

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"

[mcp_servers.off]
command = "x"
enabled = false
)",
                                          "/home/u/.codex/config.toml");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "memory");
  EXPECT_THAT(entries[0].add_words,
              ElementsAre("-e", "MEMORY_FILE_PATH=/tmp/memory.json", "-e", "LOCAL_TOKEN", "--",
                          "npx", "-y", "@modelcontextprotocol/server-memory"));
  ASSERT_EQ(entries[0].notes.size(), 1u);
  EXPECT_THAT(entries[0].notes[0], HasSubstr("disabled_tools are not carried over"));
  EXPECT_EQ(entries[1].name, "off");
  EXPECT_EQ(entries[1].refusal, "it is turned off there (enabled: false)");
  EXPECT_EQ(entries[2].name, "remote");
  EXPECT_EQ(entries[2].refusal,
            "its headers (Authorization) are not imported: a token in a header is a stored value "
            "bravebot-mcp cannot send yet");
  EXPECT_THAT(entries[2].add_words, IsEmpty());
}

TEST(ImportSourcesTest, WhatCannotBeCarriedOverRefusesTheEntryWithoutShowingValues) {
  std::vector<ImportEntry> entries = Read(R"({"mcpServers": {
    "a": {"type": "http", "url": "https://a.example.com", "headers": {"X-Key": "s3cret"}},
    "b": {"type": "sse", "url": "https://b.example.com/sse"},
    "c": {"command": "srv", "env": {"KEY": "${OTHER}"}},
    "d": {"command": "srv", "env": {"KEY": "Bearer ${TOKEN}"}},
    "e": {"command": "srv", "args": ["--token", "${TOKEN}"]},
    "f": {"command": "srv", "env": {"PORT": 8080}},
    "g": {"args": ["x"]},
    "h": {"type": "websocket", "url": "wss://h.example.com"},
    "i": "not an object",
    "j": {"command": "srv", "enabled": "yes", "type": 5}}})",
                                          "/p/claude_desktop_config.json");
  ASSERT_EQ(entries.size(), 10u);
  EXPECT_THAT(entries[0].refusal, HasSubstr("its headers (X-Key) are not imported"));
  EXPECT_THAT(entries[0].refusal, Not(HasSubstr("s3cret")));
  EXPECT_THAT(entries[1].refusal, HasSubstr("an SSE server"));
  EXPECT_THAT(entries[2].refusal, HasSubstr("its variable KEY takes ${OTHER}"));
  EXPECT_THAT(entries[3].refusal, HasSubstr("holds ${...} within other text"));
  EXPECT_THAT(entries[4].refusal, HasSubstr("what it runs holds ${...}"));
  EXPECT_EQ(entries[5].refusal, "its variable PORT is not a string");
  EXPECT_EQ(entries[6].refusal, "it names no command to run");
  EXPECT_THAT(entries[7].refusal, HasSubstr("its type websocket is none bravebot-mcp knows"));
  EXPECT_EQ(entries[8].refusal, "it is not an object");
  // Fields of another type than their client's are read as absent.
  EXPECT_THAT(entries[9].refusal, IsEmpty());
  EXPECT_THAT(entries[9].add_words, ElementsAre("--", "srv"));
}

TEST(ImportSourcesTest, AnEntryThatWouldMeanMoreThanItShowsIsRefused) {
  std::vector<ImportEntry> entries = Read(R"({"mcpServers": {
    "a": {"command": "srv", "env": {"NODE_OPTIONS=--require=/tmp/x.js #": "sk-1"}},
    "b": {"command": "srv", "env_vars": ["TOKEN=sk-1"]},
    "c": {"command": "bin/server"},
    "d": {"command": "srv", "cwd": "sub"},
    "e": {"type": "http", "url": "https://e.example.com", "env": {"A": "1"}},
    "f": {"command": "srv", "url": "https://f.example.com"},
    "g": {"command": "srv", "args": ["a\u0000b"]},
    "h": {"command": "srv", "env": {"K": "${)" +
                                              std::string(200000, 'A') + R"(}"}}}})",
                                          "/p/.mcp.json");
  ASSERT_EQ(entries.size(), 8u);
  EXPECT_THAT(entries[0].refusal, HasSubstr("one of its env names is not a variable's name"));
  EXPECT_THAT(entries[0].refusal, Not(HasSubstr("sk-1")));
  EXPECT_EQ(entries[1].refusal, "its env_vars hold something that is not a variable's name");
  EXPECT_THAT(entries[2].refusal, HasSubstr("is a relative path"));
  EXPECT_EQ(entries[3].refusal, "its cwd is not an absolute path, which is all import takes");
  EXPECT_THAT(entries[4].refusal, HasSubstr("it is a service, and names a env too"));
  EXPECT_THAT(entries[5].refusal, HasSubstr("it runs a program, and names a url too"));
  EXPECT_THAT(entries[6].refusal, HasSubstr("NUL byte"));
  // A long reference is read without recursion, and passed by name.
  EXPECT_THAT(entries[7].refusal, HasSubstr("another variable's value"));
  for (const ImportEntry& entry : entries) EXPECT_THAT(entry.add_words, IsEmpty()) << entry.name;
}

TEST(ImportSourcesTest, ATomlFileNestedWithoutEndIsRefusedBeforeItIsParsed) {
  std::string dotted = "k";
  for (int i = 0; i < 100000; ++i) dotted += ".a";
  Result<std::vector<ImportEntry>> deep = ReadServersToImport(dotted + " = 1\n", "/p/config.toml");
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().message(), "nests deeper than 128 levels");
  Result<std::vector<ImportEntry>> arrays =
      ReadServersToImport("k = " + std::string(100000, '[') + "\n", "/p/config.toml");
  ASSERT_FALSE(arrays);
  // A dotted key inside an inline table, and after a quoted key holding `=`
  // (a review found both crashed import).
  std::string keys = "a";
  for (int i = 0; i < 100000; ++i) keys += ".a";
  for (const std::string& text : {"x = { " + keys + " = 1 }\n", "\"=\"." + keys + " = 1\n"}) {
    Result<std::vector<ImportEntry>> nested = ReadServersToImport(text, "/p/config.toml");
    ASSERT_FALSE(nested);
    EXPECT_EQ(nested.error().message(), "nests deeper than 128 levels");
  }
}

TEST(ImportSourcesTest, WithoutExpansionAReferenceIsAValueLikeAnyOther) {
  std::vector<ImportEntry> entries = Read(
      R"({"mcpServers": {"raw": {"command": "srv", "env": {"KEY": "${KEY}x"},
                                  "expandVariables": false}}})",
      "/p/.clarvis/settings.json");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_THAT(entries[0].add_words, ElementsAre("-e", "KEY=${KEY}x", "--", "srv"));
}

TEST(ImportSourcesTest, AFileThatIsNotWhatItsNameSaysIsRefusedWithoutQuotingIt) {
  Result<std::vector<ImportEntry>> json = ReadServersToImport("{\"key\": s3cret", "/p/.mcp.json");
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(json.error().message(), Not(HasSubstr("s3cret")));
  Result<std::vector<ImportEntry>> toml =
      ReadServersToImport("[mcp_servers\nkey = s3cret", "/p/config.toml");
  ASSERT_FALSE(toml);
  EXPECT_THAT(toml.error().message(), HasSubstr("is not TOML: the parser stopped at line"));
  EXPECT_THAT(toml.error().message(), Not(HasSubstr("s3cret")));
  Result<std::vector<ImportEntry>> list =
      ReadServersToImport(R"({"mcpServers": []})", "/p/.mcp.json");
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().message(), "holds an mcpServers that is not an object");
  // None declared: nothing to import, and no error.
  EXPECT_THAT(Read(R"({"theme": "dark"})", "/p/settings.json"), IsEmpty());
  EXPECT_THAT(Read("model = \"o3\"\n", "/p/config.toml"), IsEmpty());
}

TEST(ImportSourcesTest, VsCodesServersTakeTheirWorkspaceAndPassEnvByName) {
  std::vector<ImportEntry> entries = Read(R"({"inputs": [{"type": "promptString", "id": "key",
      "description": "API Key", "password": true}],
    "servers": {
      "local": {"type": "stdio", "command": "${workspaceFolder}/bin/server",
                "args": ["--data", "${userHome}/data"], "env": {"TOKEN": "${env:TOKEN}"},
                "cwd": "${workspaceFolder}"},
      "asks": {"type": "http", "url": "https://a.example.com/${input:key}"},
      "other": {"type": "stdio", "command": "srv", "env": {"A": "${env:B}"}}}})",
                                          "/home/u/app/.vscode/mcp.json", "/home/u");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "asks");
  EXPECT_EQ(entries[0].refusal,
            "its url holds ${input:key} (API Key), a value VS Code asks for as the server "
            "starts, and import has none to give it: bravebot-mcp add declares it with the value");
  EXPECT_EQ(entries[1].name, "local");
  EXPECT_THAT(entries[1].add_words,
              ElementsAre("-e", "TOKEN", "--dir", "/home/u/app", "--", "/home/u/app/bin/server",
                          "--data", "/home/u/data"));
  EXPECT_EQ(entries[1].alias, "local");
  EXPECT_THAT(entries[2].refusal, HasSubstr("its variable A takes ${env:B}"));
}

TEST(ImportSourcesTest, TheWorkspaceIsTheFolderHoldingDotVscodeOrAProjectsDotCursor) {
  EXPECT_EQ(WorkspaceFolderOf("/home/u/app/.vscode/mcp.json", "/home/u"), "/home/u/app");
  EXPECT_EQ(WorkspaceFolderOf("/home/u/app/.cursor/mcp.json", "/home/u"), "/home/u/app");
  EXPECT_EQ(WorkspaceFolderOf("/home/u/.cursor/mcp.json", "/home/u"), "");
  EXPECT_EQ(WorkspaceFolderOf("/home/u/.config/Code/User/mcp.json", "/home/u"), "");
  EXPECT_EQ(WorkspaceFolderOf("/.vscode/mcp.json", "/home/u"), "/");
  std::vector<ImportEntry> entries =
      Read(R"({"servers": {"s": {"command": "srv", "args": ["${workspaceFolder}"]}}})",
           "/home/u/.config/Code/User/mcp.json", "/home/u");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_THAT(entries[0].refusal, HasSubstr("it refers to ${workspaceFolder}"));
}

TEST(ImportSourcesTest, ClaudeJsonsProjectsAreReadAfterItsOwnServersEachWithItsProject) {
  std::vector<ImportEntry> entries = Read(R"({"mcpServers": {"m": {"command": "srv"}},
    "projects": {"/b": {"mcpServers": {"m": {"command": "srv"}, "x": {"command": "two"}}},
                 "/a": {"mcpServers": {"x": {"command": "one"}}},
                 "/c": {"history": []}}})",
                                          "/home/u/.claude.json");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].origin, "");
  EXPECT_EQ(entries[1].origin, "the project /a");
  EXPECT_EQ(entries[1].alias, "x");
  EXPECT_EQ(entries[2].origin, "the project /b");
  EXPECT_TRUE(entries[2].same_as_earlier);
  EXPECT_EQ(entries[3].refusal,
            "x from the project /a comes first and takes the alias x: bravebot-mcp add "
            "ANOTHER-ALIAS declares this one");
}

TEST(ImportSourcesTest, WindsurfsServerUrlAndDisabledAreRead) {
  std::vector<ImportEntry> entries = Read(R"({"mcpServers": {
    "remote": {"serverUrl": "https://r.example.com/mcp"},
    "off": {"command": "srv", "disabled": true}}})",
                                          "/home/u/.codeium/windsurf/mcp_config.json");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].refusal, "it is turned off there (disabled: true)");
  EXPECT_THAT(entries[1].add_words, ElementsAre("--http", "https://r.example.com/mcp"));
}

TEST(ImportSourcesTest, AnAliasIsMadeFromANameTheRuleRefuses) {
  EXPECT_EQ(AliasMadeFrom("git server"), "git-server");
  EXPECT_EQ(AliasMadeFrom("my.server"), "my-server");
  EXPECT_EQ(AliasMadeFrom("  Weird / name!! "), "Weird-name");
  EXPECT_EQ(AliasMadeFrom("_x y"), "x-y");
  EXPECT_EQ(AliasMadeFrom("..."), "");
  EXPECT_EQ(AliasMadeFrom("caf\xc3\xa9 bar"), "caf-bar");
  EXPECT_EQ(AliasMadeFrom(std::string(70, 'a') + " b"), std::string(64, 'a'));
  EXPECT_EQ(AliasMadeFrom(std::string(63, 'a') + " b"), std::string(63, 'a'));
}

TEST(ImportSourcesTest, TheUsualFilesAreInHomeOnlyWhereHomeIsKnown) {
  std::vector<UsualSettingsFile> files = UsualSettingsFiles("/home/u", "/home/u/app");
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files[0].path, "/home/u/.claude.json");
  EXPECT_EQ(files[1].path, "/home/u/app/.mcp.json");
  EXPECT_EQ(files.back().path, "/home/u/.codeium/windsurf/mcp_config.json");
  // In the home, ./.cursor/mcp.json is ~/.cursor/mcp.json: listed once.
  EXPECT_EQ(UsualSettingsFiles("/home/u", "/home/u").size(), files.size() - 1);
  for (const UsualSettingsFile& file : UsualSettingsFiles("", "/w")) {
    EXPECT_TRUE(file.path.starts_with("/w/")) << file.path;
  }
}

TEST(ImportSourcesTest, MoreServersThanOneImportTakesAreRefusedWhole) {
  std::string servers;
  for (std::size_t i = 0; i <= kMaxImportedServers; ++i) {
    // Appended piece by piece: GCC 12 at -O3 warns of "lit" + std::string&&.
    if (i > 0) servers += ',';
    servers += "\"s";
    servers += std::to_string(i);
    servers += "\": {\"command\": \"srv\"}";
  }
  Result<std::vector<ImportEntry>> many =
      ReadServersToImport("{\"mcpServers\": {" + servers + "}}", "/p/.mcp.json");
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().message(),
            "declares 257 MCP servers, more than the 256 one import takes: nothing was imported");
}

}  // namespace
}  // namespace bravebot
