#include "base/result.h"

#include <cstring>

namespace bravebot {

Error Error::FromErrno(const std::string& what, int errno_value) {
  return Error(ErrorCode::kSystem, what + ": " + std::strerror(errno_value), errno_value);
}

}  // namespace bravebot
