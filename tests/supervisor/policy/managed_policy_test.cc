#include "supervisor/policy/managed_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

const std::string kPath = "/etc/bravebot/managed.json";
const std::string kNpx = "/opt/homebrew/bin/npx";

// The file the spec shows.
const char* const kSpecExample = R"({
  "mcp": {
    "allow": [
      { "host": "*.example.com" },
      { "command": ["/opt/homebrew/bin/npx", "-y", "@dangahagan/weather-mcp@1.4.0"] }
    ],
    "deny": [{ "host": "staging.example.com" }]
  }
})";

ManagedPolicy Parse(const std::string& text) {
  Result<ManagedPolicy> policy = ParseManagedPolicy(text, kPath);
  EXPECT_TRUE(policy.ok()) << policy.error().message();
  return policy.ok() ? *policy : ManagedPolicy{};
}

Declaration Http(const std::string& url, const std::string& alias = "docs") {
  Declaration declaration;
  declaration.alias = alias;
  declaration.transport = Transport::kHttp;
  declaration.url = url;
  return declaration;
}

Declaration Stdio(const std::string& program, std::vector<std::string> arguments,
                  const std::string& alias = "weather") {
  Declaration declaration;
  declaration.alias = alias;
  declaration.transport = Transport::kStdio;
  declaration.program = program;
  declaration.arguments = std::move(arguments);
  return declaration;
}

bool Allows(const ManagedPolicy& policy, const Declaration& declaration,
            const std::string& resolved_program = "") {
  return Decide(policy, declaration, resolved_program).allowed;
}

const std::string kAllowReason =
    kPath +
    ", which this machine's administrator manages, allows only the servers its mcp.allow names, "
    "and not this one";
const std::string kDenyReason =
    kPath + ", which this machine's administrator manages, denies this one in its mcp.deny";

TEST(ManagedPolicyTest, ReadsTheSpecExample) {
  ManagedPolicy policy = Parse(kSpecExample);
  EXPECT_EQ(policy.path, kPath);
  EXPECT_FALSE(policy.broken());
  ASSERT_TRUE(policy.allow.has_value());
  ASSERT_EQ(policy.allow->size(), 2u);
  EXPECT_EQ((*policy.allow)[0].kind, ManagedEntry::Kind::kHost);
  EXPECT_EQ((*policy.allow)[0].host, "*.example.com");
  EXPECT_EQ((*policy.allow)[1].kind, ManagedEntry::Kind::kCommand);
  EXPECT_THAT((*policy.allow)[1].command, ElementsAre(kNpx, "-y", "@dangahagan/weather-mcp@1.4.0"));
  ASSERT_TRUE(policy.deny.has_value());
  ASSERT_EQ(policy.deny->size(), 1u);
  EXPECT_EQ((*policy.deny)[0].host, "staging.example.com");
}

TEST(ManagedPolicyTest, WildcardMatchesHostsBelowTheName) {
  ManagedPolicy policy = Parse(kSpecExample);
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com/mcp")));
  EXPECT_TRUE(Allows(policy, Http("https://a.b.example.com/mcp")));
}

TEST(ManagedPolicyTest, WildcardMatchesNeitherTheNameNorAnotherEndingTheSame) {
  ManagedPolicy policy = Parse(kSpecExample);
  ManagedDecision bare = Decide(policy, Http("https://example.com/mcp"), "");
  EXPECT_FALSE(bare.allowed);
  EXPECT_EQ(bare.reason, kAllowReason);
  EXPECT_FALSE(Allows(policy, Http("https://badexample.com/mcp")));
  EXPECT_FALSE(Allows(policy, Http("https://mcp.example.com.evil.org/mcp")));
}

TEST(ManagedPolicyTest, HostEntryMatchesAnyPortPathAndScheme) {
  ManagedPolicy policy = Parse(R"({"mcp": {"allow": [{"host": "mcp.example.com"}]}})");
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com/mcp")));
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com:8443/mcp")));
  EXPECT_TRUE(Allows(policy, Http("http://mcp.example.com:80/other/path?x=1#y")));
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com")));
  EXPECT_FALSE(Allows(policy, Http("https://docs.example.com/mcp")));
}

