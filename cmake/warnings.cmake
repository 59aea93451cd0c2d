# The compiler's warnings. Every build shows them; CI and scripts/build.sh
# make them errors (BRAVEBOT_WERROR), so that a user's compiler, newer or
# older than ours, still builds. Each was measured on the tree first and
# found nothing, or little that was fixed.
#
# Left out (measured with GCC 12, on the libraries, the programs and the
# probes):
#   -Wuseless-cast (GCC): 17 hits, each a cast useless with this C
#     library's types and needed with another's: a pid_t or gid_t cast to
#     the type a printf format names, libcap's cap_max_bits() to int.
#   -Wnull-dereference: 14 hits in running_server.cc alone, all in
#     Boost.Asio's code inlined at -O3 (io_context.hpp, scheduler.ipp), none
#     in ours: the optimizer's guesses, not ours to fix.
#   -Wconversion: none where measured, but not measured on every test (each
#     EXPECT_EQ of a size against a literal is one); worth a try later.
set(BRAVEBOT_WARNINGS
    -Wall
    -Wextra
    # A name that hides another in an outer scope.
    -Wshadow
    # A cast that drops const or volatile.
    -Wcast-qual
    # printf-like calls with a format that is not a literal, and their
    # arguments' types.
    -Wformat=2
    # A case that falls into the next without [[fallthrough]].
    -Wimplicit-fallthrough
    -Wmisleading-indentation)
# C++'s own (the project builds a few C files too: bench's plain client, a
# test's preloaded library).
foreach(warning
        # A class with virtual functions deleted through a base without a
        # virtual destructor.
        -Wnon-virtual-dtor
        # A virtual function that hides an overload of its base's, or
        # overrides one without saying so.
        -Woverloaded-virtual
        -Wsuggest-override
        # C's casts, which may reinterpret or cast away const silently.
        -Wold-style-cast
        -Wextra-semi)
  list(APPEND BRAVEBOT_WARNINGS "$<$<COMPILE_LANGUAGE:CXX>:${warning}>")
endforeach()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # The same condition tested twice in an if-else chain, the same code in
  # both branches, && and || that cannot be what was meant.
  list(APPEND BRAVEBOT_WARNINGS -Wduplicated-cond -Wduplicated-branches -Wlogical-op)
endif()
if(BRAVEBOT_WERROR)
  list(APPEND BRAVEBOT_WARNINGS -Werror)
endif()
add_compile_options(${BRAVEBOT_WARNINGS})
