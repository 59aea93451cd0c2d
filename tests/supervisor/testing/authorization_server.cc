#include "tests/supervisor/testing/authorization_server.h"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "base/sha256.h"

namespace bravebot::testing {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using Json = nlohmann::json;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;
using Clock = std::chrono::steady_clock;
using Form = std::map<std::string, std::string>;

std::string PercentDecoded(std::string_view text) {
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      decoded += ' ';
    } else if (text[i] == '%' && i + 2 < text.size()) {
      decoded += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

std::string PercentEncoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      encoded += static_cast<char>(c);
    } else {
      encoded += '%';
      encoded += kHex[c >> 4];
      encoded += kHex[c & 15];
    }
  }
  return encoded;
}

// A query string or an application/x-www-form-urlencoded body. A name
// given twice is refused by RFC 6749 (3.1); the test server keeps the last.
Form FormFields(std::string_view text) {
  Form fields;
  while (!text.empty()) {
    std::size_t end = text.find('&');
    std::string_view field = text.substr(0, end);
    std::size_t equals = field.find('=');
    if (equals != std::string_view::npos) {
      fields[PercentDecoded(field.substr(0, equals))] = PercentDecoded(field.substr(equals + 1));
    }
    text = end == std::string_view::npos ? "" : text.substr(end + 1);
  }
  return fields;
}

std::string Field(const Form& form, const std::string& name) {
  auto found = form.find(name);
  return found == form.end() ? "" : found->second;
}

// RFC 7636's S256: BASE64URL(SHA256(verifier)) without padding, computed
// here apart from the client's own code so that each checks the other.
std::string S256(const std::string& verifier) {
  std::string hex = Sha256Hex(verifier);
  std::string bytes;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string encoded;
  unsigned bits = 0;
  int count = 0;
  for (unsigned char c : bytes) {
    bits = (bits << 8) | c;
    count += 8;
    while (count >= 6) {
      count -= 6;
      encoded += kAlphabet[(bits >> count) & 63];
    }
  }
  if (count > 0) encoded += kAlphabet[(bits << (6 - count)) & 63];
  return encoded;
}

// Base64 read back, written here apart from the client's Nettle, so that each
// checks the other; nothing for text that is not base64.
std::optional<std::string> FromBase64(std::string_view text) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  while (text.ends_with('=')) text.remove_suffix(1);
  std::string bytes;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    std::size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos) return std::nullopt;
    bits = (bits << 6) | static_cast<unsigned>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes += static_cast<char>((bits >> count) & 0xff);
    }
  }
  return bytes;
}

bool IsLoopbackRedirect(const std::string& uri) { return uri.starts_with("http://127.0.0.1:"); }

// A loopback redirect uri without its port: RFC 8252 (7.3) has the server
// allow any port there, as the client picks one at each sign-in.
std::string WithoutPort(const std::string& uri) {
  std::size_t port = uri.find(':', 7);
  std::size_t path = uri.find('/', port);
  return uri.substr(0, port) + (path == std::string::npos ? "" : uri.substr(path));
}

Response Answer(http::status status, std::string body,
                const std::string& type = "application/json") {
  Response response(status, 11);
  response.set(http::field::content_type, type);
  response.set(http::field::cache_control, "no-store");
  response.body() = std::move(body);
  return response;
}

Response OAuthError(const std::string& error, const std::string& description) {
  return Answer(http::status::bad_request,
                Json{{"error", error}, {"error_description", description}}.dump());
}

struct Client {
  std::set<std::string> redirects;  // without their ports
  std::string secret;               // "" for a public client
};

struct Grant {
  std::string client_id;
  std::string redirect_uri;
  std::string challenge;
  std::string resource;
  std::string scope;
};

struct AccessToken {
  std::string resource;
  Clock::time_point expires;
};

}  // namespace

struct AuthorizationServer::State {
  explicit State(AuthorizationServerOptions given) : options(std::move(given)) {}

  std::string Origin() const { return "http://127.0.0.1:" + std::to_string(port); }
  std::string ServiceUrl() const { return Origin() + "/mcp"; }
  std::string Issuer() const { return Origin() + options.issuer_path; }
  std::string MetadataUrl() const { return Origin() + "/.well-known/oauth-protected-resource/mcp"; }

