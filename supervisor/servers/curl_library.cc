#include "supervisor/servers/curl_library.h"

#include <dlfcn.h>

#include <cstdio>
#include <string>

#include "supervisor/servers/curl_options.h"

namespace bravebot {
namespace {

constexpr const char* kCurlSoname = "libcurl.so.4";

// 0x075500 as "7.85.0".
std::string VersionText(unsigned version_num) {
  char text[16];
  std::snprintf(text, sizeof(text), "%u.%u.%u", (version_num >> 16) & 0xff,
                (version_num >> 8) & 0xff, version_num & 0xff);
  return text;
}

// Sets `function` to the library's `name`, or says which one it lacks.
template <typename Function>
Status Resolve(void* library, const char* soname, const char* name, Function& function) {
  function = reinterpret_cast<Function>(::dlsym(library, name));
  if (function != nullptr) return Status();
  return Error(ErrorCode::kSystem, std::string(soname) + " has no " + name +
                                       ": reaching a service needs libcurl " +
                                       VersionText(kCurlNewestOption.since) + " or later");
}

}  // namespace

Result<CurlLibrary> LoadCurlFrom(const char* soname) {
  // Never closed: the functions are used until the process ends.
  void* library = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = ::dlerror();
    return Error(ErrorCode::kSystem, std::string("libcurl could not be loaded (") +
                                         (why != nullptr ? why : soname) +
                                         "), and reaching a service over HTTP needs it: install "
                                         "libcurl4 (apt-get install libcurl4)");
  }
  CurlLibrary curl;
  auto resolve = [&](const char* name, auto& function) {
    return Resolve(library, soname, name, function);
  };
  for (Status found : {
           resolve("curl_global_init", curl.global_init),
           resolve("curl_easy_init", curl.easy_init),
           resolve("curl_easy_cleanup", curl.easy_cleanup),
           resolve("curl_easy_setopt", curl.easy_setopt),
           resolve("curl_easy_getinfo", curl.easy_getinfo),
           resolve("curl_easy_pause", curl.easy_pause),
           resolve("curl_easy_strerror", curl.easy_strerror),
           resolve("curl_multi_init", curl.multi_init),
           resolve("curl_multi_cleanup", curl.multi_cleanup),
           resolve("curl_multi_setopt", curl.multi_setopt),
           resolve("curl_multi_strerror", curl.multi_strerror),
           resolve("curl_multi_add_handle", curl.multi_add_handle),
           resolve("curl_multi_remove_handle", curl.multi_remove_handle),
           resolve("curl_multi_socket_action", curl.multi_socket_action),
           resolve("curl_multi_info_read", curl.multi_info_read),
           resolve("curl_slist_append", curl.slist_append),
           resolve("curl_slist_free_all", curl.slist_free_all),
           resolve("curl_url", curl.url),
           resolve("curl_url_cleanup", curl.url_cleanup),
           resolve("curl_url_set", curl.url_set),
           resolve("curl_url_get", curl.url_get),
           resolve("curl_free", curl.free),
           resolve("curl_version_info", curl.version_info),
       }) {
    if (!found) return found.error();
  }
  const curl_version_info_data* info = curl.version_info(CURLVERSION_NOW);
  if (info == nullptr) {
    return Error(ErrorCode::kSystem, std::string(soname) + " does not say its version");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(curl.version, CheckCurlVersion(*info));
  return curl;
}

Result<const char*> CheckCurlVersion(const curl_version_info_data& info) {
  const char* version = info.version != nullptr ? info.version : "of unknown version";
  if (info.version_num >= kCurlNewestOption.since) return version;
  return Error(ErrorCode::kSystem, std::string("libcurl ") + version + " is older than " +
                                       VersionText(kCurlNewestOption.since) +
                                       ", the first that can " + kCurlNewestOption.purpose + " (" +
                                       kCurlNewestOption.name +
                                       "): no service is reached with it; update libcurl");
}

Result<const CurlLibrary*> LoadCurl() {
  // A static's initialisation runs once, and other threads wait for it.
  static const Result<CurlLibrary> loaded = []() -> Result<CurlLibrary> {
    BRAVEBOT_ASSIGN_OR_RETURN(CurlLibrary curl, LoadCurlFrom(kCurlSoname));
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      return Error(ErrorCode::kSystem, "libcurl could not be initialised (curl_global_init)");
    }
    return curl;
  }();
  if (!loaded) return loaded.error();
  return &*loaded;
}

}  // namespace bravebot
