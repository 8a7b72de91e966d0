/* ub-case
 * category: string-literal-modification
 * standard: C++17 [lex.string]/16
 * summary: const_cast removes const from a string literal, which is then modified
 * ub: yes
 * note: the literal lives in read-only memory, so the store faults (SIGSEGV); the handler prints that and exits 0
 * ub-line: 23, 30
 * twin: const-cast.fixed.cpp
 */
#include <csignal>
#include <cstdio>
#include <unistd.h>

static void on_signal(int)
{
    static const char msg[] = "SIGSEGV\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

__attribute__((noinline)) static void capitalise(char *s)
{
    s[0] = static_cast<char>(s[0] - 32);
}

int main(int argc, char **)
{
    std::signal(SIGSEGV, on_signal);
    const char *word = argc > 1 ? "other" : "word";
    capitalise(const_cast<char *>(word));
    std::puts(word);
    return 0;
}
