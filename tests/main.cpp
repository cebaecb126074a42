#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <csignal>

int main(int argc, char** argv) {
    // Tests that feed a pipe see its reader go with EPIPE, as a program that writes to a
    // pipe should, rather than being killed by SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    return doctest::Context(argc, argv).run();
}
