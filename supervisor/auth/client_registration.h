// Dynamic client registration (RFC 7591), for an authorization server that
// offers it and a person who gave no client: the request's body, and the
// client_id read back. The client registered is a public one (no secret,
// PKCE instead: RFC 8252 section 8.4) whose one redirect is the loopback.
//
//   POST RegistrationBody(redirect.Url()) to metadata.registration_endpoint;
//   BRAVEBOT_ASSIGN_OR_RETURN(RegisteredClient client, ParseRegistrationResponse(body));
#ifndef BRAVEBOT_SUPERVISOR_AUTH_CLIENT_REGISTRATION_H_
#define BRAVEBOT_SUPERVISOR_AUTH_CLIENT_REGISTRATION_H_

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "supervisor/auth/authorization_request.h"

namespace bravebot {

// The registration request, as JSON: our name, the redirect, the
// authorization code and refresh grants, no client authentication.
std::string RegistrationBody(std::string_view redirect_uri);

struct RegisteredClient {
  std::string client_id;
  // Where the server made it a confidential client after all, and how the
  // secret is sent then.
  std::optional<std::string> client_secret;
  ClientAuthentication authentication = ClientAuthentication::kNone;
};

// A registration endpoint's answer of 201 (RFC 7591 section 3.2.1).
// kRefused, naming what is wrong, for one without a client_id.
Result<RegisteredClient> ParseRegistrationResponse(std::string_view body);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_CLIENT_REGISTRATION_H_
