#!/usr/bin/env python3
"""Checks bravebot-supervisor messages against the protocol's JSON Schema.

  validate-protocol.py SCHEMA LOG...
  validate-protocol.py SCHEMA --self-test

Each LOG holds one JSON object a line:

  {"answers": "server/start", "message": {...}}   the answer to a server/start
  {"message": {...}}                              a notification (its method inside)
  {"sends": "server/start", "message": {...}}     a request the session sends

An answer holding "error" is checked against ErrorResponse, whatever the
method; any other against the method's own Response ($defs/ServerStartResponse
for server/start). Blank lines are skipped. Exits 1 when a message fails, or
when there was no message at all: an empty log proves nothing.

--self-test checks samples built in here: each good one must pass and each bad
one must fail, so the schema is shown to accept the protocol and to refuse
what breaks it. Works with python3-jsonschema 4.10 (Debian 12) and later.
"""

import json
import sys

import jsonschema


# The characters of a validator's message shown: it may quote a whole message.
MAX_SHOWN = 240


def def_name(method, kind):
    """session/open -> SessionOpenResponse; server/stderr -> ServerStderrNotification."""
    words = method.replace("-", "/").split("/")
    return "".join(word[:1].upper() + word[1:] for word in words) + kind


class Checker:
    """Validates a message against one $def of the schema."""

    def __init__(self, schema):
        jsonschema.Draft202012Validator.check_schema(schema)
        self.defs = schema.get("$defs", {})
        self.validators = {}

    def validator(self, name):
        if name not in self.validators:
            # The $def is referred to from a schema holding every $def, so that
            # its own $refs resolve without a RefResolver or a registry.
            wrapper = {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": self.defs,
                "$ref": "#/$defs/" + name,
            }
            self.validators[name] = jsonschema.Draft202012Validator(wrapper)
        return self.validators[name]

    def target(self, entry):
        """The $def an entry's message is checked against, or an error string."""
        if not isinstance(entry, dict) or "message" not in entry:
            return None, 'not a log entry: an object with "message" is expected'
        message = entry["message"]
        if "answers" in entry:
            method = entry["answers"]
            if not isinstance(method, str):
                return None, '"answers" is not a method name'
            if isinstance(message, dict) and "error" in message:
                return "ErrorResponse", None
            name = def_name(method, "Response")
        elif "sends" in entry:
            method = entry["sends"]
            if not isinstance(method, str):
                return None, '"sends" is not a method name'
            name = def_name(method, "Request")
        else:
            method = message.get("method") if isinstance(message, dict) else None
            if not isinstance(method, str):
                return None, 'a notification without a method (an answer needs "answers")'
            name = def_name(method, "Notification")
        if name not in self.defs:
            return None, "the schema has no $defs/%s for %s" % (name, method)
        return name, None

    def failures(self, entry):
        """Why `entry` fails, one string per reason; empty when it passes."""
        name, problem = self.target(entry)
        if problem:
            return [problem]
        errors = list(self.validator(name).iter_errors(entry["message"]))
        # The deepest first: "state" is not one of the enum says more than
        # the object around it failing a condition.
        errors.sort(key=lambda error: -len(error.absolute_path))
        reasons = []
        for error in errors:
            where = "".join("/" + str(part) for part in error.absolute_path) or "/"
            text = error.message
            if len(text) > MAX_SHOWN:
                text = text[:MAX_SHOWN] + "..."
            reasons.append("%s at %s: %s" % (name, where, text))
        return reasons


def check_logs(checker, paths):
    checked = failed = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as log:
                lines = log.read().splitlines()
        except (OSError, UnicodeDecodeError) as error:
            print("%s: cannot be read: %s" % (path, error))
            failed += 1
            continue
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            checked += 1
            try:
                entry = json.loads(line)
            except ValueError as error:
                reasons = ["not JSON: %s" % error]
            else:
                reasons = checker.failures(entry)
            for reason in reasons:
                print("%s:%d: %s" % (path, number, reason))
            failed += bool(reasons)
    if checked == 0:
        print("validate-protocol: no message to check, which proves nothing")
        return 1
    print("validate-protocol: %d messages checked, %d failed" % (checked, failed))
    return 1 if failed else 0


