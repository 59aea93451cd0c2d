#include "supervisor/auth/authorization_metadata.h"

#include <algorithm>

#include "supervisor/auth/oauth_document.h"
#include "supervisor/auth/oauth_url.h"

namespace bravebot {
namespace {

constexpr char kResourceSuffix[] = "/.well-known/oauth-protected-resource";
constexpr char kOAuthServerSuffix[] = "/.well-known/oauth-authorization-server";
constexpr char kOpenIdSuffix[] = "/.well-known/openid-configuration";

// The path a well-known suffix is inserted before: RFC 9728 section 3.1 and
// RFC 8414 section 3.1 drop a '/' that is all there is after the host.
std::string InsertedPath(const OAuthUrl& url) { return url.path == "/" ? "" : url.path; }

Status CheckEndpoint(const std::optional<std::string>& endpoint, const std::string& what) {
  if (!endpoint) return {};
  Result<OAuthUrl> read = ReadSecureOAuthUrl(*endpoint, "the authorization server's " + what);
  if (!read) return read.error();
  return {};
}

}  // namespace

Result<std::vector<ResourceMetadataUrl>> ResourceMetadataUrls(
    std::string_view service_url, const std::optional<std::string>& named_by_challenge) {
  if (named_by_challenge) {
    BRAVEBOT_RETURN_IF_ERROR(ReadSecureOAuthUrl(
        *named_by_challenge, "the protected resource metadata url the service names"));
    return std::vector<ResourceMetadataUrl>{
        {*named_by_challenge, ResourceMetadataSource::kNamedByChallenge}};
  }
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthUrl service, ReadSecureOAuthUrl(service_url, "the service's url"));
  std::vector<ResourceMetadataUrl> urls;
  const std::string path = InsertedPath(service);
  if (!path.empty() || !service.query.empty()) {
    urls.push_back({service.origin + kResourceSuffix + path +
                        (service.query.empty() ? "" : "?" + service.query),
                    ResourceMetadataSource::kPathInserted});
  }
  urls.push_back({service.origin + kResourceSuffix, ResourceMetadataSource::kRoot});
  return urls;
}

Result<std::vector<std::string>> AuthorizationServerMetadataUrls(std::string_view issuer) {
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthUrl url,
                            ReadSecureOAuthUrl(issuer, "the authorization server's issuer"));
  if (!url.query.empty() || issuer.find('?') != std::string_view::npos) {
    return Error(ErrorCode::kRefused, "the authorization server's issuer has a query ('?')");
  }
  const std::string path = InsertedPath(url);
  if (path.empty()) {
    return std::vector<std::string>{url.origin + kOAuthServerSuffix, url.origin + kOpenIdSuffix};
  }
  std::string appended_to = url.origin + path;
  if (appended_to.ends_with('/')) appended_to.pop_back();
  return std::vector<std::string>{url.origin + kOAuthServerSuffix + path,
                                  url.origin + kOpenIdSuffix + path, appended_to + kOpenIdSuffix};
}

Result<ProtectedResourceMetadata> ParseProtectedResourceMetadata(std::string_view body,
                                                                 std::string_view service_url,
                                                                 const ResourceMetadataUrl& from) {
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument document,
                            ReadOAuthDocument(body, "the service's protected resource metadata"));
  ProtectedResourceMetadata metadata;
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.resource, document.RequiredString("resource"));
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthUrl service, ReadOAuthUrl(service_url));
  Result<OAuthUrl> resource = ReadOAuthUrl(metadata.resource);
  bool names_service = resource.ok() && SameResource(*resource, service);
  if (!names_service && from.source == ResourceMetadataSource::kRoot && resource.ok()) {
    // At the root, the resource the well-known suffix went after is the origin.
    names_service = resource->origin == service.origin && InsertedPath(*resource).empty() &&
                    resource->query.empty();
  }
  if (!names_service) {
    return document.Refuse(
        "names a resource other than the declared url, so it is not this service's (RFC 9728 "
        "section 3.3)");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> servers,
                            document.OptionalStrings("authorization_servers"));
  if (!servers || servers->empty()) return document.Refuse("names no authorization server");
  metadata.authorization_servers = std::move(*servers);
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.scopes_supported,
                            document.OptionalStrings("scopes_supported"));
  // Asked for all at once where the person named none, and kept with the
  // tokens where the server does not say which it granted: bounded as one
  // string of a document is.
  std::size_t joined = 0;
  for (const std::string& scope : metadata.scopes_supported.value_or(std::vector<std::string>())) {
    joined += scope.size() + 1;
  }
  if (joined > kMaxOAuthString) {
    return document.Refuse("gives scopes_supported of more than " +
                           std::to_string(kMaxOAuthString / 1024) +
                           " KiB in all, more than bravebot-mcp asks for or keeps");
  }
  return metadata;
}

bool AuthorizationServerMetadata::SupportsGrant(std::string_view grant) const {
  return std::find(grant_types_supported.begin(), grant_types_supported.end(), grant) !=
         grant_types_supported.end();
}

Result<AuthorizationServerMetadata> ParseAuthorizationServerMetadata(std::string_view body,
                                                                     std::string_view issuer) {
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument document,
                            ReadOAuthDocument(body, "the authorization server's metadata"));
  AuthorizationServerMetadata metadata;
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.issuer, document.RequiredString("issuer"));
  if (metadata.issuer != issuer) {
    return document.Refuse(
        "names another issuer than the one asked for, so it may be another server's (RFC 8414 "
        "section 3.3)");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.authorization_endpoint,
                            document.RequiredString("authorization_endpoint"));
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.token_endpoint, document.RequiredString("token_endpoint"));
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.registration_endpoint,
                            document.OptionalString("registration_endpoint"));
  BRAVEBOT_RETURN_IF_ERROR(
      CheckEndpoint(metadata.authorization_endpoint, "authorization endpoint"));
  BRAVEBOT_RETURN_IF_ERROR(CheckEndpoint(metadata.token_endpoint, "token endpoint"));
  BRAVEBOT_RETURN_IF_ERROR(CheckEndpoint(metadata.registration_endpoint, "registration endpoint"));

  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> methods,
                            document.OptionalStrings("code_challenge_methods_supported"));
  if (!methods || std::find(methods->begin(), methods->end(), "S256") == methods->end()) {
    return document.Refuse(
        "does not offer PKCE with S256 (code_challenge_methods_supported), without which MCP's "
        "authorization specification forbids signing in");
  }
  metadata.code_challenge_methods_supported = std::move(*methods);
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<bool> documents,
                            document.OptionalBool("client_id_metadata_document_supported"));
  metadata.client_id_metadata_document_supported = documents.value_or(false);
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> grants,
                            document.OptionalStrings("grant_types_supported"));
  metadata.grant_types_supported =
      grants.value_or(std::vector<std::string>{"authorization_code", "implicit"});
  BRAVEBOT_ASSIGN_OR_RETURN(metadata.token_endpoint_auth_methods_supported,
                            document.OptionalStrings("token_endpoint_auth_methods_supported"));
  return metadata;
}

}  // namespace bravebot