TEST(ManagedPolicyTest, HostComparisonIgnoresCase) {
  ManagedPolicy policy =
      Parse(R"({"mcp": {"allow": [{"host": "MCP.Example.COM"}, {"host": "*.Docs.ORG"}],
                        "deny": [{"host": "Staging.Docs.org"}]}})");
  EXPECT_TRUE(Allows(policy, Http("https://mcp.EXAMPLE.com/mcp")));
  EXPECT_TRUE(Allows(policy, Http("https://A.docs.org/")));
  EXPECT_FALSE(Allows(policy, Http("https://STAGING.DOCS.ORG/")));
}

TEST(ManagedPolicyTest, DenyWinsOverAllow) {
  ManagedPolicy policy = Parse(kSpecExample);
  ManagedDecision decision = Decide(policy, Http("https://staging.example.com/mcp"), "");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.reason, kDenyReason);
  EXPECT_FALSE(Allows(policy, Http("https://STAGING.example.com:9000/x")));
}

TEST(ManagedPolicyTest, CommandEntryMatchesWordForWordWithTheResolvedProgram) {
  ManagedPolicy policy = Parse(kSpecExample);
  EXPECT_TRUE(Allows(policy, Stdio("npx", {"-y", "@dangahagan/weather-mcp@1.4.0"}), kNpx));
  // Declared by its absolute path, the same program is the same command.
  EXPECT_TRUE(Allows(policy, Stdio(kNpx, {"-y", "@dangahagan/weather-mcp@1.4.0"}), kNpx));
}

TEST(ManagedPolicyTest, AnotherVersionIsNotTheCommandAndGetsTheSpecSentence) {
  ManagedPolicy policy = Parse(kSpecExample);
  ManagedDecision decision =
      Decide(policy, Stdio("npx", {"-y", "@dangahagan/weather-mcp@latest"}), kNpx);
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.reason, kAllowReason);
  EXPECT_EQ(ManagedRefusalSentence("weather", decision),
            "weather was not started, whatever was declared or approved: "
            "/etc/bravebot/managed.json, which this machine's administrator manages, allows "
            "only the servers its mcp.allow names, and not this one");
}

TEST(ManagedPolicyTest, RefusalNamesTheFileItWasReadFrom) {
  const std::string mac = "/Library/Application Support/bravebot/managed.json";
  Result<ManagedPolicy> policy = ParseManagedPolicy(kSpecExample, mac);
  ASSERT_TRUE(policy.ok());
  ManagedDecision decision =
      Decide(*policy, Stdio("npx", {"-y", "@dangahagan/weather-mcp@latest"}), kNpx);
  EXPECT_EQ(decision.reason,
            "/Library/Application Support/bravebot/managed.json, which this machine's "
            "administrator manages, allows only the servers its mcp.allow names, and not this "
            "one");
}

TEST(ManagedPolicyTest, CommandMatchIsWholeWordsNotAPrefixOrMore) {
  ManagedPolicy policy = Parse(kSpecExample);
  EXPECT_FALSE(Allows(policy, Stdio("npx", {"-y"}), kNpx));
  EXPECT_FALSE(Allows(policy, Stdio("npx", {"-y", "@dangahagan/weather-mcp@1.4.0", "--x"}), kNpx));
  EXPECT_FALSE(Allows(policy, Stdio("npx", {"-y @dangahagan/weather-mcp@1.4.0"}), kNpx));
  EXPECT_FALSE(Allows(policy, Stdio("npx", {"@dangahagan/weather-mcp@1.4.0", "-y"}), kNpx));
}

TEST(ManagedPolicyTest, CommandEntryNamesTheResolvedPathNotTheDeclaredWord) {
  ManagedPolicy policy = Parse(kSpecExample);
  Declaration weather = Stdio("npx", {"-y", "@dangahagan/weather-mcp@1.4.0"});
  // Found elsewhere on PATH, it is another program.
  EXPECT_FALSE(Allows(policy, weather, "/usr/local/bin/npx"));
  // Not found at all: nothing to match.
  EXPECT_FALSE(Allows(policy, weather, ""));
  ManagedPolicy by_name =
      Parse(R"({"mcp": {"allow": [{"command": ["npx", "-y", "@dangahagan/weather-mcp@1.4.0"]}]}})");
  EXPECT_FALSE(Allows(by_name, weather, kNpx));
}