# Samples for --self-test: realistic messages of a session in /home/you/work/app
# that asks for weather (declared, asked about) and docs (not declared).

DIGEST = "25edc5e86f0b3c9a4d12e7b85a03f6c1d9e24b7a0c5f83e16d4a92b7c0e5f318"
SETTINGS = "/home/you/work/app/.bravebot/settings.json"
QUESTION = (
    "  weather   stdio   npx -y @dangahagan/weather-mcp@latest\n"
    "            requested by .bravebot/settings.json\n"
    "            runs /usr/bin/npx\n"
    "            variables: PATH\n"
    "            digest: 25edc5e8\n"
    "            npx fetches what it runs when it starts\n"
    "            @dangahagan/weather-mcp@latest names no exact version, so it runs whatever"
    " is published under it\n"
    "\n"
    "  Use this MCP server?\n"
    "  1. Yes\n"
    "  2. Yes, and use all future MCP servers in this project\n"
    "  3. No, continue without this server\n"
    "  [1/2/3]")
DOCS_REASON = (".bravebot/settings.json requests the MCP server docs, which is not declared, "
               "so nothing was installed or run for it: bravebot-mcp add declares one")
CONFINEMENT = {
    "line": "kernel-enforced",
    "detail": "this session confines the MCP servers it started, and nothing else it runs",
    "landlockAbi": 7,
    "userNamespaces": True,
}
WEATHER_ASK = {"alias": "weather", "transport": "stdio", "digest": DIGEST,
               "requestedBy": [SETTINGS], "state": "ask", "question": QUESTION}
WEATHER_LEFT_OUT = {
    "alias": "weather", "transport": "stdio", "digest": DIGEST, "requestedBy": [SETTINGS],
    "state": "left-out",
    "reason": "weather was not started: a one-shot run asks nobody, so run"
              " bravebot-mcp approve weather at a terminal"}
DOCS = {"alias": "docs", "transport": None, "digest": None, "requestedBy": [SETTINGS],
        "state": "undeclared", "reason": DOCS_REASON}
OPENED = {"servers": [DOCS, WEATHER_ASK], "notes": [DOCS_REASON], "confinement": CONFINEMENT}
TOOL = {
    "name": "get_current_conditions",
    "description": "Get the most recent weather observation for a location.",
    "inputSchema": {"type": "object", "properties": {"city_name": {"type": "string"}}},
}
TOOLS_DIGEST = "9b1f0c4e7a2d85b36e0f1c9a4d7b2e58c3a6f9d0b1e4c7a2f5d8e1b4c7a0d3f6"
OFFER = ("weather offers 1 tool\n"
         "\n"
         "The model will read each tool's name, its arguments and what the server says about"
         " it, as shown here. Every call is still put to you. Say no if a description gives"
         " instructions.\n"
         "\n"
         "  weather:get_current_conditions\n"
         "    city_name: string\n"
         "\u2503 Get the most recent weather observation for a location.")
MODEL_TOOL = {
    "name": "mcp__weather__get_current_conditions",
    "description": "A tool of the MCP server weather, which bravebot runs confined. Every call"
                   " to it is put to the user, who may decline it. What follows is the server's"
                   " own description.\n\nGet the most recent weather observation for a"
                   " location.",
    "inputSchema": {"type": "object", "properties": {"city_name": {"type": "string"}}},
}
LINT = {"tool": "get_current_conditions", "where": "description",
        "kind": "addressed-to-model", "text": "words addressed to the model: <IMPORTANT>"}
