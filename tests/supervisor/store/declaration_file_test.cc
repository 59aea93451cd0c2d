#include "supervisor/store/declaration_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "supervisor/store/declaration_json.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Result<DeclarationFile> Read(const std::string& text) {
  BRAVEBOT_ASSIGN_OR_RETURN(nlohmann::json document, ParseDeclarationDocument(text, "/p/mcp.json"));
  return ReadDeclarations(document);
}

TEST(DeclarationFileTest, ReadsDeclarationsSortedByAlias) {
  auto file = Read(R"({"version": 1, "servers": {
      "weather": {"transport": "stdio", "program": "npx", "args": ["-y", "w"],
                  "env": {"TOKEN": "sk"}, "pass_env": ["PATH"], "dir": "/srv/w",
                  "may_read": ["/k/key"]},
      "docs": {"transport": "http", "url": "https://mcp.example.com/mcp"}}})");
  ASSERT_TRUE(file.ok()) << file.error().message();
  ASSERT_EQ(file->declarations.size(), 2u);
  EXPECT_EQ(file->declarations[0].alias, "docs");
  const Declaration* weather = file->Find("weather");
  ASSERT_NE(weather, nullptr);
  EXPECT_THAT(weather->arguments, ElementsAre("-y", "w"));
  EXPECT_THAT(weather->stored_variables, ElementsAre(StoredVariable{"TOKEN", "sk"}));
  EXPECT_EQ(weather->directory, "/srv/w");
  EXPECT_THAT(weather->may_read, ElementsAre("/k/key"));
  EXPECT_TRUE(file->unusable.empty());
}

TEST(DeclarationFileTest, RoundTripsThroughJson) {
  Declaration declaration;
  declaration.alias = "weather";
  declaration.program = "/usr/bin/server";
  declaration.arguments = {"a b", "--flag=1", ""};
  declaration.stored_variables = {{"A", "x=y"}};
  declaration.passed_variables = {"PATH"};
  declaration.directory = "/srv";
  declaration.may_read = {"/etc/key"};
  Result<Declaration> back = DeclarationFromJson("weather", DeclarationToJson(declaration));
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, declaration);
}

TEST(DeclarationFileTest, AServicesHeadersRoundTripAndAreWrittenOnlyWhereItHasAny) {
  Declaration docs;
  docs.alias = "docs";
  docs.transport = Transport::kHttp;
  docs.url = "https://mcp.example.com/mcp";
  // A file from before headers could be declared reads as it did, and is
  // written as it was.
  EXPECT_EQ(DeclarationToJson(docs).dump(),
            R"({"transport":"http","url":"https://mcp.example.com/mcp"})");
  docs.headers = {{"Authorization", "Bearer sk-1"}, {"X-Team", "a=b"}};
  nlohmann::json entry = DeclarationToJson(docs);
  EXPECT_EQ(entry["headers"]["Authorization"], "Bearer sk-1");
  Result<Declaration> back = DeclarationFromJson("docs", entry);
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, docs);

  auto file = Read(R"({"version": 1, "servers": {
      "listed": {"transport": "http", "url": "https://a.example/", "headers": ["x"]},
      "number": {"transport": "http", "url": "https://a.example/", "headers": {"X-Key": 12345}},
      "forged": {"transport": "http", "url": "https://a.example/", "headers": {"Host": "b"}},
      "program": {"transport": "stdio", "program": "npx", "headers": {"X-Key": "sk-2"}}}})");
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file->declarations.empty());
  EXPECT_THAT(file->FindUnusable("listed")->problem, HasSubstr("headers is not an object"));
  EXPECT_THAT(file->FindUnusable("number")->problem, HasSubstr("value in headers is not a string"));
  EXPECT_THAT(file->FindUnusable("number")->problem, Not(HasSubstr("12345")));
  EXPECT_THAT(file->FindUnusable("forged")->problem, HasSubstr("the header Host is one"));
  EXPECT_THAT(file->FindUnusable("program")->problem, HasSubstr("sent no header"));
  EXPECT_THAT(file->FindUnusable("program")->problem, Not(HasSubstr("sk-2")));
}

