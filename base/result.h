// Errors as values: a Result<T> holds either a T or an Error saying what
// failed and why, in words a person can act on.
//
//   Result<Config> ReadConfig(const std::string& path);
//   BRAVEBOT_ASSIGN_OR_RETURN(Config config, ReadConfig(path));
//   BRAVEBOT_RETURN_IF_ERROR(Use(config));
//
// The two macros are the one way an error is passed up unchanged; an error
// that is looked at, or worded anew, is handled by hand.
#ifndef BRAVEBOT_BASE_RESULT_H_
#define BRAVEBOT_BASE_RESULT_H_

#include <cerrno>
#include <string>
#include <utility>
#include <variant>

namespace bravebot {

// What kind of failure an Error is; the command line maps it to an exit status.
enum class ErrorCode {
  kUsage,    // the words given do not form a command (exit status 2)
  kRefused,  // understood, and refused on purpose
  // A server refused at its start (by the administrator's file, or a kernel
  // that cannot confine it); the message is the whole sentence, naming it:
  // "weather was not started: ...".
  kNotStarted,
  kNotFound,  // the thing named does not exist
  kCorrupt,   // a file exists but cannot be read as what it should be
  kSystem,    // a system call failed; errno_value says how
  // A service refused the request until it is signed in to (an HTTP 401):
  // what a person does about it differs, so it travels apart from kRefused.
  kSignInNeeded,
};

class [[nodiscard]] Error {
 public:
  Error(ErrorCode code, std::string message, int errno_value = 0)
      : code_(code), message_(std::move(message)), errno_value_(errno_value) {}

  // An error from a failed system call: `what` is the action ("open /x"),
  // and the message gains strerror(errno_value).
  static Error FromErrno(const std::string& what, int errno_value = errno);

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  int errno_value() const { return errno_value_; }

 private:
  ErrorCode code_;
  std::string message_;
  int errno_value_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Result<void>: success carries nothing.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_{ErrorCode::kSystem, ""};
  bool ok_ = true;
};

using Status = Result<void>;

// Ends the calling function, which returns a Status or a Result, with the
// error of `expression` (a Status or a Result) where it failed.
#define BRAVEBOT_RETURN_IF_ERROR(expression)                       \
  do {                                                             \
    if (auto&& bravebot_status = (expression); !bravebot_status) { \
      return bravebot_status.error();                              \
    }                                                              \
  } while (false)

// Declares `declaration` ("Config config"), or assigns an lvalue
// ("reach.program"), with the value of `expression`, a Result, or ends the
// calling function with its error.
#define BRAVEBOT_ASSIGN_OR_RETURN(declaration, expression) \
  BRAVEBOT_ASSIGN_OR_RETURN_AS(BRAVEBOT_RESULT_NAME(__LINE__), declaration, expression)

// What BRAVEBOT_ASSIGN_OR_RETURN is made of: a name of its own for the
// Result on each line, so that two on one function do not clash.
#define BRAVEBOT_RESULT_NAME(line) BRAVEBOT_RESULT_NAME_OF(line)
#define BRAVEBOT_RESULT_NAME_OF(line) bravebot_result_##line
// `result` is a name and `declaration` a declaration: neither can be
// parenthesized, as clang-tidy would have macro arguments be.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define BRAVEBOT_ASSIGN_OR_RETURN_AS(result, declaration, expression) \
  auto result = (expression);                                         \
  if (!result) return result.error();                                 \
  declaration = std::move(result).value()
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_RESULT_H_