LIST_FIELDS = {"toolsDigest": TOOLS_DIGEST, "toolsState": "ask", "offer": OFFER,
               "modelTools": [MODEL_TOOL], "lint": [], "offered": False}
STARTED = dict({"serverInfo": {"name": "weather-mcp", "version": "1.6.1"},
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {"listChanged": True}},
                "instructions": None, "tools": [TOOL]}, **LIST_FIELDS)
CALL_QUESTION = ("  weather:get_current_conditions\n"
                 "    city_name: \"Toronto, Canada\"\n"
                 "\u2503 Get the most recent weather observation for a location.\n"
                 "\n"
                 "  Proceed?\n"
                 "  1. Yes\n"
                 "  2. Yes, and don't ask again for weather:get_current_conditions in this"
                 " project\n"
                 "  3. No")
START_FAILURE = {"step": "exited", "status": 1, "printedAnything": False,
                 "stderrTail": ["Error: Cannot find module 'undici'"]}
STATUS_TEXT = ("  Confinement   kernel-enforced\n"
               "                  this session confines the MCP servers it started, and"
               " nothing else it runs\n"
               "  MCP servers   weather")


def response(id_, result):
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def error(id_, code, message, data=None):
    body = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": body}


def notification(method, params):
    return {"jsonrpc": "2.0", "method": method, "params": params}


def request(id_, method, params=None):
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return message


def answers(method, message):
    return {"answers": method, "message": message}


def sends(method, message):
    return {"sends": method, "message": message}


def note(message):
    return {"message": message}


def with_changes(value, path, new=None, drop=False):
    """A deep copy of `value` with the member at `path` set to `new`, or dropped."""
    value = json.loads(json.dumps(value))
    *parents, last = path
    place = value
    for key in parents:
        place = place[key]
    if drop:
        del place[last]
    else:
        place[last] = new
    return value


REDIRECT_QUESTION = {
    "state": "redirect",
    "question": "  docs is declared at https://docs.example.com/mcp\n  and its reply points to"
                " https://mcp.example.net/mcp\n  ...\n\n  declare this server where its reply"
                " points? [y/N]",
    "from": "https://docs.example.com/mcp",
    "to": "https://mcp.example.net/mcp",
}

