/* The plainest MCP client, the baseline mcp-run is measured against as a whole
 * process: it starts the command it is given with two pipes, makes the
 * handshake, lists the tools, closes the server's input and waits for it to
 * end. No confinement, no JSON library, nothing but libc.
 *   plain_mcp_client PROGRAM [ARGS...] */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

static const char kRequests[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"plain\",\"version\":\"1\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: plain_mcp_client PROGRAM [ARGS...]\n");
    return 2;
  }
  int to_server[2], from_server[2];
  if (pipe(to_server) != 0 || pipe(from_server) != 0) return 1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_server[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_server[1], 1);
  posix_spawn_file_actions_addclose(&actions, to_server[1]);
  posix_spawn_file_actions_addclose(&actions, from_server[0]);
  pid_t pid;
  if (posix_spawn(&pid, argv[1], &actions, NULL, argv + 1, environ) != 0) return 1;
  close(to_server[0]);
  close(from_server[1]);
  /* Both requests at once: a server answers them in order, and the client
   * only needs to see the second answer's end. */
  if (write(to_server[1], kRequests, sizeof kRequests - 1) != (ssize_t)(sizeof kRequests - 1))
    return 1;
  FILE* answers = fdopen(from_server[0], "r");
  char* line = NULL;
  size_t capacity = 0;
  int answered = 0;
  while (answered < 2 && getline(&line, &capacity, answers) > 0) {
    if (strstr(line, "\"result\"") == NULL) return 1;
    ++answered;
  }
  free(line);
  close(to_server[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  return answered == 2 ? 0 : 1;
}