TEST(DeclarationFileTest, AServicesOAuthClientRoundTripsAndIsWrittenOnlyWhereItHasOne) {
  Declaration docs;
  docs.alias = "docs";
  docs.transport = Transport::kHttp;
  docs.url = "https://mcp.example.com/mcp";
  docs.sign_in = {"app-7", "sk-client-1", {"read", "write"}};
  nlohmann::json entry = DeclarationToJson(docs);
  EXPECT_EQ(entry["oauth"].dump(),
            R"({"client_id":"app-7","client_secret":"sk-client-1","scopes":["read","write"]})");
  Result<Declaration> back = DeclarationFromJson("docs", entry);
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, docs);

  // Without a secret or scopes, those members are left out.
  docs.sign_in = {"app-7", "", {}};
  EXPECT_EQ(DeclarationToJson(docs)["oauth"].dump(), R"({"client_id":"app-7"})");
  docs.sign_in = {"", "", {"read"}};
  EXPECT_EQ(DeclarationToJson(docs)["oauth"].dump(), R"({"scopes":["read"]})");
  back = DeclarationFromJson("docs", DeclarationToJson(docs));
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, docs);
  docs.sign_in = {};
  EXPECT_FALSE(DeclarationToJson(docs).contains("oauth"));

  auto file = Read(R"({"version": 1, "servers": {
      "listed": {"transport": "http", "url": "https://a.example/", "oauth": ["x"]},
      "extra": {"transport": "http", "url": "https://a.example/", "oauth": {"client": "a"}},
      "number": {"transport": "http", "url": "https://a.example/",
                 "oauth": {"client_id": "a", "client_secret": 12345}},
      "empty_id": {"transport": "http", "url": "https://a.example/", "oauth": {"client_id": ""}},
      "lines": {"transport": "http", "url": "https://a.example/",
                "oauth": {"client_id": "a", "client_secret": "sk-3\nx"}},
      "no_id": {"transport": "http", "url": "https://a.example/",
                "oauth": {"client_secret": "sk-4"}},
      "scope": {"transport": "http", "url": "https://a.example/",
                "oauth": {"scopes": ["read write"]}},
      "program": {"transport": "stdio", "program": "npx", "oauth": {"client_id": "a"}}}})");
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file->declarations.empty());
  EXPECT_THAT(file->FindUnusable("listed")->problem, HasSubstr("oauth is not an object"));
  EXPECT_THAT(file->FindUnusable("extra")->problem, HasSubstr("oauth has a key it does not have"));
  EXPECT_THAT(file->FindUnusable("number")->problem,
              HasSubstr("oauth client_secret is not a string"));
  EXPECT_THAT(file->FindUnusable("number")->problem, Not(HasSubstr("12345")));
  EXPECT_THAT(file->FindUnusable("empty_id")->problem, HasSubstr("its oauth client_id is not"));
  EXPECT_THAT(file->FindUnusable("lines")->problem, HasSubstr("holds a control character"));
  EXPECT_THAT(file->FindUnusable("lines")->problem, Not(HasSubstr("sk-3")));
  EXPECT_THAT(file->FindUnusable("no_id")->problem, HasSubstr("a client secret and no client id"));
  EXPECT_THAT(file->FindUnusable("no_id")->problem, Not(HasSubstr("sk-4")));
  EXPECT_THAT(file->FindUnusable("scope")->problem, HasSubstr("a scope is not printable ASCII"));
  EXPECT_THAT(file->FindUnusable("program")->problem, HasSubstr("a stdio server signs in"));
}