GOOD = [
    answers("session/open", response(1, OPENED)),
    answers("session/open", response("open-1", {
        "servers": [WEATHER_LEFT_OUT],
        "notes": [WEATHER_LEFT_OUT["reason"]],
        "confinement": dict(CONFINEMENT, line="not available",
                            detail="this kernel has no Landlock, so no MCP server is started",
                            landlockAbi=0, userNamespaces=False)})),
    answers("server/answer", response(2, {"state": "start"})),
    answers("server/answer", response(2, {
        "state": "left-out",
        "reason": "weather is not used in this session: the answer was 3"})),
    answers("server/start", response(3, STARTED)),
    answers("server/start", response(3, dict(STARTED, serverInfo=None, capabilities={},
                                             instructions="Call get_alerts first.",
                                             tools=[]))),
    answers("server/start", response(3, dict(STARTED, toolsState="approved", offered=True,
                                             lint=[LINT]))),
    answers("server/start", response(3, dict(
        STARTED, toolsState="changed",
        note="note: weather offers no tool in this session: its list was not approved"))),
    answers("tools/answer", response(11, {"offered": True, "modelTools": [MODEL_TOOL]})),
    answers("tools/answer", response(11, {
        "offered": True, "modelTools": [MODEL_TOOL],
        "note": "the yes holds for this session, and was not recorded: mcp-approved is locked"})),
    answers("tools/answer", response(11, {"offered": False})),
    answers("tool/call", response(12, {
        "state": "ran", "private": True,
        "result": {"content": [{"type": "text", "text": "Toronto: 4 \u00b0C"}],
                   "isError": False}})),
    answers("tool/call", response(12, {
        "state": "ran", "private": True, "note": "the call runs, and its answer 2 was not"
        " recorded: mcp-tools could not be written", "result": {"content": []}})),
    answers("tool/call", response(12, {"state": "ask", "question": CALL_QUESTION,
                                       "plainQuestion": CALL_QUESTION + "\nProceed? [y/N]"})),
    answers("tool/call", response(12, {
        "state": "refused", "text": "weather:get_alerts is denied by a rule in"
        " .bravebot/settings.json"})),
    answers("tool/call", response(12, {"state": "declined",
                                       "text": "you declined weather:get_alerts"})),
    answers("tool/call", error(12, -32004, "weather:get_alerts failed: weather answered"
                               " tools/call with JSON-RPC error -32602",
                               {"tool": "get_alerts", "method": "tools/call", "code": -32602})),
    answers("tool/call", error(12, -32004, "weather:get_alerts failed: weather wrote a line"
                               " that is not JSON while bravebot-mcp waited for its answer to"
                               " tools/call for get_alerts, so that answer cannot be read"
                               " (-32700, parse error)",
                               {"tool": "get_alerts", "method": "tools/call", "code": -32700})),
    answers("tool/call", error(12, -32004, "weather:get_alerts failed: weather gave no answer"
                               " to tools/call for get_alerts within 120 s, so it was"
                               " cancelled (-32001, request timed out)",
                               {"tool": "get_alerts", "method": "tools/call", "code": -32001})),
    answers("tool/call", error(12, -32005, "weather:get_alerts failed: weather exited with"
                               " status 1 before answering",
                               {"status": 1, "tool": "get_alerts", "method": "tools/call"})),
    answers("session/released", response(13, {"released": True})),
    answers("server/start", response(3, REDIRECT_QUESTION)),
    answers("tool/call", response(12, REDIRECT_QUESTION)),
    answers("redirect/answer", response(15, dict(
        STARTED, movedTo="https://mcp.example.net/mcp"))),
    answers("redirect/answer", response(15, {
        "state": "ran", "private": True, "result": {"content": []}})),
    answers("tools/offered", response(14, {"tools": [MODEL_TOOL]})),
    answers("tools/offered", response(14, {"tools": []})),
    note(notification("server/toolsChanged", dict({"alias": "weather", "tools": [TOOL]},
                                                  **LIST_FIELDS))),
    answers("server/request", response(4, {
        "content": [{"type": "text", "text": "Toronto: 4 °C, light snow"}], "isError": False})),
    answers("server/request", response(4, None)),
    answers("server/request", response(4, [1, "two"])),
    answers("server/notify", response(5, {})),
    answers("server/reply", response(6, {})),
    answers("request/cancel", response(7, {})),
    answers("server/stop", response(8, {"status": 143})),
    answers("server/stop", response(8, {"status": None})),
    answers("session/status", response(9, {
        "text": STATUS_TEXT, "confinement": CONFINEMENT,
        "servers": [{"alias": "fetch", "state": "exited", "status": 1},
                    {"alias": "notes", "state": "failed"},
                    {"alias": "search", "state": "stopped"},
                    {"alias": "weather", "state": "running", "pid": 48213}]})),
    answers("session/close", response(10, {})),
    answers("server/start", error(3, -32003, "weather did not start: the server closed its"
                                  " standard output before answering initialize (it exited"
                                  " with status 1)", START_FAILURE)),
    answers("server/start", error(3, -32003, "weather did not start: no answer to initialize"
                                  " within 30 s", {"step": "timeout", "printedAnything": False,
                                                   "stderrTail": []})),
    answers("server/start", error(3, -32005, "weather was stopped by the session before it"
                                  " answered", {"status": None})),
    answers("server/request", error(4, -32004, "weather answered tools/call for get_alerts"
                                    " with JSON-RPC error -32602 (invalid params)",
                                    {"code": -32602})),
    answers("server/request", error(4, -32004, "weather answered tools/call for get_alerts"
                                    " with an error that has no code")),
    answers("server/request", error(4, -32004, "weather is not reading its input: tools/call"
                                    " for get_forecast was not sent, since more than 32 MiB"
                                    " waits for it")),
    answers("server/request", error(4, -32005, "weather exited with status 1 before"
                                    " answering", {"status": 1})),
    answers("server/request", error(4, -32005, "weather was stopped: the session is closing",
                                    {"status": None})),
    answers("server/request", error(4, -32800, "cancelled by the session")),
    answers("server/start", error(3, -32603,
                                  "the answer is longer than 16 MiB once written, which no "
                                  "session reads")),
    answers("server/answer", error(2, -32002, "docs has no question waiting: its state is"
                                   " undeclared")),
    answers("session/status", error(1, -32001, "no session is open: send session/open"
                                    " first")),
    answers("sesion/open", error(1, -32601, "the supervisor has no method \"sesion/open\"")),
    answers("session/open", error(1, -32602, "params.directory must be an absolute path: the"
                                  " directory the session runs in")),
    answers("request/cancel", error(7, -32602, "no request of the session with that id is"
                                    " waiting")),
    answers("", error(None, -32700, "the line is not JSON: \"{oops\"")),
    answers("", error(None, -32600, "a batch is not accepted: send one request a line")),
    note(notification("server/message", {"alias": "weather", "message": {
        "jsonrpc": "2.0", "id": 41, "method": "ping"}})),
    note(notification("server/message", {"alias": "weather", "message": {
        "jsonrpc": "2.0", "method": "notifications/tools/list_changed"}})),
    note(notification("server/stderr", {
        "alias": "weather", "line": "weather-mcp listening on stdio \\x1b[32mready\\x1b[0m"})),
    note(notification("server/exited", {"alias": "weather", "status": 137,
                                        "stderrTail": ["FATAL ERROR: heap out of memory"]})),
    sends("session/open", request(1, "session/open", {
        "directory": "/home/you/work/app", "mode": "plain", "incognito": True,
        "skipPermissions": False, "startupTimeoutSeconds": 60, "callTimeoutSeconds": 300})),
    sends("session/open", request(1, "session/open", {"directory": "/home/you/work/app"})),
    sends("session/open", request("open-1", "session/open", {
        "directory": "/home/you/work/app", "mode": "terminal",
        "capabilities": {"sampling": {}, "roots": {"listChanged": True},
                         "elicitation": {}}})),
    sends("server/answer", request(2, "server/answer", {"alias": "weather", "answer": "1"})),
    sends("server/start", request(3, "server/start", {"alias": "weather"})),
    sends("server/request", request(4, "server/request", {
        "alias": "weather", "method": "tools/call",
        "params": {"name": "get_current_conditions",
                   "arguments": {"city_name": "Toronto, Canada"}}})),
    sends("server/notify", request(5, "server/notify", {
        "alias": "weather", "method": "notifications/roots/list_changed"})),
    sends("server/reply", request(6, "server/reply", {"alias": "weather", "id": 41,
                                                      "result": {}})),
    sends("server/reply", request(6, "server/reply", {
        "alias": "weather", "id": 42,
        "error": {"code": -32601, "message": "Method not found"}})),
    sends("request/cancel", request(7, "request/cancel", {"id": 4})),
    sends("server/stop", request(8, "server/stop", {"alias": "weather"})),
    sends("tools/answer", request(11, "tools/answer", {"alias": "weather", "answer": "y"})),
    sends("tools/answer", request(11, "tools/answer", {
        "alias": "weather", "answer": "y", "toolsDigest": "ab" * 32})),
    sends("tool/call", request(12, "tool/call", {
        "alias": "weather", "tool": "get_current_conditions",
        "arguments": {"city_name": "Toronto, Canada"}})),
    sends("tool/call", request(12, "tool/call", {
        "alias": "weather", "tool": "get_current_conditions", "arguments": {},
        "meta": {"progressToken": 5}, "answer": "2"})),
    sends("redirect/answer", request(15, "redirect/answer", {"alias": "docs", "answer": "y"})),
    sends("session/released", request(13, "session/released")),
    sends("session/released", request(13, "session/released", {"released": False})),
    sends("tools/offered", request(14, "tools/offered", {"servers": ["weather"]})),
    sends("tools/offered", request(14, "tools/offered", {"servers": "all"})),
    sends("session/status", request(9, "session/status")),
    sends("session/status", {"jsonrpc": "2.0", "id": 9, "method": "session/status",
                              "params": None}),
    sends("session/close", request(10, "session/close", {})),
]

