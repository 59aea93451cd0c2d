// Declarations the unit tests build by hand.
#ifndef BRAVEBOT_TESTS_CONFINE_TESTING_DECLARATIONS_H_
#define BRAVEBOT_TESTS_CONFINE_TESTING_DECLARATIONS_H_

#include <string>

#include "confine/declaration.h"

namespace bravebot::testing {

// A service server, as `add ALIAS --http URL` declares it.
inline Declaration ServiceDeclaration(const std::string& alias, const std::string& url) {
  Declaration declaration;
  declaration.alias = alias;
  declaration.transport = Transport::kHttp;
  declaration.url = url;
  return declaration;
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_CONFINE_TESTING_DECLARATIONS_H_
