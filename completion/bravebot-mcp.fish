# fish completion for bravebot-mcp: every command, every option, and the
# aliases declared in the profile directory, as the bash completion gives
# them. Installed under share/fish/vendor_completions.d.

# The declared aliases, read through bravebot-mcp itself, so the profile
# directory is the one the commands use ($BRAVEBOT_HOME, else ~/.bravebot).
function __bravebot_mcp_aliases
    bravebot-mcp list --json 2>/dev/null | string replace -r -f '^ *"alias": "([A-Za-z0-9_-]+)",?$' '$1'
end

# True while the words typed hold a bare --: what follows is the server's.
function __bravebot_mcp_after_dashes
    contains -- -- (commandline -opc)
end

set -l commands add approve audit disable doctor enable forget gateway get import list login logout reach remove session
complete -c bravebot-mcp -f
complete -c bravebot-mcp -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c bravebot-mcp -n "not __fish_seen_subcommand_from $commands" -s h -l help
complete -c bravebot-mcp -n "not __fish_seen_subcommand_from $commands" -s V -l version
complete -c bravebot-mcp -n "__fish_seen_subcommand_from $commands; and not __bravebot_mcp_after_dashes" -s h -l help

complete -c bravebot-mcp -n "__fish_seen_subcommand_from approve remove enable disable get reach login logout" -a "(__bravebot_mcp_aliases)"
complete -c bravebot-mcp -n "__fish_seen_subcommand_from forget audit" -a "(__fish_complete_directories)"
complete -c bravebot-mcp -n "__fish_seen_subcommand_from import" -F

# add, and mcp-run, which takes add's options for a server named there.
for program in bravebot-mcp mcp-run
    set -l when "not __bravebot_mcp_after_dashes"
    test $program = bravebot-mcp; and set when "__fish_seen_subcommand_from add; and $when"
    complete -c $program -n "$when" -s e -l env -x -d "a variable: NAME=value, or NAME"
    complete -c $program -n "$when" -l dir -x -a "(__fish_complete_directories)"
    complete -c $program -n "$when" -l http -x -d "a service's url"
    complete -c $program -n "$when" -l header -x -d "NAME=value, or NAME"
    complete -c $program -n "$when" -l client-id -x
    complete -c $program -n "$when" -l client-secret-file -r -F
    complete -c $program -n "$when" -l oauth-scope -x
    complete -c $program -n "$when" -l stdio
end
complete -c bravebot-mcp -n "__fish_seen_subcommand_from add enable disable; and not __bravebot_mcp_after_dashes" -s s -l scope -x -a "local project user"
complete -c bravebot-mcp -n "__fish_seen_subcommand_from add; and __bravebot_mcp_after_dashes" -F
complete -c bravebot-mcp -n "__fish_seen_subcommand_from approve" -l tools
complete -c bravebot-mcp -n "__fish_seen_subcommand_from audit" -l probe
complete -c bravebot-mcp -n "__fish_seen_subcommand_from audit" -l prune
complete -c bravebot-mcp -n "__fish_seen_subcommand_from audit" -l yes
complete -c bravebot-mcp -n "__fish_seen_subcommand_from get list doctor audit reach" -l json
complete -c bravebot-mcp -n "__fish_seen_subcommand_from reach" -l probe
complete -c bravebot-mcp -n "__fish_seen_subcommand_from reach" -l verbose
complete -c bravebot-mcp -n "__fish_seen_subcommand_from reach" -l seatbelt
complete -c bravebot-mcp -n "__fish_seen_subcommand_from import" -l dry-run
complete -c bravebot-mcp -n "__fish_seen_subcommand_from session gateway" -l incognito
complete -c bravebot-mcp -n "__fish_seen_subcommand_from session gateway" -l dangerously-skip-permissions
complete -c bravebot-mcp -n "__fish_seen_subcommand_from session gateway" -l startup-timeout -x
complete -c bravebot-mcp -n "__fish_seen_subcommand_from session" -l one-shot
complete -c bravebot-mcp -n "__fish_seen_subcommand_from gateway" -l dir -x -a "(__fish_complete_directories)"

# mcp-run: its own options, and the declared aliases.
complete -c mcp-run -f
complete -c mcp-run -n "not __bravebot_mcp_after_dashes" -l call -x -d "TOOL JSON"
complete -c mcp-run -n "not __bravebot_mcp_after_dashes" -l stdio
complete -c mcp-run -n "not __bravebot_mcp_after_dashes" -l timeout -x -d SECONDS
complete -c mcp-run -n "not __bravebot_mcp_after_dashes" -s h -l help
complete -c mcp-run -n "not __bravebot_mcp_after_dashes" -a "(__bravebot_mcp_aliases)"
complete -c mcp-run -n __bravebot_mcp_after_dashes -F