OPEN = answers("session/open", response(1, OPENED))
SERVERS = ("message", "result", "servers")
BAD = [
    ("a state outside the enum",
     with_changes(OPEN, SERVERS + (1, "state"), "approved")),
    ("a missing required member (confinement)",
     with_changes(OPEN, ("message", "result", "confinement"), drop=True)),
    ("a member a strict object does not have",
     with_changes(OPEN, SERVERS + (1, "approved"), True)),
    ("a question on a server that is not asked about",
     with_changes(OPEN, SERVERS + (1, "state"), "start")),
    ("an asked-about server without its question",
     with_changes(OPEN, SERVERS + (1, "question"), drop=True)),
    ("an undeclared server with a transport",
     with_changes(OPEN, SERVERS + (0, "transport"), "stdio")),
    ("a declared server whose digest is null",
     with_changes(OPEN, SERVERS + (1, "digest"), None)),
    ("a short digest", with_changes(OPEN, SERVERS + (1, "digest"), "25edc5e8")),
    ("a settings file given by a relative path",
     with_changes(OPEN, SERVERS + (1, "requestedBy"), [".bravebot/settings.json"])),
    ("an alias with a space", with_changes(OPEN, SERVERS + (1, "alias"), "my server")),
    ("Landlock ABI as a string",
     with_changes(OPEN, ("message", "result", "confinement", "landlockAbi"), "7")),
    ("jsonrpc 1.0", with_changes(OPEN, ("message", "jsonrpc"), "1.0")),
    ("an answer without its id", with_changes(OPEN, ("message", "id"), drop=True)),
    ("an answer whose id is null", with_changes(OPEN, ("message", "id"), None)),
    ("a left-out answer without its reason",
     answers("server/answer", response(2, {"state": "left-out"}))),
    ("an answer to server/answer in a session/status state",
     answers("server/answer", response(2, {"state": "running"}))),
    ("a started server without its tools",
     answers("server/start", response(3, with_changes(STARTED, ("tools",), drop=True)))),
    ("a tool without a name",
     answers("server/start", response(3, dict(STARTED, tools=[{"description": "x"}])))),
    ("server/notify answered with something in {}",
     answers("server/notify", response(5, {"ok": True}))),
    ("server/stop status as a string",
     answers("server/stop", response(8, {"status": "143"}))),
    ("a running server with an exit status",
     answers("session/status", response(9, {
         "text": STATUS_TEXT, "confinement": CONFINEMENT,
         "servers": [{"alias": "weather", "state": "running", "pid": 48213, "status": 0}]}))),
    ("an exited server with a pid",
     answers("session/status", response(9, {
         "text": STATUS_TEXT, "confinement": CONFINEMENT,
         "servers": [{"alias": "weather", "state": "exited", "pid": 48213, "status": 0}]}))),
    ("an error code as a string",
     answers("server/start", error(3, "-32003", "weather did not start", START_FAILURE))),
    ("an error code not in the list",
     answers("server/request", error(4, -32099, "a code of no meaning here"))),
    ("-32003 without its data",
     answers("server/start", error(3, -32003, "weather did not start: no answer"))),
    ("-32003 with a step outside the enum",
     answers("server/start", error(3, -32003, "weather did not start",
                                   dict(START_FAILURE, step="crashed")))),
    ("-32003 exited without its status",
     answers("server/start", error(3, -32003, "weather did not start",
                                   with_changes(START_FAILURE, ("status",), drop=True)))),
    ("-32003 data with a member it does not have",
     answers("server/start", error(3, -32003, "weather did not start",
                                   dict(START_FAILURE, errno=2)))),
    ("-32005 without the status",
     answers("server/request", error(4, -32005, "weather exited before answering"))),
    ("-32601 with data", answers("x", error(1, -32601, "there is no method x", {"m": "x"}))),
    ("-32700 with an id", answers("", error(1, -32700, "the line is not JSON"))),
    ("-32602 with a null id", answers("", error(None, -32602, "directory is missing"))),
    ("an error without a message",
     answers("server/start", {"jsonrpc": "2.0", "id": 3, "error": {"code": -32002}})),
    ("a notification with an id",
     note(dict(notification("server/stderr", {"alias": "weather", "line": "ready"}), id=7))),
    ("a stderr line with a raw escape character",
     note(notification("server/stderr", {"alias": "weather", "line": "\x1b[2Jgone"}))),
    ("a stderr notification without its line",
     note(notification("server/stderr", {"alias": "weather"}))),
    ("server/message with a string id",
     note(notification("server/message", {"alias": "weather", "message": {
         "jsonrpc": "2.0", "id": "p-7", "method": "ping"}}))),
    ("server/message holding a response",
     note(notification("server/message", {"alias": "weather", "message": {
         "jsonrpc": "2.0", "id": 41, "result": {}}}))),
    ("server/exited without its stderrTail",
     note(notification("server/exited", {"alias": "weather", "status": 1}))),
    ("server/exited with status -1",
     note(notification("server/exited", {"alias": "weather", "status": -1,
                                         "stderrTail": []}))),
    ("a notification no one sends",
     note(notification("server/restarted", {"alias": "weather"}))),
    ("session/open with a misspelt member",
     sends("session/open", request(1, "session/open", {
         "directory": "/home/you/work/app", "incognitto": True}))),
    ("session/open with a relative directory",
     sends("session/open", request(1, "session/open", {"directory": "work/app"}))),
    ("session/open with a start-up timeout of 0",
     sends("session/open", request(1, "session/open", {
         "directory": "/home/you/work/app", "startupTimeoutSeconds": 0}))),
    ("session/open with a call timeout of 0",
     sends("session/open", request(1, "session/open", {
         "directory": "/home/you/work/app", "callTimeoutSeconds": 0}))),
    ("session/open with a call timeout of more than a day",
     sends("session/open", request(1, "session/open", {
         "directory": "/home/you/work/app", "callTimeoutSeconds": 86401}))),
    ("session/open in a mode that does not exist",
     sends("session/open", request(1, "session/open", {
         "directory": "/home/you/work/app", "mode": "incognito"}))),
    ("server/reply with both result and error",
     sends("server/reply", request(6, "server/reply", {
         "alias": "weather", "id": 41, "result": {},
         "error": {"code": -32601, "message": "Method not found"}}))),
    ("server/reply with neither result nor error",
     sends("server/reply", request(6, "server/reply", {"alias": "weather", "id": 41}))),
    ("session/open with capabilities that are not an object",
     sends("session/open", request(1, "session/open", {
         "directory": "/home/you/work/app", "capabilities": ["sampling"]}))),
    ("an answer whose id is not a whole number", with_changes(OPEN, ("message", "id"), 1.5)),
    ("a confinement line outside the two",
     with_changes(OPEN, ("message", "result", "confinement", "line"), "enforced")),
    ("serverInfo with a member it does not pass on",
     answers("server/start", response(3, dict(STARTED, serverInfo={
         "name": "weather-mcp", "version": "1.6.1", "title": "Weather"})))),
    ("-32003 with a step this version does not send",
     answers("server/start", error(3, -32003, "weather did not start",
                                   dict(START_FAILURE, step="closed")))),
    ("-32003 timeout with a status",
     answers("server/start", error(3, -32003, "weather did not start",
                                   dict(START_FAILURE, step="timeout")))),
    ("server/reply naming a string id",
     sends("server/reply", request(6, "server/reply", {"alias": "weather", "id": "41",
                                                       "result": {}}))),
    ("a started server without its toolsDigest",
     answers("server/start", response(3, with_changes(STARTED, ("toolsDigest",), drop=True)))),
    ("a toolsState outside the three",
     answers("server/start", response(3, dict(STARTED, toolsState="pinned")))),
    ("an offer holding a raw escape character",
     answers("server/start", response(3, dict(STARTED, offer="weather offers\x1b[2J")))),
    ("a model tool not named mcp__",
     answers("server/start", response(3, dict(STARTED, modelTools=[
         dict(MODEL_TOOL, name="get_current_conditions")])))),
    ("a lint finding of a kind outside the four",
     answers("server/start", response(3, dict(STARTED, lint=[dict(LINT, kind="spooky")])))),
    ("a list declined, with modelTools",
     answers("tools/answer", response(11, {"offered": False, "modelTools": []}))),
    ("a call that ran, not marked private",
     answers("tool/call", response(12, {"state": "ran", "private": False, "result": {}}))),
    ("a call to ask about without its plain question",
     answers("tool/call", response(12, {"state": "ask", "question": CALL_QUESTION}))),
    ("a call refused without its words",
     answers("tool/call", response(12, {"state": "refused"}))),
    ("a tool/call failure naming a method that is not tools/call",
     answers("tool/call", error(12, -32004, "weather:x failed",
                                {"tool": "x", "method": "tools/list"}))),
    ("tool/call with arguments that are not an object",
     sends("tool/call", request(12, "tool/call", {"alias": "weather", "tool": "x",
                                                  "arguments": ["Toronto"]}))),
    ("tools/answer answered with a number",
     sends("tools/answer", request(11, "tools/answer", {"alias": "weather", "answer": 1}))),
    ("server/toolsChanged without its alias",
     note(notification("server/toolsChanged", dict({"tools": [TOOL]}, **LIST_FIELDS)))),
    ("request/cancel naming a null id",
     sends("request/cancel", request(7, "request/cancel", {"id": None}))),
]


