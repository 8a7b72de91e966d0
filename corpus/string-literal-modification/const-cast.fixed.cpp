/* ub-case
 * category: string-literal-modification
 * standard: C++17 [lex.string]/16
 * summary: the fixed twin of const-cast.cpp: the word is copied into an array first
 * ub: no
 * fixes: const-cast.cpp
 * fixed-line: 23, 31, 29, 30
 */
#include <csignal>
#include <cstdio>
#include <cstring>
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
    char word[8];
    std::strcpy(word, argc > 1 ? "other" : "word");
    capitalise(word);
    std::puts(word);
    return 0;
}