TEST(ManagedPolicyTest, ALinkOrCopyOfADeniedProgramIsNotDeniedButAllowHolds) {
  ManagedPolicy deny = Parse(R"({"mcp": {"deny": [{"command": ["/usr/bin/server", "--stdio"]}]}})");
  EXPECT_FALSE(Allows(deny, Stdio("server", {"--stdio"}), "/usr/bin/server"));
  EXPECT_TRUE(Allows(deny, Stdio("server", {"--stdio"}), "/home/you/bin/server"));
  ManagedPolicy allow =
      Parse(R"({"mcp": {"allow": [{"command": ["/usr/bin/server", "--stdio"]}]}})");
  EXPECT_TRUE(Allows(allow, Stdio("server", {"--stdio"}), "/usr/bin/server"));
  EXPECT_FALSE(Allows(allow, Stdio("server", {"--stdio"}), "/home/you/bin/server"));
}

TEST(ManagedPolicyTest, NoAllowListStartsEveryServerNotDenied) {
  ManagedPolicy policy = Parse(R"({"mcp": {"deny": [{"host": "staging.example.com"}]}})");
  EXPECT_FALSE(policy.allow.has_value());
  EXPECT_TRUE(Allows(policy, Http("https://anything.org/mcp")));
  EXPECT_TRUE(Allows(policy, Stdio("npx", {"-y", "whatever@latest"}), kNpx));
  EXPECT_FALSE(Allows(policy, Http("https://staging.example.com/mcp")));
}

TEST(ManagedPolicyTest, NoFileContentAboutMcpIsNoPolicy) {
  for (const char* text : {"{}", R"({"mcp": {}})", R"({"theme": "dark"})"}) {
    ManagedPolicy policy = Parse(text);
    EXPECT_FALSE(policy.allow.has_value()) << text;
    EXPECT_FALSE(policy.deny.has_value()) << text;
    EXPECT_TRUE(Allows(policy, Http("https://anything.org/mcp"))) << text;
    EXPECT_TRUE(Allows(policy, Stdio("npx", {"x"}), kNpx)) << text;
  }
}

TEST(ManagedPolicyTest, EmptyAllowListStartsNothing) {
  ManagedPolicy policy = Parse(R"({"mcp": {"allow": []}})");
  ASSERT_TRUE(policy.allow.has_value());
  EXPECT_THAT(*policy.allow, IsEmpty());
  ManagedDecision decision = Decide(policy, Http("https://mcp.example.com/"), "");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.reason, kAllowReason);
  EXPECT_FALSE(Allows(policy, Stdio("npx", {"x"}), kNpx));
}

// Items in neither form: not objects, no known key, wrong types, an empty
// command, a word that is not a string.
const char* const kNothingElse = R"([
  {}, "mcp.example.com", 7, null, [], {"hostname": "mcp.example.com"},
  {"host": 3}, {"host": ""}, {"host": ["mcp.example.com"]},
  {"command": []}, {"command": "/opt/homebrew/bin/npx -y x"},
  {"command": ["/opt/homebrew/bin/npx", 1]}, {"command": [null]}
])";

TEST(ManagedPolicyTest, DenyListOfNothingElseDeniesNothing) {
  ManagedPolicy policy = Parse(std::string(R"({"mcp": {"deny": )") + kNothingElse + "}}");
  ASSERT_TRUE(policy.deny.has_value());
  EXPECT_THAT(*policy.deny, IsEmpty());
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com/")));
  EXPECT_TRUE(Allows(policy, Stdio("npx", {"-y", "x"}), kNpx));
  // Nor does it name a host, so a url spelled two ways is not refused for it.
  EXPECT_TRUE(Allows(policy, Http("https://mcp.ex%61mple.com/")));
}

TEST(ManagedPolicyTest, AllowListOfNothingElseStartsNothing) {
  ManagedPolicy policy = Parse(std::string(R"({"mcp": {"allow": )") + kNothingElse + "}}");
  ASSERT_TRUE(policy.allow.has_value());
  EXPECT_THAT(*policy.allow, IsEmpty());
  EXPECT_FALSE(Allows(policy, Http("https://mcp.example.com/")));
  EXPECT_FALSE(Allows(policy, Stdio("npx", {"-y", "x"}), kNpx));
}

