#include "supervisor/auth/authorization_metadata.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Urls(const std::vector<ResourceMetadataUrl>& urls) {
  std::vector<std::string> plain;
  plain.reserve(urls.size());
  for (const ResourceMetadataUrl& url : urls) plain.push_back(url.url);
  return plain;
}

TEST(AuthorizationMetadataTest, ResourceMetadataPathInsertedThenAtTheRoot) {
  auto urls = ResourceMetadataUrls("https://Example.com:443/public/mcp", std::nullopt);
  ASSERT_TRUE(urls.ok()) << urls.error().message();
  EXPECT_THAT(Urls(*urls),
              ElementsAre("https://example.com/.well-known/oauth-protected-resource/public/mcp",
                          "https://example.com/.well-known/oauth-protected-resource"));
  EXPECT_EQ((*urls)[0].source, ResourceMetadataSource::kPathInserted);
  EXPECT_EQ((*urls)[1].source, ResourceMetadataSource::kRoot);
}

TEST(AuthorizationMetadataTest, AServiceAtTheRootHasOnlyTheRootUrl) {
  for (const char* service : {"https://example.com", "https://example.com/"}) {
    auto urls = ResourceMetadataUrls(service, std::nullopt);
    ASSERT_TRUE(urls.ok());
    EXPECT_THAT(Urls(*urls),
                ElementsAre("https://example.com/.well-known/oauth-protected-resource"))
        << service;
  }
}

TEST(AuthorizationMetadataTest, TheUrlTheChallengeNamesIsTheOnlyOne) {
  auto urls = ResourceMetadataUrls("https://example.com/mcp",
                                   "https://example.com/.well-known/oauth-protected-resource/mcp");
  ASSERT_TRUE(urls.ok());
  ASSERT_EQ(urls->size(), 1u);
  EXPECT_EQ((*urls)[0].source, ResourceMetadataSource::kNamedByChallenge);
  // Plain http is refused, except to the machine itself.
  EXPECT_FALSE(ResourceMetadataUrls("https://example.com/mcp", "http://example.com/x").ok());
  EXPECT_TRUE(ResourceMetadataUrls("http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/x").ok());
  EXPECT_FALSE(ResourceMetadataUrls("http://example.com/mcp", std::nullopt).ok());
}

TEST(AuthorizationMetadataTest, AuthorizationServerUrlsInTheSpecsOrder) {
  auto with_path = AuthorizationServerMetadataUrls("https://auth.example.com/tenant1");
  ASSERT_TRUE(with_path.ok()) << with_path.error().message();
  EXPECT_THAT(*with_path,
              ElementsAre("https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                          "https://auth.example.com/.well-known/openid-configuration/tenant1",
                          "https://auth.example.com/tenant1/.well-known/openid-configuration"));
  for (const char* issuer : {"https://auth.example.com", "https://auth.example.com/"}) {
    auto without = AuthorizationServerMetadataUrls(issuer);
    ASSERT_TRUE(without.ok());
    EXPECT_THAT(*without,
                ElementsAre("https://auth.example.com/.well-known/oauth-authorization-server",
                            "https://auth.example.com/.well-known/openid-configuration"));
  }
}

TEST(AuthorizationMetadataTest, AnIssuerWithAQueryOrFragmentOrPlainHttpIsRefused) {
  EXPECT_FALSE(AuthorizationServerMetadataUrls("https://auth.example.com/?a=b").ok());
  EXPECT_FALSE(AuthorizationServerMetadataUrls("https://auth.example.com/#f").ok());
  EXPECT_FALSE(AuthorizationServerMetadataUrls("http://auth.example.com").ok());
  EXPECT_FALSE(AuthorizationServerMetadataUrls("auth.example.com").ok());
  EXPECT_TRUE(AuthorizationServerMetadataUrls("http://localhost:9000").ok());
}

const ResourceMetadataUrl kInserted{"https://example.com/.well-known/oauth-protected-resource/mcp",
                                    ResourceMetadataSource::kPathInserted};
const ResourceMetadataUrl kRoot{"https://example.com/.well-known/oauth-protected-resource",
                                ResourceMetadataSource::kRoot};