  asio::awaitable<void> Accept() {
    for (;;) {
      auto [error, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
      if (error) co_return;
      asio::co_spawn(io, Serve(std::move(socket)), asio::detached);
    }
  }

  asio::awaitable<void> Serve(asio::ip::tcp::socket socket) {
    boost::beast::flat_buffer buffer;
    for (;;) {
      Request request;
      auto [read_error, read] =
          co_await http::async_read(socket, buffer, request, asio::as_tuple(asio::use_awaitable));
      if (read_error) co_return;
      Response response = Route(request);
      response.version(request.version());
      response.keep_alive(request.keep_alive());
      response.prepare_payload();
      auto [write_error, written] =
          co_await http::async_write(socket, response, asio::as_tuple(asio::use_awaitable));
      if (write_error || !response.keep_alive()) co_return;
    }
  }

  Response Route(const Request& request) {
    std::lock_guard lock(mutex);
    std::string target(request.target());
    std::map<std::string, std::string> headers;
    for (const auto& field : request) {
      std::string name(field.name_string());
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      headers[name] = std::string(field.value());
    }
    requests.push_back({std::string(request.method_string()), target,
                        std::string(request[http::field::authorization]), request.body(),
                        std::move(headers)});
    std::string path = target.substr(0, target.find('?'));
    std::string query = path.size() < target.size() ? target.substr(path.size() + 1) : "";
    bool get = request.method() == http::verb::get;
    bool post = request.method() == http::verb::post;
    if (path == "/mcp" && post) return Service(request);
    if (path == "/mcp") return Answer(http::status::method_not_allowed, "");
    if (get && path == "/.well-known/oauth-protected-resource/mcp") return ResourceMetadata();
    if (get && path == ServerMetadataPath()) return ServerMetadata();
    if (get && path == options.issuer_path + "/authorize") return Authorize(FormFields(query));
    if (post && path == options.issuer_path + "/token") return Token(request);
    if (post && path == options.issuer_path + "/register" && options.dynamic_registration) {
      return Register(request.body());
    }
    return Answer(http::status::not_found, "");
  }

  std::string ServerMetadataPath() const {
    return options.openid_discovery_only
               ? options.issuer_path + "/.well-known/openid-configuration"
               : "/.well-known/oauth-authorization-server" + options.issuer_path;
  }

  Response Service(const Request& request) {
    Json message = Json::parse(request.body(), nullptr, false);
    const bool call = message.is_object() && message.value("method", "") == "tools/call";
    if (options.service_redirect && (call || !options.redirect_only_calls)) {
      Response moved = Answer(static_cast<http::status>(options.service_redirect_status), "");
      moved.set(http::field::location, *options.service_redirect);
      return moved;
    }
    std::string authorization(request[http::field::authorization]);
    auto token = access_tokens.find(authorization.starts_with("Bearer ") ? authorization.substr(7)
                                                                         : std::string("\n"));
    if (token == access_tokens.end() || token->second.resource != ServiceUrl() ||
        token->second.expires <= Clock::now()) {
      Response refused = Answer(http::status::unauthorized, "");
      std::string challenge = "Bearer";
      if (token != access_tokens.end()) challenge += " error=\"invalid_token\",";
      if (options.challenge_names_metadata) {
        challenge += " resource_metadata=\"" + MetadataUrl() + "\",";
      }
      challenge += " scope=\"" + options.scope + "\"";
      if (options.sends_challenge) refused.set(http::field::www_authenticate, challenge);
      return refused;
    }
    if (!message.is_object() || !message.contains("id")) {
      return Answer(http::status::accepted, "");
    }
    Json result = Json::object();
    std::string method = message.value("method", "");
    if (method == "initialize") {
      result = {{"protocolVersion", message["params"].value("protocolVersion", "2025-06-18")},
                {"capabilities", {{"tools", Json::object()}}},
                {"serverInfo", {{"name", "protected"}, {"version", "1"}}}};
    } else if (method == "tools/list") {
      Json tool = {{"name", "whoami"},
                   {"description", "Who the token is for."},
                   {"inputSchema", {{"type", "object"}}}};
      result = {{"tools", Json::array({tool})}};
    } else if (method == "tools/call") {
      Json text = {{"type", "text"}, {"text", "signed in"}};
      result = {{"content", Json::array({text})}};
    }
    return Answer(http::status::ok,
                  Json{{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", result}}.dump());
  }

  Response ResourceMetadata() const {
    Json scopes = Json::array();
    for (std::size_t start = 0; start < options.scope.size();) {
      std::size_t end = options.scope.find(' ', start);
      scopes.push_back(options.scope.substr(start, end - start));
      start = end == std::string::npos ? end : end + 1;
    }
    return Answer(http::status::ok,
                  Json{{"resource", ServiceUrl()},
                       {"authorization_servers",
                        Json::array({options.authorization_server.value_or(Issuer())})},
                       {"scopes_supported", scopes},
                       {"bearer_methods_supported", Json::array({"header"})}}
                      .dump());
  }

  Response ServerMetadata() const {
    Json methods = Json::array({"plain"});
    if (options.s256) methods.push_back("S256");
    Json metadata = {
        {"issuer", Issuer()},
        {"authorization_endpoint", Issuer() + "/authorize"},
        {"token_endpoint", Issuer() + "/token"},
        {"response_types_supported", Json::array({"code"})},
        {"grant_types_supported", Json::array({"authorization_code", "refresh_token"})},
        {"code_challenge_methods_supported", methods},
        {"token_endpoint_auth_methods_supported", TokenEndpointAuthMethods()}};
    if (options.dynamic_registration) metadata["registration_endpoint"] = Issuer() + "/register";
    if (options.client_id_metadata_documents) {
      metadata["client_id_metadata_document_supported"] = true;
    }
    if (options.metadata_padding > 0) {
      metadata["padding"] = std::string(options.metadata_padding, 'x');
    }
    return Answer(http::status::ok, metadata.dump());
  }

  bool Takes(const std::string& method) const {
    return std::find(options.secret_methods.begin(), options.secret_methods.end(), method) !=
           options.secret_methods.end();
  }

  Json TokenEndpointAuthMethods() const {
    Json methods = Json::array({"none"});
    for (const std::string& method : options.secret_methods) methods.push_back(method);
    return methods;
  }

  // The client named by `client_id`, registered in one of the three ways.
  std::optional<Client> FindClient(const std::string& client_id) const {
    if (!options.client_id.empty() && client_id == options.client_id) {
      return Client{.redirects = {}, .secret = options.client_secret};
    }
    if (auto registered = registered_clients.find(client_id);
        registered != registered_clients.end()) {
      return registered->second;
    }
    auto document = options.client_documents.find(client_id);
    if (!options.client_id_metadata_documents || document == options.client_documents.end()) {
      return std::nullopt;
    }
    Json metadata = Json::parse(document->second, nullptr, false);
    if (!metadata.is_object() || metadata.value("client_id", "") != client_id) return std::nullopt;
    Client client;
    for (const Json& uri : metadata.value("redirect_uris", Json::array())) {
      if (uri.is_string()) client.redirects.insert(WithoutPort(uri.get<std::string>()));
    }
    return client;
  }

  Response Authorize(const Form& form) {
    std::string client_id = Field(form, "client_id");
    std::string redirect_uri = Field(form, "redirect_uri");
    std::optional<Client> client = FindClient(client_id);
    if (!client) return Answer(http::status::bad_request, "unknown client", "text/plain");
    // Without a redirect uri it can trust, a server shows its error to the
    // person instead of redirecting (RFC 6749, 4.1.2.1).
    if (!IsLoopbackRedirect(redirect_uri) ||
        (!client->redirects.empty() && !client->redirects.contains(WithoutPort(redirect_uri)))) {
      return Answer(http::status::bad_request, "redirect_uri not registered", "text/plain");
    }
    std::string refusal;
    if (Field(form, "response_type") != "code") refusal = "response_type must be code";
    if (Field(form, "code_challenge").empty()) refusal = "PKCE code_challenge missing";
    if (Field(form, "code_challenge_method") != "S256") refusal = "code_challenge_method not S256";
    if (!options.any_resource && Field(form, "resource") != ServiceUrl())
      refusal = "resource is not the service's url";
    if (Field(form, "state").empty()) refusal = "state missing";
    std::string separator = redirect_uri.find('?') == std::string::npos ? "?" : "&";
    Response redirect = Answer(http::status::found, "");
    if (!refusal.empty()) {
      redirect.set(http::field::location, redirect_uri + separator + "error=invalid_request" +
                                              "&error_description=" + PercentEncoded(refusal) +
                                              "&state=" + PercentEncoded(Field(form, "state")));
      return redirect;
    }
    std::string code = RandomText();
    grants[code] = {client_id, redirect_uri, Field(form, "code_challenge"), Field(form, "resource"),
                    Field(form, "scope")};
    std::string state = options.forged_state.value_or(Field(form, "state"));
    redirect.set(http::field::location,
                 redirect_uri + separator + "code=" + code + "&state=" + PercentEncoded(state));
    return redirect;
  }

  Response Token(const Request& request) {
    if (options.token_answer) return Answer(http::status::ok, *options.token_answer);
    Form form = FormFields(request.body());
    std::string client_id = Field(form, "client_id");
    std::string secret = Field(form, "client_secret");
    std::string basic(request[http::field::authorization]);
    const bool posted = form.contains("client_secret");
    if (posted && !Takes("client_secret_post")) {
      return OAuthError("invalid_client", "a secret in the form, which this server does not take");
    }
    if (basic.starts_with("Basic ")) {
      if (!Takes("client_secret_basic") || posted) {
        return OAuthError("invalid_client", "a Basic header, which this server does not take here");
      }
      // RFC 6749 section 2.3.1: the id and the secret, each form-encoded.
      std::optional<std::string> pair = FromBase64(basic.substr(6));
      std::size_t colon = pair ? pair->find(':') : std::string::npos;
      if (colon == std::string::npos) return OAuthError("invalid_client", "a Basic header unread");
      std::string named = PercentDecoded(pair->substr(0, colon));
      if (form.contains("client_id") && named != client_id) {
        return OAuthError("invalid_client", "two client ids");
      }
      client_id = named;
      secret = PercentDecoded(pair->substr(colon + 1));
    }
    if (!secret.empty()) ++secrets_sent[posted ? "client_secret_post" : "client_secret_basic"];
    std::optional<Client> client = FindClient(client_id);
    if (!client) return OAuthError("invalid_client", "unknown client");
    if (!client->secret.empty() && secret != client->secret) {
      return OAuthError("invalid_client", "client secret wrong or missing");
    }
    std::string grant_type = Field(form, "grant_type");
    Grant grant;
    if (grant_type == "authorization_code") {
      auto found = grants.find(Field(form, "code"));
      if (found == grants.end()) return OAuthError("invalid_grant", "unknown or used code");
      grant = found->second;
      grants.erase(found);  // a code is good once
      if (grant.client_id != client_id) return OAuthError("invalid_grant", "another client's");
      if (grant.redirect_uri != Field(form, "redirect_uri")) {
        return OAuthError("invalid_grant", "redirect_uri differs from the authorization's");
      }
      if (S256(Field(form, "code_verifier")) != grant.challenge) {
        return OAuthError("invalid_grant", "PKCE verification failed");
      }
    } else if (grant_type == "refresh_token") {
      std::this_thread::sleep_for(options.refresh_answer_delay);
      auto found = refresh_tokens.find(Field(form, "refresh_token"));
      if (options.revoke_on_reuse && used_refresh_tokens.contains(Field(form, "refresh_token"))) {
        refresh_tokens.clear();  // one grant in these tests: all of it
        return OAuthError("invalid_grant", "refresh token reused: the grant is revoked");
      }
      if (found == refresh_tokens.end()) return OAuthError("invalid_grant", "unknown refresh");
      grant = found->second;
      if (options.rotate_refresh_tokens) {
        used_refresh_tokens.insert(found->first);
        refresh_tokens.erase(found);  // rotated: each is good once
      }
      if (grant.client_id != client_id) return OAuthError("invalid_grant", "another client's");
    } else {
      return OAuthError("unsupported_grant_type", grant_type);
    }
    if (Field(form, "resource") != grant.resource) {
      return OAuthError("invalid_target", "resource differs from the grant's");
    }
    ++issued[grant_type];
    std::string access = RandomText();
    access_tokens[access] = {options.audience_instead.value_or(grant.resource),
                             Clock::now() + options.token_lifetime};
    Json answer = {{"access_token", access},
                   {"token_type", "Bearer"},
                   {"expires_in", options.token_lifetime.count()},
                   {"scope", grant.scope}};
    // A server that does not rotate gives no new refresh token: the one
    // sent stays good.
    if (grant_type == "authorization_code" || options.rotate_refresh_tokens) {
      std::string refresh = RandomText();
      refresh_tokens[refresh] = grant;
      answer["refresh_token"] = refresh;
    }
    return Answer(http::status::ok, answer.dump());
  }

  Response Register(const std::string& body) {
    Json asked = Json::parse(body, nullptr, false);
    if (!asked.is_object() || !asked.contains("redirect_uris") ||
        !asked["redirect_uris"].is_array() || asked["redirect_uris"].empty()) {
      return OAuthError("invalid_redirect_uri", "redirect_uris missing");
    }
    Client client;
    for (const Json& uri : asked["redirect_uris"]) {
      if (!uri.is_string() || !IsLoopbackRedirect(uri.get<std::string>())) {
        return OAuthError("invalid_redirect_uri", "only loopback redirects here");
      }
      client.redirects.insert(WithoutPort(uri.get<std::string>()));
    }
    std::string client_id = "registered-" + RandomText();
    Json answer = asked;
    answer["client_id"] = client_id;
    answer["token_endpoint_auth_method"] = "none";
    if (options.registration_gives_secret) {
      // A confidential client after all, its way left to the default:
      // client_secret_basic (RFC 7591 section 2).
      client.secret = "registered-secret-" + RandomText();
      answer["client_secret"] = client.secret;
      answer.erase("token_endpoint_auth_method");
    }
    registered_clients[client_id] = client;
    return Answer(http::status::created, answer.dump());
  }

  std::string RandomText() {
    std::uniform_int_distribution<std::uint64_t> any;
    std::string text;
    for (int i = 0; i < 2; ++i) text += std::to_string(any(random));
    return text;
  }

  AuthorizationServerOptions options;
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor{io, {asio::ip::make_address("127.0.0.1"), 0}};
  int port = acceptor.local_endpoint().port();
  std::thread thread;
  mutable std::mutex mutex;  // what follows, between the test and the server's thread
  std::vector<RecordedRequest> requests;
  std::map<std::string, Client> registered_clients;
  std::map<std::string, Grant> grants;  // by code
  std::map<std::string, AccessToken> access_tokens;
  std::map<std::string, Grant> refresh_tokens;
  std::set<std::string> used_refresh_tokens;
  std::map<std::string, int> issued;
  std::map<std::string, int> secrets_sent;  // by the way they came
  std::mt19937_64 random{std::random_device{}()};
};

AuthorizationServer::AuthorizationServer(AuthorizationServerOptions options)
    : state_(std::make_unique<State>(std::move(options))) {
  asio::co_spawn(state_->io, state_->Accept(), asio::detached);
  state_->thread = std::thread([state = state_.get()] { state->io.run(); });
}

AuthorizationServer::~AuthorizationServer() {
  state_->io.stop();
  state_->thread.join();
}

std::string AuthorizationServer::Origin() const { return state_->Origin(); }
std::string AuthorizationServer::ServiceUrl() const { return state_->ServiceUrl(); }
std::string AuthorizationServer::Issuer() const { return state_->Issuer(); }

std::vector<RecordedRequest> AuthorizationServer::Requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->requests;
}

int AuthorizationServer::SecretsSentBy(const std::string& method) const {
  std::lock_guard lock(state_->mutex);
  auto found = state_->secrets_sent.find(method);
  return found == state_->secrets_sent.end() ? 0 : found->second;
}

int AuthorizationServer::TokensIssued(const std::string& grant_type) const {
  std::lock_guard lock(state_->mutex);
  auto found = state_->issued.find(grant_type);
  return found == state_->issued.end() ? 0 : found->second;
}

void AuthorizationServer::ExpireAccessTokens() {
  std::lock_guard lock(state_->mutex);
  for (auto& [token, access] : state_->access_tokens) access.expires = Clock::now();
}

}  // namespace bravebot::testing