// An entry with both keys is in neither form: as an allow entry it starts
// nothing, as a deny entry it denies nothing.
TEST(ManagedPolicyTest, EntryWithBothHostAndCommandIsSkipped) {
  const std::string both =
      R"([{"host": "mcp.example.com", "command": ["/opt/homebrew/bin/npx", "x"]}])";
  ManagedPolicy allow = Parse(R"({"mcp": {"allow": )" + both + "}}");
  EXPECT_THAT(*allow.allow, IsEmpty());
  EXPECT_FALSE(Allows(allow, Http("https://mcp.example.com/")));
  EXPECT_FALSE(Allows(allow, Stdio("npx", {"x"}), kNpx));
  ManagedPolicy deny = Parse(R"({"mcp": {"deny": )" + both + "}}");
  EXPECT_THAT(*deny.deny, IsEmpty());
  EXPECT_TRUE(Allows(deny, Http("https://mcp.example.com/")));
  EXPECT_TRUE(Allows(deny, Stdio("npx", {"x"}), kNpx));
}

TEST(ManagedPolicyTest, OtherKeysBesideAFormAreIgnored) {
  ManagedPolicy policy =
      Parse(R"({"mcp": {"deny": [{"host": "staging.example.com", "why": "not ready"}]}})");
  EXPECT_FALSE(Allows(policy, Http("https://staging.example.com/")));
}

TEST(ManagedPolicyTest, HostEntriesNeverMatchStdioServers) {
  ManagedPolicy allow = Parse(R"({"mcp": {"allow": [{"host": "*.example.com"}]}})");
  EXPECT_FALSE(Allows(allow, Stdio("npx", {"mcp.example.com"}), kNpx));
  ManagedPolicy deny = Parse(R"({"mcp": {"deny": [{"host": "npx"}, {"host": "*.example.com"}]}})");
  EXPECT_TRUE(Allows(deny, Stdio("npx", {"mcp.example.com"}), kNpx));
}

TEST(ManagedPolicyTest, CommandEntriesNeverMatchHttpServers) {
  const std::string url = "https://mcp.example.com/mcp";
  ManagedPolicy allow = Parse(R"({"mcp": {"allow": [{"command": [")" + url + R"("]}]}})");
  EXPECT_FALSE(Allows(allow, Http(url), url));
  ManagedPolicy deny = Parse(R"({"mcp": {"deny": [{"command": [")" + url + R"("]}]}})");
  EXPECT_TRUE(Allows(deny, Http(url), url));
}

TEST(ManagedPolicyTest, AliasIsNeverMatched) {
  ManagedPolicy allow =
      Parse(R"({"mcp": {"allow": [{"host": "weather"}, {"command": ["weather"]}]}})");
  EXPECT_FALSE(Allows(allow, Stdio("npx", {"-y", "w"}, "weather"), kNpx));
  EXPECT_FALSE(Allows(allow, Http("https://mcp.example.com/", "weather")));
  ManagedPolicy deny =
      Parse(R"({"mcp": {"deny": [{"host": "weather"}, {"command": ["weather"]}]}})");
  EXPECT_TRUE(Allows(deny, Stdio("npx", {"-y", "w"}, "weather"), kNpx));
  EXPECT_TRUE(Allows(deny, Http("https://mcp.example.com/", "weather")));
}

TEST(ManagedPolicyTest, VariablesAreNotPartOfAMatch) {
  ManagedPolicy policy = Parse(kSpecExample);
  Declaration weather = Stdio("npx", {"-y", "@dangahagan/weather-mcp@1.4.0"});
  weather.stored_variables = {{"TOKEN", "sk"}};
  weather.passed_variables = {"PATH", "HOME"};
  weather.directory = "/srv/weather";
  EXPECT_TRUE(Allows(policy, weather, kNpx));
  Declaration staging = Http("https://staging.example.com/mcp");
  staging.stored_variables = {{"AUTHORIZATION", "Bearer x"}};
  EXPECT_FALSE(Allows(policy, staging));
}

