// The rules of a header declared for a service (`add --http URL --header
// NAME=value`): a name HTTP reads as one (a token, RFC 9110 5.1), a value
// that cannot end the header line early, and never one of the headers the
// HTTP client sets itself, which a declared one would contradict or forge.
// Whatever is refused is said by the header's name alone: a value may be a
// key.
#ifndef BRAVEBOT_CONFINE_SERVICE_HEADER_H_
#define BRAVEBOT_CONFINE_SERVICE_HEADER_H_

#include <optional>
#include <string>
#include <string_view>

namespace bravebot {

// A token: letters, digits and !#$%&'*+-.^_`|~, at least one.
bool IsHeaderName(std::string_view name);

// Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID,
// Host, Content-Length, Transfer-Encoding, Connection and Expect, whatever
// their case.
bool IsSetByTheHttpClient(std::string_view name);

// What keeps a header's value from being sent: a line break or a NUL would
// end the header line early, and blanks alone are no value.
enum class HeaderValueProblem { kNone, kLineBreak, kBlank };
HeaderValueProblem HeaderValueProblemOf(std::string_view value);

// Why the header `name` with `value` cannot be declared, as the end of a
// sentence about it ("the header X-Key has a line break in its value"), or
// nothing where it can. `name` is shown only where it is a header name.
std::optional<std::string> HeaderRefusal(std::string_view name, std::string_view value);

// The header names equal whatever their case: HTTP reads them so.
bool SameHeaderName(std::string_view a, std::string_view b);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_SERVICE_HEADER_H_
