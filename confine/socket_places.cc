#include "confine/socket_places.h"

#include <algorithm>

#include "confine/paths.h"

namespace bravebot {

std::vector<std::string> UsualSocketPlaces(const std::vector<std::string>& personal,
                                           const FileSystemView& fs) {
  std::vector<std::string> candidates = {"/run", "/var/run", "/tmp", "/dev/shm", "/var/lib"};
  for (const std::string& place : personal) {
    if (!place.empty()) candidates.push_back(AbsolutePath(place, "/"));
  }
  std::vector<std::string> places;
  for (const std::string& candidate : candidates) {
    std::optional<std::string> resolved = fs.ResolvedPath(candidate);
    if (!resolved || *resolved == "/" || fs.KindOf(*resolved, Follow::kNo) != FileKind::kDirectory)
      continue;
    places.push_back(*resolved);
  }
  // A place beneath another is hidden with it.
  std::sort(places.begin(), places.end());
  std::vector<std::string> outermost;
  for (const std::string& place : places) {
    const bool beneath_one =
        std::any_of(outermost.begin(), outermost.end(),
                    [&](const std::string& outer) { return IsSameOrBeneath(place, outer); });
    if (!beneath_one) outermost.push_back(place);
  }
  return outermost;
}

}  // namespace bravebot