// Spellings bravebot and a connection could read as different hosts. Each is
// under *.example.com, or 127.0.0.1, or ::1, as bravebot would read it naively.
const std::vector<std::string> kSpelledTwoWays = {
    "https://mcp%2eexample.com/mcp",           // percent escape
    "https://mcp.ex%61mple.com/mcp",           // percent escape
    "https://evil.org\\.mcp.example.com/mcp",  // backslash: a parser ends the host at it
    "https://evil.org\\@mcp.example.com/mcp",  // backslash before userinfo
    "https://mcp.example.com./mcp",            // trailing dot
    "https://mcp..example.com/mcp",            // empty label
    "https://.mcp.example.com/mcp",            // leading dot
    "https://mcp.\xD0\xB5xample.com/mcp",      // Cyrillic 'е'
    "https://mcp.example\xE3\x80\x82"
    "com/",                              // ideographic full stop
    "https://mcp_x.example.com/mcp",     // outside [A-Za-z0-9.-]
    "https://mcp.example.com\t/mcp",     // a tab, which parsers strip
    "http://127.1/mcp",                  // 127.0.0.1 to a connection
    "http://2130706433/mcp",             // 127.0.0.1 to a connection
    "http://0x7f.0.0.1/mcp",             // 127.0.0.1 to a connection
    "http://0177.0.0.1/mcp",             // octal 127.0.0.1
    "http://mcp.example.0x10/mcp",       // ends in a number
    "http://[::1%25lo]/mcp",             // IPv6 zone
    "http://[::ffff:127.0.0.1]/mcp",     // IPv4 under an IPv6 spelling
    "http://[mcp.example.com]/mcp",      // brackets around a name
    "https://user@mcp.example.com/mcp",  // userinfo, refused at add already
};

const char* const kAllowsThoseHosts =
    R"({"mcp": {"allow": [{"host": "*.example.com"}, {"host": "127.0.0.1"},
                          {"host": "::1"}, {"host": "mcp.example.com"}]}})";

TEST(ManagedPolicyTest, HostSpelledTwoWaysMatchesNoAllowEntry) {
  ManagedPolicy policy = Parse(kAllowsThoseHosts);
  for (const std::string& url : kSpelledTwoWays) {
    EXPECT_FALSE(Allows(policy, Http(url))) << url;
  }
  // The plain spellings are allowed.
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com/mcp")));
  EXPECT_TRUE(Allows(policy, Http("http://127.0.0.1:8080/mcp")));
  EXPECT_TRUE(Allows(policy, Http("http://[::1]:3000/mcp")));
}

TEST(ManagedPolicyTest, PercentEscapeAndBackslashMatchNoAllowEntry) {
  ManagedPolicy policy = Parse(kSpecExample);
  EXPECT_FALSE(Allows(policy, Http("https://mcp%2eexample.com/mcp")));
  EXPECT_FALSE(Allows(policy, Http("https://evil.org\\.mcp.example.com/mcp")));
  // In the path, neither touches the host.
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com/a%20b\\c")));
}

TEST(ManagedPolicyTest, HostSpelledTwoWaysIsRefusedWhereverDenyNamesAHost) {
  // The deny entry names an unrelated host: naming any host is enough.
  ManagedPolicy policy = Parse(R"({"mcp": {"deny": [{"host": "unrelated.org"}]}})");
  for (const std::string& url : kSpelledTwoWays) {
    ManagedDecision decision = Decide(policy, Http(url), "");
    EXPECT_FALSE(decision.allowed) << url;
    EXPECT_EQ(decision.reason, kPath +
                                   ", which this machine's administrator manages, denies hosts "
                                   "in its mcp.deny, and this one's url spells its host in a way "
                                   "a connection could read as another")
        << url;
  }
  EXPECT_TRUE(Allows(policy, Http("https://mcp.example.com/mcp")));
}

TEST(ManagedPolicyTest, PercentEscapeAndBackslashAreRefusedByADenyOfTheirHost) {
  ManagedPolicy policy = Parse(kSpecExample);
  EXPECT_FALSE(Allows(policy, Http("https://staging%2eexample.com/mcp")));
  EXPECT_FALSE(Allows(policy, Http("https://staging.ex%61mple.com/mcp")));
  EXPECT_FALSE(Allows(policy, Http("https://staging.example.com\\.mcp.example.com/mcp")));
}

