// A child process spoken to as an MCP client or a session speaks to it: its
// standard input and output on pipes, a line a message.
#ifndef BRAVEBOT_BENCH_MCP_CHILD_H_
#define BRAVEBOT_BENCH_MCP_CHILD_H_

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/unique_fd.h"
#include "bench/spawn_words.h"

namespace bravebot {

using Json = nlohmann::json;

// A child with its standard input and output on pipes, read a line at a time.
class Child {
 public:
  // `directory`, where not empty, is the child's working directory, as a
  // client starts a server in its project.
  Child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
        const std::string& directory = "") {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
    UniqueFd child_in(in[0]), child_out(out[1]);
    input_.reset(in[1]);
    output_.reset(out[0]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, child_in.get(), 0);
    posix_spawn_file_actions_adddup2(&actions, child_out.get(), 1);
    if (!directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, directory.c_str());
    std::vector<char*> args = SpawnWords(argv);
    std::vector<char*> envp = SpawnWords(env);
    posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Child() {
    input_.reset();
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }

  bool Write(std::string whole) {
    whole.push_back('\n');
    for (std::size_t at = 0; at < whole.size();) {
      const ssize_t put = ::write(input_.get(), whole.data() + at, whole.size() - at);
      if (put <= 0) return false;
      at += static_cast<std::size_t>(put);
    }
    return true;
  }
  // The next line, "" once the child's output ended. What is handed out
  // is dropped from the buffer only once it is most of it, so a long
  // exchange neither grows the buffer nor moves it on every line.
  std::string_view ReadLine() {
    if (read_ > buffer_.size() / 2) {
      buffer_.erase(0, read_);
      read_ = 0;
    }
    for (std::size_t scanned = read_;;) {
      if (const std::size_t newline = buffer_.find('\n', scanned); newline != std::string::npos) {
        const std::string_view line(buffer_.data() + read_, newline - read_);
        read_ = newline + 1;
        return line;
      }
      scanned = buffer_.size();
      char chunk[65536];
      const ssize_t got = ::read(output_.get(), chunk, sizeof(chunk));
      if (got <= 0) return "";
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }
  // The answer to request `id`, passing over notifications, and keeping
  // the answers to other requests for later: they come in any order.
  Json AnswerTo(int id) {
    for (;;) {
      if (auto kept = answers_.find(id); kept != answers_.end()) {
        Json answer = std::move(kept->second);
        answers_.erase(kept);
        return answer;
      }
      const std::string_view line = ReadLine();
      if (line.empty()) return Json();
      Json message = Json::parse(line, nullptr, false);
      if (message.is_object() && message.contains("id") && message["id"].is_number_integer()) {
        const int answered = message["id"].get<int>();
        answers_[answered] = std::move(message);
      }
    }
  }
  // Whether request `id` was answered with a result, as AnswerTo reads it
  // but, for the answers measured, without a document: the tiny server and
  // the supervisor both begin an answer with {"jsonrpc":"2.0","id":N, and
  // on two cores the client's own work competes with what it measures.
  // Any other line with an id is read whole.
  bool ResultCame(int id) {
    static constexpr std::string_view kHead = R"({"jsonrpc":"2.0","id":)";
    static constexpr std::string_view kResult = R"(,"result":)";
    for (;;) {
      if (auto kept = results_.find(id); kept != results_.end()) {
        const bool result = kept->second;
        results_.erase(kept);
        return result;
      }
      const std::string_view line = ReadLine();
      if (line.empty()) return false;
      int answered = 0;
      const char* end = line.data() + line.size();
      const auto read = line.starts_with(kHead)
                            ? std::from_chars(line.data() + kHead.size(), end, answered)
                            : std::from_chars_result{nullptr, std::errc::invalid_argument};
      if (read.ec == std::errc() && read.ptr != end && (*read.ptr == ',' || *read.ptr == '}')) {
        results_[answered] = std::string_view(read.ptr, end - read.ptr).starts_with(kResult);
        continue;
      }
      Json message = Json::parse(line, nullptr, false);
      if (message.is_object() && message.contains("id") && message["id"].is_number_integer()) {
        results_[message["id"].get<int>()] = message.contains("result");
      }
    }
  }

 private:
  pid_t pid_ = -1;
  UniqueFd input_;
  UniqueFd output_;
  std::string buffer_;
  std::size_t read_ = 0;  // buffer_ up to here is handed out
  std::map<int, Json> answers_;
  std::map<int, bool> results_;
};

// A request's line built once, each call's id put in front, so that the
// client's own work stays small (see Child::ResultCame).
class RequestLine {
 public:
  RequestLine(const std::string& method, const Json& params)
      : rest_(Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump().substr(1)) {}
  std::string For(int id) const { return R"({"id":)" + std::to_string(id) + "," + rest_; }

 private:
  std::string rest_;  // the line without its '{'
};

inline std::string Request(int id, const std::string& method, const Json& params) {
  return RequestLine(method, params).For(id);
}

}  // namespace bravebot

#endif  // BRAVEBOT_BENCH_MCP_CHILD_H_
