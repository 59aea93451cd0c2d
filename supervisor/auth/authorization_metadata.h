// Discovery, as MCP's authorization specification (2025-11-25) orders it:
// where a service's protected resource metadata is (RFC 9728) and where its
// authorization server's metadata is (RFC 8414, or OpenID Connect
// Discovery), and what each document must hold before signing in goes on.
// Pure: the documents' texts in, checked values out; fetching them is the
// caller's.
//
//   for (const ResourceMetadataUrl& at : *ResourceMetadataUrls(declared,
//   challenge->resource_metadata))
//     if (auto body = Fetch(at.url)) return ParseProtectedResourceMetadata(*body, declared, at);
//   for (const std::string& at :
//   *AuthorizationServerMetadataUrls(resource->authorization_servers[0]))
//     if (auto body = Fetch(at)) return ParseAuthorizationServerMetadata(*body, issuer);
#ifndef BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_METADATA_H_
#define BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_METADATA_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace bravebot {

// How a protected resource metadata url was come by, which decides what its
// document's `resource` must be.
enum class ResourceMetadataSource {
  kNamedByChallenge,  // the 401's resource_metadata
  kPathInserted,      // /.well-known/oauth-protected-resource + the service's path
  kRoot,              // /.well-known/oauth-protected-resource at the service's origin
};

struct ResourceMetadataUrl {
  std::string url;
  ResourceMetadataSource source;
};

// The urls to try, in order, for the protected resource metadata of the
// service at `service_url` (the declared url): the one the 401 named where it
// named one, else the well-known url with the service's path inserted (where
// it has a path), then the one at the root. kRefused where `service_url` is
// no url, or the named one is not https (or http to the machine itself).
Result<std::vector<ResourceMetadataUrl>> ResourceMetadataUrls(
    std::string_view service_url, const std::optional<std::string>& named_by_challenge);

// The urls to try, in order, for the metadata of the authorization server
// whose issuer is `issuer`. With a path (https://a.example/tenant1):
// RFC 8414's with the path inserted, OpenID's with it inserted, OpenID's with
// it appended; without one: RFC 8414's, then OpenID's. kRefused where the
// issuer is not https (or http to the machine itself), or has a query or a
// fragment (RFC 8414 section 2).
Result<std::vector<std::string>> AuthorizationServerMetadataUrls(std::string_view issuer);

struct ProtectedResourceMetadata {
  std::string resource;
  std::vector<std::string> authorization_servers;  // issuers, at least one
  std::optional<std::vector<std::string>> scopes_supported;
};

// Reads a protected resource metadata document fetched from `from`. Its
// `resource` must name the service at `service_url` (RFC 9728 sections 3.3
// and 5.2: the url the document was found from names the resource; a
// trailing '/' aside); where `from` is the root's well-known url, the
// service's origin alone is also its resource. It must name at least one
// authorization server (MCP's specification). kRefused, saying which, for
// any other document.
Result<ProtectedResourceMetadata> ParseProtectedResourceMetadata(std::string_view body,
                                                                 std::string_view service_url,
                                                                 const ResourceMetadataUrl& from);

struct AuthorizationServerMetadata {
  std::string issuer;
  std::string authorization_endpoint;
  std::string token_endpoint;
  std::optional<std::string> registration_endpoint;           // RFC 7591, where offered
  std::vector<std::string> code_challenge_methods_supported;  // holds "S256"
  bool client_id_metadata_document_supported = false;
  // As given, or RFC 8414's default where absent: authorization_code, implicit.
  std::vector<std::string> grant_types_supported;
  // How a client may prove itself at the token endpoint, as given; nothing
  // where absent (RFC 8414: client_secret_basic then).
  std::optional<std::vector<std::string>> token_endpoint_auth_methods_supported;

  bool SupportsGrant(std::string_view grant) const;
};

// Reads an authorization server's metadata. Its `issuer` must be `issuer`,
// the one asked for, exactly (RFC 8414 section 3.3); its authorization and
// token endpoints must be there, and each endpoint https (or http to the
// machine itself); and it must offer PKCE's S256, without which MCP's
// specification says signing in must not go on. kRefused, saying which.
Result<AuthorizationServerMetadata> ParseAuthorizationServerMetadata(std::string_view body,
                                                                     std::string_view issuer);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_METADATA_H_