TEST(AuthorizationMetadataTest, ReadsProtectedResourceMetadata) {
  auto metadata = ParseProtectedResourceMetadata(
      R"({"resource": "https://example.com/mcp",
          "authorization_servers": ["https://auth.example.com/tenant1"],
          "scopes_supported": ["files:read", "files:write"],
          "bearer_methods_supported": ["header"]})",
      "https://EXAMPLE.com/mcp", kInserted);
  ASSERT_TRUE(metadata.ok()) << metadata.error().message();
  EXPECT_EQ(metadata->resource, "https://example.com/mcp");
  EXPECT_THAT(metadata->authorization_servers, ElementsAre("https://auth.example.com/tenant1"));
  ASSERT_TRUE(metadata->scopes_supported.has_value());
  EXPECT_THAT(*metadata->scopes_supported, ElementsAre("files:read", "files:write"));
}

// Review 26, second round: the scopes offered are asked for and kept whole
// where the person named none, so a service does not choose their size.
TEST(AuthorizationMetadataTest, ScopesOfMoreThanSixteenKiBInAllAreRefused) {
  auto with_scopes = [](std::size_t count) {
    std::string scopes;
    for (std::size_t i = 0; i < count; ++i) {
      scopes += (i == 0 ? "\"" : ",\"") + std::string(1023, 's') + "\"";
    }
    return ParseProtectedResourceMetadata(
        R"({"resource": "https://example.com/mcp",
            "authorization_servers": ["https://auth.example.com"],
            "scopes_supported": [)" +
            scopes + "]}",
        "https://example.com/mcp", kInserted);
  };
  EXPECT_TRUE(with_scopes(16).ok());
  auto refused = with_scopes(17);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message(), HasSubstr("scopes_supported of more than 16 KiB in all"));
}

TEST(AuthorizationMetadataTest, TheResourceMustBeTheDeclaredUrl) {
  const std::string other = R"({"resource": "https://other.example/mcp",
                                "authorization_servers": ["https://auth.example.com"]})";
  auto refused = ParseProtectedResourceMetadata(other, "https://example.com/mcp", kInserted);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message(), HasSubstr("names a resource other than the declared url"));
  // Another path of the same origin is another resource.
  EXPECT_FALSE(ParseProtectedResourceMetadata(
                   R"({"resource": "https://example.com/admin",
                       "authorization_servers": ["https://auth.example.com"]})",
                   "https://example.com/mcp", kInserted)
                   .ok());
  // A trailing '/' aside.
  EXPECT_TRUE(ParseProtectedResourceMetadata(
                  R"({"resource": "https://example.com/mcp/",
                      "authorization_servers": ["https://auth.example.com"]})",
                  "https://example.com/mcp", kInserted)
                  .ok());
}

TEST(AuthorizationMetadataTest, AtTheRootTheOriginIsAlsoTheResource) {
  const std::string origin = R"({"resource": "https://example.com",
                                 "authorization_servers": ["https://auth.example.com"]})";
  EXPECT_TRUE(ParseProtectedResourceMetadata(origin, "https://example.com/mcp", kRoot).ok());
  EXPECT_FALSE(ParseProtectedResourceMetadata(origin, "https://example.com/mcp", kInserted).ok());
  const ResourceMetadataUrl named{"https://example.com/meta",
                                  ResourceMetadataSource::kNamedByChallenge};
  EXPECT_FALSE(ParseProtectedResourceMetadata(origin, "https://example.com/mcp", named).ok());
}

TEST(AuthorizationMetadataTest, RefusesAProtectedResourceMetadataDocumentMissingWhatItNeeds) {
  for (const char* body : {
           "not json",
           "[]",
           R"({"authorization_servers": ["https://auth.example.com"]})",
           R"({"resource": 7, "authorization_servers": ["https://auth.example.com"]})",
           R"({"resource": "https://example.com/mcp"})",
           R"({"resource": "https://example.com/mcp", "authorization_servers": []})",
           R"({"resource": "https://example.com/mcp", "authorization_servers": [1]})",
           R"({"resource": "https://example.com/mcp", "authorization_servers": ["https://a"],
               "scopes_supported": "files:read"})",
       }) {
    EXPECT_FALSE(ParseProtectedResourceMetadata(body, "https://example.com/mcp", kInserted).ok())
        << body;
  }
}

