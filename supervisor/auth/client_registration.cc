#include "supervisor/auth/client_registration.h"

#include <nlohmann/json.hpp>

#include "supervisor/auth/oauth_document.h"

namespace bravebot {

std::string RegistrationBody(std::string_view redirect_uri) {
  nlohmann::ordered_json body = {
      {"client_name", "bravebot-mcp"},
      {"redirect_uris", nlohmann::ordered_json::array({std::string(redirect_uri)})},
      {"grant_types", nlohmann::ordered_json::array({"authorization_code", "refresh_token"})},
      {"response_types", nlohmann::ordered_json::array({"code"})},
      {"token_endpoint_auth_method", "none"},
      {"application_type", "native"}};
  return body.dump();
}

Result<RegisteredClient> ParseRegistrationResponse(std::string_view body) {
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument document,
                            ReadOAuthDocument(body, "the client registration's answer"));
  RegisteredClient client;
  BRAVEBOT_ASSIGN_OR_RETURN(client.client_id, document.RequiredString("client_id"));
  BRAVEBOT_ASSIGN_OR_RETURN(client.client_secret, document.OptionalString("client_secret"));
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::string> method,
                            document.OptionalString("token_endpoint_auth_method"));
  if (!client.client_secret) return client;
  // A secret given after all: proven the way the server registered, which
  // RFC 7591 section 2 makes client_secret_basic where it names none.
  std::optional<ClientAuthentication> authentication =
      ClientAuthenticationNamed(method.value_or("client_secret_basic"));
  if (!authentication || *authentication == ClientAuthentication::kNone) {
    return document.Refuse(
        "gives a client secret to be sent in a way this client does not know "
        "(token_endpoint_auth_method)");
  }
  client.authentication = *authentication;
  return client;
}

}  // namespace bravebot
