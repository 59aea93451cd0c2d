#include "confine/declaration.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(DeclarationTest, VariableNamesAreSortedAndMarkStored) {
  Declaration declaration;
  declaration.passed_variables = {"PATH"};
  declaration.stored_variables = {{"BRAVE_API_KEY_FILE", "/k"}};
  EXPECT_THAT(declaration.VariableNames(), ElementsAre("BRAVE_API_KEY_FILE", "PATH"));
  EXPECT_TRUE(declaration.StoresVariable("BRAVE_API_KEY_FILE"));
  EXPECT_FALSE(declaration.StoresVariable("PATH"));
  EXPECT_TRUE(declaration.NamesVariable("PATH"));
  EXPECT_FALSE(declaration.NamesVariable("HOME"));
}

TEST(DeclarationTest, VariableNameRule) {
  EXPECT_TRUE(IsValidVariableName("PATH"));
  EXPECT_TRUE(IsValidVariableName("_x1"));
  EXPECT_FALSE(IsValidVariableName("1X"));
  EXPECT_FALSE(IsValidVariableName("A-B"));
  EXPECT_FALSE(IsValidVariableName(""));
}

TEST(DeclarationTest, ProgramByNameOrPath) {
  EXPECT_TRUE(IsProgramFoundThroughPath("npx"));
  EXPECT_FALSE(IsProgramFoundThroughPath("/usr/bin/npx"));
  EXPECT_FALSE(IsProgramFoundThroughPath("./server"));
}

// What CheckDeclaration refuses `declaration` for; "" where it does not.
std::string ProblemOf(const Declaration& declaration) {
  Status checked = CheckDeclaration(declaration);
  if (checked) return "";
  EXPECT_EQ(checked.error().code(), ErrorCode::kRefused);
  return checked.error().message();
}

TEST(DeclarationTest, ProblemsOfHandEditedDeclarations) {
  Declaration stdio;
  stdio.alias = "ok";
  stdio.program = "npx";
  EXPECT_TRUE(CheckDeclaration(stdio));

  Declaration no_program = stdio;
  no_program.program = "";
  EXPECT_THAT(ProblemOf(no_program), HasSubstr("names no program"));

  Declaration relative = stdio;
  relative.program = "bin/server";
  EXPECT_THAT(ProblemOf(relative), HasSubstr("relative path"));

  Declaration twice = stdio;
  twice.passed_variables = {"A"};
  twice.stored_variables = {{"A", "1"}};
  EXPECT_THAT(ProblemOf(twice), HasSubstr("A is given twice"));

  Declaration bad_name = stdio;
  bad_name.passed_variables = {"A-B"};
  EXPECT_THAT(ProblemOf(bad_name), HasSubstr("variable name"));

  Declaration relative_dir = stdio;
  relative_dir.directory = "srv";
  EXPECT_THAT(ProblemOf(relative_dir), HasSubstr("directory"));

  Declaration bad_alias = stdio;
  bad_alias.alias = "-x";
  EXPECT_THAT(ProblemOf(bad_alias), HasSubstr("alias"));

  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  EXPECT_TRUE(CheckDeclaration(http));
  Declaration http_dir = http;
  http_dir.directory = "/srv";
  EXPECT_THAT(ProblemOf(http_dir), HasSubstr("no directory"));
  Declaration http_password = http;
  http_password.url = "https://u:p@mcp.example.com/";
  EXPECT_THAT(ProblemOf(http_password), HasSubstr("user or a password"));
  Declaration http_program = http;
  http_program.program = "npx";
  EXPECT_THAT(ProblemOf(http_program), HasSubstr("runs no program"));
}

TEST(DeclarationTest, HeadersOfHandEditedDeclarations) {
  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  http.headers = {{"Authorization", "Bearer sk-1"}, {"X-Team", "a"}};
  EXPECT_TRUE(CheckDeclaration(http));

  Declaration forged = http;
  forged.headers.push_back({"mcp-session-id", "s-1"});
  EXPECT_THAT(ProblemOf(forged), HasSubstr("the header mcp-session-id is one bravebot-mcp's HTTP "
                                           "client sets itself"));
  Declaration twice = http;
  twice.headers.push_back({"authorization", "Bearer sk-2"});
  EXPECT_THAT(ProblemOf(twice), HasSubstr("the header authorization is given twice"));
  Declaration bad_name = http;
  bad_name.headers = {{"Bearer sk-1", "x"}};
  EXPECT_THAT(ProblemOf(bad_name), HasSubstr("a header name is not"));
  EXPECT_THAT(ProblemOf(bad_name), Not(HasSubstr("sk-1")));
  Declaration two_lines = http;
  two_lines.headers = {{"X-Key", "sk-1\r\nHost: x"}};
  EXPECT_THAT(ProblemOf(two_lines), HasSubstr("line break"));
  EXPECT_THAT(ProblemOf(two_lines), Not(HasSubstr("sk-1")));

  Declaration stdio;
  stdio.alias = "ok";
  stdio.program = "npx";
  stdio.headers = {{"X-Key", "1"}};
  EXPECT_THAT(ProblemOf(stdio), HasSubstr("a stdio server is sent no header"));
}

