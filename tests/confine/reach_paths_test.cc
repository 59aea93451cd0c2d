#include "confine/reach_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "confine/paths.h"

namespace bravebot {
namespace {

// What Covers means, said the long way: the path is a file granted, or is
// or lies beneath a directory granted.
bool CoveredByAnyGrant(const ReachPaths& paths, const std::string& path) {
  return std::any_of(paths.granted().begin(), paths.granted().end(), [&](const ReachPath& granted) {
    return granted.file_only ? granted.path == path : IsSameOrBeneath(path, granted.path);
  });
}

TEST(ReachPathsTest, CoversWhatIsGrantedAndWhatLiesBeneathADirectoryGranted) {
  ReachPaths paths;
  paths.Grant("/usr", PathAccess::kReadExecute, GrantExtent::kBeneath, "programs");
  paths.Grant("/etc/hosts", PathAccess::kRead, GrantExtent::kFileOnly, "a file");
  paths.Grant("/home/u/.cache/x", PathAccess::kReadWrite, GrantExtent::kBeneath, "a home");
  const std::vector<std::string> asked = {"/usr",
                                          "/usr/lib/x",
                                          "/usr2",
                                          "/us",
                                          "/",
                                          "/etc/hosts",
                                          "/etc/hosts/x",
                                          "/etc",
                                          "/etc/hostsx",
                                          "/home/u/.cache/x/y/z",
                                          "/home/u/.cache",
                                          "/home/u/.cache/xy",
                                          "usr/lib",
                                          "",
                                          "/usr/",
                                          "/home/u/.cache/x/"};
  for (const std::string& path : asked) {
    EXPECT_EQ(paths.Covers(path), CoveredByAnyGrant(paths, path)) << path;
  }
  EXPECT_TRUE(paths.Covers("/usr/lib/x"));
  EXPECT_FALSE(paths.Covers("/usr2"));
  EXPECT_FALSE(paths.Covers("/etc/hosts/x"));
}

TEST(ReachPathsTest, TheRootGrantedCoversEveryAbsolutePath) {
  ReachPaths paths;
  paths.Grant("/", PathAccess::kRead, GrantExtent::kBeneath, "everything");
  for (const std::string path : {"/", "/a", "/a/b/c"}) EXPECT_TRUE(paths.Covers(path)) << path;
  EXPECT_FALSE(paths.Covers("a/b"));
}

TEST(ReachPathsTest, AFileGrantedAgainAsADirectoryCoversWhatIsBeneath) {
  ReachPaths paths;
  paths.Grant("/opt/app", PathAccess::kRead, GrantExtent::kFileOnly, "first");
  EXPECT_FALSE(paths.Covers("/opt/app/bin"));
  paths.Grant("/opt/app", PathAccess::kReadExecute, GrantExtent::kBeneath, "second");
  EXPECT_TRUE(paths.Covers("/opt/app/bin"));
  ASSERT_EQ(paths.granted().size(), 1u);
  EXPECT_EQ(paths.granted()[0].reason, "first");
  EXPECT_EQ(paths.granted()[0].access, PathAccess::kReadExecute);
}

}  // namespace
}  // namespace bravebot