TEST(ManagedPolicyTest, HostSpelledTwoWaysPassesADenyOfCommandsOnly) {
  ManagedPolicy policy = Parse(R"({"mcp": {"deny": [{"command": ["/usr/bin/x"]}]}})");
  for (const std::string& url : kSpelledTwoWays) {
    EXPECT_TRUE(Allows(policy, Http(url))) << url;
  }
}

TEST(ManagedPolicyTest, AddressesMatchInAnySpellingOfTheSameAddress) {
  ManagedPolicy policy = Parse(
      R"({"mcp": {"deny": [{"host": "[0:0:0:0:0:0:0:1]"}, {"host": "FD00::AB"},
                           {"host": "10.0.0.1"}]}})");
  EXPECT_FALSE(Allows(policy, Http("http://[::1]:3000/mcp")));
  EXPECT_FALSE(Allows(policy, Http("http://[0::1]/mcp")));
  EXPECT_FALSE(Allows(policy, Http("http://[fd00:0::ab]/mcp")));
  EXPECT_FALSE(Allows(policy, Http("http://10.0.0.1:8080/mcp")));
  EXPECT_TRUE(Allows(policy, Http("http://[::2]/mcp")));
  EXPECT_TRUE(Allows(policy, Http("http://10.0.0.10/mcp")));
}

TEST(ManagedPolicyTest, WildcardNamesNamesNotAddresses) {
  ManagedPolicy policy = Parse(R"({"mcp": {"allow": [{"host": "*.0.0.1"}]}})");
  EXPECT_FALSE(Allows(policy, Http("http://127.0.0.1/mcp")));
}

TEST(ManagedPolicyTest, DeclarationOrRequestInTheFileIsReadAsNothing) {
  ManagedPolicy policy = Parse(R"({
    "version": 1,
    "servers": {"evil": {"transport": "stdio", "program": "/bin/sh"}},
    "mcpServers": {"evil": {"command": "/bin/sh"}},
    "request": ["evil"],
    "mcp": {
      "request": ["evil", "weather"],
      "servers": {"evil": {"transport": "http", "url": "https://evil.org/"}},
      "approve": ["evil"],
      "approved": ["25edc5e8"]
    }
  })");
  EXPECT_FALSE(policy.allow.has_value());
  EXPECT_FALSE(policy.deny.has_value());
  EXPECT_THAT(PinnedKeys(policy), IsEmpty());
  // Nothing in it allows or refuses anything: the policy is no policy.
  EXPECT_TRUE(Allows(policy, Http("https://anything.org/")));
  EXPECT_TRUE(Allows(policy, Stdio("sh", {}), "/bin/sh"));
}

TEST(ManagedPolicyTest, TextThatIsNotJsonIsCorruptWithLineAndColumnAndNoQuote) {
  Result<ManagedPolicy> policy = ParseManagedPolicy(
      "{\n  \"mcp\": {\"allow\": [{\"host\": \"sk-secret.example.com\"}\n}\n", kPath);
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(policy.error().message(),
            kPath +
                ", which this machine's administrator manages, is not JSON: the parser stopped "
                "at line 3, column 1, so no server starts until it is mended");
  EXPECT_THAT(policy.error().message(), Not(HasSubstr("sk-secret")));
}

TEST(ManagedPolicyTest, TextNestedDeeperThan128LevelsRefusesEveryServer) {
  const std::string deep = std::string(127, '[') + std::string(127, ']');
  Result<ManagedPolicy> policy = ParseManagedPolicy(R"({"mcp": {"allow": )" + deep + "}}", kPath);
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(policy.error().message(),
            kPath +
                ", which this machine's administrator manages, is nested deeper than 128 levels, "
                "which no file of bravebot-mcp needs, so no server starts until it is mended");
}

TEST(ManagedPolicyTest, EmptyTextIsNotJson) {
  Result<ManagedPolicy> policy = ParseManagedPolicy("", kPath);
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.error().message(), HasSubstr("is not JSON: the parser stopped at line 1"));
}

