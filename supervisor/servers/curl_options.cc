#include "supervisor/servers/curl_options.h"

#include <string>

namespace bravebot {

Error CurlOptionRefused(const CurlLibrary& curl, const CurlOptionFacts& option, bool unknown,
                        const char* libcurl_words) {
  std::string message =
      std::string("libcurl ") + curl.version + " cannot " + option.purpose + " (" + option.name;
  if (libcurl_words != nullptr && *libcurl_words != '\0')
    message += std::string(": ") + libcurl_words;
  message += ")";
  // An option it does not know, or was built without, is one a newer or
  // fuller build has; any other refusal (no memory, say) is not mended so.
  if (unknown) message += "; update libcurl";
  return Error(ErrorCode::kRefused, std::move(message));
}

}  // namespace bravebot