TEST(DeclarationFileTest, HandEditedEntriesAreUnusableNotFatal) {
  auto file = Read(R"({"version": 1, "servers": {
      "good": {"transport": "stdio", "program": "npx"},
      "noprogram": {"transport": "stdio"},
      "badtype": {"transport": "stdio", "program": "npx", "args": "-y"},
      "typo": {"transport": "stdio", "program": "npx", "arg": ["-y"]},
      "ftp": {"transport": "http", "url": "ftp://x/"},
      "bad alias": {"transport": "stdio", "program": "npx"},
      "secret": {"transport": "stdio", "program": "npx", "env": {"K": 12345}},
      "weird": {"transport": "pigeon"},
      "array": []}})");
  ASSERT_TRUE(file.ok());
  ASSERT_EQ(file->declarations.size(), 1u);
  EXPECT_EQ(file->declarations[0].alias, "good");
  ASSERT_EQ(file->unusable.size(), 8u);
  EXPECT_THAT(file->FindUnusable("noprogram")->problem, HasSubstr("names no program"));
  EXPECT_THAT(file->FindUnusable("badtype")->problem, HasSubstr("args is not a list"));
  EXPECT_THAT(file->FindUnusable("typo")->problem, HasSubstr("a key a declaration does not have"));
  EXPECT_THAT(file->FindUnusable("ftp")->problem, HasSubstr("not an http or https url"));
  EXPECT_THAT(file->FindUnusable("bad alias")->problem, HasSubstr("alias"));
  EXPECT_THAT(file->FindUnusable("secret")->problem, Not(HasSubstr("12345")));
  EXPECT_THAT(file->FindUnusable("weird")->problem, HasSubstr("transport"));
  EXPECT_THAT(file->FindUnusable("array")->problem, HasSubstr("not a JSON object"));
}

TEST(DeclarationFileTest, TextThatIsNotJsonNamesLineAndColumnAndQuotesNothing) {
  auto file = Read(
      "{\"version\": 1,\n  \"servers\": {\"w\": {\"env\": {\"K\": \"sk-secret\"}}\n"
      "  oops }\n");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(file.error().message(), HasSubstr("/p/mcp.json is not JSON"));
  EXPECT_THAT(file.error().message(), HasSubstr("line 3, column 3"));
  EXPECT_THAT(file.error().message(), Not(HasSubstr("sk-secret")));
  EXPECT_THAT(file.error().message(), HasSubstr("left as it is"));
}

TEST(DeclarationFileTest, TextNestedDeeperThan128LevelsIsRefusedNotCopied) {
  // The entry's args nest 129 levels with the document and the servers around them.
  const std::string args = std::string(126, '[') + std::string(126, ']');
  auto file = Read(R"({"version": 1, "servers": {"w": {"program": "npx", "args": )" + args + "}}}");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(file.error().message(),
            "/p/mcp.json is nested deeper than 128 levels, which no file of bravebot-mcp needs. "
            "It was left as it is: mend it by hand, or move it away to start again");
  // One level less is read, and the entry is merely unusable.
  const std::string fewer = std::string(125, '[') + std::string(125, ']');
  EXPECT_TRUE(
      Read(R"({"version": 1, "servers": {"w": {"program": "npx", "args": )" + fewer + "}}}").ok());
}

TEST(DeclarationFileTest, DocumentShapeIsChecked) {
  EXPECT_THAT(Read("[]").error().message(), HasSubstr("not a JSON object"));
  EXPECT_THAT(Read("{}").error().message(), HasSubstr("no format version"));
  EXPECT_THAT(Read(R"({"version": "1", "servers": {}})").error().message(),
              HasSubstr("no format version"));
  EXPECT_THAT(Read(R"({"version": 2, "servers": {}})").error().message(),
              HasSubstr("format version 2"));
  EXPECT_THAT(Read(R"({"version": 1})").error().message(), HasSubstr("no \"servers\" object"));
  EXPECT_THAT(Read("").error().message(), HasSubstr("is not JSON"));
  EXPECT_THAT(Read(R"({"version": 1e999, "servers": {}})").error().message(),
              HasSubstr("out of range"));
  EXPECT_TRUE(Read(R"({"version": 1, "servers": {}})").ok());
}

}  // namespace
}  // namespace bravebot