TEST(ManagedPolicyTest, ListThatIsNotAListIsCorruptAtItsLineAndColumn) {
  Result<ManagedPolicy> allow = ParseManagedPolicy(
      "{\n  \"mcp\": {\n    \"allow\": {\"host\": \"sk-secret.example.com\"}\n  }\n}\n", kPath);
  ASSERT_FALSE(allow.ok());
  EXPECT_EQ(allow.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(allow.error().message(),
              HasSubstr("has an mcp.allow that is not a list (line 3, column 14)"));
  EXPECT_THAT(allow.error().message(), HasSubstr(kPath));
  EXPECT_THAT(allow.error().message(), Not(HasSubstr("sk-secret")));

  Result<ManagedPolicy> deny =
      ParseManagedPolicy(R"({"mcp": {"allow": [], "deny": "sk-secret.example.com"}})", kPath);
  ASSERT_FALSE(deny.ok());
  EXPECT_THAT(deny.error().message(),
              HasSubstr("has an mcp.deny that is not a list (line 1, column 31)"));
  EXPECT_THAT(deny.error().message(), Not(HasSubstr("sk-secret")));
}

TEST(ManagedPolicyTest, McpThatIsNotAnObjectIsCorrupt) {
  Result<ManagedPolicy> policy = ParseManagedPolicy("{\"mcp\": [\"allow\"]}", kPath);
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.error().message(),
              HasSubstr("has an mcp that is not an object (line 1, column 9)"));
}

TEST(ManagedPolicyTest, DocumentThatIsNotAnObjectIsCorrupt) {
  for (const char* text : {"[]", "null", "\"mcp\"", "3"}) {
    Result<ManagedPolicy> policy = ParseManagedPolicy(text, kPath);
    ASSERT_FALSE(policy.ok()) << text;
    EXPECT_THAT(policy.error().message(), HasSubstr("is not a JSON object")) << text;
  }
}

// nlohmann::json keeps the last of two equal keys, other readers the first:
// which list the administrator meant is not guessed at.
TEST(ManagedPolicyTest, KeyGivenTwiceIsCorrupt) {
  Result<ManagedPolicy> deny =
      ParseManagedPolicy("{\"mcp\": {\"deny\": [{\"host\": \"a.org\"}],\n  \"deny\": []}}", kPath);
  ASSERT_FALSE(deny.ok());
  EXPECT_THAT(deny.error().message(),
              HasSubstr("gives the key \"mcp.deny\" twice (line 2, column 3)"));
  Result<ManagedPolicy> mcp = ParseManagedPolicy(R"({"mcp": {}, "m\u0063p": {}})", kPath);
  ASSERT_FALSE(mcp.ok());
  EXPECT_THAT(mcp.error().message(), HasSubstr("gives the key \"mcp\" twice (line 1, column 13)"));
}

// Columns count bytes, a byte order mark's three included, as for mcp.json.
TEST(ManagedPolicyTest, PositionsSkipOverNestedValuesAndEscapes) {
  Result<ManagedPolicy> policy = ParseManagedPolicy(
      "\xEF\xBB\xBF{\"a\": {\"}\": [\"]\\\"{\"]}, \"mcp\": {\"x\": [{}, \"\\\\\"], \"allow\": 5}}",
      kPath);
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.error().message(),
              HasSubstr("has an mcp.allow that is not a list (line 1, column 61)"));
}

TEST(ManagedPolicyTest, BrokenPolicyRefusesEveryServerNamingTheFile) {
  testing::TemporaryDirectory directory;
  std::string path = directory.Join("managed.json");
  std::ofstream(path) << "{\"mcp\": {\"deny\": [}}";
  ManagedPolicy policy = LoadManagedPolicy(path);
  ASSERT_TRUE(policy.broken());
  const std::string reason = path +
                             ", which this machine's administrator manages, is not JSON: the "
                             "parser stopped at line 1, column 19, so no server starts until "
                             "it is mended";
  ManagedDecision http = Decide(policy, Http("https://mcp.example.com/"), "");
  EXPECT_FALSE(http.allowed);
  EXPECT_EQ(http.reason, reason);
  ManagedDecision stdio = Decide(policy, Stdio("npx", {"x"}), kNpx);
  EXPECT_FALSE(stdio.allowed);
  EXPECT_EQ(stdio.reason, reason);
  EXPECT_THAT(PinnedKeys(policy), IsEmpty());

  Result<ManagedPolicy> read = ReadManagedPolicy(path);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(read.error().message(), reason);
}