def self_test(checker):
    bad_count = 0
    covered = set()
    for entry in GOOD:
        name, _ = checker.target(entry)
        covered.add(name)
        for reason in checker.failures(entry):
            print("self-test: a good sample fails: %s\n  %s" % (reason, json.dumps(entry)))
            bad_count += 1
    for why, entry in BAD:
        if not checker.failures(entry):
            print("self-test: a bad sample passes (%s):\n  %s" % (why, json.dumps(entry)))
            bad_count += 1
    kinds = ("Response", "Notification", "Request")
    for name in sorted(checker.defs):
        if name.endswith(kinds) and name not in covered:
            print("self-test: no good sample for $defs/%s" % name)
            bad_count += 1
    if bad_count:
        print("self-test: %d problems" % bad_count)
        return 1
    print("self-test: %d good samples pass, %d bad samples are refused, and every message's"
          " $def has a sample" % (len(GOOD), len(BAD)))
    return 0


def main(argv):
    self_testing = "--self-test" in argv[2:]
    if len(argv) < 3 or argv[1] in ("-h", "--help") or (self_testing and len(argv) != 3):
        print("usage: validate-protocol.py SCHEMA LOG...\n"
              "       validate-protocol.py SCHEMA --self-test", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as file:
            schema = json.load(file)
        checker = Checker(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as error:
        print("validate-protocol: %s is not a usable schema: %s" % (argv[1], error))
        return 1
    if self_testing:
        return self_test(checker)
    return check_logs(checker, argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