std::string ServerMetadata(const std::string& extra = "") {
  return R"({"issuer": "https://auth.example.com/tenant1",
             "authorization_endpoint": "https://auth.example.com/tenant1/authorize",
             "token_endpoint": "https://auth.example.com/tenant1/token",
             "registration_endpoint": "https://auth.example.com/tenant1/register",
             "response_types_supported": ["code"])" +
         extra + "}";
}

TEST(AuthorizationMetadataTest, ReadsAuthorizationServerMetadata) {
  auto metadata = ParseAuthorizationServerMetadata(
      ServerMetadata(R"(, "code_challenge_methods_supported": ["plain", "S256"],
                        "client_id_metadata_document_supported": true,
                        "grant_types_supported": ["authorization_code", "refresh_token"])"),
      "https://auth.example.com/tenant1");
  ASSERT_TRUE(metadata.ok()) << metadata.error().message();
  EXPECT_EQ(metadata->authorization_endpoint, "https://auth.example.com/tenant1/authorize");
  EXPECT_EQ(metadata->token_endpoint, "https://auth.example.com/tenant1/token");
  EXPECT_EQ(metadata->registration_endpoint, "https://auth.example.com/tenant1/register");
  EXPECT_TRUE(metadata->client_id_metadata_document_supported);
  EXPECT_TRUE(metadata->SupportsGrant("refresh_token"));
  EXPECT_FALSE(metadata->SupportsGrant("implicit"));
}

TEST(AuthorizationMetadataTest, GrantTypesDefaultAsRfc8414Says) {
  auto metadata = ParseAuthorizationServerMetadata(
      ServerMetadata(R"(, "code_challenge_methods_supported": ["S256"])"),
      "https://auth.example.com/tenant1");
  ASSERT_TRUE(metadata.ok()) << metadata.error().message();
  EXPECT_THAT(metadata->grant_types_supported, ElementsAre("authorization_code", "implicit"));
  EXPECT_FALSE(metadata->client_id_metadata_document_supported);
}

TEST(AuthorizationMetadataTest, RefusesSigningInWithoutS256) {
  for (const std::string& extra :
       {std::string(), std::string(R"(, "code_challenge_methods_supported": ["plain"])"),
        std::string(R"(, "code_challenge_methods_supported": [])")}) {
    auto metadata =
        ParseAuthorizationServerMetadata(ServerMetadata(extra), "https://auth.example.com/tenant1");
    ASSERT_FALSE(metadata.ok()) << extra;
    EXPECT_THAT(metadata.error().message(), HasSubstr("does not offer PKCE with S256"));
  }
}

TEST(AuthorizationMetadataTest, TheIssuerMustBeTheOneAskedFor) {
  auto metadata = ParseAuthorizationServerMetadata(
      ServerMetadata(R"(, "code_challenge_methods_supported": ["S256"])"),
      "https://auth.example.com/tenant2");
  ASSERT_FALSE(metadata.ok());
  EXPECT_THAT(metadata.error().message(), HasSubstr("names another issuer"));
}

TEST(AuthorizationMetadataTest, EndpointsMustBeHttpsOrOnTheMachineItself) {
  const std::string plain =
      R"({"issuer": "https://auth.example.com",
          "authorization_endpoint": "http://auth.example.com/authorize",
          "token_endpoint": "https://auth.example.com/token",
          "code_challenge_methods_supported": ["S256"]})";
  auto refused = ParseAuthorizationServerMetadata(plain, "https://auth.example.com");
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message(), HasSubstr("authorization endpoint is plain http"));
  const std::string loopback =
      R"({"issuer": "http://127.0.0.1:9000",
          "authorization_endpoint": "http://127.0.0.1:9000/authorize",
          "token_endpoint": "http://localhost:9000/token",
          "code_challenge_methods_supported": ["S256"]})";
  EXPECT_TRUE(ParseAuthorizationServerMetadata(loopback, "http://127.0.0.1:9000").ok());
  const std::string no_token =
      R"({"issuer": "https://auth.example.com",
          "authorization_endpoint": "https://auth.example.com/authorize",
          "code_challenge_methods_supported": ["S256"]})";
  EXPECT_FALSE(ParseAuthorizationServerMetadata(no_token, "https://auth.example.com").ok());
}

}  // namespace
}  // namespace bravebot
