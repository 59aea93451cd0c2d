#include "cli/add_arguments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "confine/sign_in_client.h"
#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kSecret[] = "sk-live-0123456789";

Result<AddArguments> Parse(const std::vector<std::string>& words) {
  return ParseAddArguments(words);
}

// Parses words that must be refused as a usage error; returns the message.
std::string Refusal(const std::vector<std::string>& words) {
  Result<AddArguments> parsed = ParseAddArguments(words);
  EXPECT_FALSE(parsed.ok());
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.error().code(), ErrorCode::kUsage);
  return parsed.error().message();
}

TEST(AddArgumentsTest, ReadsTheSpecsStdioExample) {
  auto parsed = Parse({"weather", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  const Declaration& declaration = parsed->declaration;
  EXPECT_EQ(declaration.alias, "weather");
  EXPECT_EQ(declaration.transport, Transport::kStdio);
  EXPECT_EQ(declaration.program, "npx");
  EXPECT_THAT(declaration.arguments, ElementsAre("-y", "@dangahagan/weather-mcp@latest"));
  EXPECT_EQ(parsed->scope, Scope::kLocal);
}

TEST(AddArgumentsTest, ReadsEachOptionGluedToItsValue) {
  auto parsed = Parse({"--scope=project", "weather", "--dir=/tmp/d", "--env=A=1", "B=2",
                       "--env=TOKEN", "--", "/bin/cat", "--dir=/x"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->scope, Scope::kProject);
  EXPECT_EQ(parsed->declaration.directory, "/tmp/d");
  EXPECT_EQ(parsed->declaration.stored_variables.size(), 2u);
  EXPECT_THAT(parsed->declaration.passed_variables, ElementsAre("TOKEN"));
  // After -- every word is the server's, as it is.
  EXPECT_THAT(parsed->declaration.arguments, ElementsAre("--dir=/x"));
  auto http = Parse({"docs", "--http=https://mcp.example.com/mcp"});
  ASSERT_TRUE(http.ok()) << http.error().message();
  EXPECT_EQ(http->declaration.url, "https://mcp.example.com/mcp");
  // A message still counts the words as they were typed.
  EXPECT_THAT(Refusal({"--scope=A=1", "weather", "--", "/bin/cat"}),
              HasSubstr("word 1 after add is where the scope of -s goes"));
}

TEST(AddArgumentsTest, ReadsTheSpecsHttpExample) {
  auto parsed = Parse({"docs", "--http", "https://mcp.example.com/mcp"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->declaration.transport, Transport::kHttp);
  EXPECT_EQ(parsed->declaration.url, "https://mcp.example.com/mcp");
  EXPECT_TRUE(parsed->declaration.program.empty());
}

TEST(AddArgumentsTest, StdioFlagMeansTheSame) {
  auto plain = Parse({"weather", "--", "npx", "-y", "x"});
  auto stdio = Parse({"weather", "--stdio", "--", "npx", "-y", "x"});
  ASSERT_TRUE(plain.ok() && stdio.ok());
  EXPECT_EQ(plain->declaration, stdio->declaration);
}

TEST(AddArgumentsTest, StdioWithoutDoubleDashIsRefused) {
  EXPECT_THAT(Refusal({"weather", "--stdio", "npx"}), HasSubstr("--stdio is followed by --"));
}

TEST(AddArgumentsTest, ScopeMayComeBeforeOrAfterTheAlias) {
  auto before = Parse({"-s", "project", "weather", "--", "npx"});
  auto after = Parse({"weather", "-s", "user", "--", "npx"});
  auto long_form = Parse({"weather", "--scope", "local", "--", "npx"});
  ASSERT_TRUE(before.ok() && after.ok() && long_form.ok());
  EXPECT_EQ(before->scope, Scope::kProject);
  EXPECT_EQ(after->scope, Scope::kUser);
  EXPECT_EQ(long_form->scope, Scope::kLocal);
  EXPECT_EQ(before->declaration.alias, "weather");
}

TEST(AddArgumentsTest, UnknownScopeIsRefused) {
  EXPECT_THAT(Refusal({"weather", "-s", "global", "--", "npx"}),
              HasSubstr("-s takes local, project or user"));
  EXPECT_THAT(Refusal({"weather", "-s", "user", "-s", "local", "--", "npx"}),
              HasSubstr("-s is given twice"));
  EXPECT_TRUE(Parse({"weather", "--", "npx", "-s", "global"}).ok());  // the server's words
}

TEST(AddArgumentsTest, OneEnvFlagTakesEveryWordUpToTheNextFlag) {
  auto parsed = Parse({"weather", "-e", "A=1", "B=two words", "C=x=y", "--dir", "/d", "--", "n"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_THAT(parsed->declaration.stored_variables,
              ElementsAre(StoredVariable{"A", "1"}, StoredVariable{"B", "two words"},
                          StoredVariable{"C", "x=y"}));
  EXPECT_EQ(parsed->declaration.directory, "/d");
}

TEST(AddArgumentsTest, EnvNameAlonePassesTheVariable) {
  auto parsed = Parse({"weather", "-e", "WEATHER_TOKEN", "--env", "HOME", "--", "npx"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_THAT(parsed->declaration.passed_variables, ElementsAre("WEATHER_TOKEN", "HOME"));
  EXPECT_TRUE(parsed->declaration.stored_variables.empty());
}

TEST(AddArgumentsTest, EmptyValueIsStored) {
  auto parsed = Parse({"weather", "-e", "EMPTY=", "--", "npx"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_THAT(parsed->declaration.stored_variables, ElementsAre(StoredVariable{"EMPTY", ""}));
}

TEST(AddArgumentsTest, UnicodeValuesAndArgumentsAreKeptAsTheyAre) {
  auto parsed = Parse({"météo", "--", "npx", "ville=Montréal"});
  EXPECT_FALSE(parsed.ok());  // the alias rule is ASCII letters and digits
  parsed = Parse({"meteo", "-e", "VILLE=Zürich ☂", "--", "npx", "ville=Montréal"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->declaration.stored_variables[0].value, "Zürich ☂");
  EXPECT_THAT(parsed->declaration.arguments, ElementsAre("ville=Montréal"));
}

// The spec: "-e WEATHER_TOKEN sk-live stores nothing, and the refusal says a
// name alone is read from your environment only as the one word its -e takes".
TEST(AddArgumentsTest, NameFollowedByAnotherWordIsRefusedByPlace) {
  std::string message = Refusal({"weather", "-e", "WEATHER_TOKEN", kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("word 3 after add"));
  EXPECT_THAT(message, HasSubstr("first word of the -e at word 2 after add"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  EXPECT_THAT(message, Not(HasSubstr("WEATHER_TOKEN")));
  EXPECT_THAT(message, HasSubstr("nothing was declared"));
}

TEST(AddArgumentsTest, NameAmongAssignmentsIsRefused) {
  std::string message = Refusal({"weather", "-e", "A=1", "WEATHER_TOKEN", "--", "npx"});
  EXPECT_THAT(message, HasSubstr("a name alone is read from your environment only as the one "
                                 "word its -e takes"));
  EXPECT_THAT(message, Not(HasSubstr("WEATHER_TOKEN")));
}

TEST(AddArgumentsTest, WordThatIsNeitherIsRefusedWithoutRepeatingIt) {
  std::string message = Refusal({"weather", "-e", kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("neither NAME=value nor a variable name"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  message = Refusal({"weather", "-e", std::string("1BAD=") + kSecret, "--", "npx"});
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, EnvBeforeTheAliasIsRefused) {
  std::string message = Refusal({"-e", std::string("TOKEN=") + kSecret, "weather", "--", "npx"});
  EXPECT_THAT(message, HasSubstr("-e comes before the alias"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  EXPECT_THAT(Refusal({"-s", "user", "-e", "PATH", "weather", "--", "npx"}),
              HasSubstr("-e comes before the alias"));
}

TEST(AddArgumentsTest, AssignmentWhereTheAliasGoesIsRefusedByPlace) {
  std::string message = Refusal({std::string("TOKEN=") + kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("word 1 after add is where the alias goes"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, AssignmentWhereTheScopeGoesIsRefusedByPlace) {
  std::string message = Refusal({"weather", "-s", std::string("TOKEN=") + kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("word 3 after add is where the scope of -s goes"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, AssignmentWhereTheDirectoryGoesIsRefusedByPlace) {
  std::string message = Refusal({"weather", "--dir", std::string("TOKEN=") + kSecret, "--", "n"});
  EXPECT_THAT(message, HasSubstr("word 3 after add is where the path of --dir goes"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, PathWithAnEqualsSignIsADirectory) {
  auto parsed = Parse({"weather", "--dir", "/srv/a=b", "--", "npx"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->declaration.directory, "/srv/a=b");
}

TEST(AddArgumentsTest, NameGivenTwiceIsRefused) {
  EXPECT_THAT(Refusal({"weather", "-e", "A=1", "A=2", "--", "npx"}),
              HasSubstr("the variable A is given twice"));
  EXPECT_THAT(Refusal({"weather", "-e", "A=1", "-e", "A", "--", "npx"}),
              HasSubstr("the variable A is given twice"));
  EXPECT_THAT(Refusal({"weather", "-e", "A", "-e", "A", "--", "npx"}),
              HasSubstr("the variable A is given twice"));
  std::string message = Refusal({"weather", "-e", std::string("A=") + kSecret, "A=x", "--", "n"});
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, EnvWithNoWordIsRefused) {
  EXPECT_THAT(Refusal({"weather", "-e"}), HasSubstr("-e at word 2 after add takes NAME=value"));
  EXPECT_THAT(Refusal({"weather", "-e", "--", "npx"}), HasSubstr("takes NAME=value or NAME"));
  EXPECT_THAT(Refusal({"weather", "-e", "--dir", "/x", "--", "npx"}), HasSubstr("takes NAME"));
}

TEST(AddArgumentsTest, WordsAfterDoubleDashAreTheServersEvenOurFlags) {
  auto parsed = Parse({"weather", "--", "npx", "--settings", "a b", "-e", "X", "--", "--http"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_THAT(parsed->declaration.arguments,
              ElementsAre("--settings", "a b", "-e", "X", "--", "--http"));
  EXPECT_TRUE(parsed->declaration.stored_variables.empty());
  EXPECT_TRUE(parsed->declaration.passed_variables.empty());
}

TEST(AddArgumentsTest, DoubleDashWithNothingAfterItIsRefused) {
  EXPECT_THAT(Refusal({"weather", "--"}), HasSubstr("-- names no program"));
  EXPECT_THAT(Refusal({"weather", "--", "", "x"}), HasSubstr("empty word"));
}

TEST(AddArgumentsTest, MissingPieces) {
  EXPECT_THAT(Refusal({}), HasSubstr("add needs an alias"));
  EXPECT_THAT(Refusal({"weather"}), HasSubstr("add needs the server"));
  EXPECT_THAT(Refusal({"--", "npx"}), HasSubstr("add needs an alias"));
  EXPECT_THAT(Refusal({"weather", "--dir"}), HasSubstr("--dir takes"));
  EXPECT_THAT(Refusal({"weather", "--http"}), HasSubstr("--http takes"));
  EXPECT_THAT(Refusal({"weather", "-s"}), HasSubstr("-s takes"));
}

TEST(AddArgumentsTest, AliasRule) {
  EXPECT_TRUE(Parse({"a", "--", "x"}).ok());
  EXPECT_TRUE(Parse({"9lives", "--", "x"}).ok());
  EXPECT_TRUE(Parse({"my_server-2", "--", "x"}).ok());
  EXPECT_TRUE(Parse({std::string(64, 'a'), "--", "x"}).ok());
  EXPECT_THAT(Refusal({std::string(65, 'a'), "--", "x"}), HasSubstr("at most 64 characters"));
  EXPECT_THAT(Refusal({"_hidden", "--", "x"}), HasSubstr("is not an alias"));
  EXPECT_THAT(Refusal({"has.dot", "--", "x"}), HasSubstr("is not an alias"));
  EXPECT_THAT(Refusal({"has space", "--", "x"}), HasSubstr("is not an alias"));
  EXPECT_THAT(Refusal({"", "--", "x"}), HasSubstr("is not an alias"));
}

TEST(AddArgumentsTest, SecondAliasIsRefusedByPlace) {
  std::string message = Refusal({"weather", kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("word 2 after add is a second word"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, UnknownFlagIsNamedUpToItsEqualsSign) {
  std::string message = Refusal({"weather", std::string("--token=") + kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("does not know the option --token"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, ValueStartingWithADashIsRefusedByPlace) {
  std::string message = Refusal({"weather", "-e", "API_KEY", "-sk-live-123", "--", "npx"});
  EXPECT_THAT(message, HasSubstr("does not know word 4 after add, which starts with -"));
  EXPECT_THAT(message, Not(HasSubstr("sk-live")));
  EXPECT_THAT(Refusal({"weather", "-x", "--", "npx"}), HasSubstr("does not know the option -x"));
}

TEST(AddArgumentsTest, PlacesPastTheTenthWordAreCounted) {
  std::vector<std::string> words = {"weather", "-e"};
  // Appended rather than "V" + a temporary: a false -Wrestrict of GCC 12 at -O3.
  for (int i = 0; i < 10; ++i) words.push_back(std::string("V").append(std::to_string(i)) + "=x");
  words.push_back("NAME");
  words.insert(words.end(), {"--", "npx"});
  EXPECT_THAT(Refusal(words), HasSubstr("(the 11th word of the -e at word 2 after add)"));
}

TEST(AddArgumentsTest, HttpTakesNeitherEnvNorDir) {
  EXPECT_THAT(Refusal({"docs", "--http", "https://x.example/mcp", "-e", "A=1"}),
              HasSubstr("--http takes neither -e nor --dir"));
  EXPECT_THAT(Refusal({"docs", "--dir", "/tmp", "--http", "https://x.example/mcp"}),
              HasSubstr("--http takes neither -e nor --dir"));
  EXPECT_THAT(Refusal({"docs", "--http", "https://x.example/mcp", "--", "npx"}),
              HasSubstr("not both"));
  EXPECT_THAT(Refusal({"docs", "--http", "https://a.example", "--http", "https://b.example"}),
              HasSubstr("--http is given twice"));
}

TEST(AddArgumentsTest, UrlWithUserOrPasswordIsRefusedWithoutRepeatingIt) {
  for (const std::string& url : {std::string("https://me:") + kSecret + "@mcp.example.com/mcp",
                                 std::string("https://") + kSecret + "@mcp.example.com/"}) {
    std::string message = Refusal({"docs", "--http", url});
    EXPECT_THAT(message, HasSubstr("carries a user or a password"));
    EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  }
  // An '@' in the path is not a user.
  EXPECT_TRUE(Parse({"docs", "--http", "https://mcp.example.com/@team/mcp"}).ok());
}

TEST(AddArgumentsTest, UrlOfAnotherSchemeIsRefused) {
  EXPECT_THAT(Refusal({"docs", "--http", "ftp://mcp.example.com/"}),
              HasSubstr("not an http or https url"));
  EXPECT_THAT(Refusal({"docs", "--http", "mcp.example.com"}), HasSubstr("no scheme"));
}

TEST(AddArgumentsTest, HelpIsReadAnywhereBeforeTheProgram) {
  auto parsed = Parse({"--help"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->help);
  parsed = Parse({"weather", "-h"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->help);
  parsed = Parse({"weather", "--", "npx", "--help"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->help);  // the server's own --help
}

TEST(AddArgumentsTest, DirAndEnvTogether) {
  auto parsed = Parse({"-s", "project", "fs", "--dir", "/srv/data", "-e", "PATH", "-e", "LOG=debug",
                       "--", "/usr/bin/server", "/srv/data"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->declaration.directory, "/srv/data");
  EXPECT_THAT(parsed->declaration.passed_variables, ElementsAre("PATH"));
  EXPECT_THAT(parsed->declaration.stored_variables, ElementsAre(StoredVariable{"LOG", "debug"}));
  EXPECT_EQ(parsed->scope, Scope::kProject);
}

TEST(AddArgumentsTest, HeadersAreStoredForAServiceInTheOrderGiven) {
  auto parsed = Parse({"docs", "--http", "https://mcp.example.com/mcp", "--header",
                       std::string("Authorization=Bearer ") + kSecret, "--header=X-Team=a=b"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_THAT(parsed->declaration.headers,
              ElementsAre(StoredHeader{"Authorization", std::string("Bearer ") + kSecret},
                          StoredHeader{"X-Team", "a=b"}));
  EXPECT_TRUE(parsed->headers_from_environment.empty());
}

TEST(AddArgumentsTest, AHeaderByNameAloneIsReadFromTheEnvironment) {
  auto parsed = Parse({"docs", "--header", "Authorization", "--http", "https://x.example/mcp"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_THAT(parsed->headers_from_environment, ElementsAre("Authorization"));
  const std::string value = std::string("Bearer ") + kSecret;
  ASSERT_TRUE(ReadHeadersFromEnvironment(*parsed, [&](const char* name) -> const char* {
                return std::string_view(name) == "Authorization" ? value.c_str() : nullptr;
              }).ok());
  EXPECT_THAT(parsed->declaration.headers, ElementsAre(StoredHeader{"Authorization", value}));

  auto unset = Parse({"docs", "--http", "https://x.example/mcp", "--header", "X-Api-Key"});
  ASSERT_TRUE(unset.ok());
  Status read =
      ReadHeadersFromEnvironment(*unset, [](const char*) -> const char* { return nullptr; });
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kUsage);
  EXPECT_THAT(read.error().message(),
              HasSubstr("the header X-Api-Key is read from your environment, and no variable "
                        "X-Api-Key is set there: set it (env 'X-Api-Key=...' can, a shell's "
                        "export cannot), or give --header X-Api-Key=VALUE"));

  auto broken = Parse({"docs", "--http", "https://x.example/mcp", "--header", "Authorization"});
  ASSERT_TRUE(broken.ok());
  const std::string two_lines = std::string(kSecret) + "\r\nHost: elsewhere";
  read = ReadHeadersFromEnvironment(*broken,
                                    [&](const char*) -> const char* { return two_lines.c_str(); });
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message(), HasSubstr("the header Authorization has a line break"));
  EXPECT_THAT(read.error().message(), Not(HasSubstr(kSecret)));
}

TEST(AddArgumentsTest, HeadersTheHttpClientSetsAreRefusedWhateverTheirCase) {
  for (const char* name :
       {"Content-Type", "accept", "MCP-SESSION-ID", "Mcp-Protocol-Version", "Last-Event-ID", "host",
        "Content-Length", "Transfer-Encoding", "Connection", "Expect"}) {
    std::string message =
        Refusal({"docs", "--http", "https://x.example/mcp", "--header", std::string(name) + "=v"});
    EXPECT_THAT(message, HasSubstr(std::string("the header ") + name +
                                   " is one bravebot-mcp's HTTP client sets itself"));
    EXPECT_THAT(message, HasSubstr("leave it out; nothing was declared"));
    // By name alone too, before the environment is read.
    EXPECT_THAT(Refusal({"docs", "--http", "https://x.example/mcp", "--header", name}),
                HasSubstr("sets itself"));
  }
}

TEST(AddArgumentsTest, AMalformedHeaderIsRefusedWithoutRepeatingIt) {
  const std::string url = "https://x.example/mcp";
  std::string curl_style =
      Refusal({"docs", "--http", url, "--header", std::string("Authorization: Bearer ") + kSecret});
  EXPECT_THAT(curl_style, HasSubstr("the --header at word 4 after add is not NAME=VALUE"));
  EXPECT_THAT(curl_style, HasSubstr("write Authorization=VALUE, not Authorization: VALUE"));
  EXPECT_THAT(curl_style, Not(HasSubstr(kSecret)));
  std::string spaced =
      Refusal({"docs", "--http", url, "--header", std::string("My Key=") + kSecret});
  EXPECT_THAT(spaced, HasSubstr("is not NAME=VALUE with NAME a header name"));
  EXPECT_THAT(spaced, Not(HasSubstr(kSecret)));
  EXPECT_THAT(Refusal({"docs", "--http", url, "--header", std::string("=").append(kSecret)}),
              Not(HasSubstr(kSecret)));
  for (const char* cut : {"\r", "\n", "\r\n"}) {
    // Appended rather than "X-Key=" + a temporary: a false -Wrestrict of GCC 12 at -O3.
    std::string message = Refusal({"docs", "--http", url, "--header",
                                   std::string("X-Key=").append(kSecret).append(cut) + "Host: x"});
    EXPECT_THAT(message, HasSubstr("the header X-Key has a line break or a NUL in its value"));
    EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  }
  EXPECT_THAT(Refusal({"docs", "--http", url, "--header", std::string("X-Key=a\0b", 9)}),
              HasSubstr("a line break or a NUL"));
  EXPECT_THAT(Refusal({"docs", "--http", url, "--header", "X-Key= "}),
              HasSubstr("the header X-Key has no value: give it as --header X-Key=VALUE"));
  EXPECT_THAT(Refusal({"docs", "--http", url, "--header"}), HasSubstr("--header takes NAME=VALUE"));
}

TEST(AddArgumentsTest, AHeaderIsGivenOnceAndOnlyToAService) {
  EXPECT_THAT(Refusal({"docs", "--http", "https://x.example/mcp", "--header", "X-Key=1", "--header",
                       "x-key=2"}),
              HasSubstr("the header x-key is given twice: give each header once"));
  std::string message =
      Refusal({"weather", "--header", std::string("X-Key=") + kSecret, "--", "npx"});
  EXPECT_THAT(message, HasSubstr("--header goes with --http URL"));
  EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  EXPECT_TRUE(IsAddFlag("--header"));
}

TEST(AddArgumentsTest, AClientIdSecretFileAndScopesAreTakenForAService) {
  auto parsed = Parse({"docs", "--http", "https://mcp.example.com/mcp", "--client-id", "app-7",
                       "--client-secret-file=secret.txt", "--oauth-scope", "read:issues",
                       "--oauth-scope=write"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->declaration.sign_in.id, "app-7");
  EXPECT_THAT(parsed->declaration.sign_in.scopes, ElementsAre("read:issues", "write"));
  EXPECT_EQ(parsed->client_secret_file, "secret.txt");
  EXPECT_TRUE(parsed->declaration.sign_in.secret.empty());
  // -s/--scope is still the settings file's.
  EXPECT_EQ(parsed->scope, Scope::kLocal);
  for (const char* flag : {"--client-id", "--client-secret-file", "--oauth-scope"}) {
    EXPECT_TRUE(IsAddFlag(flag)) << flag;
  }
}

TEST(AddArgumentsTest, TheClientSecretIsReadFromItsFileAsAddRuns) {
  testing::FakeFileSystem fs;
  fs.AddFile("/home/u/app/secret.txt", std::string(kSecret) + "\r\n\n");
  auto parsed = Parse({"docs", "--http", "https://x.example/mcp", "--client-id", "app-7",
                       "--client-secret-file", "secret.txt"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  ASSERT_TRUE(ReadClientSecretFile(*parsed, fs, "/home/u/app"));
  EXPECT_EQ(parsed->declaration.sign_in.secret, kSecret);
  EXPECT_TRUE(parsed->client_secret_file.empty());

  // The longest secret, with its line end.
  fs.AddFile("/keys/long", std::string(kMaxClientSecretLength, 'k') + "\r\n");
  parsed->client_secret_file = "/keys/long";
  ASSERT_TRUE(ReadClientSecretFile(*parsed, fs, "/home/u/app"));
  EXPECT_EQ(parsed->declaration.sign_in.secret, std::string(kMaxClientSecretLength, 'k'));

  // No file, no secret: nothing read.
  auto without = Parse({"docs", "--http", "https://x.example/mcp", "--client-id", "app-7"});
  ASSERT_TRUE(without.ok());
  ASSERT_TRUE(ReadClientSecretFile(*without, fs, "/home/u/app"));
  EXPECT_TRUE(without->declaration.sign_in.secret.empty());
}

// Reads FILE's content as the secret; returns the refusal's message.
std::string SecretFileRefusal(const std::string& content) {
  testing::FakeFileSystem fs;
  fs.AddFile("/keys/secret", content);
  auto parsed = Parse({"docs", "--http", "https://x.example/mcp", "--client-id", "app-7",
                       "--client-secret-file", "/keys/secret"});
  EXPECT_TRUE(parsed.ok());
  if (!parsed.ok()) return "";
  Status read = ReadClientSecretFile(*parsed, fs, "/home/u");
  EXPECT_FALSE(read);
  if (read) return "";
  EXPECT_EQ(read.error().code(), ErrorCode::kUsage);
  EXPECT_TRUE(parsed->declaration.sign_in.secret.empty());
  return read.error().message();
}

TEST(AddArgumentsTest, AClientSecretFileIsRefusedWithoutRepeatingIt) {
  EXPECT_THAT(SecretFileRefusal("\n"), HasSubstr("the client secret is empty (read from "
                                                 "/keys/secret)"));
  EXPECT_THAT(SecretFileRefusal(""), HasSubstr("the client secret is empty"));
  EXPECT_THAT(SecretFileRefusal(std::string(4097, 'k')),
              HasSubstr("the client secret is longer than 4096 bytes"));
  EXPECT_THAT(SecretFileRefusal(std::string(4096, 'k') + "\r\nmore"),
              HasSubstr("the client secret is longer than 4096 bytes"));
  for (const std::string& content :
       {std::string(kSecret) + "\nsecond line", std::string(kSecret) + "\t", std::string("a\0b", 3),
        std::string(kSecret) + "\x7f"}) {
    std::string message = SecretFileRefusal(content);
    EXPECT_THAT(message, HasSubstr("the client secret holds a control character"));
    EXPECT_THAT(message, Not(HasSubstr(kSecret)));
  }

  testing::FakeFileSystem fs;
  fs.AddDirectory("/keys");
  auto parsed = Parse({"docs", "--http", "https://x.example/mcp", "--client-id", "app-7",
                       "--client-secret-file", "gone"});
  ASSERT_TRUE(parsed.ok());
  Status read = ReadClientSecretFile(*parsed, fs, "/keys");
  ASSERT_FALSE(read);
  EXPECT_THAT(read.error().message(),
              HasSubstr("--client-secret-file names /keys/gone, and there is no file there"));
  parsed->client_secret_file = "/keys";
  read = ReadClientSecretFile(*parsed, fs, "/");
  ASSERT_FALSE(read);
  EXPECT_THAT(read.error().message(), HasSubstr("which is not a file"));
}

TEST(AddArgumentsTest, TheSignInOptionsAreRefusedWhereTheyCannotBeRead) {
  const std::string url = "https://x.example/mcp";
  EXPECT_THAT(Refusal({"docs", "--http", url, "--client-secret-file", "s"}),
              HasSubstr("--client-secret-file is the secret of the client --client-id names: "
                        "give --client-id ID too"));
  EXPECT_THAT(Refusal({"docs", "--http", url, "--client-id", "a", "--client-id", "b"}),
              HasSubstr("--client-id is given twice"));
  EXPECT_THAT(Refusal({"docs", "--http", url, "--client-id", "a", "--client-secret-file", "s",
                       "--client-secret-file", "t"}),
              HasSubstr("--client-secret-file is given twice"));
  std::string spaced = Refusal({"docs", "--http", url, "--client-id", std::string("a ") + kSecret});
  EXPECT_THAT(spaced, HasSubstr("the client id at word 5 after add is not printable ASCII "
                                "without spaces, at most 512 bytes"));
  EXPECT_THAT(spaced, Not(HasSubstr(kSecret)));
  EXPECT_THAT(Refusal({"docs", "--http", url, "--client-id", std::string(513, 'a')}),
              HasSubstr("at most 512 bytes"));
  EXPECT_TRUE(Parse({"docs", "--http", url, "--client-id", std::string(512, 'a')}).ok());
  EXPECT_THAT(Refusal({"docs", "--http", url, "--client-id"}), HasSubstr("--client-id takes"));

  EXPECT_THAT(Refusal({"docs", "--http", url, "--oauth-scope", "read", "--oauth-scope", "read"}),
              HasSubstr("the scope read is given twice: give each scope once"));
  for (const char* bad : {"read write", "a\"b", "a\\b", "caf\xc3\xa9"}) {
    EXPECT_THAT(Refusal({"docs", "--http", url, "--oauth-scope", bad}),
                HasSubstr("the --oauth-scope at word 5 after add is not a scope"))
        << bad;
  }
  EXPECT_TRUE(Parse({"docs", "--http", url, "--oauth-scope", "!#[]{}~"}).ok());

  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"weather", "--client-id", "a", "--", "npx"},
        std::vector<std::string>{"weather", "--oauth-scope", "read", "--", "npx"},
        std::vector<std::string>{"weather", "--client-secret-file", "s", "--", "npx"}}) {
    EXPECT_THAT(Refusal(words), HasSubstr("--client-id, --client-secret-file and --oauth-scope "
                                          "go with --http URL"));
  }
}

}  // namespace
}  // namespace bravebot
