/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: printf %s is given a size_t length instead of the string
 * ub: yes
 * note: C++17 [library.c] takes the C library rules over; glibc prints '(null)' for a null %s argument, and the length is 0
 * ub-line: 17
 * twin: string-as-int.fixed.cpp
 */
#include <cstdio>
#include <cstring>

int main(int argc, char **)
{
    const char *word = argc > 1 ? "word" : "";
    std::size_t n = std::strlen(word);
    std::printf("[%s]\n", n);
    return 0;
}
