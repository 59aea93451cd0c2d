// libcurl, loaded the first time a service is reached rather than when a
// program starts. Linked, libcurl and the thirty libraries it needs (TLS,
// Kerberos, LDAP, SSH...) were loaded, and their constructors run, by every
// start of mcp-run and of the supervisor: 2.8 ms of the 4.2 ms that
// `mcp-run --version` took on the development machine, for servers most of
// which speak over pipes and never use it.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(const CurlLibrary* curl, LoadCurl());
//   CURL* easy = curl->easy_init();
//   BRAVEBOT_RETURN_IF_ERROR(SetCurlOption(*curl, easy, kCurlUrl, url.c_str()));
//
// The functions are libcurl's own, called through pointers: curl.h's
// compile-time checks of setopt's argument types do not apply to them, so
// options are set only through curl_options.h, which types and checks each.
// Loading refuses a library that lacks a function, or that is older than
// the newest option we set needs: nothing it could not do is found out at a
// request.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_CURL_LIBRARY_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_CURL_LIBRARY_H_

#include <curl/curl.h>

#include "base/result.h"

namespace bravebot {

// The functions of libcurl that HttpClient calls.
struct CurlLibrary {
  decltype(&::curl_global_init) global_init = nullptr;
  decltype(&::curl_easy_init) easy_init = nullptr;
  decltype(&::curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&::curl_easy_setopt) easy_setopt = nullptr;
  decltype(&::curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&::curl_easy_pause) easy_pause = nullptr;
  decltype(&::curl_easy_strerror) easy_strerror = nullptr;
  decltype(&::curl_multi_init) multi_init = nullptr;
  decltype(&::curl_multi_cleanup) multi_cleanup = nullptr;
  decltype(&::curl_multi_setopt) multi_setopt = nullptr;
  decltype(&::curl_multi_strerror) multi_strerror = nullptr;
  decltype(&::curl_multi_add_handle) multi_add_handle = nullptr;
  decltype(&::curl_multi_remove_handle) multi_remove_handle = nullptr;
  decltype(&::curl_multi_socket_action) multi_socket_action = nullptr;
  decltype(&::curl_multi_info_read) multi_info_read = nullptr;
  decltype(&::curl_slist_append) slist_append = nullptr;
  decltype(&::curl_slist_free_all) slist_free_all = nullptr;
  decltype(&::curl_url) url = nullptr;
  decltype(&::curl_url_cleanup) url_cleanup = nullptr;
  decltype(&::curl_url_set) url_set = nullptr;
  decltype(&::curl_url_get) url_get = nullptr;
  decltype(&::curl_free) free = nullptr;
  decltype(&::curl_version_info) version_info = nullptr;
  const char* version = "";  // "7.88.1", for what is said of it
};

// The library this process uses, loaded and initialised (curl_global_init)
// on the first call, which later calls share, whichever thread makes them.
// Where it cannot be loaded, the error says what is missing and what to
// install, and says it again on every call.
Result<const CurlLibrary*> LoadCurl();

// Loads the library from `soname` (libcurl's own is "libcurl.so.4"), with
// every function and a version that knows every option we set, without
// initialising it; for LoadCurl and for tests of what a machine without it
// is told.
Result<CurlLibrary> LoadCurlFrom(const char* soname);

// The version `info` describes (curl_version_info's), or why it is too old
// for the options we set, naming the newest of them.
Result<const char*> CheckCurlVersion(const curl_version_info_data& info);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_CURL_LIBRARY_H_