TEST(ManagedPolicyTest, MissingFileIsNoPolicy) {
  testing::TemporaryDirectory directory;
  for (const std::string& path :
       {directory.Join("managed.json"), directory.Join("absent/managed.json")}) {
    Result<ManagedPolicy> read = ReadManagedPolicy(path);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->path, path);
    EXPECT_FALSE(read->allow.has_value());
    EXPECT_FALSE(read->deny.has_value());
    EXPECT_TRUE(Allows(*read, Http("https://anything.org/")));
    ManagedPolicy loaded = LoadManagedPolicy(path);
    EXPECT_FALSE(loaded.broken());
    EXPECT_TRUE(Allows(loaded, Stdio("npx", {"x"}), kNpx));
  }
}

TEST(ManagedPolicyTest, ReadsTheFile) {
  testing::TemporaryDirectory directory;
  std::string path = directory.Join("managed.json");
  std::ofstream(path) << kSpecExample;
  Result<ManagedPolicy> read = ReadManagedPolicy(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->path, path);
  EXPECT_FALSE(Allows(*read, Http("https://staging.example.com/")));
  EXPECT_TRUE(Allows(*read, Http("https://mcp.example.com/")));
  EXPECT_EQ(LoadManagedPolicy(path).allow, read->allow);
}

TEST(ManagedPolicyTest, SomethingOtherThanAFileRefusesEveryServer) {
  testing::TemporaryDirectory directory;
  Result<ManagedPolicy> read = ReadManagedPolicy(directory.path());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(read.error().message(), HasSubstr("is a directory, not a regular file"));
  EXPECT_FALSE(Allows(LoadManagedPolicy(directory.path()), Http("https://mcp.example.com/")));
}

TEST(ManagedPolicyTest, AFileOverItsBoundIsRefusedUnreadAndRefusesEveryServer) {
  testing::TemporaryDirectory directory;
  const std::string path = directory.Join("managed.json");
  std::ofstream(path) << "{}";
  std::filesystem::resize_file(path, (std::uintmax_t{1} << 20) + 1);
  Result<ManagedPolicy> read = ReadManagedPolicy(path);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(read.error().message(),
            path +
                ", which this machine's administrator manages, is 1.0 MiB, more than an "
                "administrator's file may be (1 MiB), so no server starts until it is mended");
  EXPECT_FALSE(Allows(LoadManagedPolicy(path), Http("https://mcp.example.com/")));
}

TEST(ManagedPolicyTest, PinnedKeysNameWhatIsPresent) {
  EXPECT_THAT(PinnedKeys(Parse(kSpecExample)), ElementsAre("mcp.allow", "mcp.deny"));
  EXPECT_THAT(PinnedKeys(Parse(R"({"mcp": {"allow": []}})")), ElementsAre("mcp.allow"));
  EXPECT_THAT(PinnedKeys(Parse(R"({"mcp": {"deny": [{}]}})")), ElementsAre("mcp.deny"));
  EXPECT_THAT(PinnedKeys(Parse("{}")), IsEmpty());
}

TEST(ManagedPolicyTest, FilePathIsTheOverrideOrThePlatforms) {
  std::map<std::string, std::string> environment;
  EnvironmentLookup lookup = [&environment](const char* name) -> const char* {
    auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  };
#ifdef __APPLE__
  const std::string platform = "/Library/Application Support/bravebot/managed.json";
#else
  const std::string platform = "/etc/bravebot/managed.json";
#endif
  EXPECT_EQ(ManagedFilePath(lookup), platform);
  environment["BRAVEBOT_MANAGED_FILE"] = "/tmp/test/managed.json";
  EXPECT_EQ(ManagedFilePath(lookup), "/tmp/test/managed.json");
  environment["BRAVEBOT_MANAGED_FILE"] = "";
  EXPECT_EQ(ManagedFilePath(lookup), platform);
}

}  // namespace
}  // namespace bravebot
