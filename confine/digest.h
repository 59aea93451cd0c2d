// The digest of a declaration: what an approval approves. SHA-256 over an
// unambiguous encoding of the transport, the program, every argument, the url,
// the sorted variable names and the directory, and, for a service declared
// with headers, their names (lowercase, sorted), and, for one declared with an
// OAuth client or scopes, the client id, whether it has a secret and the
// scopes. The alias is not part of it, and nor is any stored value, header
// value or client secret.
//
// Each of those fields has a digest of its own too, so that a declaration that
// changed since its approval can say which fields changed ("changed: argv").
//
//   DeclarationDigest digest = ComputeDigest(weather);
//   std::cout << digest.Short();  // "25edc5e8"
#ifndef BRAVEBOT_CONFINE_DIGEST_H_
#define BRAVEBOT_CONFINE_DIGEST_H_

#include <map>
#include <string>
#include <vector>

#include "confine/declaration.h"

namespace bravebot {

struct DeclarationDigest {
  std::string hex;  // 64 hex digits
  // One digest per field, keyed by the field's name: transport, program, argv,
  // url, variables, directory, and headers and oauth where it has any.
  std::map<std::string, std::string> fields;

  std::string Short() const { return hex.substr(0, kShortDigestLength); }
  static constexpr size_t kShortDigestLength = 8;
};

DeclarationDigest ComputeDigest(const Declaration& declaration);

// The names of the fields whose digests differ between `before` and `after`,
// in the order ComputeDigest lists them. A field missing on one side counts
// as changed; one missing on both (headers or oauth, where neither has any)
// does not.
std::vector<std::string> ChangedFields(const std::map<std::string, std::string>& before,
                                       const std::map<std::string, std::string>& after);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_DIGEST_H_
