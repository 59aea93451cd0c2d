// libcurl's options as typed values, each set through a function that takes
// the type its option takes and checks what libcurl answered. libcurl is
// called through pointers (curl_library.h), so curl.h's compile-time checks
// of setopt's variadic argument do not apply: here each option is declared
// once with its value's type, and that type is checked at compile time
// against the one libcurl's own numbering gives the option (a long option
// declared with a string does not compile).
//
//   BRAVEBOT_RETURN_IF_ERROR(SetCurlOption(curl, easy, kCurlProtocols, "http,https"));
//
// A failure names what could not be set and why it matters, in words:
// "libcurl 7.84.0 cannot restrict the protocols it speaks to http and https
// (CURLOPT_PROTOCOLS_STR: An unknown option was passed in to libcurl);
// update libcurl". The caller then makes no request: a transfer is made
// with every option it asked for, or not at all.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_CURL_OPTIONS_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_CURL_OPTIONS_H_

#include <curl/curl.h>

#include <algorithm>
#include <type_traits>

#include "base/result.h"
#include "supervisor/servers/curl_library.h"

namespace bravebot {

// What is said of an option: its name in libcurl's documentation, what
// setting it does for us (after "cannot"), and the first libcurl that knows
// it (as curl_version_info's version_num: 0x075500 is 7.85.0).
struct CurlOptionFacts {
  const char* name;
  const char* purpose;
  unsigned since;
};

// An option of libcurl's (`Id` is CURLoption or CURLMoption) whose value is
// a `Value`. libcurl numbers each option from the base of its type
// (CURLOPTTYPE_LONG, ..._OBJECTPOINT, ..._FUNCTIONPOINT, ..._OFF_T), and that
// base is checked when the option is declared: a mismatch fails to compile.
template <typename Id, long kTypeBase, typename Value>
struct CurlOption : CurlOptionFacts {
  consteval CurlOption(Id option_id, const char* option_name, const char* option_purpose,
                       unsigned option_since)
      : CurlOptionFacts{option_name, option_purpose, option_since}, id(option_id) {
    if (static_cast<long>(option_id) < kTypeBase ||
        static_cast<long>(option_id) >= kTypeBase + 10000) {
      throw "declared with a value of another type than libcurl's for this option";
    }
  }
  Id id;
};

template <long kTypeBase, typename Value>
using CurlEasyOption = CurlOption<CURLoption, kTypeBase, Value>;
using CurlLongOption = CurlEasyOption<CURLOPTTYPE_LONG, long>;
using CurlOffsetOption = CurlEasyOption<CURLOPTTYPE_OFF_T, curl_off_t>;
using CurlStringOption = CurlEasyOption<CURLOPTTYPE_STRINGPOINT, const char*>;
using CurlListOption = CurlEasyOption<CURLOPTTYPE_SLISTPOINT, curl_slist*>;
using CurlPointerOption = CurlEasyOption<CURLOPTTYPE_CBPOINT, void*>;
template <typename Function>
using CurlCallbackOption = CurlEasyOption<CURLOPTTYPE_FUNCTIONPOINT, Function>;
template <long kTypeBase, typename Value>
using CurlMultiOption = CurlOption<CURLMoption, kTypeBase, Value>;

// The protections: what a request to a service is never made without.
inline constexpr CurlStringOption kCurlProtocols{
    CURLOPT_PROTOCOLS_STR, "CURLOPT_PROTOCOLS_STR",
    "restrict the protocols it speaks to http and https", 0x075500};
inline constexpr CurlStringOption kCurlRedirectProtocols{
    CURLOPT_REDIR_PROTOCOLS_STR, "CURLOPT_REDIR_PROTOCOLS_STR",
    "restrict the protocols of a redirect to http and https", 0x075500};
inline constexpr CurlLongOption kCurlFollowRedirects{
    CURLOPT_FOLLOWLOCATION, "CURLOPT_FOLLOWLOCATION",
    "leave every redirect to bravebot-mcp to decide", 0x070100};
inline constexpr CurlLongOption kCurlMaxRedirects{CURLOPT_MAXREDIRS, "CURLOPT_MAXREDIRS",
                                                  "follow no redirect by itself", 0x070500};
inline constexpr CurlStringOption kCurlProxy{
    CURLOPT_PROXY, "CURLOPT_PROXY", "keep from using a proxy named by the environment", 0x070100};
inline constexpr CurlLongOption kCurlVerifyPeer{
    CURLOPT_SSL_VERIFYPEER, "CURLOPT_SSL_VERIFYPEER",
    "verify a certificate against this machine's certificate authorities", 0x070402};
inline constexpr CurlLongOption kCurlVerifyHost{CURLOPT_SSL_VERIFYHOST, "CURLOPT_SSL_VERIFYHOST",
                                                "verify that a certificate names the host reached",
                                                0x070801};
inline constexpr CurlLongOption kCurlTlsVersion{CURLOPT_SSLVERSION, "CURLOPT_SSLVERSION",
                                                "refuse TLS older than 1.2", 0x072200};
inline constexpr CurlListOption kCurlConnectTo{CURLOPT_CONNECT_TO, "CURLOPT_CONNECT_TO",
                                               "pin the host it connects to", 0x073100};
inline constexpr CurlLongOption kCurlTimeout{CURLOPT_TIMEOUT_MS, "CURLOPT_TIMEOUT_MS",
                                             "bound the time a request takes", 0x071002};
inline constexpr CurlLongOption kCurlConnectTimeout{CURLOPT_CONNECTTIMEOUT_MS,
                                                    "CURLOPT_CONNECTTIMEOUT_MS",
                                                    "bound the time a connection takes", 0x071002};
inline constexpr CurlLongOption kCurlNoSignal{CURLOPT_NOSIGNAL, "CURLOPT_NOSIGNAL",
                                              "run without raising signals in the supervisor",
                                              0x070a00};

// The request itself.
inline constexpr CurlStringOption kCurlUrl{CURLOPT_URL, "CURLOPT_URL", "take the url to reach",
                                           0x070100};
inline constexpr CurlListOption kCurlHeaders{CURLOPT_HTTPHEADER, "CURLOPT_HTTPHEADER",
                                             "send the request's headers", 0x070100};
inline constexpr CurlOffsetOption kCurlBodySize{CURLOPT_POSTFIELDSIZE_LARGE,
                                                "CURLOPT_POSTFIELDSIZE_LARGE",
                                                "send the request's body", 0x070b01};
// Not copied by libcurl (a string option would be): the body outlives the
// transfer.
inline constexpr CurlStringOption kCurlBody{CURLOPT_POSTFIELDS, "CURLOPT_POSTFIELDS",
                                            "send the request's body", 0x070100};
inline constexpr CurlLongOption kCurlGet{CURLOPT_HTTPGET, "CURLOPT_HTTPGET",
                                         "send the request as a GET", 0x070801};
inline constexpr CurlStringOption kCurlMethod{CURLOPT_CUSTOMREQUEST, "CURLOPT_CUSTOMREQUEST",
                                              "send the request's method", 0x070100};
inline constexpr CurlPointerOption kCurlPrivate{CURLOPT_PRIVATE, "CURLOPT_PRIVATE",
                                                "keep its transfer's state", 0x070a03};
inline constexpr CurlCallbackOption<curl_write_callback> kCurlHeaderFunction{
    CURLOPT_HEADERFUNCTION, "CURLOPT_HEADERFUNCTION", "give the answer's head to us", 0x070702};
inline constexpr CurlPointerOption kCurlHeaderData{CURLOPT_HEADERDATA, "CURLOPT_HEADERDATA",
                                                   "give the answer's head to us", 0x070a00};
inline constexpr CurlCallbackOption<curl_write_callback> kCurlWriteFunction{
    CURLOPT_WRITEFUNCTION, "CURLOPT_WRITEFUNCTION", "give the answer's body to us", 0x070100};
inline constexpr CurlPointerOption kCurlWriteData{CURLOPT_WRITEDATA, "CURLOPT_WRITEDATA",
                                                  "give the answer's body to us", 0x070907};
inline constexpr CurlPointerOption kCurlErrorBuffer{CURLOPT_ERRORBUFFER, "CURLOPT_ERRORBUFFER",
                                                    "say why a transfer failed", 0x070100};

// The multi handle's, which run its transfers on the supervisor's loop.
inline constexpr CurlMultiOption<CURLOPTTYPE_FUNCTIONPOINT, curl_socket_callback>
    kCurlSocketFunction{CURLMOPT_SOCKETFUNCTION, "CURLMOPT_SOCKETFUNCTION",
                        "tell the supervisor's loop which sockets to watch", 0x070f04};
inline constexpr CurlMultiOption<CURLOPTTYPE_CBPOINT, void*> kCurlSocketData{
    CURLMOPT_SOCKETDATA, "CURLMOPT_SOCKETDATA", "tell the supervisor's loop which sockets to watch",
    0x070f04};
inline constexpr CurlMultiOption<CURLOPTTYPE_FUNCTIONPOINT, curl_multi_timer_callback>
    kCurlTimerFunction{CURLMOPT_TIMERFUNCTION, "CURLMOPT_TIMERFUNCTION",
                       "tell the supervisor's loop when to run it", 0x071000};
inline constexpr CurlMultiOption<CURLOPTTYPE_CBPOINT, void*> kCurlTimerData{
    CURLMOPT_TIMERDATA, "CURLMOPT_TIMERDATA", "tell the supervisor's loop when to run it",
    0x071000};

// The first libcurl that knows every option above: loading refuses an older
// one (LoadCurl), before any request, naming the option that needs it.
inline constexpr CurlOptionFacts kCurlNewestOption = [] {
  const CurlOptionFacts every[] = {
      kCurlProtocols,
      kCurlRedirectProtocols,
      kCurlFollowRedirects,
      kCurlMaxRedirects,
      kCurlProxy,
      kCurlVerifyPeer,
      kCurlVerifyHost,
      kCurlTlsVersion,
      kCurlConnectTo,
      kCurlTimeout,
      kCurlConnectTimeout,
      kCurlNoSignal,
      kCurlUrl,
      kCurlHeaders,
      kCurlBodySize,
      kCurlBody,
      kCurlGet,
      kCurlMethod,
      kCurlPrivate,
      kCurlHeaderFunction,
      kCurlHeaderData,
      kCurlWriteFunction,
      kCurlWriteData,
      kCurlErrorBuffer,
      kCurlSocketFunction,
      kCurlSocketData,
      kCurlTimerFunction,
      kCurlTimerData,
  };
  return *std::max_element(
      std::begin(every), std::end(every),
      [](const CurlOptionFacts& a, const CurlOptionFacts& b) { return a.since < b.since; });
}();

// The error of an option libcurl answered `code` to (its words in
// `libcurl_words`): which one, what it was for, and, where libcurl does not
// know or was built without it, to update libcurl.
Error CurlOptionRefused(const CurlLibrary& curl, const CurlOptionFacts& option, bool unknown,
                        const char* libcurl_words);

// Sets `option` on `easy` to `value`, a value of the option's own type.
template <long kTypeBase, typename Value>
Status SetCurlOption(const CurlLibrary& curl, CURL* easy,
                     const CurlEasyOption<kTypeBase, Value>& option,
                     std::type_identity_t<Value> value) {
  const CURLcode code = curl.easy_setopt(easy, option.id, value);
  if (code == CURLE_OK) return Status();
  return CurlOptionRefused(curl, option, code == CURLE_UNKNOWN_OPTION || code == CURLE_NOT_BUILT_IN,
                           curl.easy_strerror(code));
}

// The same, for the multi handle.
template <long kTypeBase, typename Value>
Status SetCurlOption(const CurlLibrary& curl, CURLM* multi,
                     const CurlMultiOption<kTypeBase, Value>& option,
                     std::type_identity_t<Value> value) {
  const CURLMcode code = curl.multi_setopt(multi, option.id, value);
  if (code == CURLM_OK) return Status();
  return CurlOptionRefused(curl, option, code == CURLM_UNKNOWN_OPTION, curl.multi_strerror(code));
}

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_CURL_OPTIONS_H_
