#include "supervisor/auth/authorization_request.h"

#include <algorithm>
#include <chrono>

#include "base/base64.h"
#include "base/shown_text.h"
#include "confine/url.h"
#include "supervisor/auth/oauth_document.h"

namespace bravebot {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

bool IsUnreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> Decoded(std::string_view text) {
  std::string decoded;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      decoded += ' ';
    } else if (text[i] == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = HexValue(text[i + 1]);
      const int low = HexValue(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      decoded += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

const std::string* Field(const Fields& fields, std::string_view name) {
  for (const auto& [key, value] : fields) {
    if (key == name) return &value;
  }
  return nullptr;
}

void AddClient(Fields& fields, const std::string& client_id,
               const std::optional<std::string>& client_secret,
               ClientAuthentication authentication) {
  fields.emplace_back("client_id", client_id);
  if (client_secret && authentication == ClientAuthentication::kSecretPost) {
    fields.emplace_back("client_secret", *client_secret);
  }
}

bool Lists(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// At most `bytes` of a server's `text`, cut before a UTF-8 character and not
// inside one, which would be shown as escapes of its first bytes.
std::string_view CutBeforeCharacter(std::string_view text, size_t bytes) {
  if (text.size() <= bytes) return text;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

}  // namespace

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  encoded.reserve(text.size());
  for (char c : text) {
    if (IsUnreserved(c)) {
      encoded += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      encoded += '%';
      encoded += kHex[byte >> 4];
      encoded += kHex[byte & 0xf];
    }
  }
  return encoded;
}

std::string FormEncode(const Fields& fields) {
  std::string body;
  for (const auto& [name, value] : fields) {
    if (!body.empty()) body += '&';
    body += PercentEncode(name) + "=" + PercentEncode(value);
  }
  return body;
}

std::optional<Fields> FormDecode(std::string_view text) {
  Fields fields;
  while (!text.empty()) {
    const size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t equals = pair.find('=');
    std::optional<std::string> name = Decoded(pair.substr(0, equals));
    std::optional<std::string> value =
        Decoded(equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1));
    if (!name || !value) return std::nullopt;
    fields.emplace_back(std::move(*name), std::move(*value));
  }
  return fields;
}

std::string LoopbackRedirectUri(std::uint16_t port) {
  return "http://127.0.0.1:" + std::to_string(port) + "/callback";
}

std::string AuthorizationUrl(const AuthorizationRequest& request) {
  Fields fields = {{"response_type", "code"},
                   {"client_id", request.client_id},
                   {"redirect_uri", request.redirect_uri},
                   {"code_challenge", request.code_challenge},
                   {"code_challenge_method", "S256"},
                   {"state", request.state}};
  if (request.scope && !request.scope->empty()) fields.emplace_back("scope", *request.scope);
  fields.emplace_back("resource", request.resource);
  // RFC 6749 section 3.1: an endpoint's own query is kept, and added to.
  std::string url = request.authorization_endpoint;
  if (url.find('?') == std::string::npos) {
    url += '?';
  } else if (!url.ends_with('?') && !url.ends_with('&')) {
    url += '&';
  }
  return url + FormEncode(fields);
}

Result<std::string> ReadAuthorizationRedirect(std::string_view request_target,
                                              std::string_view expected_state) {
  const size_t question = request_target.find('?');
  if (request_target.substr(0, question) != "/callback") {
    return Error(ErrorCode::kRefused, "the sign-in redirect came to another path than /callback");
  }
  std::optional<Fields> fields =
      FormDecode(question == std::string_view::npos ? std::string_view()
                                                    : request_target.substr(question + 1));
  if (!fields) return Error(ErrorCode::kRefused, "the sign-in redirect's query cannot be read");
  // The state first: an error or a code under another state is not this sign-in's.
  const std::string* state = Field(*fields, "state");
  if (state == nullptr || *state != expected_state) {
    return Error(ErrorCode::kRefused,
                 "the sign-in redirect carries another state than the one sent, so it is not "
                 "this sign-in's: it was refused");
  }
  if (const std::string* error = Field(*fields, "error")) {
    OAuthErrorResponse refused{*error, std::nullopt, std::nullopt};
    if (const std::string* description = Field(*fields, "error_description")) {
      refused.error_description = *description;
    }
    return Error(ErrorCode::kRefused, "the authorization server refused: " + refused.Shown());
  }
  const std::string* code = Field(*fields, "code");
  if (code == nullptr || code->empty()) {
    return Error(ErrorCode::kRefused, "the sign-in redirect carries no code");
  }
  return *code;
}

bool CarriesState(std::string_view request_target, std::string_view expected_state) {
  const size_t question = request_target.find('?');
  if (question == std::string_view::npos) return false;
  std::optional<Fields> fields = FormDecode(request_target.substr(question + 1));
  const std::string* state = fields ? Field(*fields, "state") : nullptr;
  return state != nullptr && *state == expected_state;
}

std::string AuthorizationCodeBody(const AuthorizationCodeGrant& grant) {
  Fields fields = {{"grant_type", "authorization_code"},
                   {"code", grant.code},
                   {"redirect_uri", grant.redirect_uri},
                   {"code_verifier", grant.code_verifier},
                   {"resource", grant.resource}};
  AddClient(fields, grant.client_id, grant.client_secret, grant.authentication);
  return FormEncode(fields);
}

std::string RefreshBody(const RefreshGrant& grant) {
  Fields fields = {{"grant_type", "refresh_token"},
                   {"refresh_token", grant.refresh_token},
                   {"resource", grant.resource}};
  AddClient(fields, grant.client_id, grant.client_secret, grant.authentication);
  return FormEncode(fields);
}

std::optional<std::string> ClientAuthorization(const std::string& client_id,
                                               const std::optional<std::string>& client_secret,
                                               ClientAuthentication authentication) {
  if (!client_secret || authentication != ClientAuthentication::kSecretBasic) return std::nullopt;
  return "Basic " + Base64(PercentEncode(client_id) + ":" + PercentEncode(*client_secret));
}

Result<ClientAuthentication> ChooseClientAuthentication(
    const std::optional<std::vector<std::string>>& supported, bool has_secret) {
  if (!has_secret) return ClientAuthentication::kNone;
  const std::vector<std::string> methods =
      supported.value_or(std::vector<std::string>{"client_secret_basic"});
  if (Lists(methods, "client_secret_basic")) return ClientAuthentication::kSecretBasic;
  if (Lists(methods, "client_secret_post")) return ClientAuthentication::kSecretPost;
  return Error(ErrorCode::kRefused,
               "its token endpoint takes a client's secret neither in a Basic header nor in the "
               "form (token_endpoint_auth_methods_supported), the two ways this client sends one");
}

std::string ClientAuthenticationName(ClientAuthentication authentication) {
  switch (authentication) {
    case ClientAuthentication::kSecretBasic:
      return "client_secret_basic";
    case ClientAuthentication::kSecretPost:
      return "client_secret_post";
    case ClientAuthentication::kNone:
      break;
  }
  return "none";
}

std::optional<ClientAuthentication> ClientAuthenticationNamed(std::string_view name) {
  for (ClientAuthentication authentication :
       {ClientAuthentication::kNone, ClientAuthentication::kSecretBasic,
        ClientAuthentication::kSecretPost}) {
    if (ClientAuthenticationName(authentication) == name) return authentication;
  }
  return std::nullopt;
}

std::optional<std::int64_t> ExpiresAt(const std::optional<std::int64_t>& expires_in,
                                      std::int64_t now_seconds) {
  constexpr std::int64_t kLongestLifetime = std::int64_t{10} * 366 * 24 * 3600;
  if (!expires_in) return std::nullopt;
  return now_seconds + std::min(*expires_in, kLongestLifetime);
}

std::int64_t SecondsSince1970Now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool IsSendableToken(std::string_view token) {
  return !token.empty() &&
         std::all_of(token.begin(), token.end(), [](char c) { return c >= 0x21 && c <= 0x7e; });
}

Result<TokenResponse> ParseTokenResponse(std::string_view body) {
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument document,
                            ReadOAuthDocument(body, "the token endpoint's answer"));
  TokenResponse response;
  BRAVEBOT_ASSIGN_OR_RETURN(response.access_token, document.RequiredString("access_token"));
  if (!IsSendableToken(response.access_token)) {
    return document.Refuse("gives an access token with a character no header can carry");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(response.token_type, document.RequiredString("token_type"));
  if (AsciiLowercase(response.token_type) != "bearer") {
    return document.Refuse("gives a token of a type other than Bearer, which cannot be sent");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(response.expires_in, document.OptionalCount("expires_in"));
  BRAVEBOT_ASSIGN_OR_RETURN(response.refresh_token, document.OptionalString("refresh_token"));
  if (response.refresh_token && response.refresh_token->empty()) response.refresh_token.reset();
  if (response.refresh_token && !IsSendableToken(*response.refresh_token)) {
    return document.Refuse("gives a refresh token with a character no form can carry");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(response.scope, document.OptionalString("scope"));
  return response;
}

std::string OAuthErrorResponse::Shown() const {
  std::string shown = EscapeControlCharacters(CutBeforeCharacter(error, 100));
  if (error_description && !error_description->empty()) {
    shown += ": " + EscapeControlCharacters(CutBeforeCharacter(*error_description, 500));
  }
  return shown;
}

Result<OAuthErrorResponse> ParseOAuthError(std::string_view body) {
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument document,
                            ReadOAuthDocument(body, "the token endpoint's error"));
  OAuthErrorResponse response;
  BRAVEBOT_ASSIGN_OR_RETURN(response.error, document.RequiredString("error"));
  BRAVEBOT_ASSIGN_OR_RETURN(response.error_description,
                            document.OptionalString("error_description"));
  BRAVEBOT_ASSIGN_OR_RETURN(response.error_uri, document.OptionalString("error_uri"));
  return response;
}

}  // namespace bravebot
