#include "confine/digest.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;

Declaration Weather() {
  Declaration weather;
  weather.alias = "weather";
  weather.program = "npx";
  weather.arguments = {"-y", "@dangahagan/weather-mcp@latest"};
  weather.passed_variables = {"PATH"};
  return weather;
}

TEST(DigestTest, IsSixtyFourHexDigitsAndShortIsEight) {
  DeclarationDigest digest = ComputeDigest(Weather());
  EXPECT_EQ(digest.hex.size(), 64u);
  EXPECT_EQ(digest.hex.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(digest.Short(), digest.hex.substr(0, 8));
}

// The encoding is a promise: changing it withdraws every approval on every
// machine. This pins it; the value was computed apart from this code, from
// the encoding docs/files.md gives.
TEST(DigestTest, EncodingIsStable) {
  EXPECT_EQ(ComputeDigest(Weather()).hex,
            "21307ff7913323d1c2022c577ac8def56ff1009c313cb230c477be8c41ce1e8b");
}

TEST(DigestTest, AliasIsNotPartOfIt) {
  Declaration renamed = Weather();
  renamed.alias = "forecast";
  EXPECT_EQ(ComputeDigest(renamed).hex, ComputeDigest(Weather()).hex);
}

TEST(DigestTest, StoredValuesAreNotPartOfItButTheirNamesAre) {
  Declaration first = Weather();
  first.stored_variables = {{"TOKEN", "one"}};
  Declaration second = Weather();
  second.stored_variables = {{"TOKEN", "two"}};
  EXPECT_EQ(ComputeDigest(first).hex, ComputeDigest(second).hex);
  Declaration other_name = Weather();
  other_name.stored_variables = {{"KEY", "one"}};
  EXPECT_NE(ComputeDigest(first).hex, ComputeDigest(other_name).hex);
}

// A known cost, documented in docs/add.md ("The alias"): a stored PATH is a
// value, so two declarations that find their program in different places
// share one approval. Change the page with this test.
TEST(DigestTest, AStoredPathIsAValueSoTwoPathsShareOneDigest) {
  Declaration one = Weather();
  one.passed_variables.clear();
  one.stored_variables = {{"PATH", "/usr/bin"}};
  Declaration other = one;
  other.stored_variables = {{"PATH", "/tmp/elsewhere/bin"}};
  EXPECT_EQ(ComputeDigest(one).hex, ComputeDigest(other).hex);
}

TEST(DigestTest, VariableOrderDoesNotMatterAndStoredOrPassedAlike) {
  Declaration first = Weather();
  first.passed_variables = {"PATH", "HOME"};
  Declaration second = Weather();
  second.passed_variables = {"HOME"};
  second.stored_variables = {{"PATH", "/usr/bin"}};
  EXPECT_EQ(ComputeDigest(first).hex, ComputeDigest(second).hex);
}

TEST(DigestTest, EachFieldChangesItsOwnDigest) {
  const DeclarationDigest base = ComputeDigest(Weather());
  Declaration pinned = Weather();
  pinned.arguments[1] = "@dangahagan/weather-mcp@1.4.0";
  DeclarationDigest changed = ComputeDigest(pinned);
  EXPECT_NE(changed.hex, base.hex);
  EXPECT_THAT(ChangedFields(base.fields, changed.fields), ElementsAre("argv"));

  Declaration moved = Weather();
  moved.directory = "/srv/weather";
  moved.passed_variables.push_back("TOKEN");
  EXPECT_THAT(ChangedFields(base.fields, ComputeDigest(moved).fields),
              ElementsAre("variables", "directory"));

  Declaration other_program = Weather();
  other_program.program = "bunx";
  EXPECT_THAT(ChangedFields(base.fields, ComputeDigest(other_program).fields),
              ElementsAre("program"));

  Declaration http;
  http.alias = "weather";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  EXPECT_THAT(ChangedFields(base.fields, ComputeDigest(http).fields),
              ElementsAre("transport", "program", "argv", "url", "variables"));
}

// Headers came later: a service without any keeps the digest it had, so
// no approval made before is withdrawn. Their names count, whatever their
// case or order; their values never.
TEST(DigestTest, HeaderNamesCountAndTheirValuesDoNot) {
  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  const DeclarationDigest bare = ComputeDigest(http);
  EXPECT_EQ(bare.fields.count("headers"), 0u);

  Declaration token = http;
  token.headers = {{"Authorization", "Bearer one"}, {"X-Team", "a"}};
  Declaration other_token = http;
  other_token.headers = {{"x-team", "b"}, {"authorization", "Bearer two"}};
  EXPECT_EQ(ComputeDigest(token).hex, ComputeDigest(other_token).hex);
  EXPECT_NE(ComputeDigest(token).hex, bare.hex);
  EXPECT_THAT(ChangedFields(bare.fields, ComputeDigest(token).fields), ElementsAre("headers"));
  EXPECT_THAT(ChangedFields(ComputeDigest(token).fields, bare.fields), ElementsAre("headers"));
  EXPECT_TRUE(ChangedFields(bare.fields, ComputeDigest(http).fields).empty());

  Declaration other_name = http;
  other_name.headers = {{"X-Api-Key", "Bearer one"}, {"X-Team", "a"}};
  EXPECT_THAT(ChangedFields(ComputeDigest(token).fields, ComputeDigest(other_name).fields),
              ElementsAre("headers"));
}

// The OAuth client came later still: a service declared without one keeps
// the digest it had, with or without headers. These values were computed apart
// from this code, by the Python program docs/files.md gives.
TEST(DigestTest, AServiceWithoutAnOAuthClientKeepsItsDigest) {
  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  EXPECT_EQ(ComputeDigest(http).hex,
            "a426e488118476d9f8572ab0cf506e947d360f579989816a31adff8b63ddda9d");
  EXPECT_EQ(ComputeDigest(http).fields.count("oauth"), 0u);
  http.headers = {{"Authorization", "x"}};
  EXPECT_EQ(ComputeDigest(http).hex,
            "981dc8a53a4ee7351d6b85f964e1e0d302f6beab001055538eda3f2767c936ee");

  Declaration client = http;
  client.headers.clear();
  client.sign_in = {"app-7", "x", {"write", "read"}};
  EXPECT_EQ(ComputeDigest(client).hex,
            "7623628e2ef8e891ae89dcbf9827afb48a9282b940c84d5483f73916f83d87cc");
}

// The client id, whether there is a secret and the scopes (in no order)
// count; the secret's value never does, as a stored value's does not.
TEST(DigestTest, TheOAuthClientCountsButNotItsSecret) {
  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  const DeclarationDigest bare = ComputeDigest(http);

  Declaration client = http;
  client.sign_in = {"app-7", "secret-one", {"read", "write"}};
  Declaration other_secret = http;
  other_secret.sign_in = {"app-7", "secret-two", {"write", "read"}};
  EXPECT_EQ(ComputeDigest(client).hex, ComputeDigest(other_secret).hex);
  EXPECT_THAT(ChangedFields(bare.fields, ComputeDigest(client).fields), ElementsAre("oauth"));
  EXPECT_THAT(ChangedFields(ComputeDigest(client).fields, bare.fields), ElementsAre("oauth"));

  Declaration no_secret = client;
  no_secret.sign_in.secret.clear();
  Declaration other_id = client;
  other_id.sign_in.id = "app-8";
  Declaration fewer_scopes = client;
  fewer_scopes.sign_in.scopes = {"read"};
  Declaration scopes_only = http;
  scopes_only.sign_in.scopes = {"read"};
  for (const Declaration* changed : {&no_secret, &other_id, &fewer_scopes, &scopes_only}) {
    EXPECT_THAT(ChangedFields(ComputeDigest(client).fields, ComputeDigest(*changed).fields),
                ElementsAre("oauth"));
  }

  // After the headers, as kFieldOrder lists them.
  Declaration both = client;
  both.headers = {{"X-Team", "a"}};
  EXPECT_THAT(ChangedFields(bare.fields, ComputeDigest(both).fields),
              ElementsAre("headers", "oauth"));
}

TEST(DigestTest, ArgumentBoundariesCount) {
  Declaration joined = Weather();
  joined.arguments = {"-y x"};
  Declaration split = Weather();
  split.arguments = {"-y", "x"};
  Declaration moved_to_program = Weather();
  moved_to_program.program = "npx -y";
  moved_to_program.arguments = {"x"};
  EXPECT_NE(ComputeDigest(joined).hex, ComputeDigest(split).hex);
  EXPECT_NE(ComputeDigest(split).hex, ComputeDigest(moved_to_program).hex);
}

TEST(DigestTest, MissingFieldCountsAsChanged) {
  const DeclarationDigest base = ComputeDigest(Weather());
  auto partial = base.fields;
  partial.erase("url");
  EXPECT_THAT(ChangedFields(partial, base.fields), ElementsAre("url"));
}

}  // namespace
}  // namespace bravebot