TEST(DeclarationTest, TheOAuthClientOfHandEditedDeclarations) {
  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  http.sign_in = {"app-7", "sk-client-1", {"read", "write"}};
  EXPECT_TRUE(CheckDeclaration(http));
  EXPECT_FALSE(http.sign_in.empty());
  EXPECT_TRUE(SignInClient().empty());

  Declaration scopes_alone = http;
  scopes_alone.sign_in = {"", "", {"read"}};
  EXPECT_TRUE(CheckDeclaration(scopes_alone));

  Declaration no_id = http;
  no_id.sign_in.id.clear();
  EXPECT_THAT(ProblemOf(no_id), HasSubstr("it has a client secret and no client id"));
  EXPECT_THAT(ProblemOf(no_id), Not(HasSubstr("sk-client-1")));
  Declaration spaced_id = http;
  spaced_id.sign_in.id = "app 7";
  EXPECT_THAT(ProblemOf(spaced_id), HasSubstr("its client id is not printable ASCII"));
  Declaration two_lines = http;
  two_lines.sign_in.secret = "sk-client-1\nmore";
  EXPECT_THAT(ProblemOf(two_lines), HasSubstr("the client secret holds a control character"));
  EXPECT_THAT(ProblemOf(two_lines), Not(HasSubstr("sk-client-1")));
  Declaration long_secret = http;
  long_secret.sign_in.secret = std::string(4097, 's');
  EXPECT_THAT(ProblemOf(long_secret), HasSubstr("longer than 4096 bytes"));
  Declaration bad_scope = http;
  bad_scope.sign_in.scopes = {"read", "a\\b"};
  EXPECT_THAT(ProblemOf(bad_scope), HasSubstr("a scope is not printable ASCII"));
  Declaration twice = http;
  twice.sign_in.scopes = {"read", "read"};
  EXPECT_THAT(ProblemOf(twice), HasSubstr("the scope read is given twice"));

  Declaration stdio;
  stdio.alias = "ok";
  stdio.program = "npx";
  stdio.sign_in.scopes = {"read"};
  EXPECT_THAT(ProblemOf(stdio), HasSubstr("a stdio server signs in nowhere"));
}

TEST(DeclarationTest, AMoveLeavesTheHeadersAndTheClientSecretBehind) {
  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  http.headers = {{"Authorization", "Bearer sk-1"}};
  http.sign_in = {.id = "desk", .secret = "s3cret", .scopes = {"read"}};
  Declaration moved = http.MovedTo("https://elsewhere.example/mcp");
  EXPECT_EQ(moved.url, "https://elsewhere.example/mcp");
  EXPECT_TRUE(moved.headers.empty());
  // The next login there may meet another authorization server.
  EXPECT_EQ(moved.sign_in.secret, "");
  EXPECT_EQ(moved.sign_in.id, "desk");
  EXPECT_EQ(moved.alias, "docs");
}

TEST(DeclarationTest, HeaderNamesAreSortedWhateverTheirCase) {
  Declaration http;
  http.headers = {{"x-team", "1"}, {"Authorization", "2"}, {"X-Api-Key", "3"}};
  EXPECT_THAT(http.HeaderNames(), ElementsAre("Authorization", "X-Api-Key", "x-team"));
}

TEST(DeclarationTest, TheValueGivenToAServerIsTheStoredOneElseTheNamedOne) {
  Declaration declaration;
  declaration.stored_variables = {{"PATH", "/opt/tool/bin"}};
  declaration.passed_variables = {"TOKEN"};
  auto getenv = [](const char* name) -> const char* {
    return std::string_view(name) == "PATH"    ? "/usr/bin"
           : std::string_view(name) == "TOKEN" ? "t"
                                               : nullptr;
  };
  EXPECT_EQ(ValueGivenToServer(declaration, "PATH", getenv), "/opt/tool/bin");
  EXPECT_EQ(ValueGivenToServer(declaration, "TOKEN", getenv), "t");
  // A variable it does not name is not given, whatever the environment holds.
  declaration.stored_variables.clear();
  EXPECT_EQ(ValueGivenToServer(declaration, "PATH", getenv), std::nullopt);
}

}  // namespace
}  // namespace bravebot
